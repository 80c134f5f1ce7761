"""Finding the card of a close-up photo (enrolment), whatever the table.

Three sources of whole-card outlines are pooled: the detector's paper mask and edge loops
(see :mod:`vision.detect`), and a GrabCut segmentation of the shrunk photo started from
"the table is round the edges" — the card differs from the table in colour even when
neither is pale, and GrabCut follows it where edges are broken by wood grain or print.
Outlines much smaller than the largest (a pip, a printed panel) are parts of it, not cards.

    >>> import numpy as np
    >>> img = np.full((480, 640, 3), (120, 170, 210), np.uint8)            # light wood
    >>> _ = cv2.rectangle(img, (200, 100), (370, 340), (40, 140, 40), -1)   # a green card
    >>> [q.shape for q in card_outlines(img)]
    [(4, 2)]
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import CardDetector, DetectorSettings, _four_corners, _outline_fit, _plausible, _refine, quad_overlap
from vision.features import NEXT, order_clockwise
from vision.outline import snap_any

PHOTO_SETTINGS = DetectorSettings(max_area_frac=0.85)
GRABCUT_SIDE = 360         # long side of the photo GrabCut works on
# GrabCut's colour models start from k-means seeded by OpenCV's global random state: unseeded, the
# same photo enrolled four times in a row gave faces up to 7 grey levels apart, and after another
# seed it was refused. Seeded, a photo gives the same face every time; a photo one seed cannot cut
# is cut with the next (fixed values, not chosen)
GRABCUT_SEEDS = (1, 2, 3)
# how far (share of the card's longest side) a corner may move when GrabCut's outline is squared up
# by lines fitted to its sides. A fixed 6 px (the detector's, at half size) kept a corner 8 px off at GrabCut's
# 360 px, where a shadow or the table's colour took a card's rounded corner away: faces enrolled
# 1.5-2.6 px off at 63x88 (8 of 70 full-bleed style-2 faces), and photos refused as "no whole card"
# (20 of 161 tried). A round share, not tuned (vision/README.md, "Enrolment photos")
REFINE_REACH = 0.08
CUT_SIDE = 0.25   # share of the card's shorter side lying along the frame's edge: cut by it (a round value)
PART_SHARE = 0.3           # an outline under this share of the largest one's area is a part of it
SAME_CARD = 0.6            # overlap (of the smaller) above which two outlines are one card
MIN_SHARE = 0.01           # of the frame: smaller outlines are print on a card, not a card
# what is not the table around an outline, this many times the outline's area: it lies on
# something bigger, the print of a card whose own edge was lost (style-1 close-ups: at most
# 1.29 of 140, the card and its shadow; a footballer's shirt on a full-bleed card: 3.3)
ENCLOSED_SHARE = 2.0
# something off the table elsewhere, this many times an outline's area, while the outline lies on the
# table's colour: the outline is the table's own pattern (a brick of a brick table taken for the card in an
# underexposed close-up of a queen of hearts, the card itself missed: forty-second session), the card is
# elsewhere. The same round value as ENCLOSED_SHARE, not tuned
OUTWEIGHED_SHARE = 2.0


def grabcut_quad(image: np.ndarray) -> np.ndarray | None:
    """The card's corners (``image`` px) from a GrabCut segmentation, or None."""
    h, w = image.shape[:2]
    k = min(1.0, GRABCUT_SIDE / max(h, w))
    small = cv2.resize(image, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA) if k < 1 else image
    for seed in GRABCUT_SEEDS:
        quad = _grabcut_once(small, seed)
        if quad is not None:
            corners = order_clockwise((quad + 0.5) / k - 0.5)
            return snap_any(image, corners) if _plausible(corners, PHOTO_SETTINGS) else None
    return None


def _grabcut_once(small: np.ndarray, seed: int) -> np.ndarray | None:
    """The card's quad in ``small`` from one GrabCut run whose colour models start from ``seed``."""
    sh, sw = small.shape[:2]
    mask = np.full((sh, sw), cv2.GC_PR_FGD, np.uint8)
    border = max(2, round(0.01 * max(sh, sw)))
    mask[:border], mask[-border:], mask[:, :border], mask[:, -border:] = (cv2.GC_BGD,) * 4
    bgd, fgd = np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64)
    cv2.setRNGSeed(seed)   # GrabCut's k-means starts from OpenCV's global random state (GRABCUT_SEEDS)
    try:
        cv2.grabCut(small, mask, None, bgd, fgd, 4, cv2.GC_INIT_WITH_MASK)
    except cv2.error:
        return None
    fg = np.where((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD), 255, 0).astype(np.uint8)
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    c = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(c)
    hull = cv2.convexHull(c)
    if area < 0.02 * sh * sw or area > 0.85 * sh * sw or area < 0.9 * cv2.contourArea(hull):
        return None
    # the band kept as background, and the 3 px opening: a segment this near an edge ran into it. A
    # whole card near an edge comes this close with a corner; a card cut by the edge (or the table
    # itself) with a side along it. Two edges touched anyhow were asked for until 2026-11-28, and a
    # card cut by the top edge was enrolled with two GrabCut seeds of three
    near = border + 2
    pts = c.reshape(-1, 2)
    along = np.count_nonzero((pts[:, 0] <= near) | (pts[:, 1] <= near)
                             | (pts[:, 0] >= sw - 1 - near) | (pts[:, 1] >= sh - 1 - near))
    _, _, bw, bh = cv2.boundingRect(c)
    if along > CUT_SIDE * min(bw, bh):
        return None
    quad = _four_corners(hull)
    if quad is None:
        return None
    pts = pts.astype(np.float32)
    longest = float(np.linalg.norm(quad - quad[NEXT], axis=1).max())
    quad = _refine(pts, quad, max_move=max(6.0, REFINE_REACH * longest))
    return quad if _outline_fit(pts, quad, tol=2.0) >= 0.8 else None


