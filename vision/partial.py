"""Card hypotheses for an outline that is not one lone card.

When two cards overlap, or a hand lies on a card, their paper merges into one outline.
Every straight stretch of that outline that runs between two right-angled corners may be
a whole side of a card; the outline's edges leaving those two corners give the card's
other two sides. Their length is either read off the outline (when the next corner is
also visible) or guessed from the card's proportions, a few ways. The recogniser then
keeps the hypotheses that match a card well and drops the overlapping rest.

    >>> mask = np.zeros((300, 400), np.uint8)
    >>> _ = cv2.rectangle(mask, (40, 40), (165, 215), 255, -1)     # a card, 126 x 176 px
    >>> _ = cv2.rectangle(mask, (130, 90), (255, 265), 255, -1)    # another lying partly over it
    >>> contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    >>> contour = contours[0].reshape(-1, 2)                       # one merged outline
    >>> hyps = card_hypotheses(contour, mask)    # contour (N, 2) px, mask uint8
    >>> len(hyps), hyps[0].shape
    (20, (4, 2))
    >>> boxes = [tuple(int(v) for v in np.r_[h.min(axis=0), h.max(axis=0)].round()) for h in hyps]
    >>> (40, 40, 165, 215) in boxes, (130, 90, 255, 265) in boxes   # both cards are among them
    (True, True)
"""

from __future__ import annotations

import cv2
import numpy as np

CARD_RATIO = 88.0 / 63.0
LENGTH_STEPS = (0.88, 1.0, 1.12)   # perspective makes the on-screen ratio uncertain
MIN_SIDE_PX = 10.0
MIN_INSIDE = 0.9                    # share of a hypothesis that must lie on the outline's paper
# the outline is simplified to polygons this coarse (share of its length): the difference from a
# photographed table is ragged, and only coarser polygons show its cards' corners as right angles
# (style-2 development seeds 100..399: 40 -> 12 fully visible cards not found, none named wrong)
SIMPLIFY = (0.012, 0.02, 0.03)


def _corner_flags(poly: np.ndarray, orientation: float) -> np.ndarray:
    """True at vertices that are convex with an angle near 90 degrees."""
    prev = np.roll(poly, 1, axis=0) - poly
    nxt = np.roll(poly, -1, axis=0) - poly
    cross = prev[:, 0] * nxt[:, 1] - prev[:, 1] * nxt[:, 0]
    cosang = (prev * nxt).sum(axis=1) / (np.linalg.norm(prev, axis=1) * np.linalg.norm(nxt, axis=1) + 1e-9)
    convex = cross * orientation < 0
    return convex & (np.abs(cosang) < 0.6)  # 53..127 degrees


CHAMFER_SHARE = 1 / 3   # a stretch this much shorter than both its neighbours may be a rounded corner


def _square_chamfers(poly: np.ndarray) -> np.ndarray:
    """``poly`` with each cut corner made square again: a short stretch between two long ones
    that meet at near 90 degrees becomes the point where those two meet. The difference from
    the empty table is smoothed, so a card's corner in it is rounded, and the outline
    simplified to a polygon cuts it into two half-turns that are not right angles."""
    n = len(poly)
    if n < 5:
        return poly
    side = np.linalg.norm(np.roll(poly, -1, axis=0) - poly, axis=1)   # side[i]: poly[i] -> poly[i + 1]
    out, merged = [], False
    for i in range(n):
        if merged:   # poly[i] was the far end of the stretch merged at i - 1
            merged = False
            continue
        j = (i + 1) % n
        short = side[i] < CHAMFER_SHARE * min(side[i - 1], side[j])
        d1, d2 = poly[i] - poly[i - 1], poly[(j + 1) % n] - poly[j]
        cos = float(d1 @ d2) / (float(np.linalg.norm(d1) * np.linalg.norm(d2)) + 1e-9)
        # the stretch from the last vertex back to the first is left: poly[0] is already out
        corner = _meet(poly[i - 1], poly[i], poly[j], poly[(j + 1) % n]) \
            if short and abs(cos) < 0.35 and j != 0 else None
        out.append(poly[i] if corner is None else corner)
        merged = corner is not None
    return np.array(out, np.float32) if len(out) >= 4 else poly


