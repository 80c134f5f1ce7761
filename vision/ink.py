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
Éclair face mixes several colours, and its median hue says nothing. For those,
:class:`DifferenceHue` looks only where two faces' colours differ (two footballers' cards
alike but for an orange or a green medallion): is the card's colour there turned towards the
named face's or the rival's, however faded? Where one of the two is grey (a French deck's black pip
against a red one), a grey has no direction: how much of the coloured face's colour shows there?

    >>> paper = np.full((88, 63, 3), 230, np.uint8)
    >>> blue, green = paper.copy(), paper.copy()
    >>> _ = cv2.circle(blue, (31, 44), 12, (150, 60, 20), -1); _ = cv2.circle(green, (31, 44), 12, (60, 120, 20), -1)
    >>> washed = paper.copy(); _ = cv2.circle(washed, (31, 44), 12, (110, 85, 70), -1)   # blue, its colour mostly gone
    >>> inks = InkCheck({"blue-9": blue, "green-9": green})
    >>> inks.rival_hue(washed, "green-9", ["blue-9"]), inks.rival_hue(washed, "blue-9", ["green-9"])
    ('blue-9', None)
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.features import RECT_SIZE, flatten_light
from vision.ghosts import one_family

INK_LEVEL = 0.6      # a pixel below this share of its paper's light is ink
EDGE_PX = 4          # the rim is left out (a border, the cloth beside the card)
MIN_INK_PX = 6
MIN_HUE = 0.05       # log-colour strength below which the ink is grey: no hue to compare
ONE_INK_COS = 0.9    # an ink pixel of the face's hue is at least this near it
ONE_INK_SHARE = 0.9  # share of ink pixels of one hue that makes a face "printed in one ink"
SAME_INK_COS = 0.95  # two faces whose hues are this near are in one ink: nothing to tell
# only inks this near each other are compared: washing out confuses a blue and a green (hue cosine 0.76-0.83 on
# style 2), never a green and a yellow (-0.3), yet dark-bordered greens were read nearer their yellow rival's
# hue than their own (style-2 development seeds 100..699: 7 right names refused so, no wrong name stopped)
NEAR_INK_COS = 0.5
# and only inks with a colour: a black's cast is not one. The faces printed in one coloured ink read 0.55 and more
# (log-colour strength of their hue) on style 1, 0.34 and more on style 2 (full-bleed purples); the black pip faces
# of the AisleRiot themes that pass ONE_INK_SHARE read 0.06-0.17 (lattmann's warm black 0.11-0.17, its hue 0.9 of
# its red's): its ace of spades was refused for the ace of diamonds on 6 of 300 scenes (vision/README.md,
# fifty-seventh session)
NEAR_INK_MIN_HUE = 0.25


def ink_hue(flat: np.ndarray) -> tuple[np.ndarray | None, float]:
    """(unit log-colour direction of the ink of a rectified card, or None when it has
    little ink or grey ink; share of its ink pixels of that hue)."""
    hue, share, _ = _ink_reading(flat)
    return hue, share


def _ink_reading(flat: np.ndarray) -> tuple[np.ndarray | None, float, float]:
    """:func:`ink_hue`'s answer and the hue's strength (log colour; 0.0 with no hue)."""
    if flat.shape[1::-1] != RECT_SIZE:
        flat = cv2.resize(flat, RECT_SIZE, interpolation=cv2.INTER_AREA)
    f = flatten_light(flat)[EDGE_PX:-EDGE_PX, EDGE_PX:-EDGE_PX]
    ink = f[f.mean(axis=2) < INK_LEVEL]
    if len(ink) < MIN_INK_PX:
        return None, 0.0, 0.0
    log = np.log(ink)
    chroma = log - log.mean(axis=1, keepdims=True)
    hue = np.median(chroma, axis=0)
    strength = float(np.linalg.norm(hue))
    if strength < MIN_HUE:
        return None, 0.0, 0.0
    hue /= strength
    each = chroma / np.maximum(np.linalg.norm(chroma, axis=1, keepdims=True), 1e-6)
    return hue, float(((each @ hue) > ONE_INK_COS).mean()), strength