def card_outlines(image: np.ndarray, detector: CardDetector | None = None) -> list[np.ndarray]:
    """Whole-card outlines in a close-up photo (normally one), largest first."""
    min_area = MIN_SHARE * image.shape[0] * image.shape[1]
    quads = [q.corners for q in (detector or CardDetector(PHOTO_SETTINGS)).detect(image)
             if q.complete and cv2.contourArea(q.corners.astype(np.float32)) >= min_area]
    biggest = max(quads, key=lambda q: cv2.contourArea(q.astype(np.float32))) if quads else None
    table = _table_colour(image) if biggest is not None else None   # (edge pixels, their median): once
    blobs = _off_table_blobs(image, table) if biggest is not None else None
    if (biggest is None or not _table_around(image, table[1], biggest) or _enclosed(blobs, biggest)
            or _outweighed(blobs, biggest)):
        # nothing, or only something lying inside something else (a card's printed field), or a pattern of
        # the table: GrabCut is slow (0.1-0.5 s), so only then
        cut = grabcut_quad(image)
        if cut is not None:
            quads.append(cut)
        else:   # what was found is print on a card whose own outline is lost, or the table: not a card
            quads = [q for q in quads if _table_around(image, table[1], q) and not _enclosed(blobs, q)
                     and not _outweighed(blobs, q)]
    if not quads:
        return []
    areas = [float(cv2.contourArea(q.astype(np.float32))) for q in quads]
    order = np.argsort(areas)[::-1]
    biggest = areas[order[0]]
    kept: list[np.ndarray] = []
    for i in order:
        if areas[i] < PART_SHARE * biggest:
            break
        if all(quad_overlap(quads[i], k) < SAME_CARD for k in kept):
            kept.append(quads[i])
    return kept


def _table_colour(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(pixels along the photo's edges, their median colour): the table."""
    h, w = image.shape[:2]
    strip = max(2, round(0.03 * min(h, w)))
    edges = np.concatenate([image[:strip].reshape(-1, 3), image[-strip:].reshape(-1, 3),
                            image[:, :strip].reshape(-1, 3), image[:, -strip:].reshape(-1, 3)])
    return edges, np.median(edges[::7], axis=0)


def _off_table_blobs(image: np.ndarray, table: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(labels, stats) of what differs from the table (``_table_colour``), joined up: made once per photo."""
    edges, table = table
    spread = float(np.median(np.linalg.norm(edges[::7].astype(np.float32) - table, axis=1)))
    far = np.linalg.norm(cv2.GaussianBlur(image, (0, 0), 2).astype(np.float32) - table, axis=2) > max(3 * spread, 12)
    far = cv2.morphologyEx(far.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(far)
    return labels, stats


def _enclosed(blobs: tuple[np.ndarray, np.ndarray], corners: np.ndarray) -> bool:
    """True when what differs from the table around ``corners`` (``_off_table_blobs``)
    covers ENCLOSED_SHARE times its area: it lies on something bigger than itself."""
    blob, area = _blob_under(blobs, corners)
    return bool(blob) and area > 0 and blobs[1][blob, cv2.CC_STAT_AREA] >= ENCLOSED_SHARE * area


def _outweighed(blobs: tuple[np.ndarray, np.ndarray], corners: np.ndarray) -> bool:
    """True when ``corners`` lie on the table's colour (on no ``_off_table_blobs`` blob) while a blob elsewhere
    covers OUTWEIGHED_SHARE times their area: the outline is a pattern of the table, the card lies elsewhere."""
    blob, area = _blob_under(blobs, corners)
    stats = blobs[1]
    return (not blob and len(stats) > 1 and area > 0
            and int(stats[1:, cv2.CC_STAT_AREA].max()) >= OUTWEIGHED_SHARE * area)


def _blob_under(blobs: tuple[np.ndarray, np.ndarray], corners: np.ndarray) -> tuple[int, float]:
    """(the ``_off_table_blobs`` label under the middle of ``corners``, 0 for the table; their area)."""
    labels = blobs[0]
    x, y = np.clip(np.round(corners.mean(axis=0)).astype(int), 0, [labels.shape[1] - 1, labels.shape[0] - 1])
    return int(labels[y, x]), float(cv2.contourArea(np.asarray(corners, np.float32)))


def _table_around(image: np.ndarray, table: np.ndarray, corners: np.ndarray, max_distance: float = 40.0) -> bool:
    """True when just outside ``corners`` lies ``table``, the colour along the photo's edges."""
    h, w = image.shape[:2]
    c = corners.mean(axis=0)
    outer = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(outer, np.round(c + (corners - c) * 1.14).astype(np.int32), 255)
    cv2.fillConvexPoly(outer, np.round(c + (corners - c) * 1.06).astype(np.int32), 0)
    ring = image[outer > 0]
    if len(ring) < 20:
        return True
    return float(np.linalg.norm(np.median(ring[::3], axis=0) - table)) <= max_distance
