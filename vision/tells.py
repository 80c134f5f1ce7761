"""What tells a card from its look-alikes (a Passe Éclair face from the same player's with
another medallion), and whether another card lies over it.

A card partly under another is named from what shows. When the part that tells it from a
look-alike is under the other card, what shows there is that card's print, and the reading
may name the look-alike (a ``fabi-leon`` read as ``fabi-rocce``, another card over its
medallion). Such a card is not named (:meth:`Tells.hidden`; ``recognise.TELLS_HIDDEN``).

    >>> tells = Tells(model.faces)                     # doctest: +SKIP
    >>> tells.hidden(frame, matches[0], matches)       # its tell under a card on top  # doctest: +SKIP
    True
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.features import RECT_SIZE, _rectified_corners, rectify
from vision.ghosts import id_parts

TELL_BLUR = 1.0        # px at 63×88: a print half a pixel off is the same print
TELL_LEVEL = 40.0      # grey levels (largest channel) between two faces that count as a difference
COVERED_TELL = 0.3     # share of a card's tell under a card on top of it that leaves it unnamed
EDGE_PX = 3            # px at 63×88: an outline's own uncertainty
MIN_TOLD = 20          # px at 63×88 where two overlapping prints differ, to tell which lies on top
ON_TOP_MARGIN = 0.1    # by this much more alike the image there (a correlation) is the print on top


class Tells:
    """The tells of each enrolled face: for each look-alike (a card of its family, the same ``a`` of
    ``a-b``: a Pass Pass ink's other values, a Passe Éclair player with another medallion;
    :func:`vision.ghosts.id_parts`), where the two faces differ, a mask at RECT_SIZE."""

    def __init__(self, faces: dict[str, np.ndarray]):
        self.faces = {c: _flat(f) for c, f in faces.items()}
        self._inner = np.zeros(RECT_SIZE[::-1], bool)
        self._inner[EDGE_PX:-EDGE_PX, EDGE_PX:-EDGE_PX] = True
        families: dict[str, list[str]] = {}
        for card in self.faces:
            parts = id_parts(card)
            if parts is not None:
                families.setdefault(parts[0], []).append(card)
        self.tells: dict[str, list[np.ndarray]] = {}
        for members in families.values():
            for a in members:
                for b in members:
                    differs = np.abs(self.faces[a] - self.faces[b]).max(axis=2) > TELL_LEVEL
                    if b != a and differs.any():
                        self.tells.setdefault(a, []).append(differs)

    def hidden(self, frame: np.ndarray, match, others) -> bool:
        """True if COVERED_TELL of what tells ``match`` from one of its look-alikes lies under one of
        ``others`` (matches of the same frame) lying on top of it: its print, not ``match``'s, explains
        the image where they overlap."""
        tells = self.tells.get(match.card)
        if not tells:
            return False
        to_flat = cv2.getPerspectiveTransform(np.float32(match.corners), _rectified_corners(RECT_SIZE))
        flat = None
        for other in others:
            face = self.faces.get(other.card or other.best)
            if other is match or face is None:
                continue
            over = np.zeros(RECT_SIZE[::-1], np.uint8)
            quad = cv2.perspectiveTransform(np.float32(other.corners).reshape(-1, 1, 2), to_flat)
            cv2.fillConvexPoly(over, np.round(quad.reshape(-1, 2)).astype(np.int32), 1)
            if not any((tell & over.astype(bool)).sum() >= COVERED_TELL * tell.sum() for tell in tells):
                continue
            # which lies on top is told a few px inside both outlines: an outline found a little wide takes in
            # the other card's print beside it
            inside = cv2.erode(over, np.ones((2 * EDGE_PX + 1,) * 2, np.uint8)).astype(bool) & self._inner
            if flat is None:
                flat = _flat(rectify(frame, match.corners), blur=False)
            other_to_flat = cv2.getPerspectiveTransform(np.float32(other.corners), _rectified_corners(RECT_SIZE))
            theirs = cv2.warpPerspective(face, to_flat @ np.linalg.inv(other_to_flat), RECT_SIZE,
                                         flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            # which print explains the image where the two prints differ: where they are alike (the same ink's
            # stripes) nothing is told. Undecided, the card keeps its name
            ours = self.faces[match.card]
            told = inside & (np.abs(theirs - ours).max(axis=2) > TELL_LEVEL)
            if told.sum() >= MIN_TOLD and _likeness(flat[told], theirs[told]) > \
                    _likeness(flat[told], ours[told]) + ON_TOP_MARGIN:
                return True
        return False


def _flat(face: np.ndarray, blur: bool = True) -> np.ndarray:
    f = face.astype(np.float32)
    if f.shape[:2] != RECT_SIZE[::-1]:
        f = cv2.resize(f, RECT_SIZE, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(f, (0, 0), TELL_BLUR) if blur else f


def _likeness(seen: np.ndarray, face: np.ndarray) -> float:
    """Correlation of two sets of colour pixels, each channel's mean taken out (the light's level and
    tint; its strength cancels in the correlation)."""
    a, b = seen - seen.mean(axis=0), face - face.mean(axis=0)
    den = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum()) / den if den > 0 else 0.0
