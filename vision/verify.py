"""The last look before a card is named: the whole rectified face against its closest rivals.

The descriptors of :mod:`vision.features` are coarse (21×29): two Passe Éclair faces that
differ only in the small footballer's medallion, or two inks of one value under a
coloured lamp, can score alike. Here the card is compared at the full rectified size
(63×88), with the light taken out like ``describe_contrast`` (log colours minus their
blur), and only where the named face and a rival's face clearly differ: the card must lie
on the named face's side of every rival. The answer is the smallest such margin, from −0.5
(it is the rival) through 0 (halfway) to +0.5 (exactly the named face).

    >>> face_a = np.full((88, 63, 3), 200, np.uint8); face_b = face_a.copy()
    >>> _ = cv2.circle(face_a, (45, 70), 6, (40, 40, 200), -1); _ = cv2.circle(face_b, (45, 70), 6, (200, 40, 40), -1)
    >>> check = FineCheck({"a": face_a, "b": face_b})
    >>> round(check.margin(face_a, "a", ["b"]), 2), round(check.margin(face_b, "a", ["b"]), 2)
    (0.5, -0.5)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.features import CHROMA_GAIN, CONTRAST_INSET, RECT_SIZE

LIGHT_SIGMA = 12.0   # px at 63×88: slower changes are the light's
ALIGN_SIGMA = 1.0    # px: a corner half a pixel off must not look like a different print
DIFF_SHRINK = 0.3    # differences below this share of the largest are the photos' own noise


def fine(flat: np.ndarray) -> np.ndarray:
    """The print of a rectified card (RECT_SIZE), light taken out, as an array (h, w, 3)."""
    if flat.shape[1::-1] != RECT_SIZE:
        flat = cv2.resize(flat, RECT_SIZE, interpolation=cv2.INTER_AREA)
    h, w = flat.shape[:2]
    dx, dy = int(round(w * CONTRAST_INSET)), int(round(h * CONTRAST_INSET))
    log = np.log(flat[dy:h - dy, dx:w - dx].astype(np.float32) + 4.0)
    log -= cv2.GaussianBlur(log, (0, 0), LIGHT_SIGMA)
    log = cv2.GaussianBlur(log, (0, 0), ALIGN_SIGMA)
    grey = log.mean(axis=2, keepdims=True)
    return grey + CHROMA_GAIN * (log - grey)


class FineCheck:
    """The enrolled faces, prepared once (both turns)."""

    def __init__(self, faces: dict[str, np.ndarray]):
        self._faces = {}
        for card, face in faces.items():
            f = fine(face)
            self._faces[card] = (f, f[::-1, ::-1])

    def margin(self, flat: np.ndarray, card: str, rivals) -> float:
        """Smallest margin of ``flat`` (the card rectified as ``card``'s face lies) for
        ``card`` against each of ``rivals``; 0.5 when there is nothing to compare."""
        if card not in self._faces:
            return 0.5
        v = fine(flat)
        tb = self._faces[card][0]
        out = 0.5
        for rival in rivals:
            if rival not in self._faces or rival == card:
                continue
            # the rival's face the way round it resembles the card best
            tc = max(self._faces[rival], key=lambda t: float((t * v).sum()))
            d = tb - tc
            mag = np.abs(d)
            focus = np.sign(d) * np.maximum(mag - DIFF_SHRINK * float(mag.max()), 0.0)
            dd = float((d * focus).sum())
            if dd > 1e-9:
                out = min(out, float(((v - (tb + tc) / 2) * focus).sum()) / dd)
        return out
