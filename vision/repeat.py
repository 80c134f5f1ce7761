"""The last frame's result, given again for a frame identical to it to the byte
(:class:`LastFrame`), or on a real camera, for a frame that differs from it only by the
sensor's noise (:class:`StillFrame`); and, in a frame that is worked on, for each part of
it that did not change (:class:`StillParts`). On a live camera, the reading of a table with new
cards worked on over several frames of it, a share of it a frame (:class:`SpreadReading`).

A simulated camera table shows one rendering for several frames; a real camera never
repeats a frame (its sensor noise differs each time). What the recogniser and the hand
watcher decide depends on the frame's pixels alone, so an identical frame gets the very
same answer: this only saves the work. Off unless asked for (``same_frames=True``):
on a real camera it would cost a sampled comparison and a frame copy for nothing.

    >>> import numpy as np
    >>> last = LastFrame()
    >>> a = np.zeros((4, 6, 3), np.uint8)
    >>> last.keep(a, ["seen"]); a[0, 0] = 9      # kept as a copy: the camera may reuse its buffer
    >>> last.get(np.zeros((4, 6, 3), np.uint8)), last.get(a)
    (['seen'], None)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.steps import Steps

SAMPLE = (29, 31)   # rows, columns between the pixels compared first (a different frame differs there)


class LastFrame:
    """One frame (copied) and what was made of it."""

    def __init__(self) -> None:
        self._frame: np.ndarray | None = None
        self._result: Any = None

    def get(self, frame: np.ndarray) -> Any:
        """The kept result if ``frame`` is byte for byte the kept frame, else None."""
        last = self._frame
        if last is None or last.shape != frame.shape or last.dtype != frame.dtype:
            return None
        dy, dx = SAMPLE
        if not np.array_equal(last[::dy, ::dx], frame[::dy, ::dx]) or not np.array_equal(last, frame):
            return None
        return self._result

    def keep(self, frame: np.ndarray, result: Any) -> None:
        self._frame, self._result = np.array(frame, copy=True), result


# StillFrame: a table at rest. At a quarter of the size (an average of 16 pixels) a camera's
# sensor noise of a few grey levels is under one; a card laid, slid by a pixel or turned over,
# a hand, a change of light move some part by far more than STILL_LEVEL
STILL_SCALE = 4        # frames compared at 1/STILL_SCALE of their size
STILL_LEVEL = 10.0     # grey levels: any part of the small frame changed by more is news
STILL_REFRESH = 30     # frames: the work is done again at least this often (once a second at 30 fps)
# and a table in motion is read once it settles, the table as last read given meanwhile: a hand, a card
# thrown, a light switched (MOTION_SHARE of the small frame changed by more than MOTION_LEVEL since the
# frame before; a hand over a cloth changes 2-10 % of it by 90-200 levels, a simulated table redrawn with
# new light and inks every frame none by 40); at most MOTION_PATIENCE frames in a row, so a light that
# flickers or a hand that never stops does not hold the reading back for long
MOTION_LEVEL = 40.0
MOTION_SHARE = 0.002   # of the small frame's cells: about a 45 px square at 1280x720
MOTION_PATIENCE = 15   # frames (half a second at 30 fps)


class StillFrame:
    """The result of the last frame worked on, given again while there is nothing new to read:
    while the camera sees the same still table (every part of the frame, averaged over
    STILL_SCALE² pixels, within STILL_LEVEL grey levels of that frame, and it was worked on
    fewer than STILL_REFRESH frames ago), and while the table is in motion (MOTION_SHARE of
    it changed by more than MOTION_LEVEL since the frame before, for fewer than ``patience``
    frames in a row): what a hand lays is read once it lies still. A slow change adds up against the
    frame worked on, not the one before, so it is not missed; anything smaller is seen at
    the next refresh.

        >>> still = StillFrame()
        >>> table = np.full((72, 128, 3), 90, np.uint8)
        >>> still.keep(table, ["seen"])
        >>> noisy = np.clip(table + np.random.default_rng(1).normal(0, 3, table.shape), 0, 255).astype(np.uint8)
        >>> laid = table.copy(); laid[20:40, 30:44] = 230          # a card laid (a change since the frame before)
        >>> still.get(noisy), still.get(laid), still.get(laid)      # read once it lies still
        (['seen'], ['seen'], None)
    """

    def __init__(self, level: float = STILL_LEVEL, refresh: int = STILL_REFRESH, patience: int | None = None):
        self.level, self.refresh = level, refresh
        self.patience = MOTION_PATIENCE if patience is None else patience   # 1: every frame in motion read
        self._small: np.ndarray | None = None    # the frame last worked on, shrunk
        self._before: np.ndarray | None = None   # the frame before this one, shrunk
        self._result: Any = None
        self._age = 0
        self._moving = 0  # frames in motion answered in a row
        self.reused = 0   # frames answered with the kept result (for benchmarks and logs)
        self.waited = 0   # of which in motion
        self.moving = False   # the last frame was answered so, in motion: what it gives is no news either way

    def get(self, frame: np.ndarray) -> Any:
        """The kept result if ``frame`` shows the kept frame's still table or a table in motion, else None."""
        small = _shrink(frame)
        before, self._before = self._before, small
        self.moving = False
        if self._small is None or small.shape != self._small.shape:
            return None
        if self._age + 1 < self.refresh and not self._moved(small, self._small):
            self._moving = 0
        elif self._moving + 1 < self.patience and before is not None and _in_motion(small, before):
            self._moving += 1
            self.waited += 1
            self.moving = True
        else:
            return None
        self._age += 1
        self.reused += 1
        return self._result

    def keep(self, frame: np.ndarray, result: Any) -> None:
        self._small, self._result, self._age, self._moving = _shrink(frame), result, 0, 0
        self._before = self._small   # the next frame's frame before

    def _moved(self, small: np.ndarray, other: np.ndarray) -> bool:
        return _moved(small, other, self.level)

    @property
    def result(self) -> Any:
        """What was made of the frame last worked on (None before the first)."""
        return self._result

    @property
    def shrunk(self) -> np.ndarray | None:
        """The frame last given to :meth:`get` or :meth:`keep`, as compared (shrunk: 1 ms of work at 1280x720)."""
        return self._before


