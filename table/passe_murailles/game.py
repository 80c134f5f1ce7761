"""Passe-Murailles turns, restrictions, lost turns, scores and the end of the game.

    >>> g = new_game()                         # shipped profile, red first
    >>> out = g.apply(DropPeg(column=g.legal_actions()[0].column))
    >>> out.next_player, g.scores(), g.in_hand()
    ('blue', {'red': 0, 'blue': 0}, {'red': 7, 'blue': 8})

Rules as ruled in RULINGS.md section 4. Decisions on points the rulings leave open:

* ``Outcome.lost_turn`` names the player who *incurred* a lost turn with this action,
  even when it was already paid within the same action (both players owing).
* The move that ends the game is resolved completely: every peg that lands during it
  scores, including the other player's (the pegs fall together; the end is checked once
  the frame is still). If that move empties both players' frames, the game ends the same.
* A player who owes a lost turn when the game ends simply never pays it.
* A player's restriction looks at the opponent's last action, however long ago it was
  (a skipped turn is not a turn), so after a lost turn the restriction still holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .actions import Action, DropPeg, MoveBoard, MoveSlide, action_from_dict
from .events import Event, Fell, GameOver, Landed, Landing, LostTurn, PushedOff, Skipped
from .frame import COLOURS, FRAME, HAND, Frame, PegView
from .legality import other, refusal
from .profile import Profile, load_profile

GAME_NAME = "passe-murailles"


@dataclass(frozen=True)
class LastTurn:
    """A player's last action actually taken, and where the board was before it."""

    action: Action
    board_from: int | None = None  # set only for a MoveBoard


@dataclass
class Outcome:
    """What one ``apply`` did: who acted, the events in order, and whose turn it is."""

    player: str
    action: Action
    events: list[Event] = field(default_factory=list)
    landings: list[Landing] = field(default_factory=list)
    pushed_off: list[str] = field(default_factory=list)
    lost_turn: str | None = None
    skipped: list[str] = field(default_factory=list)
    next_player: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "action": self.action.to_dict(),
            "events": [e.to_dict() for e in self.events],
            "landings": [l.to_dict() for l in self.landings],
            "pushed_off": list(self.pushed_off),
            "lost_turn": self.lost_turn,
            "skipped": list(self.skipped),
            "next_player": self.next_player,
        }