class InkCheck:
    """The enrolled faces' ink hues, each found once when first needed."""

    def __init__(self, faces: dict[str, np.ndarray]):
        self._faces = faces
        self._hues: dict[str, np.ndarray | None] = {}
        self._coloured: dict[str, bool] = {}   # its one ink's hue at least NEAR_INK_MIN_HUE strong

    def prepare(self, card: str) -> None:
        """Finds ``card``'s ink hue now, if not found yet (ahead of its first need)."""
        self._hue(card)

    def _hue(self, card: str) -> np.ndarray | None:
        if card not in self._hues:
            hue, share, strength = _ink_reading(self._faces[card]) if card in self._faces else (None, 0.0, 0.0)
            self._hues[card] = hue if share >= ONE_INK_SHARE else None
            self._coloured[card] = self._hues[card] is not None and strength >= NEAR_INK_MIN_HUE
        return self._hues[card]

    def one_ink(self, card: str) -> bool:
        """Whether ``card``'s face is printed in one ink (nine ink pixels in ten of one hue)."""
        return self._hue(card) is not None

    def _inks_cos(self, card: str, rival: str) -> float | None:
        """The cosine of ``card``'s and ``rival``'s inks, or None unless each is printed in one ink."""
        a, b = self._hue(card), self._hue(rival)
        return None if a is None or b is None else float(a @ b)

    def other_ink(self, card: str, rival: str) -> bool:
        """Whether ``card`` and ``rival`` are each printed in one ink, and not the same one."""
        cos = self._inks_cos(card, rival)
        return cos is not None and cos < SAME_INK_COS

    def same_ink(self, card: str, rival: str) -> bool:
        """Whether ``card`` and ``rival`` are each printed in one ink, and the same one."""
        cos = self._inks_cos(card, rival)
        return cos is not None and cos >= SAME_INK_COS

    def near_ink(self, card: str, rival: str) -> bool:
        """Whether ``card`` and ``rival`` are each printed in one ink, another but a near one
        (NEAR_INK_COS): inks a camera's washing out confuses (a blue and a green), not a green and
        a yellow; nor a black, whatever its cast (NEAR_INK_MIN_HUE)."""
        cos = self._inks_cos(card, rival)
        return (cos is not None and NEAR_INK_COS <= cos < SAME_INK_COS
                and self._coloured[card] and self._coloured[rival])

    def rival_hue(self, flat: np.ndarray, card: str, rivals) -> str | None:
        """The first of ``rivals`` printed in another ink than ``card``, but a near one (NEAR_INK_COS),
        whose hue the ink of ``flat`` (the card rectified as ``card``'s face lies) is nearer, or None."""
        named = self._hue(card)
        if named is None:
            return None
        seen = None
        for rival in rivals:
            if rival == card or not self.near_ink(card, rival):
                continue
            other = self._hue(rival)
            if seen is None:
                seen, _ = ink_hue(flat)
                if seen is None:
                    return None
            if float(seen @ other) > float(seen @ named):
                return rival
        return None


# DifferenceHue: where two faces' colours differ, the card's colour must turn towards the named
# face's. Chosen on style-2 development seeds 100..399 (the evaluation seeds never looked at):
# among 1,026 right namings one leant towards a rival by more than 0.07 (-0.16: blue-4 against
# blue-7, one ink, where the lean only says where the ink lies); leon-fabi cards read as leon-rocce
# leant towards their own face by 0.19 to 0.88 (an orange or a green medallion), leon-rocce cards
# named right leant away from leon-fabi by 0.2 to 0.4
DIFF_SHARE = 0.5     # a pixel whose colour differs by this share of the largest difference is looked at
MIN_DIFF = 0.15      # faces whose colours differ less than this (log colour) anywhere: nothing to tell
MAX_LEAN = 0.15      # the card leaning this far towards the rival's colours (see DifferenceHue.lean) vetoes
# leaning this far towards the named face's colours, the card's colour overrules the full-size check
# (vision.verify), which reads grey and colour together: on style-2 development seeds 100..399 every
# *-fabi card named right there but stopped by it (51, fine margins -0.33 to 0, an orange medallion
# read paler than enrolled) leant 0.19 to 0.34 towards its own face, every wrong name it stopped
# (24, all Pass Pass inks) -0.22 or less
MIN_FAVOUR = 0.15
CHROMA_BLUR = 1.0    # px at 63×88: a corner half a pixel off must not change the colour read
# A near-black pixel's log colour is mostly the camera's noise (the log of a small value) and the black's own
# cast: black pips of a French deck (vision.synth2.themes) against paper differed by up to 0.7 there, and the
# colours' veto refused right clubs for spades. Its colour counts not at all under HUE_DARK of its paper's light,
# fully from HUE_LIT. Every pair of faces of styles 1 and 2 still differs by 0.4 or more (MIN_DIFF 0.15);
# a French deck's black pip cards by under 0.3
HUE_DARK, HUE_LIT = 0.15, 0.35
# Where one face is grey (a black pip, blank paper: its colour's RMS there under GREY_RMS) and the other coloured
# (COLOURED_RMS or more, a round 3 x GREY_RMS), the grey face's colour has no direction to compare, only noise:
# a French deck's black 9 of spades leant towards the red 9 of diamonds by that noise and was refused (lattmann
# theme, 96 of the 98 black pip cards read right and refused). Such a pair is told by the amount of the coloured
# face's colour the card shows there (DifferenceHue.lean): SHOWN_HALF is the lean's zero. Not two cards of one
# family (a green 8 against a green 4, blank paper where the 8 has a pip): their colours are compared as before,
# and such a pair is told by where its print lies (a washed-out green 8 showed 0.10). Measured at the true
# corners of fully visible cards (lattmann 3,100,100..3,100,399; style-2 development seeds 100..499), grey
# cards showed at most 0.13 of it (lattmann; 0.04 style 2), coloured cards at least 0.28 (lattmann; 0.15, a
# rocce-fabi against the dog, style 2). Where neither face is coloured (both under COLOURED_RMS: two black
# cards, one enrolled under a tinted light), nothing is told by colour: orell's 7 of spades was refused for its 8,
# whose photo's cast is all the colour there (32 of the 34 black pip cards refused after the rule above). Every pair
# of style-2 faces has one side at 0.156 or more
GREY_RMS = MIN_HUE
COLOURED_RMS = 0.15
SHOWN_HALF = 0.12
PAIRS_KEPT = 4096    # DifferenceHue's prepared pairs (a few kB each): forgotten all at once beyond this