def _meet(a0, a1, b0, b1) -> np.ndarray | None:
    """Where the line a0-a1 meets the line b0-b1 (None if they are parallel)."""
    da, db = a1 - a0, b1 - b0
    den = float(da[0] * db[1] - da[1] * db[0])
    if abs(den) < 1e-6:
        return None
    t = float((b0 - a0)[0] * db[1] - (b0 - a0)[1] * db[0]) / den
    return (a0 + t * da).astype(np.float32)


def card_hypotheses(contour: np.ndarray, mask: np.ndarray) -> list[np.ndarray]:
    """Possible card quads (float32 (4, 2), clockwise or not) inside a merged outline."""
    x, y, w, h = cv2.boundingRect(contour.reshape(-1, 1, 2).astype(np.int32))
    blob = np.zeros((h + 2, w + 2), np.uint8)   # the outline's paper, 1 px margin
    cv2.fillPoly(blob, [(contour - [x - 1, y - 1]).astype(np.int32).reshape(-1, 1, 2)], 255)
    hyps: list[np.ndarray] = []
    for eps in SIMPLIFY:
        for quad in _hypotheses(contour, eps, blob, np.array([x - 1, y - 1], np.float32)):
            if not hyps or np.abs(np.asarray(hyps) - quad).max(axis=(1, 2)).min() >= 3:   # not found already
                hyps.append(quad)
    return hyps


def _hypotheses(contour: np.ndarray, eps: float, blob: np.ndarray, origin: np.ndarray) -> list[np.ndarray]:
    """:func:`card_hypotheses` of the outline simplified to ``eps`` of its length; ``blob``: its
    paper drawn from ``origin``."""
    peri = cv2.arcLength(contour.reshape(-1, 1, 2), True)
    poly = cv2.approxPolyDP(contour.reshape(-1, 1, 2), eps * peri, True).reshape(-1, 2).astype(np.float32)
    poly = _square_chamfers(poly)
    n = len(poly)
    if n < 4:
        return []
    # orientation of the polygon: signed area (>0 means clockwise on screen, y down)
    orientation = float(np.sign(cv2.contourArea(poly.reshape(-1, 1, 2), oriented=True)) or 1.0)
    corner = _corner_flags(poly, orientation)
    hyps = []
    for i in range(n):
        j = (i + 1) % n
        if not (corner[i] and corner[j]):
            continue
        a, b = poly[i], poly[j]
        side = float(np.linalg.norm(b - a))
        if side < MIN_SIDE_PX:
            continue
        prev_pt, next_pt = poly[i - 1], poly[(j + 1) % n]
        da, db = prev_pt - a, next_pt - b
        ea, eb = float(np.linalg.norm(da)), float(np.linalg.norm(db))
        if ea < 1 or eb < 1:
            continue
        da, db = da / ea, db / eb
        lengths = []
        if corner[i - 1] and corner[(j + 1) % n] and abs(ea - eb) < 0.15 * max(ea, eb):
            lengths.append((ea + eb) / 2)  # the whole card's outline is visible on this side
        else:
            # the card's proportions, a little either way; and the visible edges themselves,
            # which may run on past the card where another lies in line with it
            for base in (side * CARD_RATIO, side / CARD_RATIO):
                lengths += [base * k for k in LENGTH_STEPS]
            lengths += [e for e in (ea, eb) if 0.6 * side / CARD_RATIO <= e <= 1.2 * side * CARD_RATIO]
        for length in lengths:
            quad = np.array([a, b, b + db * length, a + da * length], np.float32)
            if hyps and np.abs(np.asarray(hyps) - quad).max(axis=(1, 2)).min() < 3:
                continue  # the same guess reached from another side
            if _inside_share(quad - origin, blob) >= MIN_INSIDE:
                hyps.append(quad)
    return hyps


def _inside_share(quad: np.ndarray, blob: np.ndarray) -> float:
    q = np.zeros_like(blob)
    cv2.fillConvexPoly(q, np.round(quad).astype(np.int32), 255)
    total = cv2.countNonZero(q)
    if total == 0:
        return 0.0
    return cv2.countNonZero(cv2.bitwise_and(q, blob)) / total
