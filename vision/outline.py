"""Card outlines found from edges, whatever the colour of the table.

The paper mask of :mod:`vision.detect` needs cards paler than the cloth. Here a card is
found because it has a card's outline: the colour edges of the (shrunk) frame are traced
(Canny over the three channels, so a red card on a brown table has an edge even at equal
brightness), thickened by a pixel, and every closed loop of edges — the inside of a card's
border as well as the outside of the card — is a candidate outline. The quad fitting and
the checks are those of the paper path.

    >>> import numpy as np
    >>> img = np.full((360, 640, 3), 225, np.uint8)                     # a white table
    >>> _ = cv2.rectangle(img, (200, 100), (299, 239), (190, 90, 40), -1)  # a dark-faced card
    >>> loops = edge_loops(edge_mask(img))
    >>> any(abs(cv2.contourArea(c) - 100 * 140) < 900 for c in loops)
    True
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.border import outer_edge_in_perspective
from vision.features import order_clockwise
from vision.sides import colour_step, crossing, fitted_corners, peak, profiles, side_normals

CANNY_LOW, CANNY_HIGH = 30, 80      # Sobel-3 gradient levels (x4 grey levels) of a card's edge
_THICKEN = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))


def edge_mask(small: np.ndarray, blur: float = 1.0) -> np.ndarray:
    """255 on the colour edges of ``small`` (BGR), thickened so that loops close."""
    soft = cv2.GaussianBlur(small, (0, 0), blur) if blur > 0 else small
    edges = cv2.Canny(soft, CANNY_LOW, CANNY_HIGH, L2gradient=True)
    return cv2.dilate(edges, _THICKEN)


def edge_loops(edges: np.ndarray, min_area: float = 0.0) -> list[np.ndarray]:
    """Closed edge loops: the outer outline of each edge band and each hole inside one."""
    contours, _ = cv2.findContours(edges, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    return [c for c in contours if cv2.contourArea(c) >= min_area]


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """``mask`` with every region it encloses filled (a card's inside, whatever its print)."""
    # the table (255, with a frame of it all round) flooded from a corner: what it leaves are the holes
    _, table = cv2.threshold(mask, 0, 255, cv2.THRESH_BINARY_INV)
    table = cv2.copyMakeBorder(table, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=255)
    cv2.floodFill(table, None, (0, 0), 0)
    return cv2.bitwise_or(cv2.threshold(mask, 0, 255, cv2.THRESH_BINARY)[1], table[1:-1, 1:-1])


SNAP_T = np.linspace(0.12, 0.88, 16, dtype=np.float32)
SNAP_OFFSETS = np.arange(-3.0, 3.01, 0.5, dtype=np.float32)


def snap_any(frame: np.ndarray, corners: np.ndarray, min_step: float = 10.0) -> np.ndarray:
    """Move each side of a clockwise quad onto the strongest colour edge within 3 px.

    Like :func:`vision.detect.snap_to_edges`, but the edge may go either way (a dark card
    on a white table, a white card on light wood): the largest colour change wins."""
    sides = side_normals(corners)
    if sides is None:
        return np.asarray(corners, np.float32)
    q, a, b, d, n = sides
    base, prof = profiles(frame, a, b, n, SNAP_T, SNAP_OFFSETS)
    ok, at = peak(colour_step(prof), min_step)  # the largest colour change
    edge = base + (SNAP_OFFSETS[0] + at * 0.5)[..., None] * n[:, None, :]
    return fitted_corners(q, a, d, edge, ok, min_points=6, max_move=6)


GROW_MAX = 0.12          # share of the card's size searched outside an outline for its true edge
GROW_AGREE = 0.6         # share of the normals of a side that must find that edge at the same place


def grow_to_outer_edge(frame: np.ndarray, corners: np.ndarray, min_step: float = 12.0, *,
                       in_perspective: bool = False) -> np.ndarray:
    """The outline moved out onto a card's outer edge when one runs parallel just outside
    every side (a dark border first taken for the table, leaving only the printed field).

    Each side is searched outwards up to ``GROW_MAX`` of the card's size; an edge counts
    when most normals of the side find it at the same distance, and all four sides must
    find one at about the same distance (a border is as wide all round). Held at a slant
    (a close-up photo: ``in_perspective``, as enrolment does), the border is narrower on the
    far side: then it is looked for in perspective (:func:`vision.border.outer_edge_in_perspective`;
    not yet for the camera over the table, where it is not measured)."""
    q = _grow_side_by_side(frame, corners, min_step)
    if q is not None:
        return q
    q = np.asarray(corners, np.float32)
    if not in_perspective:
        return q
    outer = outer_edge_in_perspective(frame, order_clockwise(q), min_step)
    return q if outer is None else outer


def _grow_side_by_side(frame: np.ndarray, corners: np.ndarray, min_step: float) -> np.ndarray | None:
    """The outer edge found on each side alone, at about one distance all round; None if not."""
    sides = side_normals(corners, min_length=16)
    if sides is None:
        return None
    q, a, b, d, n = sides
    reach = GROW_MAX * float(np.linalg.norm(b - a, axis=1).max())
    if reach < 4:
        return None
    offs = np.arange(3.0, reach, 0.5, dtype=np.float32)   # from 3 px: the field's own ink line is not the edge
    t = np.linspace(0.2, 0.8, 12, dtype=np.float32)
    base, prof = profiles(frame, a, b, n, t, offs)
    grad = colour_step(prof)           # (4, 12, offsets - 2)
    j = np.argmax(grad, axis=2)
    strong = np.take_along_axis(grad, j[..., None], axis=2)[..., 0] >= min_step
    moves, lines = [], []
    for i in range(4):
        if strong[i].sum() < GROW_AGREE * len(t):
            return None
        where = offs[j[i] + 1]
        pts_i = base[i] + where[:, None] * n[i]
        # perspective makes a border's width change along a side: fit a line, not a distance
        vx, vy, x0, y0 = cv2.fitLine(pts_i[strong[i]].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        normal = np.array([-vy, vx], np.float32)
        resid = np.abs((pts_i - np.array([x0, y0], np.float32)) @ normal)
        if ((resid <= 1.5) & strong[i]).sum() < GROW_AGREE * len(t):
            return None
        moves.append(float(np.median(where[strong[i]])))
        lines.append((np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)))
    if max(moves) > 2.5 * min(moves) + 1.0:
        return None
    out = [crossing(lines[i - 1], lines[i]) for i in range(4)]
    if any(p is None for p in out):
        return None
    return np.array(out, np.float32)


def snap_outermost(frame: np.ndarray, corners: np.ndarray, reach: float = 5.0, min_step: float = 12.0,
                   inward: float | None = None) -> np.ndarray:
    """Move each side onto the outermost strong colour edge within ``reach`` px outwards
    and ``inward`` px (default ``reach``) inwards.

    An outline taken from a difference with the empty table takes the card's drop shadow
    with it (the soft outer edge of the shadow is weak next to the card's own edge:
    skipped, as long as the card's edge lies within ``inward``), and the print inside a
    card has edges as strong as the card's own (inside: not the outermost)."""
    sides = side_normals(corners)
    if sides is None:
        return np.asarray(corners, np.float32)
    q, a, b, d, n = sides
    inward = reach if inward is None else inward
    offs = np.arange(-inward, reach + 0.01, 0.5, dtype=np.float32)
    base, prof = profiles(frame, a, b, n, SNAP_T, offs)
    grad = colour_step(prof)
    top = grad.max(axis=2, keepdims=True)
    strong = (grad >= np.maximum(min_step, 0.5 * top))
    last = grad.shape[2] - 1 - np.argmax(strong[:, :, ::-1], axis=2)          # outermost strong sample
    ok = strong.any(axis=2)
    # the peak of that edge, within a pixel either way
    near = np.clip(last[..., None] + np.arange(-2, 3), 0, grad.shape[2] - 1)
    j = np.take_along_axis(near, np.argmax(np.take_along_axis(grad, near, axis=2), axis=2)[..., None], axis=2)[..., 0]
    off = offs[0] + (j + 1) * 0.5
    edge = base + off[..., None] * n[:, None, :]
    return fitted_corners(q, a, d, edge, ok, min_points=6, max_move=2 * max(reach, inward))
