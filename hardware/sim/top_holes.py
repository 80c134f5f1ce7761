"""The top-hole sensors of the simulated board: what each sensor sees over time, with
switchable faults, and the firmware's drop detection on top of it.

One sensor looks into the top hole over each column. A peg that falls through is seen
for a few milliseconds (``pulse_ms``); a peg that stays in the hole (resting on slide 2
or on a peg) is seen until it leaves (``clear``). The firmware counts a drop on the
first moment a sensor sees something after it has seen nothing for ``rearm_ms``, so
both cases, and a reading that bounces, count once (:class:`HoleDetector`, the same
rule as ``hole_update`` in ``hardware/firmware/passeframe/src/decode.c``). A peg the top
slide carries into another sensor's view while the slide moves is not a drop: the
firmware latches that sensor without counting (``suppress``).

    >>> holes = TopHoles(holes=7)
    >>> holes.drop(3, now_ms=100), holes.tick(now_ms=110)    # falls through: one drop
    ([3], [])
    >>> holes.drop(2, now_ms=400, rests=True)                # stays in the hole: one drop
    [2]
    >>> holes.tick(now_ms=5000), holes.clear(2, now_ms=5000), holes.counts()
    ([], [], (0, 0, 1, 1, 0, 0, 0))

Faults (:class:`HoleFaults`, switchable while running): a sensor that misses pegs, one
that chatters (bounces around a real drop, and sometimes flickers by itself a moment
later: an extra drop the firmware cannot tell from a real one), and a peg dropped while
the previous one is still in view (merged with it when it is the same hole).
"""

from __future__ import annotations

import heapq
import itertools
import random
from dataclasses import dataclass, fields

PULSE_MS = 15          # a peg falling past a sensor is seen this long
REARM_MS = 200         # firmware: a hole must be clear this long before it counts again
BOUNCE_MS = (2, 4, 7, 9, 13)     # a chattering reading's edges after the real one
FLICKER_MS = (250, 700)          # when a dirty sensor flickers by itself after a drop
FLICKER_LEN_MS = 3


class HoleDetector:
    """One hole's drop counting, as the firmware does it (see the module docstring).

        >>> d = HoleDetector()
        >>> [d.update(a, t) for a, t in ((True, 0), (False, 5), (True, 9), (False, 20), (True, 300))]
        [True, False, False, False, True]
        >>> d.count
        2
    """

    def __init__(self):
        self.latched = False
        self.last_active = 0
        self.count = 0  # since boot, modulo 256 like the firmware's

    def update(self, active: bool, now_ms: int, rearm_ms: int = REARM_MS, suppress: bool = False) -> bool:
        """Feed whether the sensor saw something since the last call; True when that is
        a new drop. ``suppress``: the top slide is moving (a carried peg, not a drop)."""
        if self.latched and now_ms - self.last_active >= rearm_ms:
            self.latched = False  # clear long enough since it was last seen
        if active:
            self.last_active = now_ms
            if not self.latched:
                self.latched = True
                if not suppress:
                    self.count = (self.count + 1) % 256
                    return True
        return False


@dataclass
class HoleFaults:
    """Per-drop probabilities (0..1), changeable at run time; ``holes``: which holes'
    sensors are faulty (0-based columns; None: all of them)."""

    miss: float = 0.0      # the sensor does not see the peg at all
    chatter: float = 0.0   # the reading bounces; on half of those it also flickers later
    overlap: float = 0.0   # the peg comes while the previous one is still in view
    holes: frozenset[int] | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name != "holes" and not 0.0 <= value <= 1.0:
                raise ValueError(f"top-hole fault {f.name}={value} is not a probability in 0..1 / "
                                 f"le défaut {f.name}={value} n'est pas une probabilité entre 0 et 1")
        if self.holes is not None:
            self.holes = frozenset(self.holes)

    def applies(self, column: int) -> bool:
        return self.holes is None or column in self.holes