# StillParts: the same, part by part. A card laid on a table of nine changes one part of the frame;
# the nine others keep what was made of them
PART_MARGIN = 8      # px around a part's outline compared too (its shadow; a hand coming near)
PART_SHIFT = 4       # px: an outline whose box moved by no more than this is the same part
PART_REFRESH = 10    # worked frames: a part is worked on again after this many, one part a frame


@dataclass
class _Part:
    box: tuple[int, int, int, int]      # the outline's box, full-frame px (x0, y0, x1, y1)
    window: tuple[slice, slice]         # where it is compared, in the shrunk frame
    small: np.ndarray                   # that window when the part was worked on
    result: Any
    age: int = 0                        # worked frames it was given again since


class StillParts:
    """What was made of each part of a frame (the cards found in one outline), given again
    while that part of the table is still: the outline's box within PART_SHIFT px, and the
    frame around it, averaged over STILL_SCALE² pixels, within STILL_LEVEL grey levels of
    when the part was worked on (a slow change adds up, as in :class:`StillFrame`). A part
    given again PART_REFRESH times is worked on again, at most one a frame, so the work of a
    full refresh is spread over frames.

        >>> parts = StillParts()
        >>> table = np.full((72, 128, 3), 90, np.uint8)
        >>> parts.begin(table); parts.keep((8, 8, 40, 40), ["a card"]); parts.end()
        >>> parts.begin(table); parts.get((9, 8, 40, 41)), parts.get((60, 8, 90, 40))
        (['a card'], None)
    """

    def __init__(self, level: float = STILL_LEVEL, refresh: int = PART_REFRESH):
        self.level, self.refresh = level, refresh
        self._kept: list[_Part] = []
        self._next: list[_Part] = []
        self._small: np.ndarray | None = None
        self._refreshed = False
        self.reused = 0   # parts given again (for benchmarks and tests)

    def begin(self, frame: np.ndarray) -> None:
        """Start a frame: the parts it does not ask for (``get`` or ``keep``) are forgotten at ``end``.
        A frame left before its end (a reading spread over frames begun again: SpreadReading) keeps
        what it was given and made for the next."""
        self._small = _shrink(frame)
        self._kept = self._next + self._kept
        self._next, self._refreshed = [], False

    def get(self, box: tuple[int, int, int, int]) -> Any:
        """The kept result of the part whose outline's box is ``box``, if that part is still."""
        for part in self._kept:
            if max(abs(a - b) for a, b in zip(part.box, box)) > PART_SHIFT:
                continue
            now = self._small[part.window]
            if _moved(now, part.small, self.level):
                return None
            if part.age + 1 >= self.refresh and not self._refreshed:
                self._refreshed = True   # worked on again, the others wait their turn
                return None
            part.age += 1
            self._kept.remove(part)   # one outline, one part
            self._next.append(part)
            self.reused += 1
            return part.result
        return None

    def keep(self, box: tuple[int, int, int, int], result: Any) -> None:
        """What was made of the part whose outline's box is ``box`` in this frame."""
        h, w = self._small.shape[:2]
        x0, y0, x1, y1 = box
        window = (slice(max(0, (y0 - PART_MARGIN) // STILL_SCALE), min(h, (y1 + PART_MARGIN) // STILL_SCALE + 1)),
                  slice(max(0, (x0 - PART_MARGIN) // STILL_SCALE), min(w, (x1 + PART_MARGIN) // STILL_SCALE + 1)))
        self._next.append(_Part(box, window, self._small[window].copy(), result))

    def end(self) -> None:
        self._kept, self._next = self._next, []


# SpreadReading: a reading spread over the frames of a table at rest. Reading a table on which every card
# is new takes 200-600 ms at 10 cards; a live camera's frames go unread meanwhile (a hand reaching the
# pile among them). Done a step at a time, a frame's share of it at most, on the frame it began in
SPREAD_PATIENCE = 3   # readings begun again in a row (the table never still): the next is read whole


class SpreadReading:
    """A reading in steps (:mod:`vision.steps`, like ``CardRecogniser._reading``) worked on over several
    frames, ``budget`` seconds of it a frame (the step under way is finished first, at least one step a
    frame), on a copy of the frame it began in, while the frames after it show the same still table (every
    part of it, averaged over STILL_SCALE² pixels, within ``level`` grey levels). A frame that does not
    begins it again on itself; after SPREAD_PATIENCE such new beginnings in a row, one is read to its end
    at once.

        >>> def reading(frame):
        ...     yield
        ...     yield
        ...     return int(frame.mean())
        >>> spread = SpreadReading(reading, budget=0.0)
        >>> table = np.full((72, 128, 3), 90, np.uint8)
        >>> spread.advance(table), spread.advance(table), spread.advance(table), spread.waited
        (None, None, 90, 2)
    """

    def __init__(self, read: Callable[[np.ndarray], Steps[Any]], budget: float,
                 level: float = STILL_LEVEL):
        self.read, self.budget, self.level = read, budget, level
        self._steps: Steps[Any] | None = None
        self._frame: np.ndarray | None = None
        self._small: np.ndarray | None = None
        self._begun = 0       # readings begun again in a row
        self.frame: np.ndarray | None = None   # the frame the reading last finished was begun in
        self.waited = 0       # frames answered before their reading finished (for benchmarks)

    def advance(self, frame: np.ndarray, start: float | None = None, small: np.ndarray | None = None) -> Any:
        """What the reading made if it finished within this frame's budget (counted from ``start``,
        a ``time.perf_counter()``, or from now), else None: the reading goes on at the next frame.
        ``small``: the frame shrunk as compared here, if already made (:attr:`StillFrame.shrunk`)."""
        start = time.perf_counter() if start is None else start
        small = _shrink(frame) if small is None else small
        if self._steps is None or _moved(small, self._small, self.level):
            self._begun = self._begun + 1 if self._steps is not None else 0
            self._frame, self._small = np.array(frame, copy=True), small
            self._steps = self.read(self._frame)
        while True:
            try:
                next(self._steps)
            except StopIteration as done:
                self._steps, self.frame, self._begun = None, self._frame, 0
                return done.value
            if self._begun < SPREAD_PATIENCE and time.perf_counter() - start >= self.budget:
                self.waited += 1
                return None


def _moved(small: np.ndarray, other: np.ndarray, level: float) -> bool:
    return small.shape != other.shape or int(np.abs(small - other).max()) > level


def _in_motion(small: np.ndarray, before: np.ndarray) -> bool:
    if small.shape != before.shape:
        return True
    change = cv2.absdiff(small, before)
    if change.ndim == 3:   # each cell's largest change over its channels (numpy's max over a last axis of 3: 1 ms)
        change = cv2.reduce(change.reshape(-1, change.shape[2]), 1, cv2.REDUCE_MAX)
    return np.count_nonzero(change > MOTION_LEVEL) >= MOTION_SHARE * small.shape[0] * small.shape[1]


def _shrink(frame: np.ndarray) -> np.ndarray:
    h, w = frame.shape[:2]
    size = (max(1, w // STILL_SCALE), max(1, h // STILL_SCALE))
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA).astype(np.int16)
