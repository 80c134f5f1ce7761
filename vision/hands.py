"""Which side of the table a hand came from: motion at the seats' edges of the play area.

Passe Éclair is played by everyone at once, so the camera must say *who* put each card on
the pile. A hand reaching the pile crosses the edge of the play area in front of its
player: :class:`HandWatcher` looks, in every frame, at a strip along each edge (the table
seen from above, through the calibration) and marks the edges where the picture differs
from the empty table. When a new card is confirmed on the pile, :meth:`HandWatcher.recent`
gives the seats whose edge was crossed in the frames just before it landed: one seat is an
attribution, several (two hands in at once) or none is a question for the page.

A wrist-wide stretch of a strip is crossed when most of its pixels moved by ``DIFF_LEVEL``
grey levels in some colour channel, *or* when its hue (the blue/green and red/green ratios,
which a change of light leaves alone), averaged over the stretch, moved by ``CHROMA_LEVEL``
beyond the whole frame's shift (a white-balance change): a dark skin over a dark blue cloth
differs from it by less than ``DIFF_LEVEL`` in every channel, and an arm nobody sees is how
a card got credited to the other hand that was in (with the reach of the card before still
counting 0.6 s later, these were the bench's 5.6 % / 9.4 % wrong seats at 3 / 4 players).

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
    >>> hands.update(arm, 1.0), hands.recent(1.05)        # one frame: a flicker of the light
    ([1], [])
    >>> hands.update(arm, 1.033), hands.recent(1.1)       # two in a row: an arm
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
from vision.repeat import LastFrame

EDGES = ("near", "left", "far", "right")   # seat index -> the edge of the play area in front of it
STRIP_MM = 35.0          # depth of the strip watched along each edge
CORNER_MM = 60.0         # the corners (markers) are left out of the strips
DIFF_LEVEL = 25          # difference (largest of the colour channels) that counts as "something there"
CHROMA_LEVEL = 0.045     # shift of log(blue/green) or log(red/green) that counts too (light-free)
CHROMA_DARK = 8.0        # added to every channel before the ratios (dark pixels' ratios are noise)
WRIST_MM = 50            # the stretch of an edge a wrist covers
ACTIVE_SHARE = 0.5       # share of such a stretch that must differ for a hand to be there
MIN_FRAMES = 2           # frames in a row an arm must be seen for (one is a flicker of the light)
WINDOW_S = 0.25          # a reach counts for a card if it was still in this long before it was first seen
                         # (0.6 s credited an unseen hand's card to the reach of the card before)


class HandWatcher:
    """Edges crossed by a hand, frame by frame (not thread-safe; one per camera)."""

    def __init__(self, calibration: Calibration, profile: TableProfile, empty_table: np.ndarray, *,
                 seats: int = 4, window_s: float = WINDOW_S, same_frames: bool = False):
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
        self._frame_hw = empty_table.shape[:2]
        self._maps = self._strip_maps(self._frame_hw)
        self._empty_strips = [self._empty[strip] for strip in self.strips]
        self._empty_hue = [self._hue(part) for part in self._empty_strips]
        # the empty strips as _diff uses them, made once
        self._empty_f = [part.astype(np.float32) for part in self._empty_strips]
        self._empty_f1 = [e + 1 for e in self._empty_f]
        self.window_s = window_s
        self.history: deque[tuple[float, list[int]]] = deque()
        self._last = LastFrame() if same_frames else None   # an identical frame: the same seats (vision.repeat)

    def _top_view(self, image: np.ndarray) -> np.ndarray:
        return cv2.warpPerspective(image, self._to_table, self.size, flags=cv2.INTER_AREA)

    def _strip_maps(self, image_hw: tuple[int, int]) -> list[tuple[np.ndarray, np.ndarray]] | None:
        """Where the top view samples the camera frame, for the strips' pixels only: the
        frame's x and y, warped once like a frame is (``remap`` with these maps gives the
        strips of :meth:`_top_view` to the bit, at a fifth of its cost). None when part of
        a strip lies outside the frame (the border would differ): the whole view is warped."""
        h, w = image_hw
        ys, xs = np.indices((h, w), dtype=np.float32)
        inside = self._top_view(np.ones((h, w), np.float32))
        if any(float(inside[strip].min()) < 0.999 for strip in self.strips):
            return None
        mx, my = self._top_view(xs), self._top_view(ys)
        return [(np.ascontiguousarray(mx[strip]), np.ascontiguousarray(my[strip])) for strip in self.strips]

    def _parts(self, image: np.ndarray) -> list[np.ndarray]:
        """The strips of the table seen from above in ``image``."""
        if self._maps is None or image.shape[:2] != self._frame_hw:
            top = self._top_view(image)
            return [top[strip] for strip in self.strips]
        return [cv2.remap(image, mx, my, cv2.INTER_LINEAR) for mx, my in self._maps]

    def update(self, image: np.ndarray, t: float) -> list[int]:
        """The seats whose edge a hand crosses in this frame (also kept for :meth:`recent`)."""
        active = None if self._last is None else self._last.get(image)
        if active is None:
            active = self._seats(image)
            if self._last is not None:
                self._last.keep(image, active)
        active = list(active)
        self.history.append((t, active))
        while self.history and self.history[0][0] < t - 4 * self.window_s:
            self.history.popleft()
        return active

    def _seats(self, image: np.ndarray) -> list[int]:
        parts = self._parts(image)
        diffs = [self._diff(part, e, e1) for part, e, e1 in zip(parts, self._empty_f, self._empty_f1)]
        if parts[0].ndim == 3:
            # the largest channel's difference over the level (numpy's max(axis=2) was a quarter of the update)
            changed = [np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2]) > DIFF_LEVEL for d in diffs]
            shifts = [self._hue(part) - hue for part, hue in zip(parts, self._empty_hue)]
            white = np.median(np.concatenate([d.reshape(-1, 2) for d in shifts]), axis=0)   # the frame's cast
            shifts = [d - white for d in shifts]
        else:
            changed, shifts = [d > DIFF_LEVEL for d in diffs], [None] * len(diffs)
        return [seat for seat in range(len(self.strips)) if self._crossed(changed[seat], shifts[seat], seat)]

    @staticmethod
    def _diff(part: np.ndarray, e: np.ndarray, e1: np.ndarray) -> np.ndarray:
        """|part - empty| with the empty strip ``e`` (float32; ``e1`` = e + 1) first brought
        to the part's light (each channel scaled by the strip's median ratio: an arm covers
        a small share of it)."""
        f = part.astype(np.float32)
        axes = (0, 1) if part.ndim == 3 else None
        gain = np.median((f + 1) / e1, axis=axes) if axes else float(np.median((f + 1) / e1))
        return np.abs(f - e * gain)

    @staticmethod
    def _hue(part: np.ndarray) -> np.ndarray:
        """log(blue/green), log(red/green) per pixel (a change of light scales all three)."""
        f = part.astype(np.float32) + CHROMA_DARK
        return np.log(np.stack([f[..., 0] / f[..., 1], f[..., 2] / f[..., 1]], axis=-1))

    def _crossed(self, changed: np.ndarray, shift: np.ndarray | None, seat: int) -> bool:
        """True when some stretch of the strip as wide as a wrist is mostly changed, or its
        hue, averaged over the stretch (a pixel's own is noise on a dark cloth), moved."""
        across = 0 if EDGES[seat] in ("near", "far") else 1
        wrist = np.ones(WRIST_MM, np.float32) / WRIST_MM
        along = changed.astype(np.float32).mean(axis=across)   # share across the strip's depth
        stretch = np.convolve(along, wrist, mode="valid")
        if stretch.size == 0:
            return False
        if float(stretch.max()) >= ACTIVE_SHARE:
            return True
        if shift is None:
            return False
        hue = shift.mean(axis=across)   # (length, 2): the mean hue shift across the depth
        moved = [np.abs(np.convolve(hue[:, k], wrist, mode="valid")).max() for k in range(2)]
        return float(max(moved)) >= CHROMA_LEVEL

    def recent(self, t: float) -> list[int]:
        """The seats of the last reach before ``t``: the latest unbroken run of frames with a
        hand at some edge, if it was still in ``window_s`` seconds before ``t`` (an earlier
        reach, separated by frames with no hand, was another card's; a reach over longer
        ago is not taken for the hand of a card laid by a hand nobody saw)."""
        runs: list[tuple[float, set[int], int, bool]] = []   # (last time, seats, frames, still open), latest first
        for when, active in reversed(self.history):
            if when > t:
                continue
            if active and runs and runs[-1][2] > 0 and runs[-1][3]:
                runs[-1] = (runs[-1][0], runs[-1][1] | set(active), runs[-1][2] + 1, True)
            elif active:
                runs.append((when, set(active), 1, True))
            elif runs and runs[-1][3]:
                runs[-1] = (*runs[-1][:3], False)   # that run is over (going back in time)
        for last, seats, frames, _ in runs:
            if frames >= MIN_FRAMES:   # a lone frame is a flicker of the light, not an arm
                return sorted(seats) if last >= t - self.window_s else []
        return []
