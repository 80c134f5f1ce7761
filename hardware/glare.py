"""A glare over the cup grid is not a move: a cell the camera cannot see keeps its last look.

A specular highlight (a lamp or the sun on the cups) adds white light: where it lies every
channel of the picture rises by about the same amount (until it clips at white), and
:mod:`vision.cups` reads a red cup under it as lifted or as a hand on it. A hand, a cup
lifted from the pale mat or a token held up changes the colour instead (its channels rise
by different amounts, or fall). :class:`GlareHold` sits in front of the cup watcher: a
cell where more than ``GLARE_SHARE`` of the pixels turned brighter-and-greyer than in the
last frame it was seen clearly (every channel up by ``RISE`` or more, within ``SPREAD`` of
each other) or newly clipped shows that clear look instead, so a glare changes nothing and
the move under it is seen once the glare has gone. A glare that stays longer than
``HOLD_FRAMES`` is let through (a lasting light is the table's light).

Measured on rendered grids from four camera placements (40 spots each, drawn as the
simulated table's ``glare`` fault draws them; 183 cells misread under them): every misread
cell had 47 % or more such pixels; a hand on any cup, a lift, or the same grid rendered
again under a new light at most 0.6 % (with a ``SPREAD`` of 0.35 a hand reached 28 %).

    >>> watcher = GlareHold(CupWatcher(...), calibration, profile, shot)   # doctest: +SKIP
    >>> watcher.process(frame)                                             # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import cv2
import numpy as np

CLIPPED = 250          # a channel this bright is blown out (the grid's pale mat is about 210)
RISE = 30              # grey levels every channel of a glared pixel rose by at least
SPREAD = 0.2           # ... its channels' rises within this share of the largest (white light)
GLARE_SHARE = 0.25     # share of a cell's pixels glared for it to be unseen
HOLD_FRAMES = 60       # 2 s at 30 fps: longer than that, the glare is the table's light


def glared(now: np.ndarray, clear: np.ndarray) -> np.ndarray:
    """The pixels of ``now`` that a white light brightened over ``clear`` (same-size BGR)."""
    rise = now.astype(np.int16) - clear.astype(np.int16)
    low, high = rise.min(axis=2), rise.max(axis=2)
    grey = (low >= RISE) & (high - low <= SPREAD * high)
    return grey | ((now.max(axis=2) >= CLIPPED) & (clear.max(axis=2) < CLIPPED))


class GlareHold:
    """The cup watcher ``watcher`` fed frames whose blown-out cells keep their last clear look."""

    def __init__(self, watcher: Any, calibration: Any, profile: Any, shot: np.ndarray):
        self.watcher = watcher
        self.boxes: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        self.masks: dict[tuple[int, int], np.ndarray] = {}
        h, w = shot.shape[:2]
        for cell in watcher.cells:
            x0, y0, x1, y1 = profile.cell_rect_mm(*cell)
            quad = calibration.to_image(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64))
            left, top = np.floor(quad.min(axis=0)).astype(int) - 1
            right, bottom = np.ceil(quad.max(axis=0)).astype(int) + 2
            left, top, right, bottom = max(0, left), max(0, top), min(w, right), min(h, bottom)
            mask = np.zeros((bottom - top, right - left), np.uint8)
            cv2.fillPoly(mask, [np.round(quad - (left, top)).astype(np.int32)], 255)
            self.boxes[cell], self.masks[cell] = (left, top, right, bottom), mask > 0
        self.clear = {cell: self._crop(shot, cell).copy() for cell in self.boxes}   # the last clear look
        self.held = {cell: 0 for cell in self.boxes}    # frames each cell has been blown out in a row
        self.held_frames = 0                            # frames in which some cell was held (figures)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.watcher, name)

    def _crop(self, image: np.ndarray, cell) -> np.ndarray:
        left, top, right, bottom = self.boxes[cell]
        return image[top:bottom, left:right]

    def process(self, frame: Any) -> list:
        image = frame.image
        patched = None
        for cell, mask in self.masks.items():
            crop = self._crop(image, cell)
            if np.count_nonzero(glared(crop, self.clear[cell]) & mask) <= GLARE_SHARE * np.count_nonzero(mask):
                self.held[cell] = 0
                self.clear[cell] = crop.copy()
                continue
            self.held[cell] += 1
            if self.held[cell] > HOLD_FRAMES:
                continue   # a lasting light: what the camera sees is read
            if patched is None:
                patched = image.copy()
            self._crop(patched, cell)[mask] = self.clear[cell][mask]
        if patched is not None:
            self.held_frames += 1
            frame = replace(frame, image=patched)
        return self.watcher.process(frame)
