"""Pairing predicted peg landings with break-beam reports, by time window (pure).

The engine says which pegs must land and over which column; the beam under that column
should break within ``window`` seconds of it (before or after: the serial slide report
and the GPIO beam edge race each other). :class:`LandingMatcher` pairs them and, once
an item's window has passed unpaired, says what went wrong:

* ``confirmed`` — prediction and beam in the same column, within the window;
* ``wrong_column`` — an unpaired prediction and an unpaired beam within the window of
  each other, in different columns;
* ``missing`` — a prediction with no beam; ``unexpected`` — a beam with no prediction.

    >>> m = LandingMatcher(window=0.5)
    >>> m.expect(Expected(peg="red-1", colour="red", column=3, points=2, scored=True, t=10.0))
    >>> m.see(Seen(column=3, t=10.1)).kind
    'confirmed'

Time is whatever the observations say (``obs.t``): no clock is read here, so a replay
of the log pairs exactly as the live run did.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass
class Expected:
    """A landing the physics predicts (``points`` counted for ``colour`` if ``scored``)."""

    peg: str
    colour: str
    column: int
    points: int
    scored: bool
    t: float
    board: int = 0  # board position when it fell (to score another column if needed)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Seen:
    """A debounced beam break over ``column`` at ``t`` (``seq``: its observation)."""

    column: int
    t: float
    seq: int | None = None
    board: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"column": self.column, "t": self.t}


@dataclass
class Match:
    kind: str  # "confirmed" | "missing" | "unexpected" | "wrong_column"
    expected: Expected | None = None
    seen: Seen | None = None


class LandingMatcher:
    """Pending predictions and beams, paired within ``window`` seconds; see the module."""

    def __init__(self, window: float = 0.5):
        if not window > 0:
            raise ValueError(f"the beam window must be a positive number of seconds, not {window!r}")
        self.window = window
        self.expected: list[Expected] = []
        self.seen: list[Seen] = []

    def expect(self, item: Expected) -> Match | None:
        """A predicted landing; paired at once with an early beam in its column."""
        beam = self._first(self.seen, item.column, item.t)
        if beam is None:
            self.expected.append(item)
            return None
        self.seen.remove(beam)
        return Match("confirmed", item, beam)

    def see(self, item: Seen) -> Match | None:
        """A beam break; paired with the oldest waiting prediction in its column."""
        landing = self._first(self.expected, item.column, item.t)
        if landing is None:
            self.seen.append(item)
            return None
        self.expected.remove(landing)
        return Match("confirmed", landing, item)

    def expire(self, now: float) -> list[Match]:
        """Everything whose window closed before ``now``, oldest first, as mismatches."""
        out: list[Match] = []
        while True:
            due = [x for x in [*self.expected, *self.seen] if x.t + self.window < now]
            if not due:
                return out
            item = min(due, key=lambda x: x.t)
            if isinstance(item, Expected):
                self.expected.remove(item)
                other = self._nearest(self.seen, item.t)
                if other is None:
                    out.append(Match("missing", expected=item))
                else:
                    self.seen.remove(other)
                    out.append(Match("wrong_column", item, other))
            else:
                self.seen.remove(item)
                other = self._nearest(self.expected, item.t)
                if other is None:
                    out.append(Match("unexpected", seen=item))
                else:
                    self.expected.remove(other)
                    out.append(Match("wrong_column", other, item))

    def waiting(self, column: int, t: float) -> bool:
        """Whether a prediction over ``column`` waits for a beam at ``t``."""
        return self._first(self.expected, column, t) is not None

    def next_deadline(self) -> float | None:
        """When the oldest waiting item's window closes (None: nothing waits)."""
        times = [x.t for x in [*self.expected, *self.seen]]
        return min(times) + self.window if times else None

    def _first(self, items: list, column: int, t: float):
        return next((x for x in items if x.column == column and abs(x.t - t) <= self.window), None)

    def _nearest(self, items: list, t: float):
        near = [x for x in items if abs(x.t - t) <= self.window]
        return min(near, key=lambda x: abs(x.t - t)) if near else None
