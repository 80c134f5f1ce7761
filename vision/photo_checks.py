"""Why an enrolment photo cannot be used: blur, glare, a card cut by the frame's edge.

Each check looks at the photo's working copy (see :mod:`vision.exposure`) and, where one
was found, at the card's four corners in it.

* **Blur**: across each side of the card the change from table to card is sampled; the
  width at half height of its steepest rise is the edge's width. A sharp photo gives
  about 1.5 px; beyond ``MAX_EDGE_WIDTH`` the photo is refused.
* **Glare**: pixels on the card brighter than its own paper and at the top of the scale.
  An evenly overexposed card is not glare (its paper is as bright).
* **Cut by the edge**: framed with the table's colour, the photo shows a card-like shape
  that runs to the frame's edge.

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

MAX_EDGE_WIDTH = 3.0      # px at half height in the working copy: Gaussian blur of sigma ≈ 1.3 px
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
    prof = cv2.GaussianBlur(prof.astype(np.float32), (1, 3), 0)   # a little less noise along the side
    g = np.abs(np.diff(prof, axis=1))
    peak = g.max(axis=1)
    keep = np.abs(prof[:, -6:].mean(axis=1) - prof[:, :6].mean(axis=1)) >= MIN_EDGE_STEP
    if keep.sum() < 4:
        return None
    # full width at half height of the steepest rise: a shadow or print beside it does not widen it
    widths = []
    for row, top in zip(g[keep], peak[keep]):
        j = int(np.argmax(row))
        lo = j
        while lo > 0 and row[lo - 1] >= top / 2:
            lo -= 1
        hi = j
        while hi < len(row) - 1 and row[hi + 1] >= top / 2:
            hi += 1
        widths.append(hi - lo + 1)
    return float(np.median(widths) * (_OFF[1] - _OFF[0]))


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


def cut_by_edge(image: np.ndarray, min_area_frac: float = 0.01) -> bool:
    """True when a card-like shape shows once the photo is framed with the table's colour:
    the card's missing part then reads as table, and the cut becomes a straight side."""
    from vision.detect import CardDetector, DetectorSettings

    h, w = image.shape[:2]
    strip = max(2, round(0.02 * min(h, w)))
    rim = np.concatenate([image[:strip].reshape(-1, 3), image[-strip:].reshape(-1, 3),
                          image[:, :strip].reshape(-1, 3), image[:, -strip:].reshape(-1, 3)])
    pad = 16
    framed = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                                value=[float(v) for v in np.median(rim[::5], axis=0)])
    for q in CardDetector(DetectorSettings(max_area_frac=0.9)).detect(framed):
        if not q.complete or cv2.contourArea(q.corners.astype(np.float32)) < min_area_frac * h * w:
            continue
        c = q.corners - pad
        if (c[:, 0].min() < 3 or c[:, 1].min() < 3 or c[:, 0].max() > w - 4 or c[:, 1].max() > h - 4):
            return True
    return False
