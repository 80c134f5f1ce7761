"""One feed line per PtiPassPass event, in French or English.

    >>> describe({"type": "colour_announced", "seat": 0, "colour": "green", "cup": (1, 2)}, "en")
    'Player 1 announces green.'
    >>> describe({"type": "colour_announced", "seat": 0, "colour": "green", "cup": (1, 2)}, "fr")
    'Joueur 1 annonce vert.'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from table.ptipasspass.tokens import COLOUR_FR


def au_tour(name: str) -> str:
    """"Au tour de …" as French says it: elided before a vowel, "du joueur N" for a seat
    without a name.

    >>> au_tour("Léa"), au_tour("Ana"), au_tour("Joueur 4"), au_tour("Hugo")
    ('Au tour de Léa', "Au tour d'Ana", 'Au tour du joueur 4', "Au tour d'Hugo")
    """
    if name.startswith("Joueur ") and name[7:].isdigit():
        return f"Au tour du joueur {name[7:]}"
    vowel = name[:1].lower() in "aeiouyéèêàâîïôöûüh" and name[:1] != ""
    return f"Au tour d'{name}" if vowel else f"Au tour de {name}"


def describe(event: dict[str, Any], lang: str = "fr", names: Sequence[str] | None = None) -> str:
    """The feed line for ``event``; ``names`` gives player names by seat (else "Player N")."""
    fr = lang == "fr"

    def who(seat: int | None) -> str:
        if seat is None:
            return "?"
        if names is not None and 0 <= seat < len(names):
            return names[seat]
        return f"{'Joueur' if fr else 'Player'} {seat + 1}"

    def colour(c: str | None) -> str:
        if c is None:
            return "?"
        return COLOUR_FR.get(c, c) if fr else c

    def tokens(ts: Sequence[str]) -> str:
        if not ts:
            return "rien" if fr else "nothing"
        return ", ".join(colour(t) for t in ts)

    def cup(cell: Sequence[int] | None) -> str:
        if cell is None:
            return "?"
        r, c = cell
        return f"{'rangée' if fr else 'row'} {r + 1} {'colonne' if fr else 'column'} {c + 1}"

    def cups(cells: Sequence[Sequence[int]]) -> str:
        return " / ".join(cup(c) for c in cells)

    e = event
    lines: dict[str, Callable[[], tuple[str, str]]] = {
        "cup_named": lambda: (f"{who(e['seat'])} holds a token over the cup at {cup(e['cup'])}.",
                              f"{who(e['seat'])} tient un jeton au-dessus du gobelet {cup(e['cup'])}."),
        "doublon_called": lambda: (f"{who(e['seat'])} calls Doublon!", f"{who(e['seat'])} dit « Doublon ! »"),
        "colour_announced": lambda: (f"{who(e['seat'])} announces {colour(e['colour'])}.",
                                     f"{who(e['seat'])} annonce {colour(e['colour'])}."),
        "menteur_called": lambda: (f"{who(e['seat'])} calls Menteur!", f"{who(e['seat'])} dit « Menteur ! »"),
        "no_call": lambda: ("Nobody calls.", "Personne ne conteste."),
        "token_placed": lambda: (f"{who(e['seat'])} drops the token into the cup at {cup(e['cup'])}.",
                                 f"{who(e['seat'])} met le jeton dans le gobelet {cup(e['cup'])}."),
        "awaiting_lift": lambda: (f"Enter what the lifted cup(s) show: {cups(e['cups'])}.",
                                  f"Saisissez ce que montrent les gobelets soulevés : {cups(e['cups'])}."),
        "awaiting_token": lambda: (f"Enter the token {who(e['seat'])} shows.",
                                   f"Saisissez le jeton que montre {who(e['seat'])}."),
        "cup_lifted": lambda: (f"The cup at {cup(e['cup'])} shows {tokens(e['tokens'])}.",
                               f"Le gobelet {cup(e['cup'])} montre {tokens(e['tokens'])}."),
        "doublon_resolved": lambda: _doublon(e, who, tokens),
        "menteur_resolved": lambda: _menteur(e, who, colour),
        "cups_swapped": lambda: (f"{who(e['seat'])} swaps the cups at {cup(e['a'])} and {cup(e['b'])}.",
                                 f"{who(e['seat'])} intervertit les gobelets {cup(e['a'])} et {cup(e['b'])}."),
        "reveal_started": lambda: (f"{who(e['seat'])} lifts {cups(e['line'])}.",
                                   f"{who(e['seat'])} soulève {cups(e['line'])}."),
        "reveal": lambda: ((f"{who(e['seat'])} reveals a set: {tokens(e['picks'])}!",
                            f"{who(e['seat'])} révèle une série : {tokens(e['picks'])} !") if e["won"] else
                           (f"{who(e['seat'])} reveals no set; the cups go back.",
                            f"{who(e['seat'])} ne révèle pas de série ; les gobelets sont reposés.")),
        "victory_token": lambda: (f"{who(e['seat'])} takes a victory token ({e['total']}).",
                                  f"{who(e['seat'])} prend un jeton de victoire ({e['total']})."),
        "round_won": lambda: (f"{who(e['seat'])} wins round {e['round']}.",
                              f"{who(e['seat'])} remporte la manche {e['round']}."),
        "game_won": lambda: (f"{who(e['seat'])} wins the game!", f"{who(e['seat'])} gagne la partie !"),
        "round_blocked": lambda: ("Every hand is empty and no line can show three tokens: the round is replayed.",
                                  "Toutes les mains sont vides et aucun alignement ne peut montrer trois "
                                  "jetons : la manche est rejouée."),
        "round_abandoned": lambda: ("The table replays the round.", "La table rejoue la manche."),
        "round_started": lambda: (f"Round {e['round']}: {who(e['first'])} starts.",
                                  f"Manche {e['round']} : {who(e['first'])} commence."),
        "turn_started": lambda: ((f"{who(e['seat'])}'s turn: place a token.",
                                  f"{au_tour(who(e['seat']))} : poser un jeton.")
                                 if e["kind"] == "place" else
                                 (f"{who(e['seat'])}'s turn: reveal.", f"{au_tour(who(e['seat']))} : révéler.")),
    }
    make = lines.get(e.get("type", ""))
    if make is None:
        return str(e.get("type", "?"))
    en_text, fr_text = make()
    return fr_text if fr else en_text


def _doublon(e: dict[str, Any], who: Callable, tokens: Callable) -> tuple[str, str]:
    if e["cup_held_tokens"]:
        return (f"Doublon! was right: {who(e['active'])} takes back {tokens(e['tokens'])}.",
                f"Doublon ! était juste : {who(e['active'])} reprend {tokens(e['tokens'])}.")
    return (f"The cup was empty: {who(e['accuser'])} takes {who(e['active'])}'s token.",
            f"Le gobelet était vide : {who(e['accuser'])} prend le jeton de {who(e['active'])}.")


def _menteur(e: dict[str, Any], who: Callable, colour: Callable) -> tuple[str, str]:
    if e["lied"]:
        return (f"{who(e['active'])} lied (it is {colour(e['shown'])}) and keeps the token.",
                f"{who(e['active'])} a menti (c'est {colour(e['shown'])}) et garde le jeton.")
    return (f"{who(e['active'])} told the truth: {who(e['accuser'])} takes the {colour(e['shown'])} token.",
            f"{who(e['active'])} a dit vrai : {who(e['accuser'])} prend le jeton {colour(e['shown'])}.")
