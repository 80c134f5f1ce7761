"""What tells a card from its look-alikes (a Passe Éclair face from the same player's with
another medallion), and whether another card lies over it.

A card partly under another is named from what shows. When the part that tells it from a
look-alike is under the other card, what shows there is that card's print, and the reading
may name the look-alike (a ``fabi-leon`` read as ``fabi-rocce``, another card over its
medallion). Such a card is not named (:meth:`Tells.hidden`; ``rules.TELLS_HIDDEN``).
Nor is a card whose own print does not show where it differs from a look-alike, whatever
lies there (:meth:`Tells.unseen`; ``rules.TELLS_UNSEEN``): a token over a medallion is
found as nothing, and a grey token was read as a grey medallion.

    >>> tells = Tells(model.faces)                     # doctest: +SKIP
    >>> tells.hidden(frame, matches[0], matches)       # its tell under a card on top  # doctest: +SKIP
    True
    >>> tells.unseen(frame, matches[0])                # its tell not its own print  # doctest: +SKIP
    True
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.features import RECT_SIZE, _rectified_corners, flatten_light, rectify
from vision.ghosts import id_parts

TELL_BLUR = 1.0        # px at 63×88: a print half a pixel off is the same print
# a difference between two faces, each as a share of the light on its paper (vision.features.flatten_light):
# close-up enrolment photos each have their own light, and compared in grey levels two faces differed over
# much of the card (style 2: median 36-54 %, up to 93 %, where a medallion is about 4 %).
# 0.2: the 40 grey levels of ~200 on a paper this used to count in, before the light was taken out
TELL_LEVEL = 0.2
COVERED_TELL = 0.3     # share of a card's tell under a card on top of it that leaves it unnamed
EDGE_PX = 3            # px at 63×88: an outline's own uncertainty
# px at 63×88 from a corner point: a card's rounded corner (3-4 mm) and its outline's uncertainty (EDGE_PX). There
# a face shows the table of its enrolment photo, different under each face, so two look-alikes' faces "differed"
# there; on the table the corner shows that table, and a fully visible leon-rocce read 0.27 like its own face
# where it differs from leon-fabi, 0.83-0.86 with 10 px left out (style-2 fresh set 21; 6 px names it too, and
# still stops the four wrong names TELL_SEEN was made for: vision/README.md, forty-eighth session)
CORNER_PX = 6
MIN_TOLD = 20          # px at 63×88 where two overlapping prints differ, to tell which lies on top
ON_TOP_MARGIN = 0.1    # by this much more alike the image there (a correlation) is the print on top
# the image where a card differs from a look-alike, shifted up to SEEN_SHIFT px to fit (an outline a pixel or two
# off), at least this alike its own print there (a round value): the four wrong names known of a medallion under
# something else read 0.16-0.30; style-2 development seeds 100..1699 lost 3 right names of 6,945 to it, one of a
# fully visible card (vision/README.md, thirty-ninth session)
TELL_SEEN = 0.3
SEEN_SHIFT = 2
# where a card's own print is blank but its look-alike's is not (a 4 of clubs against its 5, whose middle pip
# lies where the 4 has paper), a correlation with blank paper is noise: what must show there is paper, the
# image plainer than halfway between the two prints (contrast: RMS as a share of the paper's light). Blank:
# under this contrast; camera noise is about 0.02. Tells of style 1 and 2 have 0.06 or more, so their checks
# are the correlation's as before; a French deck's pip cards have tells of 0.005-0.05 (vision.synth2.themes)
BLANK_TELL = 0.05


class Tells:
    """The tells of each enrolled face: for each look-alike (a card of its family, the same ``a`` of
    ``a-b``: a Pass Pass ink's other values, a Passe Éclair player with another medallion;
    :func:`vision.ghosts.id_parts`), where the two faces differ (a mask at RECT_SIZE) and that look-alike."""

    def __init__(self, faces: dict[str, np.ndarray]):
        self.faces = {c: light_share(f) for c, f in faces.items()}
        # where a tell is looked at: inside the outline's uncertainty, away from the rounded corners
        self._inner = np.zeros(RECT_SIZE[::-1], bool)
        self._inner[EDGE_PX:-EDGE_PX, EDGE_PX:-EDGE_PX] = True
        w, h = RECT_SIZE
        y, x = np.mgrid[0:h, 0:w]
        self._inner &= np.min([np.hypot(x - cx, y - cy) for cx in (0, w - 1) for cy in (0, h - 1)], axis=0) >= CORNER_PX
        # unseen(): each tell's pixels, its face there, and for a blank one the most contrast that shows it
        self._told: dict[str, list[tuple[np.ndarray, np.ndarray, float | None]]] = {}
        families: dict[str, list[str]] = {}
        for card in self.faces:
            parts = id_parts(card)
            if parts is not None:
                families.setdefault(parts[0], []).append(card)
        self.tells: dict[str, list[tuple[np.ndarray, str]]] = {}
        for members in families.values():
            for a in members:
                for b in members:
                    if b == a:
                        continue
                    other = turned_like(self.faces[b], self.faces[a])
                    differs = np.abs(self.faces[a] - other).max(axis=2) > TELL_LEVEL
                    if differs.any():
                        self.tells.setdefault(a, []).append((differs, b))

    def unseen(self, frame: np.ndarray, match) -> bool:
        """True if, where ``match``'s face differs from one of its look-alikes (MIN_TOLD px or more, inside
        its outline's uncertainty), the image, however shifted by up to SEEN_SHIFT px, is less like its own
        print than TELL_SEEN (a correlation): what tells it from that look-alike does not show."""
        self.prepare(match.card)
        tells = self._told[match.card]
        if not tells:
            return False
        flat = light_share(rectify(frame, match.corners), blur=False)
        pixels, shifted = flat.reshape(-1, 3), None
        for idx, ours, plain in tells:
            if _shows(pixels[idx][None], ours, plain)[0]:
                continue   # as it lies (nearly every card read right): no shift needed
            if shifted is None:
                k, (h, w) = SEEN_SHIFT, flat.shape[:2]
                wide = cv2.copyMakeBorder(flat, k, k, k, k, cv2.BORDER_REPLICATE)
                shifted = np.stack([wide[dy:dy + h, dx:dx + w].reshape(-1, 3)
                                    for dy in range(2 * k + 1) for dx in range(2 * k + 1)])
            if not _shows(shifted[:, idx], ours, plain).any():
                return True
        return False

    def prepare(self, card: str) -> None:
        """Makes what :meth:`unseen` needs of ``card`` (each tell's pixels, as flat indices, the named face's
        colours there and, where that face is blank, the most contrast that shows it: halfway to the
        look-alike's), if not made yet: the first time it is needed, or ahead of it."""
        if card not in self._told:
            face = self.faces[card]
            ours = face.reshape(-1, 3)
            self._told[card] = []
            for tell, rival in self.tells.get(card, []):
                idx = np.flatnonzero(tell & self._inner)
                if len(idx) < MIN_TOLD:
                    continue
                blank = float(_contrasts(ours[idx][None])[0])
                theirs = turned_like(self.faces[rival], face).reshape(-1, 3)[idx]
                plain = (blank + float(_contrasts(theirs[None])[0])) / 2 if blank < BLANK_TELL else None
                self._told[card].append((idx, ours[idx] - ours[idx].mean(axis=0), plain))

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
            if not any((tell & over.astype(bool)).sum() >= COVERED_TELL * tell.sum() for tell, _ in tells):
                continue
            # which lies on top is told a few px inside both outlines: an outline found a little wide takes in
            # the other card's print beside it
            inside = cv2.erode(over, np.ones((2 * EDGE_PX + 1,) * 2, np.uint8)).astype(bool) & self._inner
            if flat is None:
                flat = light_share(rectify(frame, match.corners), blur=False)
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


def light_share(face: np.ndarray, blur: bool = True) -> np.ndarray:
    """A rectified card at RECT_SIZE as a share of the light on its paper (blurred by TELL_BLUR)."""
    f = face.astype(np.float32)
    if f.shape[:2] != RECT_SIZE[::-1]:
        f = cv2.resize(f, RECT_SIZE, interpolation=cv2.INTER_AREA)
    f = flatten_light(f)
    return cv2.GaussianBlur(f, (0, 0), TELL_BLUR) if blur else f


def turned_like(face: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """``face`` or it turned by 180 degrees, whichever differs less from ``ref``: a face is enrolled the
    way round its photo lay, and half of a family's faces were stored turned against the others."""
    turned = face[::-1, ::-1]
    return turned if float(np.abs(turned - ref).mean()) < float(np.abs(face - ref).mean()) else face


def _shows(seen: np.ndarray, ours: np.ndarray, plain: float | None) -> np.ndarray:
    """Whether each of several sets of pixels ``seen`` (k, n, 3) at a tell shows the card's own print there:
    plainer than ``plain`` where that print is blank (BLANK_TELL), else like it, ``ours`` (TELL_SEEN)."""
    return _contrasts(seen) < plain if plain is not None else _likenesses(seen, ours) >= TELL_SEEN


def _contrasts(seen: np.ndarray) -> np.ndarray:
    """Contrast of each of several sets of colour pixels ``seen`` (k, n, 3): the RMS of their colours about
    their mean, as a share of the paper's light (0 on blank paper)."""
    return np.sqrt(((seen - seen.mean(axis=1, keepdims=True)) ** 2).sum(axis=2).mean(axis=1))


def _likenesses(seen: np.ndarray, face: np.ndarray) -> np.ndarray:
    """:func:`_likeness` of each of several sets of colour pixels ``seen`` (k, n, 3) with ``face`` (n, 3)."""
    a, b = seen - seen.mean(axis=1, keepdims=True), face - face.mean(axis=0)
    den = np.sqrt((a * a).sum(axis=(1, 2)) * float((b * b).sum()))
    return np.where(den > 0, (a * b).sum(axis=(1, 2)) / np.maximum(den, 1e-12), 0.0)


def _likeness(seen: np.ndarray, face: np.ndarray) -> float:
    """Correlation of two sets of colour pixels (n, 3), each channel's mean taken out (the light's level
    and tint; its strength cancels in the correlation)."""
    return float(_likenesses(seen[None], face)[0])
