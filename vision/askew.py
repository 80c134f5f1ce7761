"""The card laid askew on top of a pile, found by its straight sides.

A card slapped onto a pile of cards of its own size merges with them into one blob that
is neither a lone card nor two cards side by side: its outline, softened by the shadows
and the mask's smoothing, has no clean right-angled corner for :mod:`vision.partial`. The
top card is whole, though, and its four sides show as straight edges. In a top-down view
of the blob (table mm, a pixel a millimetre) the edges' directions gather at the angles of
the cards lying there; at each angle the card's true width and height say how far apart
its two pairs of parallel sides are, and the placement whose four sides are all backed by
edges is the top card (a card under it has a side or two hidden). It is only a guess: the
recogniser keeps it when it names the card.

The same finds a card lying across another on any table: a blob up to MAX_SPAN card lengths
across is looked at, and the edges are those of the colour channel that changes most (an
olive card on tan brick, a green one on grass, can have the table's grey).

    >>> import numpy as np
    >>> frame = np.full((400, 400, 3), 90, np.uint8)
    >>> _ = cv2.rectangle(frame, (150, 120), (212, 207), (235, 235, 235), -1)   # the pile: 63 x 88 mm
    >>> top = cv2.boxPoints(((195.0, 170.0), (63.0, 88.0), 20.0))              # laid askew on it
    >>> _ = cv2.fillPoly(frame, [top.round().astype(np.int32)], (40, 160, 220))
    >>> blob = np.vstack([top, [[150, 120], [212, 120], [212, 207], [150, 207]]]).astype(np.float32)
    >>> found = top_card(frame, blob, np.eye(3), (63.0, 88.0))    # 1 px = 1 mm here
    >>> bool(np.abs(np.sort(found, axis=0) - np.sort(top, axis=0)).max() < 2.5)
    True
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.steps import Steps, run_to_the_end

MARGIN_MM = 6                # view around the blob
# a blob wider or longer than this many card lengths is not looked at (a hand, a row of cards, glare
# joining several; and costly). Two cards end to end, one over the other, span up to about 2
MAX_SPAN = 2.5
MIN_GRADIENT = 24.0          # Sobel magnitude (a step of ~6 levels in some channel) that can be a card's side
ANGLE_TOLERANCE = 8.0        # degrees: an edge pixel counts for the sides at this angle
# tried around each angle most edges run at (a card askew by a few degrees shares its peak)
ANGLE_STEPS = np.arange(-8.0, 8.01, 1.0)
MIN_SIDE_SUPPORT = 0.4       # share of a side's length that edges must back, each of the four sides
# where no card shows four sides so, one backed this loosely is taken: a card of the cloth's own hue (a full-bleed
# green card on green felt) differs from it only in a ragged piece, and along its sides against the cloth the
# edges turn with its printed stripes (style-2 development 1611: 0.27 and 0.22 of two sides at 8 degrees)
LOOSE_ANGLE_TOLERANCE = 16.0
LOOSE_SIDE_SUPPORT = 0.3
MIN_INSIDE = 0.9             # share of the placement lying on the blob
KEEP_ANGLES = 4              # angles placed in full, of those tried
# angles most edges run at, each tried: on a photographed table (gravel, brick) the table's own edges
# can outnumber the card's sides
SIDE_ANGLE_PEAKS = 5
ANGLES_A_STEP = 8    # angles weighed in one step of the work (vision.steps: about 2 ms on an AMD EPYC, 4 on a Xeon)


def top_card(frame: np.ndarray, points_px: np.ndarray, table_to_image: np.ndarray,
             card_mm: tuple[float, float], grow_mm: int = 0) -> np.ndarray | None:
    """The four image corners (px) of the card whose four sides are all seen in the blob
    ``points_px`` (full-size px), or None. ``table_to_image``: table mm → image px; ``grow_mm``:
    how far past the blob the card may reach (pieces of a card that matches the table in places)."""
    return run_to_the_end(finding_top_card(frame, points_px, table_to_image, card_mm, grow_mm))


def finding_top_card(frame: np.ndarray, points_px: np.ndarray, table_to_image: np.ndarray,
                     card_mm: tuple[float, float], grow_mm: int = 0) -> Steps[np.ndarray | None]:
    """:func:`top_card` in steps (:mod:`vision.steps`): it yields once the view's edges are made, between the
    angles it weighs and places, and between a placement's two ways round."""
    looked = _view_box(points_px, table_to_image, card_mm, grow_mm)
    if looked is None:
        return None
    mm, (x0, y0, w, h) = looked
    view_to_image = table_to_image @ np.array([[1.0, 0, x0], [0, 1, y0], [0, 0, 1]])
    view = cv2.warpPerspective(frame, view_to_image, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    blob = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(blob, cv2.convexHull(np.round(mm - [x0, y0]).astype(np.int32).reshape(-1, 1, 2)), 255)
    blob = cv2.dilate(blob, np.ones((5 + 2 * grow_mm, 5 + 2 * grow_mm), np.uint8))
    gx, gy = _colour_gradient(view)
    yield
    mag = cv2.magnitude(gx, gy)
    ys, xs = np.nonzero((mag >= MIN_GRADIENT) & (blob > 0))
    if len(xs) < 20:
        return None
    direction = np.degrees(np.arctan2(gy[ys, xs], gx[ys, xs])) % 180.0   # across the edge
    peaks = _side_angles(direction, mag[ys, xs], SIDE_ANGLE_PEAKS)
    angles = sorted({(p + d) % 90.0 for p in peaks for d in ANGLE_STEPS})   # the peaks are a few degrees off
    for tolerance, support in ((ANGLE_TOLERANCE, MIN_SIDE_SUPPORT), (LOOSE_ANGLE_TOLERANCE, LOOSE_SIDE_SUPPORT)):
        best = yield from _best_placement(xs, ys, direction, angles, card_mm, blob, tolerance, support)
        if best is not None:
            break
    else:
        return None
    corners = best[1] + [x0, y0]
    return cv2.perspectiveTransform(corners.reshape(-1, 1, 2), table_to_image).reshape(4, 2).astype(np.float32)


def within_reach(points_px: np.ndarray, table_to_image: np.ndarray, card_mm: tuple[float, float],
                 grow_mm: int = 0) -> bool:
    """Whether :func:`top_card` looks at the blob ``points_px`` at all (it spans MAX_SPAN card lengths or less)."""
    return _view_box(points_px, table_to_image, card_mm, grow_mm) is not None


def _view_box(points_px, table_to_image, card_mm, grow_mm) -> tuple[np.ndarray, tuple[float, float, int, int]] | None:
    """The blob ``points_px`` in table mm and the box (x0, y0, w, h; mm) viewed round it, or None where
    the blob spans more than MAX_SPAN card lengths."""
    to_table = np.linalg.inv(table_to_image)
    mm = cv2.perspectiveTransform(np.asarray(points_px, np.float64).reshape(-1, 1, 2), to_table).reshape(-1, 2)
    x0, y0 = np.floor(mm.min(axis=0)) - MARGIN_MM - grow_mm
    x1, y1 = np.ceil(mm.max(axis=0)) + MARGIN_MM + grow_mm
    w, h = int(x1 - x0), int(y1 - y0)
    span = MAX_SPAN * max(card_mm) + 2 * (MARGIN_MM + grow_mm)
    if not (0 < w <= span and 0 < h <= span):
        return None   # several cards, a hand: not a pile with one card askew on top (and costly)
    return mm, (x0, y0, w, h)


def _best_placement(xs, ys, direction, angles, card_mm, blob, tolerance,
                    support) -> Steps[tuple[float, np.ndarray] | None]:
    """The best-backed card over the ``angles`` where parallel edges a card's width and height apart
    are strongest (those placed in full: cheap first), or None. Yields every ANGLES_A_STEP angles weighed
    and before each placed (:func:`_placing` within it too)."""
    strength = []
    for k, a in enumerate(angles):
        if k % ANGLES_A_STEP == 0:
            yield
        strength.append(-_pair_strength(xs, ys, direction, a, card_mm, tolerance))
    best = None
    for angle in [angles[k] for k in np.argsort(strength, kind="stable")[:KEEP_ANGLES]]:
        yield
        placed = yield from _placing(xs, ys, direction, angle, card_mm, blob, tolerance, support)
        if placed is not None and (best is None or placed[0] > best[0]):
            best = placed
    return best


def _colour_gradient(view: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The Sobel gradient (x, y) of the slightly blurred BGR ``view``, at each pixel that of the
    channel that changes most there."""
    f = cv2.GaussianBlur(view.astype(np.float32), (0, 0), 1.0)
    gx, gy = cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3)
    strongest = np.argmax(gx * gx + gy * gy, axis=2)[..., None]
    return (np.take_along_axis(gx, strongest, 2)[..., 0], np.take_along_axis(gy, strongest, 2)[..., 0])


def _side_angles(direction: np.ndarray, weight: np.ndarray, peaks: int) -> list[float]:
    """The angles (0-90°, a card's sides at a and a + 90) most edges run at."""
    hist = np.bincount(np.round(direction % 90.0).astype(int) % 90, weights=weight, minlength=90)
    hist = hist + 0.5 * (np.roll(hist, 1) + np.roll(hist, -1))
    tops = [a for a in range(90) if hist[a] >= hist[a - 1] and hist[a] >= hist[(a + 1) % 90] and hist[a] > 0]
    tops.sort(key=lambda a: -hist[a])
    return [float(a) for a in tops[:peaks] if hist[a] >= 0.2 * hist[tops[0]]]


def _turned(xs, ys, direction, angle, tolerance):
    """The edge pixels in the card's frame at ``angle``: u and v, and which pixels lie
    across u (on a side at angle + 90) and across v, ``tolerance`` degrees either way."""
    a = np.radians(angle)
    u = xs * np.cos(a) + ys * np.sin(a)
    v = -xs * np.sin(a) + ys * np.cos(a)
    off = np.abs((direction - angle + 90.0) % 180.0 - 90.0)   # 0: the edge runs across u
    return u, v, off <= tolerance, off >= 90.0 - tolerance


def _pair_strength(xs, ys, direction, angle, card_mm, tolerance) -> float:
    """How well edges at ``angle`` pair up a card's width and height apart (the weaker pair)."""
    u, v, across_u, across_v = _turned(xs, ys, direction, angle, tolerance)
    return max(min(_pairs(u[across_u], round(su))[1].max(initial=0), _pairs(v[across_v], round(sv))[1].max(initial=0))
               for su, sv in (card_mm, card_mm[::-1]))


def _placing(xs, ys, direction, angle, card_mm, blob, tolerance,
             support) -> Steps[tuple[float, np.ndarray] | None]:
    """The best-backed card at ``angle`` (either way round): (its weakest side's share of
    edge support, its corners in view px), or None when a side is backed under ``support``.
    Yields between the two ways round (a step of the work each: vision.steps)."""
    u, v, across_u, across_v = _turned(xs, ys, direction, angle, tolerance)
    best = None
    for way, (side_u, side_v) in enumerate((card_mm, card_mm[::-1])):
        if way:
            yield
        su, sv = int(round(side_u)), int(round(side_v))
        for ua, va in ((ua, va) for ua in _starts(u[across_u], su) for va in _starts(v[across_v], sv)):
            corners = _rectangle(angle, ua, va, su, sv)
            if _inside(blob, corners) < MIN_INSIDE:
                continue
            # each side backed by edges along its length (the two u-sides span v in [va, va + sv])
            backs = [_backed(v[across_u], u[across_u], ua, va, sv), _backed(v[across_u], u[across_u], ua + su, va, sv),
                     _backed(u[across_v], v[across_v], va, ua, su), _backed(u[across_v], v[across_v], va + sv, ua, su)]
            weakest = min(backs)
            if weakest >= support and (best is None or weakest > best[0]):
                best = (weakest, corners)
    return best


def _pairs(values: np.ndarray, span: int) -> tuple[int, np.ndarray]:
    """For edge pixels at ``values`` (their positions across a pair of parallel sides),
    how well a pair ``span`` apart is backed at each first-side position (from the first)."""
    if len(values) == 0:
        return 0, np.zeros(0)
    lo = int(np.floor(values.min()))
    hist = np.convolve(np.bincount(np.round(values - lo).astype(int), minlength=span + 2), (0.5, 1.0, 0.5), "same")
    return lo, np.minimum(hist[:-span], hist[span:])   # both sides of the pair


def _starts(values: np.ndarray, span: int, keep: int = 2) -> list[float]:
    """Where a pair of parallel sides ``span`` apart is best backed: the first side's
    position, a few."""
    lo, pair = _pairs(values, span)
    return [float(lo + i) for i in np.argsort(-pair)[:keep] if pair[i] > 0]


def _backed(along, across, at, start, length) -> float:
    """Share of the side at ``across == at`` (from ``start``, ``length`` long) with an edge
    pixel within a millimetre of it."""
    near = np.abs(across - at) <= 1.2
    on = along[near]
    on = on[(on >= start) & (on <= start + length)]
    if length <= 0:
        return 0.0
    return np.count_nonzero(np.bincount(np.floor(on - start).astype(int), minlength=1)) / float(length)


def _rectangle(angle: float, ua: float, va: float, su: int, sv: int) -> np.ndarray:
    """The corners (view px) of the card from (``ua``, ``va``), ``su`` by ``sv``, in the
    frame turned by ``angle``."""
    a = np.radians(angle)
    c, s = np.cos(a), np.sin(a)
    uv = np.array([[ua, va], [ua + su, va], [ua + su, va + sv], [ua, va + sv]], np.float64)
    return np.stack([uv[:, 0] * c - uv[:, 1] * s, uv[:, 0] * s + uv[:, 1] * c], axis=1)


def _inside(blob: np.ndarray, corners: np.ndarray) -> float:
    """Share of the quad ``corners`` (view px) lying on the ``blob`` mask."""
    quad = np.zeros_like(blob)
    cv2.fillPoly(quad, [np.round(corners).astype(np.int32).reshape(-1, 1, 2)], 255)
    area = cv2.countNonZero(quad)
    return cv2.countNonZero(cv2.bitwise_and(quad, blob)) / area if area else 0.0
