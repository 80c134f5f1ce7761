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
DIFF_LEVEL = 40          # grey-level difference that counts as "something there"
ACTIVE_SHARE = 0.04      # share of a strip that must differ for a hand to be there
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
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        return cv2.warpPerspective(grey, self._to_table, self.size, flags=cv2.INTER_AREA)

    def update(self, image: np.ndarray, t: float) -> list[int]:
        """The seats whose edge a hand crosses in this frame (also kept for :meth:`recent`)."""
        diff = cv2.absdiff(self._top_view(image), self._empty)
        active = [seat for seat, (ys, xs) in enumerate(self.strips)
                  if float((diff[ys, xs] > DIFF_LEVEL).mean()) >= ACTIVE_SHARE]
        self.history.append((t, active))
        while self.history and self.history[0][0] < t - 4 * self.window_s:
            self.history.popleft()
        return active

    def recent(self, t: float) -> list[int]:
        """The seats whose edge was crossed within ``window_s`` seconds before ``t``."""
        seats: set[int] = set()
        for when, active in self.history:
            if t - self.window_s <= when <= t:
                seats.update(active)
        return sorted(seats)
