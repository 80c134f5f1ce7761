"""A drop the top-hole sensor missed a few moves ago, put back where it happened.

When the sensor misses a drop, the game still waits for that player, so the next
moves are credited to the wrong players until the camera sees a colour the game cannot
explain. Moves are physical facts (which slide, which way) whoever made them; only whose
they were depends on the turns. So a missed drop ``at`` a point of the history is
checked by replaying the later moves after it: every one must still be legal, the
beams' landings must stay where they were seen, and the camera's colour must follow.
The engine never picks one: the candidates are offered to a person (``fusion``).

    >>> from table.passe_murailles import MoveBoard, MoveSlide, new_game
    >>> g = new_game()
    >>> _ = g.apply(MoveBoard(step=1))             # red
    >>> _ = g.apply(MoveSlide(slide=3, step=1))    # credited to blue: blue's drop was missed
    >>> g.current_player                           # so the game waits for red...
    'red'
    >>> found = earlier_drops(g, "blue", then_drop=4)    # ...when blue's peg shows in hole 5
    >>> [(d.at, d.column + 1) for d in found]      # (moves before it, top hole)
    [(2, 1), (2, 3), (2, 7), (1, 3), (0, 3)]
    >>> fixed = with_drop(g, EarlierDrop(at=1, column=2))
    >>> fixed.history, fixed.current_player
    ([MoveBoard(step=1), DropPeg(column=2), MoveSlide(slide=3, step=1)], 'blue')
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from table.passe_murailles import Action, DropPeg, Game

MAX_BACK = 8  # how many moves back a missed drop is looked for (a few turns: someone notices)


@dataclass(frozen=True)
class EarlierDrop:
    """A drop into top hole ``column`` after the first ``at`` actions of the history."""

    at: int
    column: int

    @property
    def key(self) -> str:
        return f"{self.at}:{self.column}"


def earlier_drops(game: Game, colour: str | None, *, then_drop: int | None = None, shows_at: int | None = None,
                  then: Action | None = None, lands_at: int | None = None, slide: int | None = None,
                  min_back: int = 0, max_back: int = MAX_BACK) -> list[EarlierDrop]:
    """Drops missed ``min_back``..``max_back`` actions ago (by whoever was to play then)
    that explain the camera's ``colour``: with the later actions replayed after it, ``colour`` is to play and may drop
    into ``then_drop`` (whose peg then shows in that hole), or ``colour`` shows down
    top hole ``shows_at``; or (``then``, no colour) a move the rules refuse now
    becomes legal; or (``lands_at``) its peg is the one a beam nobody expected saw
    land over that column, on the last move. ``slide``: the camera also read the colour at
    that depth (down ``shows_at``, or the drop into ``then_drop``). Not past a person's
    correction (it was made on the game as it stood)."""
    if then_drop is not None:
        then = DropPeg(then_drop)
    history = game.history
    landed = sorted([l.column for l in game.landings] + ([] if lands_at is None else [lands_at]))
    fixed = max((c["at"] for c in game.corrections), default=0)
    trial = copy.deepcopy(game)
    found: list[EarlierDrop] = []
    for back in range(0, min(max_back, len(history) - fixed) + 1):
        if back:
            trial.pop()
        if back < min_back or trial.is_over():
            continue
        at = len(history) - back
        for column in range(game.profile.columns):
            done = _replay(trial, [DropPeg(column), *history[at:]])
            if done == back + 1 and _explains(trial, colour, landed, then, shows_at, slide):
                found.append(EarlierDrop(at, column))
            for _ in range(done):
                trial.pop()
    return found


def with_drop(game: Game, drop: EarlierDrop) -> Game:
    """A copy of ``game`` with ``drop`` put in and the later actions replayed;
    ValueError if one of them can no longer be played."""
    history = game.history
    trial = copy.deepcopy(game)
    for _ in range(len(history) - drop.at):
        trial.pop()
    if _replay(trial, [DropPeg(drop.column), *history[drop.at:]]) != len(history) - drop.at + 1:
        raise ValueError("the moves since could not be replayed after that drop")
    return trial


def _replay(game: Game, actions: list[Action]) -> int:
    for done, action in enumerate(actions):
        if game.refusal(action) is not None:
            return done
        game.apply(action)
    return len(actions)


def _seen(game: Game, column: int, slide: int | None = None) -> str | None:
    """The colour seen down ``column`` (None if none, or not at ``slide`` when given)."""
    peg = game.frame.seen_from_top(column)
    view = None if peg is None else game.frame.peg(peg)
    return None if view is None or slide not in (None, view.slide) else view.colour


def _explains(game: Game, colour: str | None, landed: list[int], then: Action | None, shows_at: int | None,
              slide: int | None = None) -> bool:
    if sorted(l.column for l in game.landings) != landed:
        return False  # the beams saw the landings where the game had them
    if shows_at is not None and _seen(game, shows_at, slide) != colour:
        return False
    if then is None:
        return True
    dropping = isinstance(then, DropPeg) and colour is not None
    if game.is_over() or game.refusal(then) is not None or (dropping and game.current_player != colour):
        return False
    game.apply(then)
    shown = not dropping or _seen(game, then.column, slide) == colour
    game.pop()
    return shown
