"""Finding card-shaped quadrilaterals in a photo of the table.

Cards are bright (their paper) against a darker table. The frame is shrunk by 2, the
darkest colour channel is thresholded (Otsu), and each outline that simplifies to four
corners with the right fill becomes a card; an outline that does not (two cards
overlapping, a hand on a card) is handed to :mod:`vision.partial` for card hypotheses.
Corners are then refined at full resolution by fitting a line to each side.

    >>> import numpy as np
    >>> frame = np.full((720, 1280, 3), 70, np.uint8)
    >>> _ = cv2.rectangle(frame, (500, 200), (625, 374), (235, 235, 235), -1)
    >>> quads = CardDetector().detect(frame)            # list[CardQuad]
    >>> len(quads), quads[0].corners.shape              # (4, 2) image px, clockwise
    (1, (4, 2))
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.background import TableBackground
from vision.features import NEXT, order_clockwise
from vision.longblobs import reachable_pieces
from vision.outline import edge_loops, edge_mask, grow_to_outer_edge, snap_outermost
from vision.shrunk import full_px, shrunk_px
from vision.sides import crossing, darkest, fitted_corners, peak, profiles, side_normals
from vision.steps import Steps, run_to_the_end


@dataclass
class CardQuad:
    """Four corners (image px, clockwise) of something card-shaped.

    ``complete`` is False for a card whose outline was inferred from a partly hidden shape
    (a rough guess: see :func:`snap_to_edges` and :mod:`vision.refine`); the guesses made from
    one merged shape share its ``outline``.
    """

    corners: np.ndarray
    complete: bool = True
    outline: np.ndarray | None = None   # the paper outline it came from (shrunk-frame px)


@dataclass
class DetectorSettings:
    scale: int = 2                 # work on the frame shrunk by this factor
    min_area_frac: float = 0.0015  # smallest card, as a share of the frame's area
    max_area_frac: float = 0.12
    min_solidity: float = 0.92     # outline area / convex hull area for a lone card
    max_aspect: float = 2.6        # longest/shortest side of a plausible card on screen
    min_threshold: int = 60        # never call anything darker than this paper
    min_outline_fit: float = 0.9   # share of the outline lying on the quad's sides for a lone card
    # the same for a closed loop of edges inside what differs from the empty table (a card lying over
    # another): the print field of a dark-bordered card on top, its corners rounded, fits 0.897-0.898
    min_loop_fit: float = 0.85
    valley_cut: int = 20           # thin dark lines (a card's edge or shadow over another) split paper; 0 = off
    outline: bool = True           # also look for closed loops of colour edges (cards not paler than the table)


_VALLEY_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
# With the empty table known, a four-cornered outline is taken for a lone card only at a card's size;
# larger, it is guessed from like any merged outline (a card lying half over another can make a solid,
# near-rectangular union: development scenes 626 and 807 of style 2, the top card not looked for)
LONE_SIZED = True
# a card whose print is close to the table's pattern (a full-bleed card on grass, gravel or brick) differs
# from the empty table only in pieces, none card-shaped: pieces this close (working px) are taken together,
# from a fifth of a card's area (LEFTOVER_MIN_SHARE), and the card whose four sides show around them,
# up to LEFTOVER_REACH_MM outside them, is guessed (style-2 development seeds 100..1699: 19 such cards
# placed within 4 % of their diagonal, no placement elsewhere)
LEFTOVERS = True
LEFTOVER_JOIN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
LEFTOVER_MIN_SHARE = 0.2
LEFTOVER_REACH_MM = 10
_AROUND = np.ones((5, 5), np.uint8)
# A card lying over another whose edges close round both: the loop is neither card it holds, and the
# blob in the difference from the empty table can be larger still (glare on a glossy table, a third card
# touching them) and is then not looked at for a card on top (vision.askew.MAX_SPAN). The card whose four
# sides show in such a loop is guessed too: fresh set 26's glossy tables had 7 fully visible cards with no
# outline, each reading 0.91-0.99 at its true corners; style-2 development 100..1699 named 7 more (none lost,
# none wrong), fresh set 27 8. Only the loops in a blob too long for the blob's own search are searched: the
# others cost 45 of a ten-card frame's 127 ms of detection and gave 3 of those 22 cards (development 1027, set
# 27's 3,101,495, set 26's 3,098,584; vision/README.md, fifty-first and fifty-second sessions)
LOOP_TOPS = True
LOOP_TOP_AREA = (0.8, 3.0)   # the loop's area, in card areas at its place
LOOP_TOP_SAME_PX = 3.0       # a placement whose corners all lie this close to another's is the same one
# A blob longer than the search for a card on top looks at (vision.askew.MAX_SPAN; glare, a third card, white
# cards on a pale cloth join several) is cut where it narrows, then into windows on the table
# (vision.longblobs), the cards found whole in it left out; each piece is searched as a blob is. Style-2
# development 100..1699 and sets 26 and 27: 8 fully visible cards more named, none lost, none wrong; the
# anglo_poker theme, 9 (vision/README.md, fifty-second session)
LONG_BLOBS = True


class CardDetector:
    """Finds cards in BGR frames. One instance per camera; not thread-safe.

        >>> det = CardDetector()
        >>> for q in det.detect(frame):  # doctest: +SKIP
        ...     print(q.corners.round(), q.complete)
    """

    def __init__(self, settings: DetectorSettings | None = None, background: TableBackground | None = None):
        self.settings = settings or DetectorSettings()
        self.background = background
        self.last_mask: np.ndarray | None = None

    def paper_mask(self, small: np.ndarray) -> np.ndarray:
        """255 where the shrunk frame looks like card paper."""
        low = cv2.min(cv2.min(small[..., 0], small[..., 1]), small[..., 2])
        low = cv2.GaussianBlur(low, (3, 3), 0)
        t, _ = cv2.threshold(low, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        _, mask = cv2.threshold(low, max(t, self.settings.min_threshold), 255, cv2.THRESH_BINARY)
        if self.settings.valley_cut:
            # the edge of a card lying over another shows as a thin darker line: cut there
            valleys = cv2.morphologyEx(low, cv2.MORPH_BLACKHAT, _VALLEY_KERNEL)
            mask[valleys > self.settings.valley_cut] = 0
        return mask

    def detect(self, frame: np.ndarray) -> list[CardQuad]:
        """The card quads of ``frame``: lone cards' outlines (``complete``) and guesses from merged ones."""
        return run_to_the_end(self.detecting(frame))

    def detecting(self, frame: np.ndarray) -> Steps[list[CardQuad]]:
        """:meth:`detect` in steps (:mod:`vision.steps`), for a reading spread over a live camera's frames
        (vision.repeat.SpreadReading): it yields between its stages and before each outline it looks at."""
        s = self.settings
        k = s.scale
        size = (frame.shape[1] // k, frame.shape[0] // k)
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA) if k > 1 else frame
        if self.background is not None:
            # the empty table is known: whatever differs from it and has a card's outline
            edges = edge_mask(small)   # made once: the difference uses it too
            yield
            mask = yield from self.background.finding_foreground(small, edges)
            self.last_mask = mask
            yield
            contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            found = yield from self._from_contours(frame, contours, mask.size, snap_past_shadow)
            yield
            # a card lying over another merges with it in the mask; its own edges still close
            edges = cv2.bitwise_and(edges, cv2.dilate(mask, _VALLEY_KERNEL))
            loops = edge_loops(edges, s.min_area_frac * mask.size)
            whole = [q.corners for q in found if q.complete]
            for q in (yield from self._from_contours(frame, loops, mask.size, snap_past_shadow, guesses=False,
                                                     min_fit=s.min_loop_fit)):
                if all(quad_overlap(q.corners, c) < 0.5 for c in whole):
                    found.append(q)
                    whole.append(q.corners)
            searched, long_ = self._by_reach(contours, mask.size)
            if LOOP_TOPS:
                found += yield from self._on_top_in_loops(frame, loops, found, searched)
            if LONG_BLOBS:
                found += yield from self._on_top_in_long_blobs(frame, long_, found)
            found = [q for q in found if self.background.card_sized(q.corners)]
            if LEFTOVERS:
                found += yield from self._in_leftovers(frame, mask, found)
            return _drop_nested(found)
        mask = self.paper_mask(small)
        self.last_mask = mask
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        found = yield from self._from_contours(frame, contours, mask.size, snap_to_edges)
        if s.outline:
            yield
            # cards that are not paler than the table: closed loops of colour edges
            loops = edge_loops(edge_mask(small), s.min_area_frac * mask.size)
            yield
            whole = [q.corners for q in found if q.complete]
            for q in (yield from self._from_contours(frame, loops, mask.size, snap_outermost, guesses=False)):
                if all(quad_overlap(q.corners, c) < 0.5 for c in whole):
                    found.append(q)
                    whole.append(q.corners)
            for q in found:
                if q.complete:   # a printed field inside a dark border: move out to the card's edge
                    yield
                    q.corners = order_clockwise(grow_to_outer_edge(frame, q.corners))
        return _drop_nested(found)

    def _from_contours(self, frame, contours, area_img, snap, guesses: bool = True,
                       min_fit: float | None = None) -> Steps[list[CardQuad]]:
        """Card quads from outlines in shrunk-frame px: lone cards (``min_fit`` of the outline on
        the quad's sides, the settings' ``min_outline_fit`` if not given), else (``guesses``) the
        card hypotheses of merged outlines. Steps of :meth:`detecting`: yields before each outline."""
        s = self.settings
        k = s.scale
        found: list[CardQuad] = []
        for c in contours:
            area = cv2.contourArea(c)
            if area < s.min_area_frac * area_img:
                continue
            yield
            hull = cv2.convexHull(c)
            pts = c.reshape(-1, 2).astype(np.float32)
            # a lone card: solid, not too large, its hull four-cornered (the cheap checks first)
            lone = area >= s.min_solidity * cv2.contourArea(hull) and area <= s.max_area_frac * area_img
            quad = _four_corners(hull) if lone else None
            if quad is not None:
                quad = _refine(pts, quad)
            if quad is not None and _outline_fit(pts, quad) >= (s.min_outline_fit if min_fit is None else min_fit):
                corners = snap(frame, order_clockwise(full_px(quad, k)))
                if _plausible(corners, s) and (self.background is None or not LONE_SIZED
                                               or self.background.card_sized(corners)):
                    found.append(CardQuad(order_clockwise(corners), outline=pts))
                    continue
            if guesses and self.background is not None:
                over = self.background.card_over(full_px(pts, k))
                if over is not None:
                    corners = order_clockwise(snap(frame, order_clockwise(over)))
                    if _plausible(corners, s):
                        found.append(CardQuad(corners, outline=pts))
                        continue
            if guesses:
                found += yield from self.guessing(pts, frame)
        return found

    def _by_reach(self, contours: list[np.ndarray], area_img: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """The foreground blobs (``contours``, shrunk px) large enough to hold a card, as (those searched whole
        for a card on top, those too long for that: :meth:`TableBackground.top_card_looks_at`)."""
        k = self.settings.scale
        searched, long_ = [], []
        for c in contours:
            if cv2.contourArea(c) >= self.settings.min_area_frac * area_img:
                looked_at = self.background.top_card_looks_at(full_px(c.reshape(-1, 2), k))
                (searched if looked_at else long_).append(c)
        return searched, long_

    def _on_top_in_loops(self, frame: np.ndarray, loops: list[np.ndarray], found: list[CardQuad],
                         searched: list[np.ndarray]) -> Steps[list[CardQuad]]:
        """Guesses (:func:`vision.askew.top_card`) at the cards on top in the edge ``loops`` of about
        LOOP_TOP_AREA card areas, but inside a card ``found`` whole, those ``found`` already and those
        inside a blob ``searched`` whole already (shrunk px; :meth:`_by_reach`); see LOOP_TOPS."""
        k = self.settings.scale
        whole = [q.corners for q in found if q.complete]
        lo, hi = LOOP_TOP_AREA
        out: list[CardQuad] = []
        for loop in loops:
            pts = full_px(loop.reshape(-1, 2).astype(np.float32), k)
            centre = pts.mean(axis=0)
            expected = self.background.card_area_px(centre)
            if expected is None or not lo <= cv2.contourArea(loop) * k * k / expected <= hi:
                continue
            if any(cv2.pointPolygonTest(c.astype(np.float32), (float(centre[0]), float(centre[1])), False) >= 0
                   for c in whole):
                continue   # the print inside a card found whole
            small = tuple(float(v) for v in shrunk_px(centre.astype(np.float64), k))
            if any(cv2.pointPolygonTest(b, small, False) >= 0 for b in searched):
                continue   # its blob was searched for a card on top already (and costs as much again)
            yield
            corners = yield from self._card_on_top(frame, pts)
            if corners is not None and not any(_same_place(corners, q.corners) for q in [*found, *out]):
                out.append(CardQuad(corners, complete=False, outline=loop.reshape(-1, 2).astype(np.float32)))
        return out

    def _on_top_in_long_blobs(self, frame: np.ndarray, long_: list[np.ndarray],
                              found: list[CardQuad]) -> Steps[list[CardQuad]]:
        """Guesses (:func:`vision.askew.top_card`) at the cards on top in the pieces (:mod:`vision.longblobs`)
        of the foreground blobs ``long_`` (shrunk px) too long to be searched whole (:meth:`_by_reach`), less the
        cards ``found`` whole; but those ``found`` already; see LONG_BLOBS."""
        if self.background.table_to_image is None or not long_:   # (without it a card's size is unknown)
            return []
        k = self.settings.scale
        covered = self._covered([q for q in found if q.complete])
        out: list[CardQuad] = []
        for b in long_:
            yield
            blob = np.zeros_like(self.last_mask)
            cv2.drawContours(blob, [b], -1, 255, -1)
            blob = cv2.bitwise_and(blob, self.last_mask)
            blob[covered > 0] = 0
            for points in reachable_pieces(blob, k, self.background.table_to_image, self.background.card_mm):
                yield
                corners = yield from self._card_on_top(frame, points)
                if corners is not None and not any(_same_place(corners, q.corners) for q in [*found, *out]):
                    out.append(CardQuad(corners, complete=False, outline=shrunk_px(points, k)))
        return out

    def _in_leftovers(self, frame: np.ndarray, mask: np.ndarray, found: list[CardQuad]) -> Steps[list[CardQuad]]:
        """Guesses (:func:`vision.askew.top_card`) at the pieces of the foreground ``mask`` that no quad
        ``found`` covers, pieces near one another taken together (LEFTOVER_JOIN); see LEFTOVERS."""
        if self.background.table_to_image is None:   # a card's size unknown
            return []
        k = self.settings.scale
        left = cv2.bitwise_and(mask, cv2.bitwise_not(self._covered(found)))
        n, labels, stats, centres = cv2.connectedComponentsWithStats(cv2.dilate(left, LEFTOVER_JOIN))
        out = []
        for i in range(1, n):
            x, y, w, h, joined = stats[i]
            expected = self.background.card_area_px(full_px(centres[i], k))
            least = LEFTOVER_MIN_SHARE * expected / (k * k)
            if joined < least:   # the pieces, joined, are larger still: cheap to rule out first
                continue
            ys, xs = np.nonzero((labels[y:y + h, x:x + w] == i) & (left[y:y + h, x:x + w] > 0))
            if len(xs) < least:
                continue
            hull = cv2.convexHull(np.stack([xs + x, ys + y], axis=1).astype(np.float32)).reshape(-1, 2)
            corners = yield from self._card_on_top(frame, full_px(hull, k), grow_mm=LEFTOVER_REACH_MM)
            if corners is not None:
                out.append(CardQuad(corners, complete=False, outline=hull))
        return out

    def _covered(self, quads: list[CardQuad]) -> np.ndarray:
        """255 where the ``quads`` lie in the last frame's mask (shrunk px), and a little round them."""
        k = self.settings.scale
        covered = np.zeros_like(self.last_mask)
        for q in quads:
            cv2.fillConvexPoly(covered, np.round(shrunk_px(q.corners, k)).astype(np.int32), 255)
        return cv2.dilate(covered, _AROUND)

    def _card_on_top(self, frame: np.ndarray, points_px: np.ndarray, grow_mm: int = 0) -> Steps[np.ndarray | None]:
        """The clockwise corners of the card whose four sides show around ``points_px`` (full-size px;
        :func:`vision.askew.top_card`, up to ``grow_mm`` past them), if plausible and of a card's size there."""
        top = yield from self.background.finding_top_card(frame, points_px, grow_mm=grow_mm)
        if top is None:
            return None
        corners = order_clockwise(top)
        return corners if _plausible(corners, self.settings) and self.background.card_sized(corners) else None

    def guesses(self, outline: np.ndarray, frame: np.ndarray | None = None) -> list[CardQuad]:
        """Card outlines guessed from a merged ``outline`` of the last frame's paper mask
        (two cards overlapping; or a near-square union first taken for one card); with the
        ``frame`` and the empty table known, also the card askew on top of a pile."""
        return run_to_the_end(self.guessing(outline, frame))

    def guessing(self, outline: np.ndarray, frame: np.ndarray | None = None) -> Steps[list[CardQuad]]:
        """:meth:`guesses` in steps (:mod:`vision.steps`)."""
        from vision.partial import card_hypotheses  # only for the rarer merged shapes

        k = self.settings.scale
        out = []
        if frame is not None and self.background is not None:
            # (of a card's size: the guesses below are held to it too)
            top = yield from self._card_on_top(frame, full_px(outline, k))
            if top is not None:
                out.append(CardQuad(top, complete=False, outline=outline))
        for corners in card_hypotheses(outline, self.last_mask):
            corners = order_clockwise(full_px(corners, k))  # snapped later, if worth it
            if _plausible(corners, self.settings):
                out.append(CardQuad(corners, complete=False, outline=outline))
        if self.background is not None:
            # as in detect(): the recogniser also asks here for a doubtful whole outline's guesses
            out = [q for q in out if self.background.card_sized(q.corners)]
        return out


# the difference from the empty table takes in a card's drop shadow and, smoothed, spreads
# past its edge: that outline lies up to ~12 px outside the card (rendered pile, 1280x720)
SHADOW_REACH = 12.0


def snap_past_shadow(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """:func:`snap_outermost` searching far enough inwards to see the card's own edge."""
    return snap_outermost(frame, corners, inward=SHADOW_REACH)


SNAP_T = np.linspace(0.12, 0.88, 16, dtype=np.float32)
SNAP_OFFSETS = np.arange(-4.0, 4.01, 0.5, dtype=np.float32)


def snap_to_edges(frame: np.ndarray, corners: np.ndarray, min_step: float = 12.0) -> np.ndarray:
    """Move each side of a clockwise quad onto the paper's edge in the full-size frame.

    Along 16 normals per side the paper brightness (darkest colour channel) is sampled
    4 px either way; the steepest fall (paper inside, cloth outside) is the edge, to a
    fraction of a pixel. A side without a clear edge (it borders another card) keeps its
    line.
    """
    sides = side_normals(corners)
    if sides is None:
        return np.asarray(corners, np.float32)
    q, a, b, d, n = sides
    base, prof = profiles(frame, a, b, n, SNAP_T, SNAP_OFFSETS)
    paper = darkest(prof)                                      # the darkest channel: high on paper
    ok, at = peak(-(paper[..., 2:] - paper[..., :-2]), min_step)  # the fall from paper to cloth, outwards
    edge = base + (SNAP_OFFSETS[0] + at * 0.5)[..., None] * n[:, None, :]
    return fitted_corners(q, a, d, edge, ok, min_points=5, max_move=8)


def _four_corners(hull: np.ndarray) -> np.ndarray | None:
    """The hull simplified to 4 corners, or None if it is not a quadrilateral."""
    peri = cv2.arcLength(hull, True)
    for eps in (0.02, 0.03, 0.045, 0.06):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
        if len(approx) < 4:
            return None
    return None


def _outline_fit(points: np.ndarray, quad: np.ndarray, tol: float = 1.5) -> float:
    """Share of outline points within ``tol`` px of the quad's sides.

    Two overlapping cards can have a nearly convex union whose hull simplifies to four
    corners; their outline, though, leaves those four sides in places."""
    a = quad.astype(np.float32)
    b = a[NEXT]
    ab = b - a                                              # (4, 2)
    rel = points[:, None, :] - a[None, :, :]                # (N, 4, 2)
    t = np.clip((rel * ab).sum(-1) / np.maximum((ab * ab).sum(-1), 1e-9), 0, 1)
    nearest = a[None] + t[..., None] * ab[None]
    dist = np.linalg.norm(points[:, None, :] - nearest, axis=-1).min(axis=1)
    return float((dist <= tol).mean())


def _refine(contour: np.ndarray, quad: np.ndarray, max_move: float = 6.0) -> np.ndarray:
    """Corners as intersections of lines fitted to the outline points of each side; a
    corner that would move more than ``max_move`` px stays where it was.

    Points near the corners are left out: real cards have rounded corners.
    """
    quad = order_clockwise(quad)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab))
        if length < 4:
            return quad
        d = ab / length
        rel = contour - a
        along = rel @ d
        across = rel @ np.array([-d[1], d[0]])
        keep = (along > 0.15 * length) & (along < 0.85 * length) & (np.abs(across) < max(2.0, 0.05 * length))
        pts = contour[keep]
        if len(pts) < 4:
            lines.append((a, d))
            continue
        vx, vy, x0, y0 = cv2.fitLine(pts, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    out = []
    for i in range(4):
        p = crossing(lines[i - 1], lines[i])
        out.append(quad[i] if p is None or np.linalg.norm(p - quad[i]) > max_move else p)
    # outline pixels sit half a pixel inside the paper's true edge
    out = np.array(out, np.float32)
    centre = out.mean(axis=0)
    return out + (out - centre) / np.maximum(np.linalg.norm(out - centre, axis=1, keepdims=True), 1) * 0.5


def _plausible(corners: np.ndarray, s: DetectorSettings) -> bool:
    """Convex, not too thin: what a card can look like on screen."""
    p = np.asarray(corners, np.float32)
    if not cv2.isContourConvex(p.reshape(-1, 1, 2)):
        return False
    side = np.linalg.norm(p - p[NEXT], axis=1)
    return side.min() > 8 and side.max() / side.min() < s.max_aspect


def quad_overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection area over the smaller quad's area (both convex, corners in either order round).

        >>> quad_overlap([[0, 0], [2, 0], [2, 2], [0, 2]], [[1, 0], [3, 0], [3, 2], [1, 2]])
        0.5
    """
    pa, pb = np.asarray(a, np.float64).reshape(-1, 2).tolist(), np.asarray(b, np.float64).reshape(-1, 2).tolist()
    area_a, area_b = _signed_area(pa), _signed_area(pb)
    small = min(abs(area_a), abs(area_b))
    if small <= 0:
        return 0.0
    return abs(_signed_area(_clipped(pa, pb if area_b > 0 else pb[::-1]))) / small


def _signed_area(poly: list) -> float:
    """The shoelace area of ``poly`` ([x, y] corners): its sign tells which way round they go."""
    return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]))


def _clipped(subject: list, clip: list) -> list:
    """``subject`` cut to the convex polygon ``clip``, its corners in the order of a positive
    :func:`_signed_area` (Sutherland-Hodgman: one half-plane per side of ``clip``), in plain floats:
    about 20 µs for two quads. Not cv2.intersectConvexConvex: for two quads alike to 1e-5 px it gave half
    the area (OpenCV issue 22812), so one card found twice stayed two cards (style-2 fresh scene 3,060,554)."""
    out = subject
    for (px, py), (qx, qy) in zip(clip, clip[1:] + clip[:1]):
        if not out:
            break
        # >= 0: on the inner side of the side p -> q
        side = [(qx - px) * (y - py) - (qy - py) * (x - px) for x, y in out]
        kept = []
        for i, (x, y) in enumerate(out):
            j = (i + 1) % len(out)
            if side[i] >= 0:
                kept.append((x, y))
            if (side[i] >= 0) != (side[j] >= 0):   # the edge i -> j crosses the side's line
                t = side[i] / (side[i] - side[j])
                kept.append((x + t * (out[j][0] - x), y + t * (out[j][1] - y)))
        out = kept
    return out


def _same_place(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether the clockwise quads ``a`` and ``b`` have their corners within LOOP_TOP_SAME_PX of each other."""
    return any(float(np.abs(np.roll(b, i, axis=0) - a).max()) <= LOOP_TOP_SAME_PX for i in range(4))


def _drop_nested(quads: list[CardQuad]) -> list[CardQuad]:
    """Without the whole-card quads lying inside a larger one (a card's printed frame)."""
    whole = [q for q in quads if q.complete]
    areas = [cv2.contourArea(q.corners.astype(np.float32)) for q in whole]
    out = []
    for q in quads:
        if q.complete:
            a = cv2.contourArea(q.corners.astype(np.float32))
            if any(b > 1.15 * a and quad_overlap(q.corners, o.corners) > 0.9 for o, b in zip(whole, areas)):
                continue
        out.append(q)
    return out
