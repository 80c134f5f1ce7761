"""Bilingual feed lines for the events of a Passe Éclair :class:`~.actions.Outcome`.

    >>> describe({"type": "penalty_draw", "seat": 1, "card": "dog", "cards_left": 4}, "en")
    'Seat 2 draws a penalty card (4 in hand).'

``names`` optionally maps seats to player names; hidden cards (penalty draws, hands)
are never shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .cards import card_label

Event = dict[str, Any]


def _seat(seat: int | None, lang: str, names: Sequence[str] | None) -> str:
    if seat is None:
        return "l'entraîneur" if lang == "fr" else "the coach"
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"Joueur {seat + 1}" if lang == "fr" else f"Seat {seat + 1}"


def _seats(seats: Sequence[int], lang: str, names: Sequence[str] | None) -> str:
    return ", ".join(_seat(s, lang, names) for s in seats)


def _card(card: str | None, lang: str) -> str:
    return card_label(card, lang) if card else "—"


def _placed(e: Event, lang: str, n: Sequence[str] | None) -> str:
    who, card, on = _seat(e["seat"], lang, n), _card(e["card"], lang), _card(e["on"], lang)
    if lang == "fr":
        line = f"{who} pose {card} sur {on}"
        line += " (la carte visée était déjà couverte)" if e.get("overtaken") else ""
        return line + (f" — MAUVAISE CARTE : {e['wrong']['fr']}" if e.get("wrong") else ".")
    line = f"{who} places {card} on {on}"
    line += " (the card aimed at was already covered)" if e.get("overtaken") else ""
    return line + (f" — WRONG CARD: {e['wrong']['en']}" if e.get("wrong") else ".")


def _returned(e: Event, lang: str, n: Sequence[str] | None) -> str:
    who, card = _seat(e["seat"], lang, n), _card(e["card"], lang)
    if e["reason"] == "spotted":
        return (f"Mauvaise carte repérée : {who} reprend {card}." if lang == "fr"
                else f"Wrong card spotted: {who} takes {card} back.")
    return (f"Cartes posées ensemble : {who} reprend {card}, seule celle du dessous reste." if lang == "fr"
            else f"Cards landed together: {who} takes {card} back, only the lower one stays.")


def _n(count: int, one: str, many: str, lang: str, *, lead: bool = True) -> str:
    """A count with its word, singular or plural as each language wants (French: 0 and 1
    singular); ``lead=False`` puts the number after the article ("les 3 cartes").

    >>> _n(1, "carte", "cartes", "fr"), _n(0, "carte", "cartes", "fr"), _n(0, "card", "cards", "en")
    ('1 carte', '0 carte', '0 cards')
    >>> _n(3, "la carte", "les cartes", "fr", lead=False), _n(1, "the card", "the cards", "en", lead=False)
    ('les 3 cartes', 'the card')
    """
    single = abs(count) < 2 if lang == "fr" else abs(count) == 1
    word = one if single else many
    if lead:
        return f"{count} {word}"
    if single and count == 1:
        return word
    article, _, noun = word.partition(" ")
    return f"{article} {count} {noun}"


def _pile_to_box(e: Event, lang: str, n: Sequence[str] | None) -> str:
    return (f"Le tas du milieu ({_n(e['count'], 'carte', 'cartes', lang)}) va dans la boîte." if lang == "fr"
            else f"The centre pile ({_n(e['count'], 'card', 'cards', lang)}) goes to the box.")


def _start_card(e: Event, lang: str, n: Sequence[str] | None) -> str:
    who, card = _seat(e["seat"], lang, n), _card(e["card"], lang)
    skipped = ", ".join(_card(c, lang) for c in e.get("skipped", []))
    if lang == "fr":
        return f"{who} retourne la carte de départ : {card}" + (f" (après {skipped})." if skipped else ".")
    return f"{who} turns the start card: {card}" + (f" (after {skipped})." if skipped else ".")


def _michi_swap(e: Event, lang: str, n: Sequence[str] | None) -> str:
    who, other = _seat(e["seat"], lang, n), _seat(e["target"], lang, n)
    return (f"« Le Gros Michi ! » {who} échange ses cartes avec {other}." if lang == "fr"
            else f"\"Gros Michi!\" {who} swaps hands with {other}.")


def _round_won(e: Event, lang: str, n: Sequence[str] | None) -> str:
    who = _seat(e["seat"], lang, n)
    return (f"{who} a posé sa dernière carte et gagne le tour {e['round']} : un jeton de victoire." if lang == "fr"
            else f"{who} placed their last card and wins round {e['round']}: a victory token.")


def _consolation(e: Event, lang: str, n: Sequence[str] | None) -> str:
    who = _seat(e["seat"], lang, n)
    return (f"{who} garde le plus de cartes ({e['cards']}) et prend un jeton de consolation." if lang == "fr"
            else f"{who} kept the most cards ({e['cards']}) and takes a consolation token.")


def _no_consolation(e: Event, lang: str, n: Sequence[str] | None) -> str:
    if e["reason"] == "tie":
        return (f"Égalité pour le plus de cartes ({_seats(e['seats'], lang, n)}) : pas de jeton de consolation."
                if lang == "fr" else
                f"Tie for most cards ({_seats(e['seats'], lang, n)}): no consolation token.")
    return ("Plus de jeton de consolation." if lang == "fr" else "No consolation token left.")


def _spent(e: Event, lang: str, n: Sequence[str] | None) -> str:
    who, card = _seat(e["seat"], lang, n), _card(e["card"], lang)
    return (f"{who} utilise un jeton de consolation et met {card} dans la boîte." if lang == "fr"
            else f"{who} spends a consolation token and puts {card} in the box.")


def _blocked(e: Event, lang: str, n: Sequence[str] | None) -> str:
    line = ("Personne ne peut jouer : l'entraîneur retourne une nouvelle carte." if lang == "fr"
            else "No one can play: the coach turns a new card.")
    if e.get("could_play"):
        line += (f" (Pourtant {_seats(e['could_play'], lang, n)} pouvait jouer.)" if lang == "fr"
                 else f" (Yet {_seats(e['could_play'], lang, n)} could play.)")
    return line


def _game_over(e: Event, lang: str, n: Sequence[str] | None) -> str:
    who, points = _seats(e["winners"], lang, n), max(e["goal_points"])
    return (f"Fin de la partie : {who} gagne avec {_n(points, 'point de but', 'points de but', lang)}." if lang == "fr"
            else f"Game over: {who} wins with {_n(points, 'goal point', 'goal points', lang)}.")


_LINES: dict[str, Callable[[Event, str, Sequence[str] | None], str]] = {
    "placed": _placed, "returned_to_hand": _returned, "pile_to_box": _pile_to_box, "start_card": _start_card,
    "michi_swap": _michi_swap, "round_won": _round_won, "consolation": _consolation,
    "no_consolation": _no_consolation, "consolation_spent": _spent, "blocked": _blocked, "game_over": _game_over,
    "penalty_draw": lambda e, lang, n: (
        f"{_seat(e['seat'], lang, n)} pioche une carte de pénalité ({e['cards_left']} en main)." if lang == "fr"
        else f"{_seat(e['seat'], lang, n)} draws a penalty card ({e['cards_left']} in hand)."),
    "reshuffle": lambda e, lang, n: (
        f"Pioche épuisée : {_n(e['count'], 'la carte', 'les cartes', lang, lead=False)} de la boîte "
        "forment une nouvelle pioche." if lang == "fr"
        else f"Draw pile empty: {_n(e['count'], 'the card', 'the cards', lang, lead=False)} of the box "
        "make a new draw pile."),
    "hands_to_box": lambda e, lang, n: (
        f"Les cartes encore en main ({e['count']}) vont dans la boîte." if lang == "fr"
        else f"The cards still in hand ({e['count']}) go to the box."),
    "deal": lambda e, lang, n: (
        f"Tour {e['round']} : {_seat(e['coach'], lang, n)} est l'entraîneur et distribue 7 cartes." if lang == "fr"
        else f"Round {e['round']}: {_seat(e['coach'], lang, n)} is the coach and deals 7 cards each."),
    "round_started": lambda e, lang, n: (
        "« Maintenant c'est parti ! »" if lang == "fr" else "\"Now we're off!\""),
}

EVENT_TYPES = tuple(_LINES)


def describe(event: Event, lang: str = "fr", names: Sequence[str] | None = None) -> str:
    """One feed line for ``event`` in ``lang`` ("fr" or "en")."""
    line = _LINES.get(event.get("type", ""))
    if line is None:
        raise ValueError(f"unknown Passe Éclair event type {event.get('type')!r}")
    return line(event, "fr" if lang == "fr" else "en", names)
