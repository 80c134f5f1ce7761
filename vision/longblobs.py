"""A blob too long for the search for a card on top (:mod:`vision.askew`), cut into pieces that are not.

Glare on a glossy table, a third card touching two, white cards on a pale cloth: the difference from the
empty table can join several cards into one blob longer than ``askew.MAX_SPAN`` card lengths, and the card
lying on top in it is not looked for (the search is costly and a long blob holds many sides). Cut first where
the blob narrows to under 2 × NECK card widths (an opening), then whatever is still too long into windows on the
table WINDOW card lengths square, overlapping so that any card lies whole in one of them; each piece is
searched as a blob is (vision.detect.LONG_BLOBS).

    >>> import numpy as np
    >>> blob = np.zeros((100, 400), np.uint8)
    >>> _ = cv2.rectangle(blob, (10, 10), (360, 70), 255, -1)        # four cards end to end, 1 px = 1 mm
    >>> pieces = reachable_pieces(blob, 1, np.eye(3), (63.0, 88.0))
    >>> len(pieces) > 1 and all(askew.within_reach(p, np.eye(3), (63.0, 88.0)) for p in pieces)
    True
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import askew
from vision.shrunk import full_px, full_px_matrix, shrunk_px

NECK = 0.25       # card widths: the blob is cut where it is narrower than twice this (an opening's radius)
WINDOW = askew.MAX_SPAN   # a window's side, in card lengths: the longest blob the search looks at
MIN_PIECE = 0.5   # card areas: a smaller piece holds no card to find


def reachable_pieces(blob: np.ndarray, scale: int, table_to_image: np.ndarray,
                     card_mm: tuple[float, float]) -> list[np.ndarray]:
    """The pieces of ``blob`` (a mask of one blob, px shrunk by ``scale``) that
    :func:`vision.askew.top_card` looks at, as points in full-size px; ``table_to_image``: table mm → image px."""
    k = scale
    small_to_table = np.linalg.inv(table_to_image) @ full_px_matrix(k)
    least = MIN_PIECE * card_mm[0] * card_mm[1]
    ys, xs = np.nonzero(blob)
    if len(xs) == 0:
        return []
    # mm on the table a shrunk px spans at the blob's middle, and so the opening's radius in px
    middle = np.array([[[xs.mean(), ys.mean()], [xs.mean() + 1.0, ys.mean()]]])
    a, b = cv2.perspectiveTransform(middle, small_to_table).reshape(2, 2)
    radius = max(1, int(round(NECK * min(card_mm) / max(float(np.linalg.norm(b - a)), 1e-6))))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    count, labels = cv2.connectedComponents(cv2.morphologyEx(blob, cv2.MORPH_OPEN, disc))
    out = []
    for i in range(1, count):
        piece = cv2.bitwise_and(cv2.dilate((labels == i).astype(np.uint8) * 255, disc), blob)
        points = _points(piece, k)
        if points is None or _table_area(piece, k, table_to_image) < least:
            continue
        if askew.within_reach(points, table_to_image, card_mm):
            out.append(points)
        else:
            out += _windows(piece, k, table_to_image, card_mm, least)
    return out


def _windows(piece: np.ndarray, k: int, table_to_image: np.ndarray, card_mm: tuple[float, float],
             least: float) -> list[np.ndarray]:
    """``piece`` cut by windows on the table, WINDOW card lengths square, a card's diagonal less apart (so a
    card lies whole in one); those holding at least ``least`` mm² of it."""
    side = WINDOW * max(card_mm) - 2.0   # (less a rounding's worth)
    stride = side - float(np.hypot(*card_mm))
    points = _points(piece, k)
    mm = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), np.linalg.inv(table_to_image))
    (x0, y0), (x1, y1) = mm.reshape(-1, 2).min(axis=0), mm.reshape(-1, 2).max(axis=0)
    out = []
    for wy in np.arange(y0, max(y0 + stride / 2, y1 - side + stride), stride):
        for wx in np.arange(x0, max(x0 + stride / 2, x1 - side + stride), stride):
            box = np.array([[wx, wy], [wx + side, wy], [wx + side, wy + side], [wx, wy + side]], np.float64)
            box_px = cv2.perspectiveTransform(box.reshape(-1, 1, 2), table_to_image).reshape(-1, 2)
            window = np.zeros_like(piece)
            cv2.fillConvexPoly(window, np.round(shrunk_px(box_px, k)).astype(np.int32), 255)
            clipped = cv2.bitwise_and(piece, window)
            inside = _points(clipped, k)
            if (inside is not None and _table_area(clipped, k, table_to_image) >= least
                    and askew.within_reach(inside, table_to_image, card_mm)):
                out.append(inside)
    return out


def _points(mask: np.ndarray, k: int) -> np.ndarray | None:
    """The outline points of every part of ``mask`` (shrunk px), in full-size px; None if it is empty."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    return full_px(np.vstack([c.reshape(-1, 2) for c in contours]).astype(np.float32), k)


def _table_area(mask: np.ndarray, k: int, table_to_image: np.ndarray) -> float:
    """The area (mm²) on the table of the parts of ``mask`` (shrunk px)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    to_table = np.linalg.inv(table_to_image)
    return sum(float(cv2.contourArea(cv2.perspectiveTransform(full_px(c.astype(np.float64), k), to_table)
                                     .astype(np.float32))) for c in contours)
