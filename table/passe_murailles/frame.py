"""The physical slide frame, with no rules: where the slides, the board and the pegs are.

A :class:`Frame` does what the real frame does when a hand moves something, and
reports it as events. It knows nothing of turns or restrictions, so the simulated table
can use one as the "true" frame (moving a slide two notches at once, dropping out of
turn) and :class:`~table.passe_murailles.game.Game` keeps one inside.

    >>> f = Frame(None)                    # the shipped profile, every peg in hand
    >>> [e.type for e in f.drop("red-1", f.drop_columns()[0])]   # column 0: it falls on into slide 2
    ['dropped', 'fell']
    >>> [e.type for e in f.move_slide(3, +1)]
    ['slide_moved']

Physics (RULINGS.md section 4): a peg sits in a hole of a slide and moves with it; it
rests on the slide below or on a peg in the hole below, and falls when the cell below is
a free hole. A peg reaching a hole of slide 6 falls through onto the board, so pegs
rest only in slides 1-5. A peg carried outside the window is pushed off onto the table.
After a move, pushed-off pegs go first, then falls resolve from the lowest peg up.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from .events import BoardMoved, Dropped, Event, Fell, Landed, PushedOff, SlideMoved
from .profile import BOARD_POSITIONS, SLIDE_COUNT, Profile, load_profile

COLOURS = ("red", "blue")
HAND, FRAME, BOARD, TABLE = "hand", "frame", "board", "table"
PLACES = (HAND, FRAME, BOARD, TABLE)
# How deep a camera over the frame reads a peg's colour down a top hole (slide number):
# two slides under the top one are still lit well enough (docs/RULES-DECISIONS.md).
CAMERA_DEPTH = 3


class PhysicsError(ValueError):
    """Something the physical frame cannot do (no hole there, past a slide's end stop...)."""


@dataclass(frozen=True)
class PegView:
    """Where one peg is. ``slide``/``column`` for a peg in the frame; ``column``/``points``
    (the section it first landed on) for a peg on the board; ``side`` for one pushed
    off onto the table."""

    id: str
    colour: str
    where: str
    slide: int | None = None
    column: int | None = None
    points: int | None = None
    side: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass
class _Peg:
    colour: str
    where: str = HAND
    slide: int | None = None
    hole: int | None = None     # index into the slide's holes while in the frame
    column: int | None = None   # landing column once on the board
    points: int | None = None
    side: str | None = None


def peg_ids(colour: str, count: int) -> list[str]:
    return [f"{colour}-{n}" for n in range(1, count + 1)]


class Frame:
    """The frame's physical state; every mover returns the list of events it caused."""

    def __init__(self, profile: Profile | str | dict | None = None):
        self.profile = load_profile(profile)
        slides = self.profile.slides
        self.columns = self.profile.columns
        # Lists indexed by slide number (index 0 unused) keep the code close to the book.
        self._offsets: list[int] = [0] + [s.start for s in slides]
        self._hole_at_offset0: list[dict[int, int]] = [{}] + [
            {col: i for i, col in enumerate(s.holes)} for s in slides
        ]
        self._occupant: list[dict[int, str]] = [{} for _ in range(SLIDE_COUNT + 1)]
        self._board = self.profile.board_start
        self._pegs: dict[str, _Peg] = {
            pid: _Peg(colour)
            for colour in COLOURS
            for pid in peg_ids(colour, self.profile.pegs_per_player)
        }

    # ----------------------------------------------------------------- looking
    @property
    def board_position(self) -> int:
        return self._board

    def offset(self, slide: int) -> int:
        self._check_slide(slide)
        return self._offsets[slide]

    @property
    def offsets(self) -> dict[int, int]:
        return {s: self._offsets[s] for s in range(1, SLIDE_COUNT + 1)}

    def hole_columns(self, slide: int) -> list[int]:
        """Columns of the slide's holes now, inside and outside the window."""
        self._check_slide(slide)
        return [col + self._offsets[slide] for col in self.profile.slide(slide).holes]

    def has_hole(self, slide: int, column: int) -> bool:
        return self._hole_index(slide, column) is not None

    def peg_at(self, slide: int, column: int) -> str | None:
        """The peg sitting in the hole of ``slide`` over ``column``, if any."""
        index = self._hole_index(slide, column)
        return None if index is None else self._occupant[slide].get(index)

    def seen_from_top(self, column: int, depth: int = CAMERA_DEPTH) -> str | None:
        """The peg a camera looking down the top hole over ``column`` sees: the first
        one down through aligned holes, no deeper than slide ``depth`` (a slide with no
        hole there hides what is under it). A peg can only rest at a level whose holes
        above were aligned when it fell, so a drop that stops low is in view until a
        slide above it moves.

            >>> f = Frame(None)
            >>> _ = f.drop("red-1", 0); f.peg("red-1").slide, f.seen_from_top(0)
            (2, 'red-1')
        """
        if not 0 <= column < self.columns:
            return None
        for slide in range(1, min(depth, SLIDE_COUNT - 1) + 1):
            index = self._hole_index(slide, column)
            if index is None:
                return None
            if index in self._occupant[slide]:
                return self._occupant[slide][index]
        return None

    def drop_columns(self) -> list[int]:
        """Columns inside the window where slide 1 has a free hole."""
        return [
            c for c in self.hole_columns(1)
            if 0 <= c < self.columns and self.peg_at(1, c) is None
        ]

    def open_columns(self) -> list[int]:
        """Columns open from top to bottom: slides 2-6 all have a hole there."""
        return [
            c for c in range(self.columns)
            if all(self._hole_index(s, c) is not None for s in range(2, SLIDE_COUNT + 1))
        ]

    def points_under(self, column: int) -> int:
        """What a peg landing over ``column`` would score with the board where it is."""
        return self.profile.points(self._board, column)

    def peg(self, peg_id: str) -> PegView:
        if peg_id not in self._pegs:
            raise PhysicsError(f"there is no peg {peg_id!r} (pegs are red-1.., blue-1..)")
        p = self._pegs[peg_id]
        column = self._column(p) if p.where == FRAME else p.column
        return PegView(peg_id, p.colour, p.where, p.slide, column, p.points, p.side)

    def pegs(self, colour: str | None = None, where: str | None = None) -> list[PegView]:
        return [
            self.peg(pid) for pid, p in self._pegs.items()
            if (colour is None or p.colour == colour) and (where is None or p.where == where)
        ]

    def count(self, colour: str, where: str) -> int:
        return sum(1 for p in self._pegs.values() if p.colour == colour and p.where == where)

    def next_in_hand(self, colour: str) -> str | None:
        """The lowest-numbered peg of ``colour`` still in hand (pegs go in order)."""
        return next(
            (pid for pid, p in self._pegs.items() if p.colour == colour and p.where == HAND),
            None,
        )

    # ----------------------------------------------------------------- moving
    def drop(self, peg_id: str, column: int) -> list[Event]:
        """Put a peg from hand into the hole of slide 1 over ``column``; it may fall on."""
        if peg_id not in self._pegs:
            raise PhysicsError(f"there is no peg {peg_id!r}")
        peg = self._pegs[peg_id]
        if peg.where != HAND:
            raise PhysicsError(f"peg {peg_id} is not in hand (it is on the {peg.where})")
        if not 0 <= column < self.columns:
            raise PhysicsError(f"column {column} is outside the window 0..{self.columns - 1}")
        index = self._hole_index(1, column)
        if index is None:
            raise PhysicsError(f"slide 1 has no hole over column {column}")
        if index in self._occupant[1]:
            raise PhysicsError(f"the hole of slide 1 over column {column} is taken")
        peg.where, peg.slide, peg.hole = FRAME, 1, index
        self._occupant[1][index] = peg_id
        events: list[Event] = [Dropped(peg_id, peg.colour, column)]
        self._resolve_falls(events)
        return events

    def move_slide(self, slide: int, step: int) -> list[Event]:
        """Move a slide ``step`` notches (+ = right), one notch at a time, resolving
        push-offs and falls after each notch as the real frame would."""
        self._check_slide(slide)
        if not isinstance(step, int) or isinstance(step, bool) or step == 0:
            raise PhysicsError(f"a slide moves by a non-zero whole number of notches, not {step!r}")
        spec = self.profile.slide(slide)
        target = self._offsets[slide] + step
        if not spec.low <= target <= spec.high:
            raise PhysicsError(
                f"slide {slide} cannot reach offset {target}: its end stops allow {spec.low}..{spec.high}"
            )
        events: list[Event] = []
        unit = 1 if step > 0 else -1
        for _ in range(abs(step)):
            before = self._offsets[slide]
            self._offsets[slide] = before + unit
            events.append(SlideMoved(slide, unit, before, before + unit))
            self._push_off(slide, events)
            self._resolve_falls(events)
        return events

    def move_board(self, step: int) -> list[Event]:
        """Slide the board ``step`` positions; only what a landing scores changes."""
        if not isinstance(step, int) or isinstance(step, bool) or step == 0:
            raise PhysicsError(f"the board moves by a non-zero whole number of positions, not {step!r}")
        target = self._board + step
        if target not in BOARD_POSITIONS:
            raise PhysicsError(f"the board cannot reach position {target} (positions 1..3)")
        unit = 1 if step > 0 else -1
        events: list[Event] = []
        while self._board != target:
            events.append(BoardMoved(self._board, self._board + unit))
            self._board += unit
        return events

    def take_out(self, peg_id: str, *, column: int | None = None, points: int | None = None) -> list[Event]:
        """A person's correction: put a peg where it was seen going, off its slide onto
        the board over ``column`` (scoring ``points``, default the section under it now)
        or, with ``column`` None, onto the table. Pegs resting on it fall as physics says;
        returns those falls (no event for the corrected peg itself)."""
        if peg_id not in self._pegs:
            raise PhysicsError(f"there is no peg {peg_id!r}")
        peg = self._pegs[peg_id]
        if peg.where == HAND:
            raise PhysicsError(f"peg {peg_id} is still in hand: it cannot have left the frame")
        if column is not None and not (isinstance(column, int) and 0 <= column < self.columns):
            raise PhysicsError(f"column {column!r} is outside the window 0..{self.columns - 1}")
        if points is not None and (not isinstance(points, int) or isinstance(points, bool) or points < 0):
            raise PhysicsError(f"points must be a whole number of 0 or more, not {points!r}")
        if peg.where == FRAME:
            del self._occupant[peg.slide][peg.hole]
        peg.slide = peg.hole = peg.side = None
        if column is None:
            peg.where, peg.column, peg.points = TABLE, None, None
        else:
            peg.where, peg.column = BOARD, column
            peg.points = self.points_under(column) if points is None else points
        events: list[Event] = []
        self._resolve_falls(events)
        return events

    # ----------------------------------------------------------------- physics
    def _push_off(self, slide: int, events: list[Event]) -> None:
        carried = sorted(self._occupant[slide].items(), key=lambda item: item[0])
        for index, peg_id in carried:
            column = self.profile.slide(slide).holes[index] + self._offsets[slide]
            if 0 <= column < self.columns:
                continue
            peg = self._pegs[peg_id]
            side = "left" if column < 0 else "right"
            del self._occupant[slide][index]
            peg.where, peg.slide, peg.hole, peg.side = TABLE, None, None, side
            events.append(PushedOff(peg_id, peg.colour, slide, side))

    def _resolve_falls(self, events: list[Event]) -> None:
        # Lowest pegs first, so a peg resting on a falling peg sees the hole free and
        # follows it. One pass settles everything; the loop is a guard, not a need.
        moved = True
        while moved:
            moved = False
            in_frame = [pid for pid, p in self._pegs.items() if p.where == FRAME]
            in_frame.sort(key=lambda pid: (-self._pegs[pid].slide, self._column(self._pegs[pid])))
            for peg_id in in_frame:
                moved |= self._fall(peg_id, events)

    def _fall(self, peg_id: str, events: list[Event]) -> bool:
        peg = self._pegs[peg_id]
        start, column = peg.slide, self._column(peg)
        level = start
        while True:
            below = level + 1
            index = self._hole_index(below, column)
            if index is None:
                break  # resting on the slide below
            if below == SLIDE_COUNT:
                # Nothing holds a peg under slide 6: straight through onto the board.
                del self._occupant[start][peg.hole]
                points = self.profile.points(self._board, column)
                peg.where, peg.slide, peg.hole = BOARD, None, None
                peg.column, peg.points = column, points
                events.append(Fell(peg_id, peg.colour, start, None, column))
                events.append(Landed(peg_id, peg.colour, column, points))
                return True
            if index in self._occupant[below]:
                break  # resting on the peg in that hole
            level = below
        if level == start:
            return False
        del self._occupant[start][peg.hole]
        new_index = self._hole_index(level, column)
        self._occupant[level][new_index] = peg_id
        peg.slide, peg.hole = level, new_index
        events.append(Fell(peg_id, peg.colour, start, level, column))
        return True

    def _column(self, peg: _Peg) -> int:
        return self.profile.slide(peg.slide).holes[peg.hole] + self._offsets[peg.slide]

    def _hole_index(self, slide: int, column: int) -> int | None:
        return self._hole_at_offset0[slide].get(column - self._offsets[slide])

    def _check_slide(self, slide: int) -> None:
        if not isinstance(slide, int) or isinstance(slide, bool) or not 1 <= slide <= SLIDE_COUNT:
            raise PhysicsError(f"slides are numbered 1..{SLIDE_COUNT}, not {slide!r}")

    # ----------------------------------------------------------------- saving
    def copy(self) -> Frame:
        return copy.deepcopy(self)

    def snapshot(self) -> tuple:
        """The whole physical state as an immutable value, for :meth:`restore` (undo).
        Its size depends on the profile only, never on how long the game has run."""
        pegs = tuple((p.where, p.slide, p.hole, p.column, p.points, p.side) for p in self._pegs.values())
        return tuple(self._offsets), self._board, pegs

    def restore(self, snap: tuple) -> None:
        """Put the frame back exactly as it was when ``snapshot()`` returned ``snap``."""
        offsets, self._board, pegs = snap
        self._offsets = list(offsets)
        occupant: list[dict[int, str]] = [{} for _ in range(SLIDE_COUNT + 1)]
        for (peg_id, peg), saved in zip(self._pegs.items(), pegs):
            peg.where, peg.slide, peg.hole, peg.column, peg.points, peg.side = saved
            if peg.where == FRAME:
                occupant[peg.slide][peg.hole] = peg_id
        self._occupant = occupant

    def to_dict(self, include_profile: bool = True) -> dict[str, Any]:
        d: dict[str, Any] = {
            "offsets": [self._offsets[s] for s in range(1, SLIDE_COUNT + 1)],
            "board": self._board,
            "pegs": {pid: self.peg(pid).to_dict() for pid in self._pegs},
        }
        if include_profile:
            d["profile"] = self.profile.to_dict()
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], profile: Profile | str | dict | None = None) -> Frame:
        """Rebuild a frame; the profile comes from ``d["profile"]`` or the argument.
        Raises :class:`PhysicsError` for a state the frame cannot be in."""
        frame = cls(d.get("profile", profile))
        offsets, board = d["offsets"], d["board"]
        if len(offsets) != SLIDE_COUNT:
            raise PhysicsError(f"a frame state needs {SLIDE_COUNT} slide offsets, not {len(offsets)}")
        for slide, offset in enumerate(offsets, start=1):
            spec = frame.profile.slide(slide)
            if not spec.low <= offset <= spec.high:
                raise PhysicsError(f"slide {slide} cannot be at offset {offset} ({spec.low}..{spec.high})")
            frame._offsets[slide] = offset
        if board not in BOARD_POSITIONS:
            raise PhysicsError(f"the board cannot be in position {board!r}")
        frame._board = board
        if set(d["pegs"]) != set(frame._pegs):
            raise PhysicsError("the saved pegs do not match the profile's pegs")
        for peg_id, view in d["pegs"].items():
            frame._place(peg_id, view)
        return frame

    def _place(self, peg_id: str, view: dict[str, Any]) -> None:
        peg = self._pegs[peg_id]
        where = view.get("where")
        if where not in PLACES:
            raise PhysicsError(f"peg {peg_id}: unknown place {where!r}")
        peg.where = where
        if where == FRAME:
            slide, column = view.get("slide"), view.get("column")
            if slide not in range(1, SLIDE_COUNT) or not isinstance(column, int):
                raise PhysicsError(f"peg {peg_id}: pegs rest only in slides 1..5, not {slide!r}")
            index = self._hole_index(slide, column)
            if index is None or not 0 <= column < self.columns:
                raise PhysicsError(f"peg {peg_id}: slide {slide} has no hole over column {column}")
            if index in self._occupant[slide]:
                raise PhysicsError(f"peg {peg_id}: the hole of slide {slide} over column {column} is taken")
            self._occupant[slide][index] = peg_id
            peg.slide, peg.hole = slide, index
        elif where == BOARD:
            peg.column, peg.points = view["column"], view["points"]
        elif where == TABLE:
            peg.side = view.get("side")
