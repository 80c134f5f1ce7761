"""Moving a card outline's sides onto edges in the full-size frame: what every snapping
step shares. Each side gets outward normals at a few places along it, the frame is sampled
along them, an edge is found on each normal (to a fraction of a sample), a line is fitted
per side through the edges found, and the new corners are where neighbouring sides cross.

    >>> import numpy as np
    >>> q, a, b, d, n = side_normals(np.array([[10, 10], [110, 10], [110, 60], [10, 60]], np.float32))
    >>> (n + 0.0).tolist()    # outward normals of the four sides (clockwise on screen)
    [[0.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]]
    >>> crossing((np.array([0, 5.0]), np.array([1, 0.0])), (np.array([3.0, 0]), np.array([0, 1.0]))).tolist()
    [3.0, 5.0]
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.features import NEXT


def side_normals(corners: np.ndarray, min_length: float = 8.0):
    """``(q, a, b, d, n)`` for a clockwise quad: the corners, each side's start and end,
    unit direction and outward unit normal; None when a side is shorter than ``min_length``."""
    q = np.asarray(corners, np.float32)
    a, b = q, q[NEXT]
    d = b - a
    length = np.linalg.norm(d, axis=1)
    if length.min() < min_length:
        return None
    d = d / length[:, None]
    n = np.stack([d[:, 1], -d[:, 0]], axis=1)
    outward = (((a + b) / 2 - q.mean(axis=0)) * n).sum(axis=1) < 0
    n[outward] *= -1
    return q, a, b, d, n


def profiles(frame: np.ndarray, a: np.ndarray, b: np.ndarray, n: np.ndarray, t: np.ndarray,
             offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(base, prof)``: the points at fractions ``t`` along each side (4, T, 2), and the
    frame's colours along their normals at ``offsets`` px (4, T, O, 3), as float32."""
    base = a[:, None, :] + t[None, :, None] * (b - a)[:, None, :]
    pts = (base[:, :, None, :] + offsets[None, None, :, None] * n[:, None, None, :]).reshape(-1, len(offsets), 2)
    bgr = cv2.remap(frame, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return base, bgr.astype(np.float32).reshape(4, len(t), len(offsets), 3)


def colour_step(prof: np.ndarray) -> np.ndarray:
    """The largest colour channel's central difference along each normal of ``prof``
    (4, T, O, 3) → (4, T, O - 2) (channel by channel: numpy's max over a last axis of 3 is slow)."""
    step = np.abs(prof[:, :, 2:] - prof[:, :, :-2])
    return np.maximum(np.maximum(step[..., 0], step[..., 1]), step[..., 2])


def darkest(prof: np.ndarray) -> np.ndarray:
    """The darkest colour channel of ``prof`` (..., 3)."""
    return np.minimum(np.minimum(prof[..., 0], prof[..., 1]), prof[..., 2])


def peak(grad: np.ndarray, min_step: float) -> tuple[np.ndarray, np.ndarray]:
    """On each normal of ``grad`` (4, T, O-2: a central difference, larger = steeper), the
    steepest sample refined by a parabola: ``(ok, position)``, the position counted in
    samples of the profile (the difference at index j sits on sample j + 1)."""
    j = np.argmax(grad, axis=2)
    steep = np.take_along_axis(grad, j[..., None], axis=2)[..., 0]
    ok = (steep >= min_step) & (j > 0) & (j < grad.shape[2] - 1)
    jc = np.clip(j, 1, grad.shape[2] - 2)
    g0, g1, g2 = (np.take_along_axis(grad, (jc + k)[..., None], axis=2)[..., 0] for k in (-1, 0, 1))
    denom = g0 - 2 * g1 + g2
    safe = np.where(np.abs(denom) > 1e-6, denom, 1.0)
    frac = np.clip(np.where(np.abs(denom) > 1e-6, 0.5 * (g0 - g2) / safe, 0.0), -1, 1)
    return ok, jc + 1 + frac


def fitted_corners(q: np.ndarray, a: np.ndarray, d: np.ndarray, edge: np.ndarray, ok: np.ndarray, *,
                   min_points: int, max_move: float) -> np.ndarray:
    """A line per side through its edge points (``edge`` (4, T, 2) where ``ok``); a side
    with fewer than ``min_points`` keeps its line, and a corner that would move more than
    ``max_move`` px stays where it was."""
    lines = []
    for i in range(4):
        if ok[i].sum() < min_points:
            lines.append((a[i], d[i]))
            continue
        vx, vy, x0, y0 = cv2.fitLine(edge[i][ok[i]].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)))
    out = []
    for i in range(4):
        p = crossing(lines[i - 1], lines[i])
        out.append(q[i] if p is None or np.linalg.norm(p - q[i]) > max_move else p)
    return np.array(out, np.float32)


def crossing(l1, l2) -> np.ndarray | None:
    """Where two lines given as (point, direction) cross, or None if they are parallel."""
    (p, u), (r, v) = l1, l2
    det = float(u[1] * v[0] - u[0] * v[1])
    if abs(det) < 1e-6:
        return None
    wx, wy = float(r[0] - p[0]), float(r[1] - p[1])
    t = (wy * v[0] - wx * v[1]) / det
    return np.array([p[0] + t * u[0], p[1] + t * u[1]], np.float32)