class TopHoles:
    """What the top-hole sensors see and which drops the firmware counts.

    ``drop``, ``clear``, ``carry`` and ``tick`` take the board's millisecond clock
    (never going back) and return the columns whose drop the firmware counts then, in
    the order it reports them. ``stats`` counts the faults that struck.
    """

    def __init__(self, holes: int = 7, *, faults: HoleFaults | None = None, rng: random.Random | None = None,
                 pulse_ms: int = PULSE_MS, rearm_ms: int = REARM_MS):
        self.holes = holes
        self.faults = faults if faults is not None else HoleFaults()
        self.rng = rng if rng is not None else random.Random(0)
        self.pulse_ms = pulse_ms
        self.rearm_ms = rearm_ms
        self.detectors = [HoleDetector() for _ in range(holes)]
        for d in self.detectors:
            d.latched = False  # a bare model starts armed; a board calls reboot() at boot
        self._in_view = [0] * holes     # pegs (or flickers) each sensor sees right now
        self._resting = [False] * holes
        self._edges: list[tuple[int, int, int, int, bool]] = []  # (ms, order, column, +1 | -1, by itself)
        self._order = itertools.count()
        self._last_drop: int | None = None
        # drops asked for; missed (never seen); merged (seen, but with what the sensor was
        # already seeing: not counted); extra (flickers counted as drops); and the faults.
        self.stats = {"drops": 0, "missed": 0, "merged": 0, "extra": 0,
                      "chattered": 0, "flickers": 0, "overlapped": 0}

    # ---- what happens ---------------------------------------------------------------

    def drop(self, column: int, now_ms: int, *, rests: bool = False) -> list[int]:
        """A peg goes into the top hole over ``column``; ``rests``: it stays there (on
        slide 2 or on a peg) until :meth:`clear`."""
        self._check(column)
        counted = self.tick(now_ms)
        f, roll = self.faults, self.rng.random
        self.stats["drops"] += 1
        previous, self._last_drop = self._last_drop, column
        if rests:
            self._resting[column] = True
        if f.applies(column) and f.miss > 0 and roll() < f.miss:
            self.stats["missed"] += 1
            return counted
        if previous is not None and f.overlap > 0 and roll() < f.overlap:
            # The previous peg never left its sensor's view before this one came.
            self.stats["overlapped"] += 1
            self.detectors[previous].latched = True
            self.detectors[previous].last_active = now_ms
        self._edge(now_ms, column, +1)
        if not rests:
            self._edge(now_ms + self.pulse_ms, column, -1)
        if f.applies(column) and f.chatter > 0 and roll() < f.chatter:
            self.stats["chattered"] += 1
            for i, dt in enumerate(BOUNCE_MS):
                self._edge(now_ms + dt, column, -1 if i % 2 == 0 else +1)
            if len(BOUNCE_MS) % 2:
                self._edge(now_ms + BOUNCE_MS[-1] + 1, column, +1)
            if roll() < 0.5:
                self.stats["flickers"] += 1
                at = now_ms + self.pulse_ms + self.rng.randint(*FLICKER_MS)
                self._edge(at, column, +1, flicker=True)
                self._edge(at + FLICKER_LEN_MS, column, -1)
        now = self.tick(now_ms)
        if column not in now:
            self.stats["merged"] += 1
        return counted + now

    def clear(self, column: int, now_ms: int) -> list[int]:
        """The peg resting in the hole over ``column`` leaves the sensor's view."""
        self._check(column)
        counted = self.tick(now_ms)
        if self._resting[column]:
            self._resting[column] = False
            self._edge(now_ms, column, -1)
        return counted + self.tick(now_ms)

    def carry(self, shift: int, now_ms: int) -> list[int]:
        """The top slide moves ``shift`` columns: resting pegs go with it, into other
        sensors' view (or off the window); the firmware counts none of that."""
        counted = self.tick(now_ms)
        moved = [c for c in range(self.holes) if self._resting[c]]
        for c in moved:
            self._resting[c] = False
            self._set(c, -1, now_ms, suppress=True)
        for c in moved:
            if 0 <= c + shift < self.holes:
                self._resting[c + shift] = True
                self._set(c + shift, +1, now_ms, suppress=True)
        return counted

    def tick(self, now_ms: int) -> list[int]:
        """Let time pass until ``now_ms``: scheduled edges, re-arming."""
        counted: list[int] = []
        while self._edges and self._edges[0][0] <= now_ms:
            # Edges of one millisecond are seen in one pass, in column order (firmware loop).
            ms = self._edges[0][0]
            batch = []
            while self._edges and self._edges[0][0] == ms:
                batch.append(heapq.heappop(self._edges))
            for _, _, column, step, flicker in sorted(batch, key=lambda e: (e[2], e[1])):
                if self._set(column, step, ms):
                    counted.append(column)
                    self.stats["extra"] += flicker
        for column, d in enumerate(self.detectors):
            if self._in_view[column]:
                d.last_active = now_ms  # seen all along since its last edge
            d.update(False, now_ms, self.rearm_ms)  # re-arming only: nothing new came into view
        return counted

    def reboot(self, now_ms: int) -> None:
        """The MCU restarted: counts from 0, and every hole latched until it has been
        clear for ``rearm_ms`` (a peg already in a hole at boot is not a new drop)."""
        for d in self.detectors:
            d.latched, d.last_active, d.count = True, now_ms, 0

    def resting(self) -> list[int]:
        """Columns whose sensor sees a resting peg."""
        return [c for c in range(self.holes) if self._resting[c]]

    def counts(self) -> tuple[int, ...]:
        return tuple(d.count for d in self.detectors)

    # ---- inside ---------------------------------------------------------------------

    def _check(self, column: int) -> None:
        if not 0 <= column < self.holes:
            raise ValueError(f"top hole {column} is not one of 0..{self.holes - 1} / "
                             f"le trou du haut {column} n'est pas entre 0 et {self.holes - 1}")

    def _edge(self, ms: int, column: int, step: int, *, flicker: bool = False) -> None:
        heapq.heappush(self._edges, (ms, next(self._order), column, step, flicker))

    def _set(self, column: int, step: int, ms: int, suppress: bool = False) -> bool:
        d = self.detectors[column]
        if self._in_view[column]:
            d.last_active = ms  # seen all along since its last edge
        self._in_view[column] = max(0, self._in_view[column] + step)
        if step > 0:
            return d.update(True, ms, self.rearm_ms, suppress)
        d.update(False, ms, self.rearm_ms)
        return False
