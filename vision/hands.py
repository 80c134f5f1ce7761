"""Which side of the table a hand came from: motion at the seats' edges of the play area.

Passe Éclair is played by everyone at once, so the camera must say *who* put each card on
the pile. A hand reaching the pile crosses the edge of the play area in front of its
player: :class:`HandWatcher` looks, in every frame, at a strip along each edge (the table
seen from above, through the calibration) and marks the edges where the picture differs
from the empty table. When a new card is confirmed on the pile, :meth:`HandWatcher.recent`
gives the seats whose edge was crossed in the frames just before it landed: one seat is an
attribution, several (two hands in at once) or none is a question for the page.

Seat ``i`` sits at edge ``EDGES[i]``: seat 1 (index 0) at the near edge (y = max), then the
left, far and right edges, as the table profile's ``seat1``…``seat4`` zones.

    >>> import numpy as np
    >>> from vision.calibration import Calibration
    >>> from vision.profile import TableProfile
    >>> prof = TableProfile.load()
    >>> cal = Calibration(np.eye(3), (800, 450))          # a camera exactly above, 1 px per mm
    >>> empty = np.full((450, 800, 3), 90, np.uint8)
    >>> hands = HandWatcher(cal, prof, empty)
    >>> arm = empty.copy(); arm[200:240, 0:300] = (120, 160, 210)   # an arm from the left edge
    >>> hands.update(arm, 1.0), hands.recent(1.1)
    ([1], [1])
    >>> hands.update(empty, 2.0), hands.recent(2.6)
    ([], [])
"""

from __future__ import annotations

from collections import deque

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.profile import TableProfile

EDGES = ("near", "left", "far", "right")   # seat index -> the edge of the play area in front of it
STRIP_MM = 35.0          # depth of the strip watched along each edge
CORNER_MM = 60.0         # the corners (markers) are left out of the strips
DIFF_LEVEL = 25          # difference (largest of the colour channels) that counts as "something there"
WRIST_MM = 50            # the stretch of an edge a wrist covers
ACTIVE_SHARE = 0.5       # share of such a stretch that must differ for a hand to be there
WINDOW_S = 0.6           # how far back a landing card looks for the hand that laid it


class HandWatcher:
    """Edges crossed by a hand, frame by frame (not thread-safe; one per camera)."""

    def __init__(self, calibration: Calibration, profile: TableProfile, empty_table: np.ndarray, *,
                 seats: int = 4, window_s: float = WINDOW_S):
        w, h = (int(round(v)) for v in profile.play_area_mm)
        self.size = (w, h)
        # image -> table (1 px per mm): the inverse of the calibration's table -> image homography
        self._to_table = calibration.image_to_table
        self._empty = self._top_view(empty_table)
        c, s = CORNER_MM, STRIP_MM
        strips = {"near": (slice(int(h - s), h), slice(int(c), int(w - c))),
                  "left": (slice(int(c), int(h - c)), slice(0, int(s))),
                  "far": (slice(0, int(s)), slice(int(c), int(w - c))),
                  "right": (slice(int(c), int(h - c)), slice(int(w - s), w))}
        self.strips = [strips[EDGES[i]] for i in range(min(seats, len(EDGES)))]
        self.window_s = window_s
        self.history: deque[tuple[float, list[int]]] = deque()

    def _top_view(self, image: np.ndarray) -> np.ndarray:
        return cv2.warpPerspective(image, self._to_table, self.size, flags=cv2.INTER_AREA)

    def update(self, image: np.ndarray, t: float) -> list[int]:
        """The seats whose edge a hand crosses in this frame (also kept for :meth:`recent`)."""
        diff = cv2.absdiff(self._top_view(image), self._empty)
        if diff.ndim == 3:   # a skin tone may match the cloth in grey, rarely in every channel
            diff = diff.max(axis=2)
        active = [seat for seat, strip in enumerate(self.strips) if self._crossed(diff, seat, strip)]
        self.history.append((t, active))
        while self.history and self.history[0][0] < t - 4 * self.window_s:
            self.history.popleft()
        return active

    def _crossed(self, diff: np.ndarray, seat: int, strip) -> bool:
        """True when some stretch of the strip as wide as a wrist is mostly changed."""
        changed = (diff[strip] > DIFF_LEVEL).astype(np.float32)
        along = changed.mean(axis=0 if EDGES[seat] in ("near", "far") else 1)   # share across the strip's depth
        stretch = np.convolve(along, np.ones(WRIST_MM, np.float32) / WRIST_MM, mode="valid")
        return stretch.size > 0 and float(stretch.max()) >= ACTIVE_SHARE

    def recent(self, t: float) -> list[int]:
        """The seats of the last reach before ``t``: the latest unbroken run of frames with a
        hand at some edge, if it ended within ``window_s`` seconds before ``t`` (an earlier
        reach, separated by frames with no hand, was another card's)."""
        seats: set[int] = set()
        started = False
        for when, active in reversed(self.history):
            if when > t:
                continue
            if not started:
                if when < t - self.window_s:
                    break
                if active:
                    started = True
                    seats.update(active)
                continue
            if not active:
                break
            seats.update(active)
        return sorted(seats)