def chroma(flat: np.ndarray) -> np.ndarray:
    """Log colour of a rectified card with its light and its grey taken out (h, w, 3), rim left out;
    none where the print is near black (HUE_DARK, HUE_LIT)."""
    if flat.shape[1::-1] != RECT_SIZE:
        flat = cv2.resize(flat, RECT_SIZE, interpolation=cv2.INTER_AREA)
    share = flatten_light(flat)
    log = np.log(share)
    lit = np.clip((share.mean(axis=2, keepdims=True) - HUE_DARK) / (HUE_LIT - HUE_DARK), 0.0, 1.0)
    c = cv2.GaussianBlur((log - log.mean(axis=2, keepdims=True)) * lit, (0, 0), CHROMA_BLUR)
    return c[EDGE_PX:-EDGE_PX, EDGE_PX:-EDGE_PX]


class _ByDirection(NamedTuple):
    """Two faces told by the direction of their colours where they differ: unit vectors, how far apart."""
    where: np.ndarray
    named: np.ndarray
    rival: np.ndarray
    apart: float


class _ByAmount(NamedTuple):
    """Two faces, one grey where they differ, told by how much of the other's colour shows: ``coloured``
    (that face's colours over their squared norm: a dot product with it is the share shown), ``towards``
    +1 if the coloured face is the named one, -1 if it is the rival."""
    where: np.ndarray
    coloured: np.ndarray
    towards: float


