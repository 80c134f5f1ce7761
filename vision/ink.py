"""The hue of a card's ink, whatever its strength: two inks told apart when the camera has
washed the colour out.

A card seen small in a frame loses much of its colour (the lens, a phone camera's
chroma subsampling and noise reduction): on style-2 scenes the ink of the dark-bordered
Pass Pass faces kept 20-60 % of the colour it had on the close-up enrolment photo, in the
same direction. Both readings of :mod:`vision.recognise` measure colour by its amount, so
a washed-out blue 9 lay nearer the green 9's face than its own (named green 9 twice in 500
untuned scenes, and in a development one). The direction of the colour (the ink's hue,
in log colours, with the light taken out) survives: a washed blue is still blue.

Only faces printed in one ink are compared (nine ink pixels in ten of one hue): a Passe
Éclair face mixes several colours, and its median hue says nothing.

    >>> paper = np.full((88, 63, 3), 230, np.uint8)
    >>> blue, green = paper.copy(), paper.copy()
    >>> _ = cv2.circle(blue, (31, 44), 12, (150, 60, 20), -1); _ = cv2.circle(green, (31, 44), 12, (60, 120, 20), -1)
    >>> washed = paper.copy(); _ = cv2.circle(washed, (31, 44), 12, (110, 85, 70), -1)   # blue, its colour mostly gone
    >>> inks = InkCheck({"blue-9": blue, "green-9": green})
    >>> inks.rival_hue(washed, "green-9", ["blue-9"]), inks.rival_hue(washed, "blue-9", ["green-9"])
    ('blue-9', None)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.features import RECT_SIZE, flatten_light

INK_LEVEL = 0.6      # a pixel below this share of its paper's light is ink
EDGE_PX = 4          # the rim is left out (a border, the cloth beside the card)
MIN_INK_PX = 6
MIN_HUE = 0.05       # log-colour strength below which the ink is grey: no hue to compare
ONE_INK_COS = 0.9    # an ink pixel of the face's hue is at least this near it
ONE_INK_SHARE = 0.9  # share of ink pixels of one hue that makes a face "printed in one ink"
SAME_INK_COS = 0.95  # two faces whose hues are this near are in one ink: nothing to tell


def ink_hue(flat: np.ndarray) -> tuple[np.ndarray | None, float]:
    """(unit log-colour direction of the ink of a rectified card, or None when it has
    little ink or grey ink; share of its ink pixels of that hue)."""
    if flat.shape[1::-1] != RECT_SIZE:
        flat = cv2.resize(flat, RECT_SIZE, interpolation=cv2.INTER_AREA)
    f = flatten_light(flat)[EDGE_PX:-EDGE_PX, EDGE_PX:-EDGE_PX]
    ink = f[f.mean(axis=2) < INK_LEVEL]
    if len(ink) < MIN_INK_PX:
        return None, 0.0
    log = np.log(ink)
    chroma = log - log.mean(axis=1, keepdims=True)
    hue = np.median(chroma, axis=0)
    strength = float(np.linalg.norm(hue))
    if strength < MIN_HUE:
        return None, 0.0
    hue /= strength
    each = chroma / np.maximum(np.linalg.norm(chroma, axis=1, keepdims=True), 1e-6)
    return hue, float(((each @ hue) > ONE_INK_COS).mean())


class InkCheck:
    """The enrolled faces' ink hues, each found once when first needed."""

    def __init__(self, faces: dict[str, np.ndarray]):
        self._faces = faces
        self._hues: dict[str, np.ndarray | None] = {}

    def _hue(self, card: str) -> np.ndarray | None:
        if card not in self._hues:
            hue, share = ink_hue(self._faces[card]) if card in self._faces else (None, 0.0)
            self._hues[card] = hue if share >= ONE_INK_SHARE else None
        return self._hues[card]

    def rival_hue(self, flat: np.ndarray, card: str, rivals) -> str | None:
        """The first of ``rivals`` printed in another ink than ``card`` whose hue the ink of
        ``flat`` (the card rectified as ``card``'s face lies) is nearer, or None."""
        named = self._hue(card)
        if named is None:
            return None
        seen = None
        for rival in rivals:
            other = self._hue(rival) if rival != card else None
            if other is None or float(named @ other) > SAME_INK_COS:
                continue
            if seen is None:
                seen, _ = ink_hue(flat)
                if seen is None:
                    return None
            if float(seen @ other) > float(seen @ named):
                return rival
        return None


__all__ = ["InkCheck", "ink_hue"]
