"""What happened during one action, as small JSON-friendly records.

The frame physics produces ``dropped``, ``slide_moved``, ``board_moved``,
``pushed_off``, ``fell`` and ``landed``; the game adds ``lost_turn``, ``skipped`` and
``game_over``. Every event has a ``type`` and ``to_dict()``:

    >>> Fell(peg="red-1", colour="red", from_slide=2, to_slide=None, column=4).to_dict()
    {'type': 'fell', 'peg': 'red-1', 'colour': 'red', 'from_slide': 2, 'to_slide': None, 'column': 4}
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Event:
    type: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, **asdict(self)}


@dataclass(frozen=True)
class Dropped(Event):
    """A peg was put into the hole of slide 1 over ``column``."""

    peg: str
    colour: str
    column: int
    type: ClassVar[str] = "dropped"


@dataclass(frozen=True)
class SlideMoved(Event):
    """Slide ``slide`` moved one notch (``step`` +1 = every hole one column right)."""

    slide: int
    step: int
    from_offset: int
    to_offset: int
    type: ClassVar[str] = "slide_moved"


@dataclass(frozen=True)
class BoardMoved(Event):
    from_position: int
    to_position: int
    type: ClassVar[str] = "board_moved"


@dataclass(frozen=True)
class PushedOff(Event):
    """A peg carried past the side wall by its slide fell onto the table."""

    peg: str
    colour: str
    slide: int
    side: str  # "left" | "right"
    type: ClassVar[str] = "pushed_off"


@dataclass(frozen=True)
class Fell(Event):
    """A peg fell from ``from_slide`` down to ``to_slide`` (``None``: onto the board)."""

    peg: str
    colour: str
    from_slide: int
    to_slide: int | None
    column: int
    type: ClassVar[str] = "fell"


@dataclass(frozen=True)
class Landed(Event):
    """A peg reached the board over ``column``; ``points`` is the section there.

    ``scored`` is False for a peg that reaches the board during its own drop: its owner
    gets nothing for it (``points`` still says which section it hit)."""

    peg: str
    colour: str
    column: int
    points: int
    scored: bool = True
    type: ClassVar[str] = "landed"


@dataclass(frozen=True)
class LostTurn(Event):
    """``player`` dropped a peg that did not stay in slide 1 and owes a lost turn."""

    player: str
    type: ClassVar[str] = "lost_turn"


@dataclass(frozen=True)
class Skipped(Event):
    """``player``'s turn was skipped to pay a lost turn."""

    player: str
    type: ClassVar[str] = "skipped"


@dataclass(frozen=True)
class GameOver(Event):
    scores: dict[str, int]
    winners: list[str]
    type: ClassVar[str] = "game_over"


@dataclass(frozen=True)
class Landing:
    """A peg on the board: whose, where, the section's points and whether they count."""

    peg: str
    colour: str
    column: int
    points: int
    scored: bool

    @classmethod
    def from_event(cls, event: Landed) -> Landing:
        return cls(**{f.name: getattr(event, f.name) for f in fields(cls)})

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Landing:
        return cls(**{f.name: d[f.name] for f in fields(cls)})


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (Dropped, SlideMoved, BoardMoved, PushedOff, Fell, Landed, LostTurn, Skipped, GameOver)
}


def event_from_dict(d: dict[str, Any]) -> Event:
    """Rebuild an event from ``to_dict()`` output (for logs and the dashboard)."""
    cls = EVENT_TYPES.get(d.get("type", ""))
    if cls is None:
        raise ValueError(f"unknown Passe-Murailles event type {d.get('type')!r}")
    return cls(**{f.name: d[f.name] for f in fields(cls)})