class Game:
    """One game of Passe-Murailles between red and blue.

        >>> g = Game(profile=None, first="blue")
        >>> g.apply(MoveBoard(step=-1)).next_player
        'red'
    """

    def __init__(self, profile: Profile | str | dict | None = None, first: str = "red"):
        if first not in COLOURS:
            raise ValueError(f"first must be 'red' or 'blue', not {first!r}")
        self.profile = load_profile(profile)
        self.first = first
        self._frame = Frame(self.profile)
        self._current: str | None = first
        self._owes = {c: False for c in COLOURS}
        self._last_turn: dict[str, LastTurn | None] = {c: None for c in COLOURS}
        self._history: list[Action] = []
        self._landings: list[Landing] = []
        # People's corrections, each with ``at`` = how many actions preceded it.
        self._corrections: list[dict[str, Any]] = []
        # One snapshot per action, taken just before it: pop() restores it in constant time.
        self._undo: list[tuple] = []

    # ----------------------------------------------------------------- reading
    @property
    def frame(self) -> Frame:
        """The physical frame (read it; change it only through ``apply``)."""
        return self._frame

    @property
    def history(self) -> list[Action]:
        return list(self._history)

    @property
    def landings(self) -> list[Landing]:
        return list(self._landings)

    @property
    def current_player(self) -> str | None:
        return self._current

    def last_turn(self, colour: str) -> LastTurn | None:
        return self._last_turn[colour]

    def owes_lost_turn(self) -> dict[str, bool]:
        return dict(self._owes)

    def scores(self) -> dict[str, int]:
        totals = {c: 0 for c in COLOURS}
        for landing in self._landings:
            if landing.scored:
                totals[landing.colour] += landing.points
        return totals

    def in_hand(self) -> dict[str, int]:
        return {c: self._frame.count(c, HAND) for c in COLOURS}

    def pegs(self) -> list[PegView]:
        return self._frame.pegs()

    def is_over(self) -> bool:
        return self._current is None

    def winners(self) -> list[str]:
        if not self.is_over():
            return []
        scores = self.scores()
        best = max(scores.values())
        return [c for c in COLOURS if scores[c] == best]

    def legal_actions(self) -> list[Action]:
        """Every action the current player may make: drops by column, then slides 1-6
        (left before right), then the board (towards 1 before towards 3)."""
        if self.is_over():
            return []
        candidates: list[Action] = [DropPeg(c) for c in self._frame.drop_columns()]
        candidates += [MoveSlide(s, step) for s in range(1, 7) for step in (-1, 1)]
        candidates += [MoveBoard(-1), MoveBoard(1)]
        return [a for a in candidates if refusal(self, a) is None]

    def refusal(self, action: object):
        """The :class:`IllegalAction` ``apply`` would raise for ``action``, or None."""
        return refusal(self, action)

    # ----------------------------------------------------------------- playing
    def apply(self, action: Action) -> Outcome:
        """Play ``action`` for the current player; raises IllegalAction (nothing changed)."""
        problem = refusal(self, action)
        if problem is not None:
            raise problem
        player = self._current
        self._undo.append(self._snapshot())
        outcome = Outcome(player=player, action=action)
        board_from = None
        if isinstance(action, DropPeg):
            peg = self._frame.next_in_hand(player)
            events = self._frame.drop(peg, action.column)
            # A peg reaching the board during its own drop scores nothing.
            events = [replace(e, scored=False) if isinstance(e, Landed) and e.peg == peg else e for e in events]
            fell_on = any(isinstance(e, Fell) and e.peg == peg for e in events)
        elif isinstance(action, MoveSlide):
            events = self._frame.move_slide(action.slide, action.step)
            fell_on = False
        else:
            board_from = self._frame.board_position
            events = self._frame.move_board(action.step)
            fell_on = False

        self._history.append(action)
        self._last_turn[player] = LastTurn(action, board_from)
        for event in events:
            if isinstance(event, Landed):
                outcome.landings.append(Landing.from_event(event))
            elif isinstance(event, PushedOff):
                outcome.pushed_off.append(event.peg)
        self._landings.extend(outcome.landings)
        outcome.events = events

        if self._someone_finished():
            self._current = None
            self._owes = {c: False for c in COLOURS}
            events.append(GameOver(self.scores(), self.winners()))
            return outcome

        if fell_on:
            self._owes[player] = True
            outcome.lost_turn = player
            events.append(LostTurn(player))
        candidate = other(player)
        while self._owes[candidate]:  # at most twice: each pass pays one debt
            self._owes[candidate] = False
            outcome.skipped.append(candidate)
            events.append(Skipped(candidate))
            candidate = other(candidate)
        self._current = outcome.next_player = candidate
        return outcome

    def correct(self, peg: str, column: int | None, points: int | None = None) -> list[Landing]:
        """Settle a disagreement between the sensors and the physics the way a person
        saw it: ``peg`` reached the board over ``column`` scoring ``points`` (default:
        the section under it now), or with ``column`` None it did not reach the board
        and is out of play on the table, scoring nothing. A landing keeps its
        ``scored`` flag when it only moves column. Pegs that were resting on a peg
        taken out of the frame fall and score; their landings are returned.
        Turns are not changed, except that the game ends if the correction leaves a
        player with no peg in hand or frame. Raises :class:`PhysicsError` (nothing
        changed).

            >>> g = new_game()
            >>> _ = g.apply(DropPeg(column=2))      # red-1 rests on slide 2
            >>> g.correct("red-1", None)          # the beam saw no red-1: no points
            []
            >>> g.frame.peg("red-1").where, g.scores()
            ('table', {'red': 0, 'blue': 0})
        """
        old = next((l for l in self._landings if l.peg == peg), None)
        events = self._frame.take_out(peg, column=column, points=points)
        if old is not None:
            self._landings.remove(old)
        if column is not None:
            view = self._frame.peg(peg)
            self._landings.append(Landing(peg, view.colour, column, view.points, old.scored if old else True))
        follow = [Landing.from_event(e) for e in events if isinstance(e, Landed)]
        self._landings.extend(follow)
        self._corrections.append({"at": len(self._history), "peg": peg, "column": column, "points": points})
        if self._current is not None and self._someone_finished():
            self._current = None
            self._owes = {c: False for c in COLOURS}
        return follow

    @property
    def corrections(self) -> list[dict[str, Any]]:
        return [dict(c) for c in self._corrections]

    def _someone_finished(self) -> bool:
        return any(
            self._frame.count(c, HAND) + self._frame.count(c, FRAME) == 0 for c in COLOURS
        )

    def push(self, action: Action) -> Outcome:
        """Same as :meth:`apply` (the name search code pairs with :meth:`pop`)."""
        return self.apply(action)

    def pop(self) -> Action:
        """Undo the last action, with any correction made after it, and return it.
        Constant time: it restores the snapshot ``apply`` took, nothing is replayed."""
        if not self._history:
            raise IndexError("no action to undo: the game has not started")
        undone = self._history.pop()
        frame, self._current, owes, last, landings = self._undo.pop()
        self._frame.restore(frame)
        self._owes = dict(zip(COLOURS, owes))
        self._last_turn = dict(zip(COLOURS, last))
        self._landings = list(landings)
        done = len(self._history)
        while self._corrections and self._corrections[-1]["at"] > done:
            self._corrections.pop()
        return undone

    def _snapshot(self) -> tuple:
        # Sizes bounded by the profile (pegs, landings), not by the game's length.
        return (
            self._frame.snapshot(), self._current, tuple(self._owes[c] for c in COLOURS),
            tuple(self._last_turn[c] for c in COLOURS), tuple(self._landings),
        )

    # ----------------------------------------------------------------- saving
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready state: the profile, who began and the history are enough to
        rebuild it; the rest is there for readers (dashboard, logs) and is checked."""
        return {
            "game": GAME_NAME,
            "profile": self.profile.to_dict(),
            "first": self.first,
            "history": [a.to_dict() for a in self._history],
            "current_player": self._current,
            "scores": self.scores(),
            "in_hand": self.in_hand(),
            "owes_lost_turn": self.owes_lost_turn(),
            "frame": self._frame.to_dict(include_profile=False),
            "landings": [l.to_dict() for l in self._landings],
            "winners": self.winners(),
            "corrections": self.corrections,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        """Rebuild a game by replaying its history; ValueError if the saved state
        disagrees with what the history gives (a corrupt or foreign save)."""
        if not isinstance(d, dict) or d.get("game") != GAME_NAME:
            raise ValueError(f"not a saved {GAME_NAME} game (game = {d.get('game') if isinstance(d, dict) else d!r})")
        missing = [k for k in ("profile", "first", "history") if k not in d]
        if missing:
            raise ValueError(f"saved game is missing {', '.join(missing)}")
        game = cls(d["profile"], d["first"])
        corrections = sorted(d.get("corrections") or [], key=lambda c: c.get("at", 0))
        for number, raw in enumerate(d["history"], start=1):
            game._apply_corrections(corrections, number - 1)
            action = action_from_dict(raw)
            problem = game.refusal(action)
            if problem is not None:
                raise ValueError(f"saved history action {number} ({raw}) is illegal: {problem.en}")
            game.apply(action)
        game._apply_corrections(corrections, len(d["history"]))
        rebuilt = game.to_dict()
        differing = sorted(k for k in d if k in rebuilt and d[k] != rebuilt[k])
        if differing:
            raise ValueError(f"saved game disagrees with its history on: {', '.join(differing)}")
        return game


    def _apply_corrections(self, corrections: list[dict[str, Any]], done: int) -> None:
        while corrections and corrections[0].get("at", 0) <= done:
            c = corrections.pop(0)
            try:
                self.correct(c["peg"], c["column"], c.get("points"))
            except (KeyError, ValueError) as exc:
                raise ValueError(f"saved correction {c} cannot be applied: {exc}") from None


def new_game(profile: Profile | str | dict | None = None, first: str = "red") -> Game:
    """Start a game: ``profile`` is None (shipped default), a TOML path or a dict."""
    return Game(profile, first)
