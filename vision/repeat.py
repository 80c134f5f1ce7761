"""The last frame's result, given again for a frame identical to it to the byte
(:class:`LastFrame`), or on a real camera, for a frame that differs from it only by the
sensor's noise (:class:`StillFrame`).

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

from typing import Any

import cv2
import numpy as np

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


class StillFrame:
    """The result of the last frame worked on, given again while the camera sees the same
    still table: every part of the frame, averaged over STILL_SCALE² pixels, within
    STILL_LEVEL grey levels of that frame, and it was worked on fewer than STILL_REFRESH
    frames ago. A slow change adds up against that frame, not the one before, so it is not
    missed; anything smaller is seen at the next refresh.

        >>> still = StillFrame()
        >>> table = np.full((72, 128, 3), 90, np.uint8)
        >>> still.keep(table, ["seen"])
        >>> noisy = np.clip(table + np.random.default_rng(1).normal(0, 3, table.shape), 0, 255).astype(np.uint8)
        >>> laid = table.copy(); laid[20:40, 30:44] = 230          # a card laid
        >>> still.get(noisy), still.get(laid)
        (['seen'], None)
    """

    def __init__(self, level: float = STILL_LEVEL, refresh: int = STILL_REFRESH):
        self.level, self.refresh = level, refresh
        self._small: np.ndarray | None = None
        self._result: Any = None
        self._age = 0
        self.reused = 0   # frames answered with the kept result (for benchmarks and logs)

    def _shrink(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        size = (max(1, w // STILL_SCALE), max(1, h // STILL_SCALE))
        return cv2.resize(frame, size, interpolation=cv2.INTER_AREA).astype(np.int16)

    def get(self, frame: np.ndarray) -> Any:
        """The kept result if ``frame`` shows the kept frame's still table, else None."""
        if self._small is None or self._age + 1 >= self.refresh:
            return None
        small = self._shrink(frame)
        if small.shape != self._small.shape or int(np.abs(small - self._small).max()) > self.level:
            return None
        self._age += 1
        self.reused += 1
        return self._result

    def keep(self, frame: np.ndarray, result: Any) -> None:
        self._small, self._result, self._age = self._shrink(frame), result, 0