class DifferenceHue:
    """The enrolled faces' colours, compared only where two faces differ.

        >>> paper = np.full((88, 63, 3), 225, np.uint8)
        >>> orange, green = paper.copy(), paper.copy()
        >>> _ = cv2.circle(orange, (45, 70), 6, (30, 120, 230), -1)
        >>> _ = cv2.circle(green, (45, 70), 6, (60, 200, 60), -1)
        >>> faded = paper.copy(); _ = cv2.circle(faded, (45, 70), 6, (150, 175, 200), -1)   # orange, mostly faded
        >>> hues = DifferenceHue({"fabi": orange, "rocce": green})
        >>> hues.rival(faded, "rocce", ["fabi"]), hues.rival(faded, "fabi", ["rocce"])
        ('fabi', None)
        >>> hues.favours(faded, "fabi", ["rocce"]), hues.favours(faded, "rocce", ["fabi"])
        (True, False)
    """

    def __init__(self, faces: dict[str, np.ndarray]):
        self._faces = faces
        self._chroma: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._pairs: dict[tuple[str, str], _ByDirection | _ByAmount | None] = {}

    def prepare(self, card: str) -> None:
        """Makes ``card``'s face colours (both turns) now, if not made yet (ahead of their first need)."""
        if card in self._faces:
            self._turns(card)

    def _turns(self, card: str) -> tuple[np.ndarray, np.ndarray]:
        if card not in self._chroma:
            c = chroma(self._faces[card])
            self._chroma[card] = (c, c[::-1, ::-1])
        return self._chroma[card]

    def _pair(self, card: str, rival: str) -> _ByDirection | _ByAmount | None:
        """How ``card``'s and ``rival``'s faces are told apart by colour where they differ, or None:
        nothing to compare. Made once per pair (the rival the way round that differs least from the
        named face)."""
        key = (card, rival)
        if key not in self._pairs:
            if len(self._pairs) >= PAIRS_KEPT:
                self._pairs.clear()
            a = self._turns(card)[0]
            b = min(self._turns(rival), key=lambda t: float(np.abs(a - t).mean()))
            d = np.linalg.norm(a - b, axis=2)
            where = d > DIFF_SHARE * float(d.max())
            out = None
            if float(d.max()) >= MIN_DIFF and int(where.sum()) >= MIN_INK_PX:
                a, b = a[where].ravel(), b[where].ravel()
                na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
                grey, coloured = sorted((na, nb))
                if coloured < COLOURED_RMS * np.sqrt(len(a)):
                    pass   # neither face coloured there: a photo's cast, nothing to tell them by
                elif grey < GREY_RMS * np.sqrt(len(a)) and not one_family(card, rival):
                    out = _ByAmount(where, (a if na > nb else b) / coloured ** 2, 1.0 if na > nb else -1.0)
                elif na >= 1e-6 and nb >= 1e-6:
                    ua, ub = a / na, b / nb
                    out = _ByDirection(where, ua, ub, float(np.sqrt(max(2.0 - 2.0 * float(ua @ ub), 1e-6))))
            self._pairs[key] = out
        return self._pairs[key]

    def lean(self, seen: np.ndarray, card: str, rival: str) -> float | None:
        """How far the colour of ``seen`` (:func:`chroma` of the card rectified as ``card``'s
        face lies) turns from ``card``'s face towards ``rival``'s, where the two differ:
        its cosine with the rival's colours less its cosine with the named face's, over how far
        apart the two faces' colours point there (so two faces alike in hue are not judged on
        noise). Negative: nearer the rival. None when there is nothing to compare. Where one of the
        two faces is grey (GREY_RMS; the other COLOURED_RMS or more): the share of the coloured face's
        colour ``seen`` shows there, less SHOWN_HALF, over SHOWN_HALF (within -1..1), turned towards
        whichever face is the named one."""
        pair = self._pair(card, rival)
        if pair is None:
            return None
        if isinstance(pair, _ByAmount):
            shown = float(seen[pair.where].ravel() @ pair.coloured)
            return float(np.clip(pair.towards * (shown - SHOWN_HALF) / SHOWN_HALF, -1.0, 1.0))
        where, ua, ub, apart = pair
        s = seen[where].ravel()
        ns = float(np.linalg.norm(s))
        if ns < MIN_HUE * np.sqrt(len(s) / 3):
            return None   # grey there (the colour all washed out): no hue to compare
        return float(s @ (ua - ub)) / ns / apart

    def favours(self, flat: np.ndarray, card: str, rivals) -> bool:
        """Whether the colours of ``flat`` (the card rectified as ``card``'s face lies) lean towards
        ``card``'s face by MIN_FAVOUR or more against every one of ``rivals``, where they differ
        (False if any pair cannot be told by colour: two values of one ink)."""
        if card not in self._faces or not rivals:
            return False
        seen = chroma(flat)
        for rival in rivals:
            lean = self.lean(seen, card, rival) if rival in self._faces else None
            if lean is None or lean < MIN_FAVOUR:
                return False
        return True

    def hidden_share(self, seen: np.ndarray, card: str, rival: str) -> float:
        """The share of the place ``card``'s and ``rival``'s faces differ in colour that ``seen`` (bool, at
        RECT_SIZE, as ``card``'s face lies: see vision.features.in_view) does not show; 0.0 when
        nothing tells them apart by colour."""
        pair = self._pair(card, rival) if card in self._faces and rival in self._faces else None
        if pair is None:
            return 0.0
        where = pair.where
        return 1.0 - float(seen[EDGE_PX:-EDGE_PX, EDGE_PX:-EDGE_PX][where].mean())

    def rival(self, flat: np.ndarray, card: str, rivals, below: float = -MAX_LEAN) -> str | None:
        """The first of ``rivals`` the colours of ``flat`` (the card rectified as ``card``'s
        face lies) lean towards by more than MAX_LEAN where its face and ``card``'s differ, or None.
        ``below``: the lean (:meth:`lean`) under which a rival is given; 0.05 asks the colours to
        lean that much towards ``card``'s own face."""
        if card not in self._faces:
            return None
        seen = None
        for rival in rivals:
            if rival == card or rival not in self._faces or self._pair(card, rival) is None:
                continue
            if seen is None:
                seen = chroma(flat)
            lean = self.lean(seen, card, rival)
            if lean is not None and lean < below:
                return rival
        return None


__all__ = ["DifferenceHue", "InkCheck", "chroma", "ink_hue"]
