"""Actions in words, in English and French, for the bot's requests and the hints.

    >>> from table.passe_murailles import MoveBoard
    >>> ask(MoveSlide(4, +1))["fr"]
    'déplacez la coulisse 4 vers la droite'
    >>> doing(MoveBoard(-1), board=2)["en"]
    'moving the board to position 1'
    >>> ask(DropPeg(0), colour="red")["en"]
    'drop a red peg into column 1'

Columns are counted from 1 for people (the engine counts from 0), as on the page.
"""

from __future__ import annotations

from .actions import Action, DropPeg, MoveSlide

COLOUR_WORDS = {"red": ("red", "rouge"), "blue": ("blue", "bleu")}
SIDES = {1: ("right", "droite"), -1: ("left", "gauche")}


def ask(action: Action, colour: str | None = None, board: int | None = None) -> dict[str, str]:
    """The request a person reads (imperative): "move slide 4 to the right"."""
    if isinstance(action, DropPeg):
        en, fr = COLOUR_WORDS.get(colour, ("", ""))
        peg_en = f"a {en} peg" if en else "a peg"
        peg_fr = f"un pion {fr}" if fr else "un pion"
        return {"en": f"drop {peg_en} into column {action.column + 1}",
                "fr": f"posez {peg_fr} dans la colonne {action.column + 1}"}
    if isinstance(action, MoveSlide):
        en, fr = SIDES[action.step]
        return {"en": f"move slide {action.slide} to the {en}",
                "fr": f"déplacez la coulisse {action.slide} vers la {fr}"}
    return _board(action.step, board, "move", "déplacez")


def doing(action: Action, board: int | None = None) -> dict[str, str]:
    """The action as the subject of a sentence: "moving slide 3 to the left" / "déplacer ..."."""
    if isinstance(action, DropPeg):
        return {"en": f"dropping into column {action.column + 1}",
                "fr": f"poser dans la colonne {action.column + 1}"}
    if isinstance(action, MoveSlide):
        en, fr = SIDES[action.step]
        return {"en": f"moving slide {action.slide} to the {en}",
                "fr": f"déplacer la coulisse {action.slide} vers la {fr}"}
    return _board(action.step, board, "moving", "déplacer")


def colour_name(colour: str) -> dict[str, str]:
    en, fr = COLOUR_WORDS[colour]
    return {"en": en, "fr": fr}


def _board(step: int, board: int | None, verb_en: str, verb_fr: str) -> dict[str, str]:
    if board is None:
        towards = 3 if step > 0 else 1
        return {"en": f"{verb_en} the board towards position {towards}",
                "fr": f"{verb_fr} le plateau vers la position {towards}"}
    return {"en": f"{verb_en} the board to position {board + step}",
            "fr": f"{verb_fr} le plateau en position {board + step}"}
