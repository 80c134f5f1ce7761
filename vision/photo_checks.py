"""Why an enrolment photo cannot be used: blur, glare, a card cut by the frame's edge.

Each check looks at the photo's working copy (see :mod:`vision.exposure`) and, where one
was found, at the card's four corners in it.

* **Blur**: across each side of the card the change from table to card is sampled; the
  distance over which the middle 60 % of that change happens is the edge's width. A sharp
  photo gives about 1 px; beyond ``MAX_EDGE_WIDTH`` the photo is refused.
* **Glare**: pixels on the card brighter than its own paper and at the top of the scale.
  An evenly overexposed card is not glare (its paper is as bright).
* **Cut by the edge**: with the frame's border drawn as an edge, a closed card-like shape
  appears that touches the border.

    >>> import numpy as np
    >>> img = np.full((480, 640, 3), 60, np.uint8); _ = cv2.rectangle(img, (200, 100), (350, 310), (235, 235, 235), -1)
    >>> corners = np.array([[199.5, 99.5], [350.5, 99.5], [350.5, 310.5], [199.5, 310.5]], np.float32)
    >>> edge_width(img, corners) < 1.5, edge_width(cv2.GaussianBlur(img, (0, 0), 3), corners) > MAX_EDGE_WIDTH
    (True, True)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.features import NEXT
from vision.outline import edge_mask

MAX_EDGE_WIDTH = 2.6      # px in the working copy: Gaussian blur of sigma ≈ 1.5 px
MIN_EDGE_STEP = 25.0      # grey levels: sides with less contrast than this say nothing
GLARE_SHARE = 0.02        # share of the card's area
GLARE_LEVEL = 250         # darkest channel at or above this is washed out
_T = np.linspace(0.15, 0.85, 12, dtype=np.float32)
_OFF = np.arange(-5.0, 5.01, 0.25, dtype=np.float32)


def edge_width(image: np.ndarray, corners: np.ndarray) -> float | None:
    """Median width (px) of the card's sides, or None if no side has contrast enough."""
    q = np.asarray(corners, np.float32)
    a, b = q, q[NEXT]
    d = b - a
    length = np.linalg.norm(d, axis=1, keepdims=True)
    if length.min() < 16:
        return None
    d = d / length
    n = np.stack([d[:, 1], -d[:, 0]], axis=1)
    base = a[:, None, :] + _T[None, :, None] * (b - a)[:, None, :]
    pts = (base[:, :, None, :] + _OFF[None, None, :, None] * n[:, None, None, :]).reshape(-1, len(_OFF), 2)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    prof = cv2.remap(grey, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    prof = prof.astype(np.float32)
    step = prof[:, -8:].mean(axis=1) - prof[:, :8].mean(axis=1)
    keep = np.abs(step) >= MIN_EDGE_STEP
    if keep.sum() < 4:
        return None
    g = np.abs(np.diff(prof[keep], axis=1))
    cum = np.cumsum(g, axis=1) / np.maximum(g.sum(axis=1, keepdims=True), 1e-6)
    lo = (cum < 0.2).sum(axis=1)
    hi = (cum < 0.8).sum(axis=1)
    return float(np.median(hi - lo) * (_OFF[1] - _OFF[0]))


def glare_share(image: np.ndarray, corners: np.ndarray) -> float:
    """Share of the card's area washed out by a reflection (brighter than its paper)."""
    q = np.round(np.asarray(corners, np.float32)).astype(np.int32)
    inside = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, q, 255)
    ring = cv2.subtract(inside, cv2.erode(inside, np.ones((9, 9), np.uint8)))
    low = image.min(axis=2)
    if cv2.countNonZero(ring) == 0 or cv2.countNonZero(inside) == 0:
        return 0.0
    paper = float(np.percentile(low[ring > 0], 90))
    washed = (low >= max(paper + 12, GLARE_LEVEL)) & (inside > 0)
    return float(washed.sum()) / cv2.countNonZero(inside)


def cut_by_edge(image: np.ndarray, min_area_frac: float = 0.02) -> bool:
    """True when a card-like shape is closed only by the frame's border."""
    edges = edge_mask(image)
    h, w = edges.shape
    edges[0, :] = edges[-1, :] = 255
    edges[:, 0] = edges[:, -1] = 255
    contours, _ = cv2.findContours(edges, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    for c in contours:
        area = cv2.contourArea(c)
        if area < min_area_frac * h * w or area > 0.9 * h * w:
            continue
        x, y, cw, ch = cv2.boundingRect(c)
        if x > 2 and y > 2 and x + cw < w - 2 and y + ch < h - 2:
            continue  # closed without the border: not cut
        hull = cv2.convexHull(c)
        if area < 0.9 * cv2.contourArea(hull):
            continue
        poly = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
        if 3 <= len(poly) <= 6:
            return True
    return False
