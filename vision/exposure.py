"""Bringing any photo to a working size and a usable exposure before detection.

Phone photos run from 640×480 to 4032×3024 and some are underexposed (the card at a fifth
of full brightness). Detection thresholds are in grey levels and pixels, so a photo is
first shrunk to at most ``MAX_SIDE`` pixels on its long side, then stretched so that its
bright end sits near white.

    >>> import numpy as np
    >>> dark = np.full((3024, 4032, 3), 40, np.uint8); dark[1000:2000, 1500:2500] = 50
    >>> img, scale = working_copy(dark)
    >>> img.shape[:2], round(scale, 4)
    ((960, 1280), 0.3175)
    >>> out, gain = normalise_exposure(img)
    >>> int(out.max()) >= 200, round(gain, 1)
    (True, 4.8)
"""

from __future__ import annotations

import cv2
import numpy as np

MAX_SIDE = 1280          # long side of the working copy of a photo
BRIGHT_TARGET = 240.0    # the photo's 99.5th percentile is brought here
MAX_GAIN = 8.0           # beyond this the noise is all that is left


def working_copy(image: np.ndarray, max_side: int = MAX_SIDE) -> tuple[np.ndarray, float]:
    """``image`` shrunk (area-averaged) to at most ``max_side`` pixels long, and the scale used."""
    h, w = image.shape[:2]
    scale = min(1.0, max_side / max(h, w))
    if scale >= 1.0:
        return image, 1.0
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), scale


def normalise_exposure(image: np.ndarray) -> tuple[np.ndarray, float]:
    """A copy of ``image`` with its bright end stretched to white, and the gain used.

    One gain for all channels (colours keep their balance); never darkens a photo."""
    bright = image.max(axis=2)[::4, ::4]
    top = float(np.percentile(bright, 99.5))
    gain = float(np.clip(BRIGHT_TARGET / max(top, 1.0), 1.0, MAX_GAIN))
    if gain < 1.05:
        return image, 1.0
    return cv2.convertScaleAbs(image, alpha=gain), gain
