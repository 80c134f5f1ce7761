"""The bilingual :class:`IllegalAction` sentences of the Pass Pass engine, in one place.

    >>> exc = not_your_turn(2, "play")
    >>> exc.code, exc.fr
    ('not_your_turn', "Ce n'est pas au joueur 3 de jouer maintenant.")

Seats are 0-based in the API and 1-based in sentences ("player 1" is seat 0).
"""

from __future__ import annotations

from collections.abc import Iterable

from table.pass_pass.cards import Card
from table.rules import IllegalAction


def player(seat: int, lang: str) -> str:
    return f"joueur {seat + 1}" if lang == "fr" else f"player {seat + 1}"


def _cards(cards: Iterable[Card], lang: str) -> str:
    return ", ".join(c.name(lang) for c in cards)


def awaiting(phase: str, to_act: int | None, lang: str) -> str:
    """What the game is waiting for, as a clause."""
    if phase == "play":
        if lang == "fr":
            return f"le {player(to_act, 'fr')} doit jouer une carte"
        return f"{player(to_act, 'en')} must play a card"
    if phase == "first_take":
        return (f"le {player(to_act, 'fr')}, premier gagnant du pli, doit prendre une carte" if lang == "fr"
                else f"{player(to_act, 'en')}, the trick's first winner, must take a card")
    if phase == "second_take":
        return (f"le {player(to_act, 'fr')}, second gagnant, doit prendre les cartes les plus faibles" if lang == "fr"
                else f"{player(to_act, 'en')}, the second winner, must take the lowest cards")
    if phase == "record":
        return ("chaque équipe doit choisir le joueur dont elle marque le score" if lang == "fr"
                else "each team must choose the member whose score it records")
    return "la partie est terminée" if lang == "fr" else "the game is over"


def game_over() -> IllegalAction:
    return IllegalAction("The game is over.", "La partie est terminée.", code="game_over")


def wrong_phase(phase: str, to_act: int | None) -> IllegalAction:
    return IllegalAction(
        f"Not now: {awaiting(phase, to_act, 'en')}.",
        f"Pas maintenant : {awaiting(phase, to_act, 'fr')}.",
        code="wrong_phase",
    )


def not_your_turn(seat: int, phase: str) -> IllegalAction:
    verb_en = "play" if phase == "play" else "take cards"
    verb_fr = "jouer" if phase == "play" else "prendre des cartes"
    return IllegalAction(
        f"It is not {player(seat, 'en')}'s turn to {verb_en} now.",
        f"Ce n'est pas au {player(seat, 'fr')} de {verb_fr} maintenant.",
        code="not_your_turn",
    )


def bad_seat(seat: object, players: int) -> IllegalAction:
    return IllegalAction(
        f"There is no seat {seat!r}: seats are numbered 0 to {players - 1}.",
        f"Il n'y a pas de place {seat!r} : les places vont de 0 à {players - 1}.",
        code="bad_seat",
    )


def bad_team(team: object, teams: int) -> IllegalAction:
    return IllegalAction(
        f"There is no team {team!r}: teams are numbered 0 to {teams - 1}.",
        f"Il n'y a pas d'équipe {team!r} : les équipes vont de 0 à {teams - 1}.",
        code="bad_team",
    )


def not_in_hand(seat: int, card: Card) -> IllegalAction:
    return IllegalAction(
        f"The {card.name('en')} is not in {player(seat, 'en')}'s hand.",
        f"Le {card.name('fr')} n'est pas dans la main du {player(seat, 'fr')}.",
        code="card_not_in_hand",
    )


def card_seen(card: Card) -> IllegalAction:
    return IllegalAction(
        f"The {card.name('en')} has already been played this round: each card exists once.",
        f"Le {card.name('fr')} a déjà été joué pendant cette manche : chaque carte n'existe qu'une fois.",
        code="card_seen",
    )


def not_on_table(card: Card) -> IllegalAction:
    return IllegalAction(
        f"The {card.name('en')} is not among the cards of this trick.",
        f"Le {card.name('fr')} ne fait pas partie des cartes de ce pli.",
        code="card_not_on_table",
    )


def not_lowest(options: list[tuple[Card, ...]]) -> IllegalAction:
    choices_en = " or ".join(f"({_cards(o, 'en')})" for o in options)
    choices_fr = " ou ".join(f"({_cards(o, 'fr')})" for o in options)
    return IllegalAction(
        f"The second winner takes the two lowest remaining cards: {choices_en}.",
        f"Le second gagnant prend les deux cartes restantes les plus faibles : {choices_fr}.",
        code="not_lowest",
    )


def already_recorded(team: int) -> IllegalAction:
    return IllegalAction(
        f"Team {team + 1} has already recorded its score for this round.",
        f"L'équipe {team + 1} a déjà marqué son score pour cette manche.",
        code="already_recorded",
    )


def not_member(seat: int, team: int) -> IllegalAction:
    return IllegalAction(
        f"{player(seat, 'en').capitalize()} is not in team {team + 1}.",
        f"Le {player(seat, 'fr')} n'est pas dans l'équipe {team + 1}.",
        code="not_member",
    )


def unknown_action(action: object) -> IllegalAction:
    return IllegalAction(
        f"Pass Pass does not know the action {action!r}.",
        f"Pass Pass ne connaît pas l'action {action!r}.",
        code="unknown_action",
    )
