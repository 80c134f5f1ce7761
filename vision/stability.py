"""Debouncing: a thing becomes an observation only once it has been seen the same way in
a few consecutive frames, and stops being one only after a few frames without it.

    >>> f = StabilityFilter(appear_frames=3, vanish_frames=3)
    >>> [f.update({"purple-10": {}}, t) for t in (0.0, 0.033, 0.066)][-1]
    [Change(kind='seen', key='purple-10', payload={}, t=0.066, first_t=0.0)]

Pure: no clock (frame times come in with the frames), no I/O.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any


@dataclass
class Change:
    kind: str            # "seen" or "gone"
    key: Hashable
    payload: Any
    t: float             # time of the frame that confirmed the change
    first_t: float       # time of the first frame that showed it


class StabilityFilter:
    """Tracks keys (``("purple-10", "trick")``, a cell, a hole) across frames.

    ``update(current, t, hold)`` takes the keys seen in one frame (with a payload, the
    latest of which is reported) and returns the confirmed changes. Keys in ``hold``
    that are present but not seen (a card covered by another) neither count as missing
    nor as seen.
    """

    def __init__(self, appear_frames: int = 3, vanish_frames: int = 3):
        if appear_frames < 1 or vanish_frames < 1:
            raise ValueError("appear_frames and vanish_frames must be at least 1")
        self.appear_frames = appear_frames
        self.vanish_frames = vanish_frames
        self.present: dict[Hashable, Any] = {}
        self._seen_run: dict[Hashable, tuple[int, float]] = {}    # candidate -> (frames, first t)
        self._miss_run: dict[Hashable, tuple[int, float]] = {}    # present key -> (frames, first t)

    def update(self, current: dict[Hashable, Any], t: float, hold: Iterable[Hashable] = ()) -> list[Change]:
        changes: list[Change] = []
        held = set(hold)
        for key, payload in current.items():
            if key in self.present:
                self.present[key] = payload
                self._miss_run.pop(key, None)
                continue
            n, first = self._seen_run.get(key, (0, t))
            n += 1
            if n >= self.appear_frames:
                self._seen_run.pop(key, None)
                self.present[key] = payload
                changes.append(Change("seen", key, payload, t, first))
            else:
                self._seen_run[key] = (n, first)
        # a candidate that skipped a frame starts again
        for key in [k for k in self._seen_run if k not in current]:
            del self._seen_run[key]
        for key in [k for k in self.present if k not in current]:
            if key in held:
                continue
            n, first = self._miss_run.get(key, (0, t))
            n += 1
            if n >= self.vanish_frames:
                payload = self.present.pop(key)
                self._miss_run.pop(key, None)
                changes.append(Change("gone", key, payload, t, first))
            else:
                self._miss_run[key] = (n, first)
        return changes
