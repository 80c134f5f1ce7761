"""The three attacks a player may make, as small immutable values.

    >>> DropPeg(column=3)             # attack A: a peg into the hole of slide 1 over column 3
    DropPeg(column=3)
    >>> MoveSlide(slide=2, step=-1)   # attack B: slide 2 one notch left
    MoveSlide(slide=2, step=-1)
    >>> action_from_dict(MoveBoard(step=+1).to_dict())  # attack C, through JSON and back
    MoveBoard(step=1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class DropPeg:
    """Attack A: drop the next peg in hand into slide 1's hole over ``column``."""

    column: int
    type: ClassVar[str] = "drop_peg"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "column": self.column}


@dataclass(frozen=True)
class MoveSlide:
    """Attack B: move slide ``slide`` (1 = top) one notch; ``step`` +1 = right."""

    slide: int
    step: int
    type: ClassVar[str] = "move_slide"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "slide": self.slide, "step": self.step}


@dataclass(frozen=True)
class MoveBoard:
    """Attack C: move the board one position; ``step`` -1 towards 1, +1 towards 3."""

    step: int
    type: ClassVar[str] = "move_board"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "step": self.step}


Action = DropPeg | MoveSlide | MoveBoard
ACTION_TYPES: dict[str, type] = {cls.type: cls for cls in (DropPeg, MoveSlide, MoveBoard)}


def action_from_dict(d: dict[str, Any]) -> Action:
    """Rebuild an action from ``to_dict()``; ValueError names what is wrong."""
    if not isinstance(d, dict):
        raise ValueError(f"an action must be a dict, not {type(d).__name__}")
    cls = ACTION_TYPES.get(d.get("type"))
    if cls is None:
        raise ValueError(f"unknown action type {d.get('type')!r} (expected one of {sorted(ACTION_TYPES)})")
    wanted = {"drop_peg": ("column",), "move_slide": ("slide", "step"), "move_board": ("step",)}[cls.type]
    missing = [k for k in wanted if k not in d]
    if missing:
        raise ValueError(f"action {cls.type} is missing {', '.join(missing)}")
    return cls(**{k: d[k] for k in wanted})
