"""Twins: two cards of one value in two suits printed in one ink, whose faces differ only in their suit signs
(a French deck's jack of spades and jack of clubs: one picture; the signs beside it and in the corners differ).

The full-size check (:mod:`vision.verify`) compares the card with each enrolled face as it lies, and no two
enrolment photos lie quite alike: one face's picture may sit a pixel lower or read larger than its twin's (tango's
jacks: 2.5 %).
Where two faces differ only in a few pixels of suit sign, that outweighs the signs, and tango's jack of spades
was named the jack of clubs at 0.98 (21 of its 37 wrong names in 1,000 scenes; vision/README.md, fifty-eighth
session). Here each face is first laid onto the image (an affine warp, ``cv2.findTransformECC``, on the grey print
with the light taken out) and blurred like it, so that what is left between the two is their print; then, where
the two laid faces clearly differ, the image must be more like the named face than its twin (``rival``).

    >>> twins = Twins(model.faces, InkCheck(model.faces), Tells(model.faces).faces)   # doctest: +SKIP
    >>> twins.of("blue-11")                                  # doctest: +SKIP
    ['purple-11']
    >>> twins.rival(flat, "blue-11")      # the twin the image is more like, or None  # doctest: +SKIP
    'purple-11'
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.features import RECT_SIZE
from vision.ghosts import id_parts
from vision.ink import InkCheck
from vision.tells import light_share, turned_like

RIM_PX = 4             # px at 63×88 left out all round: the outline's own uncertainty, the rounded corners
# two faces are twins when, one laid onto the other, their colours (a share of the paper's light) differ by more
# than TWIN_LEVEL on under TWIN_SHARE of the card: tango's spades and clubs 0.000-0.003 (the ace 0.022), simplistic's
# 0.002-0.015; a Pass Pass ink's neighbouring values 0.008+ (style 1) but those are one family, and the style-2 values
# of two inks 0.019+ are told by their ink (vision.ink: other_ink), so no style-1 or style-2 deck has twins
TWIN_LEVEL = 0.2
TWIN_SHARE = 0.03
# faces that differ so on this share of the card as they lie are not laid on each other (~1 ms): laying takes out a
# pixel or two of the photos' misregistration, which took the themes' twins from 0.055 at most to under 0.03;
# every style-1 Pass Pass pair of one value differs on 0.54 or more, style-2 Passe Eclair pairs on 0.14 or more
UNLAID_SHARE = 0.15
FIT_BLURS = (0.0, 0.8, 1.5, 2.5)   # px: each laid face blurred to the image's sharpness (as vision.verify)
DIFF_SHARE = 0.3       # where the two laid faces differ by more than this share of their largest difference
ECC_STEPS = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-3)   # about 1 ms a laying at 63×88


class Twins:
    """The enrolled faces' twins, each card's found when first needed, and the check of a naming against them."""

    def __init__(self, faces: dict[str, np.ndarray], ink: InkCheck, prints: dict[str, np.ndarray]):
        """``prints``: each face's colours as a share of its paper's light (vision.tells.light_share), as
        ``Tells.faces`` holds them."""
        self._faces = faces
        self._prints = prints
        self._greys: dict[str, np.ndarray] = {}   # each face's _grey, made when first needed
        self._ink = ink
        self._twins: dict[str, list[str]] = {}
        self._pairs: dict[tuple[str, str], bool] = {}   # whether two cards are twins: found once for both
        self._inner = np.zeros(RECT_SIZE[::-1], np.uint8)   # ECC's mask
        self._inner[RIM_PX:-RIM_PX, RIM_PX:-RIM_PX] = 1
        self._inside = self._inner > 0

    def of(self, card: str) -> list[str]:
        """``card``'s twins: the cards of its value (the ``b`` of ``a-b``) in another family, not told from it by
        their ink (vision.ink), whose faces laid on each other differ on under TWIN_SHARE of the card."""
        if card not in self._twins:
            self._twins[card] = [other for other in self._faces if self._are_twins(card, other)]
        return self._twins[card]

    prepare = of   # found ahead of a card's first reading (OutlineReader.preparing)

    def _are_twins(self, card: str, other: str) -> bool:
        a, b = id_parts(card), id_parts(other)
        if a is None or b is None or a[1] != b[1] or a[0] == b[0] or self._ink.other_ink(card, other):
            return False
        key = tuple(sorted((card, other)))   # the same answer whichever of the two is read first
        if key not in self._pairs:
            self._pairs[key] = self._print_alike(*key)
        return self._pairs[key]

    def _print_alike(self, card: str, other: str) -> bool:
        """Whether ``other``'s face laid onto ``card``'s differs from it on under TWIN_SHARE of the card."""
        ours = self._prints[card]
        theirs = turned_like(self._prints[other], ours)
        if _differing(ours, theirs) >= UNLAID_SHARE:
            return False
        warp = self._laying(_turned_like(self._grey_of(other), self._grey_of(card)), self._grey_of(card))
        laid = cv2.warpAffine(theirs, warp, RECT_SIZE, flags=cv2.INTER_LINEAR + cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
        return _differing(ours, laid) < TWIN_SHARE

    def _grey_of(self, card: str) -> np.ndarray:
        if card not in self._greys:
            self._greys[card] = _grey(self._faces[card])
        return self._greys[card]

    def rival(self, flat: np.ndarray, card: str) -> str | None:
        """The first of ``card``'s twins that ``flat`` (the card rectified as ``card``'s face lies) is more like
        than ``card``'s face, where the two faces, each laid onto it, clearly differ; None if none is."""
        twins = self.of(card) if card in self._faces else []
        if not twins:
            return None
        seen = _grey(flat)
        ours = self._laid(self._grey_of(card), seen)
        for twin in twins:
            theirs = self._laid(_turned_like(self._grey_of(twin), self._grey_of(card)), seen)
            if margin(seen, ours, theirs, self._inside) < 0:
                return twin
        return None

    def _laid(self, face: np.ndarray, seen: np.ndarray) -> np.ndarray:
        """``face`` laid onto ``seen`` (warped to fit it) and blurred as it best fits it."""
        laid = cv2.warpAffine(face, self._laying(face, seen), RECT_SIZE, flags=cv2.INTER_LINEAR + cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
        r = RIM_PX
        best, out = -2.0, laid
        for sigma in FIT_BLURS:
            t = cv2.GaussianBlur(laid, (0, 0), sigma) if sigma else laid
            c = _correlation(t[r:-r, r:-r], seen[r:-r, r:-r])
            if c > best:
                best, out = c, t
        return out

    def _laying(self, face: np.ndarray, onto: np.ndarray) -> np.ndarray:
        """The affine warp (2×3, inverse map) that lays grey ``face`` onto grey ``onto``: the identity if none
        is found (a blank or washed-out image)."""
        warp = np.eye(2, 3, dtype=np.float32)
        try:
            _, warp = cv2.findTransformECC(onto, face, warp, cv2.MOTION_AFFINE, ECC_STEPS, self._inner, 3)
        except cv2.error:
            warp = np.eye(2, 3, dtype=np.float32)
        return warp


def margin(seen: np.ndarray, ours: np.ndarray, theirs: np.ndarray, inner: np.ndarray) -> float:
    """How much more ``seen`` is like ``ours`` than ``theirs`` (a difference of correlations, -2..2), where
    the two clearly differ (DIFF_SHARE of their largest difference inside ``inner``)."""
    d = np.abs(ours - theirs) * inner
    where = d > DIFF_SHARE * float(d.max())
    if not where.any():
        return 0.0
    return _correlation(seen[where], ours[where]) - _correlation(seen[where], theirs[where])


def _differing(a: np.ndarray, b: np.ndarray) -> float:
    """The share of the card inside RIM_PX where two faces' colours (light_share) differ by over TWIN_LEVEL."""
    r = RIM_PX
    return float((np.abs(a - b).max(axis=2)[r:-r, r:-r] > TWIN_LEVEL).mean())


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    a = a.ravel() - a.mean()
    b = b.ravel() - b.mean()
    den = float(np.sqrt((a @ a) * (b @ b)))
    return float(a @ b) / den if den > 0 else 0.0


def _grey(face: np.ndarray) -> np.ndarray:
    """The grey print of a rectified card at RECT_SIZE, as a share of the light on its paper."""
    return light_share(face, blur=False).mean(axis=2)


def _turned_like(face: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """:func:`vision.tells.turned_like`, contiguous (as ``cv2.findTransformECC`` takes it)."""
    return np.ascontiguousarray(turned_like(face, ref))
