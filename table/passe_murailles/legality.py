"""Why an action is refused, in a sentence each player can read (English and French).

:func:`refusal` is the single place the rules' restrictions live; ``Game.apply`` raises
what it returns and ``Game.legal_actions`` keeps the candidates it returns ``None`` for.

    >>> from table.passe_murailles import new_game
    >>> game = new_game()
    >>> _ = game.apply(MoveSlide(slide=3, step=+1))    # red moves slide 3; blue may not now
    >>> err = refusal(game, MoveSlide(slide=3, step=-1))
    >>> err.code
    'not_your_slide'
    >>> err.text("fr")
    'Rouge vient de déplacer la coulisse 3 : vous ne pouvez pas la déplacer à ce tour.'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from table.rules import IllegalAction

from .actions import DropPeg, MoveBoard, MoveSlide
from .profile import BOARD_POSITIONS, SLIDE_COUNT

if TYPE_CHECKING:
    from .game import Game

NAMES = {"red": ("Red", "Rouge"), "blue": ("Blue", "Bleu")}


def other(colour: str) -> str:
    return "blue" if colour == "red" else "red"


def refusal(game: Game, action: object) -> IllegalAction | None:
    """The reason ``game.current_player`` may not make ``action`` now, or None."""
    if game.is_over():
        return IllegalAction(
            "The game is over: no more moves.",
            "La partie est terminée : plus aucun coup.",
            code="game_over",
        )
    if isinstance(action, DropPeg):
        return _drop_refusal(game, action)
    if isinstance(action, MoveSlide):
        return _slide_refusal(game, action)
    if isinstance(action, MoveBoard):
        return _board_refusal(game, action)
    return IllegalAction(
        f"{action!r} is not a Passe-Murailles move: drop a peg, move a slide or move the board.",
        f"{action!r} n'est pas un coup de Passe-Murailles : posez un pion, déplacez une coulisse ou le plateau.",
        code="unknown_action",
    )


def _drop_refusal(game: Game, action: DropPeg) -> IllegalAction | None:
    column, frame = action.column, game.frame
    last = frame.columns - 1
    if not _is_int(column):
        return _not_a_number("column", "colonne", column)
    en, fr = NAMES[game.current_player]
    if game.in_hand()[game.current_player] == 0:
        return IllegalAction(
            f"{en} has no peg left in hand: move a slide or the board instead.",
            f"{fr} n'a plus de pion en main : déplacez plutôt une coulisse ou le plateau.",
            code="no_peg_in_hand",
        )
    if not 0 <= column <= last:
        return IllegalAction(
            f"Column {column} is outside the frame: drop into a hole between columns 0 and {last}.",
            f"La colonne {column} est hors du cadre : posez le pion dans un trou entre les colonnes 0 et {last}.",
            code="outside_window",
        )
    if not frame.has_hole(1, column):
        return IllegalAction(
            f"Slide 1 has no hole over column {column} right now.",
            f"La coulisse 1 n'a pas de trou au-dessus de la colonne {column} en ce moment.",
            code="no_hole",
        )
    if frame.peg_at(1, column) is not None:
        return IllegalAction(
            f"The hole of slide 1 over column {column} already holds a peg.",
            f"Le trou de la coulisse 1 au-dessus de la colonne {column} contient déjà un pion.",
            code="hole_taken",
        )
    return None


def _slide_refusal(game: Game, action: MoveSlide) -> IllegalAction | None:
    slide, step = action.slide, action.step
    if not _is_int(slide):
        return _not_a_number("slide", "coulisse", slide)
    if not 1 <= slide <= SLIDE_COUNT:
        return IllegalAction(
            f"There is no slide {slide}: slides are numbered 1 (top) to {SLIDE_COUNT} (bottom).",
            f"Il n'y a pas de coulisse {slide} : elles sont numérotées de 1 (en haut) à {SLIDE_COUNT} (en bas).",
            code="no_such_slide",
        )
    if step not in (1, -1) or not _is_int(step):
        return IllegalAction(
            f"A slide moves one notch at a time (step +1 or -1), not {step!r}.",
            f"Une coulisse avance d'une case à la fois (pas de +1 ou -1), pas {step!r}.",
            code="slide_step",
        )
    spec = game.profile.slide(slide)
    if not spec.low <= game.frame.offset(slide) + step <= spec.high:
        side_en, side_fr = ("right", "droite") if step > 0 else ("left", "gauche")
        return IllegalAction(
            f"Slide {slide} is already at its {side_en} end stop: it cannot move further {side_en}.",
            f"La coulisse {slide} est déjà en butée à {side_fr} : elle ne peut pas aller plus à {side_fr}.",
            code="slide_range",
        )
    opponent = other(game.current_player)
    previous = game.last_turn(opponent)
    if previous is not None and isinstance(previous.action, MoveSlide) and previous.action.slide == slide:
        en, fr = NAMES[opponent]
        return IllegalAction(
            f"{en} moved slide {slide} last turn: you may not move it now.",
            f"{fr} vient de déplacer la coulisse {slide} : vous ne pouvez pas la déplacer à ce tour.",
            code="not_your_slide",
        )
    return None


def _board_refusal(game: Game, action: MoveBoard) -> IllegalAction | None:
    step = action.step
    if step not in (1, -1) or not _is_int(step):
        return IllegalAction(
            f"The board moves one position at a time (step +1 or -1), not {step!r}.",
            f"Le plateau se déplace d'une position à la fois (pas de +1 ou -1), pas {step!r}.",
            code="board_step",
        )
    here = game.frame.board_position
    target = here + step
    if target not in BOARD_POSITIONS:
        return IllegalAction(
            f"The board is already in position {here}: it cannot move further that way.",
            f"Le plateau est déjà en position {here} : il ne peut pas aller plus loin de ce côté.",
            code="board_range",
        )
    opponent = other(game.current_player)
    previous = game.last_turn(opponent)
    if previous is not None and previous.board_from == target:
        en, fr = NAMES[opponent]
        return IllegalAction(
            f"{en} moved the board from position {target} last turn: you may not move it back there.",
            f"{fr} vient de déplacer le plateau depuis la position {target} : vous ne pouvez pas l'y ramener.",
            code="board_back",
        )
    return None


def _not_a_number(en_name: str, fr_name: str, value: object) -> IllegalAction:
    return IllegalAction(
        f"The {en_name} must be a whole number, not {value!r}.",
        f"La {fr_name} doit être un nombre entier, pas {value!r}.",
        code="bad_action",
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
