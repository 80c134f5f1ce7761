"""The empty table, learnt from the calibration shot: what is *not* a card.

With the camera fixed, the calibration shot (markers on an empty table) shows every
cloth, wood grain or tablecloth pattern the cards will lie on. Kept shrunk like the
detector's working frame, per pixel: the colour, the local texture (standard deviation
over a few pixels, so wood grain and gravel do not count as change) and the table's own
edges. A frame's foreground is then where its colour leaves the table's by several times
the texture, or where it has an edge the table has not; enclosed regions are filled, so a
white card on a white table is found by its outline even where its paper matches. On a
patterned table (stripes, gravel, brick) a card's paper lies within the pattern's range of
colours and the pattern has edges everywhere: there the card is found because it is
*calm* where the table is not (its local texture a third of the table's or less), and because
it *hides* the table's grain: where the empty table has fine detail (gravel, grass, a printed
pattern), the frame's detail no longer follows it (their local correlation falls), whatever
the card's colour and print; a shadow or a change of light keeps the grain and is not news. On a
plain, dark table (felt) the reverse: a card printed in the cloth's own colour is found where
it is *busier* than the table.

With the calibration (image px ↔ table mm) the detector also knows how large a card
lies at each place of the image, and drops anything far from that size.

    >>> import numpy as np
    >>> empty = np.full((720, 1280, 3), 230, np.uint8)                  # a white table
    >>> bg = TableBackground.from_shot(empty)
    >>> frame = empty.copy(); _ = cv2.rectangle(frame, (400, 200), (525, 374), (200, 200, 205), -1)
    >>> m = bg.foreground(cv2.resize(frame, (640, 360), interpolation=cv2.INTER_AREA))
    >>> int(m[140, 230]), int(m[20, 20])
    (255, 0)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.askew import finding_top_card, within_reach
from vision.decks import CARD_SIZE_MM
from vision.outline import edge_mask, fill_holes
from vision.steps import Steps, run_to_the_end

DIFF_SIGMAS = 3.0        # colour change, in local texture deviations, that is foreground
NOISE_FLOOR = 4.0        # grey levels of deviation assumed even on a perfectly plain table
SMOOTH = 1.0             # Gaussian sigma (working px) applied to both before comparing
CARD_AREA_RANGE = (0.55, 1.6)   # on-screen area / expected card area at that place
# a ragged blob (a card whose print matches the cloth in places) is taken for one card when
# its bounding rectangle on the table is this close to a card's sides; above 1: the drop
# shadow and the smoothing spread it (a card on Passe Eclair's rendered pile, its shadow
# over those of the cards below: 1.13-1.16 on the short side, 1.10 on the long one)
BLOB_SIDE_RANGE = (0.75, 1.18)
# an outline whose long sides fall short of a card's by more than CUT_LONG while its short sides
# are a card's (CUT_SHORT_SIDES) is a card with one end lost: in the cloth, under a shadow, or
# an outline fitted to a look-alike's print (style-2 fresh seeds 3,014,500..3,016,499: three
# purple 6s and 8s named each other at 79-83 mm; development seeds 100..699: no right name this
# short, and a dark-bordered card seen inside its border is short on both sides). Cut shorter than
# its width, its longer sides are the card's width (within CUT_SHORT_SIDES either way): a 9 of a
# French deck a third under another card, read as its 7 at 58 x 64 mm (vision/README.md,
# forty-third session)
CUT_LONG = 0.95
CUT_SHORT_SIDES = 0.96
# an outline a card's length long (CUT_LONG) but narrower than this share of its width is a card with one
# side lost under another: a 6 of hearts with one column of pips under a card, its other column read as
# the 3, at 49 x 87 mm; right names of partly hidden cards were read at 54-56 mm (vision/README.md,
# forty-third session). Drawn out to its width, it is read whole or not named
CUT_NARROW = 0.9
# an unnamed outline whose fine detail correlates this much with the empty table's there is the table
# (glare or a change of light lifted it from the calibration shot), where the table has detail enough
# (style-2 development seeds 100..1699: cards 0.36 at most, false detections on patterned and
# photographed tables mostly 0.82-1.0)
SAME_TABLE = 0.6
DETAIL_SIGMA = 3.0       # working px
TABLE_DETAIL_MIN = 4.0   # grey levels (standard deviation of the detail)
TEXTURE_WINDOW = 7      # working px: the local texture's window
TEXTURED = 12.0         # grey levels of local deviation that make a place patterned
PATTERNED_SHARE = 0.1   # a table this much patterned is looked at for calm places (not a few markers)
CALM_RATIO = 3.0        # a place whose texture falls to this share of the table's is something laid on it
# On a plain, dark table (felt: its level under BUSY_DARK, its grey spread over a card's scale at the 90th
# percentile under PLAIN_SPREAD), a place busier than the table there is something laid on it: the faint
# print of a full-bleed card in the cloth's own colour (a blue card on blue felt), too faint for an edge,
# leaves the difference ragged. Busier: the texture of what does not already differ (so a bright card's
# edge does not make the cloth beside it busy) over BUSY_RATIO times the table's plus BUSY_FLOOR grey
# levels. On light tables glare and a token beside a card were busy too, on photographed ones (grass,
# gravel) outlines were lost (vision/README.md, twenty-eighth and twenty-ninth sessions)
BUSY = True
BUSY_DARK = 125.0
BUSY_RATIO = 1.5
BUSY_FLOOR = 1.5
BUSY_OUTSIDE = 0.5      # share of the texture window that must not differ already
PLAIN_WINDOW = 31       # working px: about half a card's width
PLAIN_SPREAD = 5.0      # grey levels
# Hidden grain: the local correlation (over HIDDEN_WINDOW) of the frame's fine detail (_detail) with
# the empty table's, where the table's detail is over HIDDEN_DETAIL grey levels. On style-2
# development scenes the table's own grain correlates 0.98-1.0 (0.70 at the 10th percentile with the
# frame moved by 1 working px, 2 px full size; 0.13 with 2), a card laid on it under 0.3 over 80-86 %
# of its face (44-71 % once held to a strong grain and opened as below; holes inside are filled):
# yellow cards on brown gravel, green ones on grass, whose colour and calm the other cues miss
# (vision/README.md, thirty-first session). A window over a card's edge reads low just outside the
# card too: only what differs from the table there by HIDDEN_CHANGE counts, and a sliver thinner than
# HIDDEN_OPEN is taken away (a card's drop shadow over a dark patch of gravel kept, its whole outline
# was lost: development scene 1685). The grain of light wood (3-5 grey levels) read so lost cards and
# made false ones: the table's detail must be a grain as strong as gravel's or grass's (HIDDEN_DETAIL)
HIDDEN = True
HIDDEN_WINDOW = 9       # working px
HIDDEN_NCC = 0.3
HIDDEN_DETAIL = 5.0     # grey levels (root mean square of the table's detail over the window)
HIDDEN_SHARE = 0.05     # a table with such detail on less of it (plain cloth, wood, felt) is not looked at so
HIDDEN_CHANGE = 6.0     # grey levels (the unchanged table: 1.4-1.7 at the median, 3.4-4.1 at the 99th percentile)
HIDDEN_MOVED = 0.5      # a frame with more of the table's grain hidden is not read so: the camera moved
HIDDEN_OPEN = 5         # working px
GRAIN_MOVE_RESPONSE = 0.2   # phase correlation's peak that tells how the frame moved (0.29-0.69 on grass and gravel)
_OPEN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
_WINDOW = cv2.getStructuringElement(cv2.MORPH_RECT, (TEXTURE_WINDOW, TEXTURE_WINDOW))
_GROW = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5))
_HIDDEN_OPEN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (HIDDEN_OPEN, HIDDEN_OPEN))
_ANY_CHANNEL = np.ones((1, 3), np.float32)


# GaussianBlur's own kernel for float32 images at sigma SMOOTH (its size: 8 sigma + 1, odd)
_SMOOTH_KERNEL = cv2.getGaussianKernel(int(round(SMOOTH * 8 + 1)) | 1, SMOOTH, cv2.CV_32F)


def smooth(small: np.ndarray) -> np.ndarray:
    """``cv2.GaussianBlur(small.astype(np.float32), (0, 0), SMOOTH)``, to the bit, from the
    8-bit image straight (a third of the time: no float copy to read and write)."""
    return cv2.sepFilter2D(small, cv2.CV_32F, _SMOOTH_KERNEL, _SMOOTH_KERNEL)


def _spread(grey: np.ndarray, window: int, weight: np.ndarray | None = None) -> np.ndarray:
    """Local standard deviation of ``grey`` (float32) over ``window`` px; with ``weight`` (0 or 1 a
    pixel), of the weighted pixels only (0 where they are under BUSY_OUTSIDE of the window)."""
    k = (window, window)
    if weight is None:
        mean = cv2.blur(grey, k)
        return cv2.sqrt(cv2.max(cv2.blur(grey * grey, k) - mean * mean, 0.0))
    share = cv2.blur(weight, k)
    some = np.maximum(share, 1e-3)
    wg = weight * grey
    mean = cv2.blur(wg, k) / some
    var = cv2.blur(wg * grey, k) / some - mean * mean
    var[share < BUSY_OUTSIDE] = 0.0
    return cv2.sqrt(cv2.max(var, 0.0))


def _texture(f: np.ndarray, outside: np.ndarray | None = None) -> np.ndarray:
    """Local standard deviation of the grey of ``f`` (BGR float32) over TEXTURE_WINDOW px; with
    ``outside`` (a 0/255 mask), of the pixels where it is 0 only."""
    weight = None if outside is None else cv2.compare(outside, 0, cv2.CMP_EQ).astype(np.float32) / 255.0
    return _spread(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY), TEXTURE_WINDOW, weight)


def _plain(colour: np.ndarray) -> bool:
    """Whether the table ``colour`` (BGR float32) is plain at a card's scale: no blotches, grass or gravel."""
    spread = _spread(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), PLAIN_WINDOW)
    return float(np.percentile(spread, 90)) <= PLAIN_SPREAD


class TableBackground:
    """The empty table at the detector's working scale; see the module docstring. Not
    thread-safe (one per detector: :meth:`foreground` reuses its working arrays)."""

    def __init__(self, small: np.ndarray, scale: int, table_to_image: np.ndarray | None = None,
                 card_mm=CARD_SIZE_MM):
        self.scale = scale
        self.colour = cv2.GaussianBlur(small.astype(np.float32), (0, 0), SMOOTH)
        mean = cv2.blur(self.colour, (TEXTURE_WINDOW, TEXTURE_WINDOW))
        var = cv2.blur(self.colour * self.colour, (TEXTURE_WINDOW, TEXTURE_WINDOW)) - mean * mean
        self.spread = np.sqrt(np.maximum(var, 0)) + NOISE_FLOOR
        # where the table is patterned, and how calm a place must be there to be a card
        texture = _texture(self.colour)
        patterned = float((texture > TEXTURED).mean()) >= PATTERNED_SHARE
        # None on a plain table: no calm places looked for, and no such array kept
        self._calm_limit = np.where(texture > TEXTURED, texture / CALM_RATIO, -1.0).astype(np.float32) \
            if patterned else None
        grain = TableGrain(self.colour) if HIDDEN else None
        self.grain = grain if grain is not None and grain.share >= HIDDEN_SHARE else None   # None: no grain
        self.edges = cv2.dilate(edge_mask(small), _GROW)
        self._not_edges = cv2.bitwise_not(self.edges)
        self._work: tuple[np.ndarray, np.ndarray] | None = None   # see _buffers
        self._sample = self.colour[::4, ::4].reshape(-1, 3)
        self._ref = np.median(self._sample, axis=0) + 1.0   # the shot's level per channel (fixed)
        # None but on a plain, dark table: no busy places looked for
        self._busy_limit = (texture * BUSY_RATIO + BUSY_FLOOR).astype(np.float32) \
            if BUSY and not patterned and float(self._ref.max()) <= BUSY_DARK and _plain(self.colour) else None
        self.table_to_image = table_to_image
        self.card_mm = card_mm

    @classmethod
    def from_shot(cls, empty: np.ndarray, scale: int = 2, table_to_image: np.ndarray | None = None,
                  card_mm=CARD_SIZE_MM) -> TableBackground:
        """From a full-size frame of the empty table (and, if known, the table-mm → image-px
        homography of its calibration)."""
        h, w = empty.shape[:2]
        small = cv2.resize(empty, (w // scale, h // scale), interpolation=cv2.INTER_AREA) if scale > 1 else empty
        return cls(small, scale, table_to_image, card_mm)

    def foreground(self, small: np.ndarray, edges: np.ndarray | None = None) -> np.ndarray:
        """255 where the shrunk frame ``small`` is not the empty table (holes filled).
        ``edges``: ``edge_mask(small)``, when the caller has made it already."""
        return run_to_the_end(self.finding_foreground(small, edges))

    def finding_foreground(self, small: np.ndarray, edges: np.ndarray | None = None) -> Steps[np.ndarray]:
        """:meth:`foreground` in steps (:mod:`vision.steps`): it yields once the difference is made and
        after the table's grain and texture are weighed (a reading spread over a live camera's frames)."""
        f = smooth(small)   # compare regions, not noisy pixels
        # the light may have changed since the shot: match each channel's overall level first
        now = np.median(f[::4, ::4].reshape(-1, 3), axis=0) + 1.0
        gain = tuple(float(g) for g in now / self._ref) + (1.0,)
        # (into buffers kept from frame to frame: a fresh 2.7 MB array each time cost more than the sums)
        level, spread = self._buffers(self.colour.shape)
        cv2.absdiff(f, cv2.multiply(self.colour, gain, dst=level), dst=level)
        dev = cv2.divide(level, cv2.multiply(self.spread, gain, dst=spread), dst=spread)
        diff = _any_channel_over(dev, DIFF_SIGMAS)
        new_edges = cv2.bitwise_and(edge_mask(small) if edges is None else edges, self._not_edges)
        mask = cv2.bitwise_or(diff, new_edges)
        if self.grain is not None:   # a table with a grain
            changed = _any_channel_over(level, HIDDEN_CHANGE)
            yield
            mask = cv2.bitwise_or(mask, cv2.bitwise_and(self.grain.hidden(f), changed))
        yield
        if self._calm_limit is not None:   # a patterned table
            mask = cv2.bitwise_or(mask, self._calm(f))
        elif self._busy_limit is not None:   # a plain, dark table
            mask = cv2.bitwise_or(mask, cv2.compare(_texture(f, outside=mask), self._busy_limit, cv2.CMP_GT))
        yield
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _OPEN)
        return cv2.morphologyEx(fill_holes(mask), cv2.MORPH_OPEN, _OPEN)

    def _calm(self, f: np.ndarray) -> np.ndarray:
        """255 where the smoothed frame ``f`` is calm and the table patterned there."""
        calm = cv2.compare(_texture(f), self._calm_limit, cv2.CMP_LT)
        calm = cv2.morphologyEx(calm, cv2.MORPH_OPEN, _OPEN)
        return cv2.dilate(calm, _WINDOW)   # a calm window's centre: the calm reaches to its edge

    def _buffers(self, shape) -> tuple[np.ndarray, np.ndarray]:
        """Two float32 working arrays of ``shape``, the same from call to call (not thread-safe)."""
        if self._work is None or self._work[0].shape != shape:
            self._work = (np.empty(shape, np.float32), np.empty(shape, np.float32))
        return self._work

    def card_area_px(self, point_px) -> float | None:
        """On-screen area (full-size px²) of a card lying at ``point_px``, or None without calibration."""
        if self.table_to_image is None:
            return None
        to_table = np.linalg.inv(self.table_to_image)
        p = cv2.perspectiveTransform(np.asarray(point_px, np.float64).reshape(1, 1, 2), to_table).reshape(2)
        w, h = self.card_mm
        card = np.array([[-w, -h], [w, -h], [w, h], [-w, h]], np.float64) / 2 + p
        quad = cv2.perspectiveTransform(card.reshape(-1, 1, 2), self.table_to_image).reshape(-1, 2)
        return float(cv2.contourArea(quad.astype(np.float32)))

    def card_sized(self, corners: np.ndarray) -> bool:
        """True when ``corners`` (full-size px) cover about one card's area at their place."""
        expected = self.card_area_px(np.asarray(corners).mean(axis=0))
        if expected is None:
            return True
        area = float(cv2.contourArea(np.asarray(corners, np.float32)))
        return CARD_AREA_RANGE[0] * expected <= area <= CARD_AREA_RANGE[1] * expected

    def cut_short(self, corners: np.ndarray) -> bool:
        """True when the outline ``corners`` (full-size px) is a card with one end lost (CUT_LONG) or one
        side (CUT_NARROW); always False without calibration."""
        return self.table_to_image is not None and bool(self._cuts(self._to_table(corners)))

    def drawn_out(self, corners: np.ndarray) -> list[np.ndarray]:
        """The outline ``corners`` (full-size px) made a whole card's on the table: for each way it may have
        been cut (:meth:`_cuts`; if none, its longer sides drawn out to a card's length), drawn out at one end
        and at the other (none without calibration).

            >>> bg = TableBackground(np.zeros((4, 4, 3), np.uint8), 1, np.eye(3), card_mm=(63, 88))
            >>> [a.round().astype(int).tolist() for a in bg.drawn_out(np.float32([[0, 0], [63, 0], [63, 80], [0, 80]]))]
            [[[0, 0], [63, 0], [63, 88], [0, 88]], [[0, -8], [63, -8], [63, 80], [0, 80]]]
            >>> len(bg.drawn_out(np.float32([[0, 0], [63, 0], [63, 40], [0, 40]])))   # cut below its width
            2
            >>> bg.drawn_out(np.float32([[0, 0], [40, 0], [40, 88], [0, 88]]))[1].round().astype(int).tolist()
            [[-23, 0], [40, 0], [40, 88], [-23, 88]]
        """
        if self.table_to_image is None:
            return []
        t = self._to_table(corners)
        lengths = _pair_lengths(t)
        out = []
        for turn, goal in self._cuts(t) or [(int(lengths[1] > lengths[0]), max(self.card_mm))]:
            u = np.roll(t, -turn, axis=0)   # turned so that sides u0-u1 and u2-u3 are the ones drawn out
            grow = goal - lengths[turn]
            along_1 = (u[1] - u[0]) / np.linalg.norm(u[1] - u[0])
            along_2 = (u[2] - u[3]) / np.linalg.norm(u[2] - u[3])
            for end in (u + grow * np.array([[0, 0], along_1, along_2, [0, 0]]),     # the end u1-u2 drawn out
                        u - grow * np.array([along_1, [0, 0], [0, 0], along_2])):    # the end u3-u0
                out.append(cv2.perspectiveTransform(np.roll(end, turn, axis=0).reshape(-1, 1, 2),
                                                    self.table_to_image).reshape(4, 2).astype(np.float32))
        return out

    def _cuts(self, t: np.ndarray) -> list[tuple[int, float]]:
        """How the outline ``t`` (mm) may be a card cut short: each as (which pair of sides was cut, 0 for
        sides 0 and 2, 1 for sides 1 and 3; the length that pair should have). Its length cut short
        (CUT_LONG) while the other pair is the card's width (CUT_SHORT_SIDES; the longer pair, when cut below
        the width), the shorter pair taken for the width first; else its width cut narrow (CUT_NARROW) beside
        a card's length."""
        lengths = _pair_lengths(t)
        cw, ch = sorted(self.card_mm)
        out = []
        for width in sorted((0, 1), key=lambda k: lengths[k]):
            w, length = lengths[width], lengths[1 - width]
            if length < CUT_LONG * ch and w >= CUT_SHORT_SIDES * cw and (w <= length or w * CUT_SHORT_SIDES <= cw):
                out.append((1 - width, ch))
        narrow = int(lengths[1] < lengths[0])
        if not out and CUT_LONG <= lengths[1 - narrow] / ch <= 1 / CUT_LONG and lengths[narrow] < CUT_NARROW * cw:
            out.append((narrow, cw))
        return out

    def shows_table(self, frame: np.ndarray, corners: np.ndarray) -> bool:
        """True when the inside of ``corners`` (full-size px) is the empty table's own pattern
        (SAME_TABLE): a glare spot or a shadow on a patterned cloth, not something laid on it."""
        likeness = self.table_likeness(frame, corners)
        return likeness is not None and likeness >= SAME_TABLE

    def table_likeness(self, frame: np.ndarray, corners: np.ndarray) -> float | None:
        """How much the inside of ``corners`` (full-size px) in ``frame`` shows the empty table's own
        pattern (the correlation of their fine detail, from -1 to 1; glare and a change of light
        leave it), or None where the table is too plain there to tell (TABLE_DETAIL_MIN)."""
        pts = np.asarray(corners, np.float32) / self.scale
        h, w = self.colour.shape[:2]
        x0, y0 = (max(int(v), 0) for v in pts.min(axis=0))
        x1, y1 = (min(int(np.ceil(v)) + 1, n) for v, n in zip(pts.max(axis=0), (w, h)))
        if x1 - x0 < 8 or y1 - y0 < 8:
            return None
        s = self.scale
        crop = frame[y0 * s:y1 * s, x0 * s:x1 * s]
        if s > 1:
            crop = cv2.resize(crop, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
        inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(inside, np.round(pts - (x0, y0)).astype(np.int32), 255)
        inside = cv2.erode(inside, _GROW) > 0   # off the outline's own edge
        if inside.sum() < 50:
            return None
        now, then = (_detail(cv2.cvtColor(c, cv2.COLOR_BGR2GRAY))[inside]
                     for c in (smooth(crop), self.colour[y0:y1, x0:x1]))
        if float(then.std()) < TABLE_DETAIL_MIN:
            return None
        now, then = now - now.mean(), then - then.mean()
        return float((now * then).sum() / (np.sqrt((now * now).sum() * (then * then).sum()) + 1e-6))

    def _to_table(self, corners: np.ndarray) -> np.ndarray:
        to_table = np.linalg.inv(self.table_to_image)
        return cv2.perspectiveTransform(np.asarray(corners, np.float64).reshape(-1, 1, 2), to_table).reshape(-1, 2)

    def card_over(self, points_px: np.ndarray) -> np.ndarray | None:
        """The outline of one card lying over the blob ``points_px`` (full-size px), or None.

        Where a card's print matches the cloth the difference leaves holes and bites in its
        outline; on the table (mm) its bounding rectangle is still about a card's, so a
        card of the true size is put there, turned like that rectangle (its sides are
        snapped to the image's edges afterwards)."""
        if self.table_to_image is None or len(points_px) < 5:
            return None
        to_table = np.linalg.inv(self.table_to_image)
        hull = cv2.convexHull(np.asarray(points_px, np.float32).reshape(-1, 1, 2))
        mm = cv2.perspectiveTransform(hull.astype(np.float64), to_table).reshape(-1, 2).astype(np.float32)
        (cx, cy), (w, h), angle = cv2.minAreaRect(mm)
        short, long_ = sorted((w, h))
        cw, ch = sorted(self.card_mm)
        lo, hi = BLOB_SIDE_RANGE
        if not (lo * cw <= short <= hi * cw and lo * ch <= long_ <= hi * ch):
            return None
        side = (cw, ch) if w <= h else (ch, cw)
        box = cv2.boxPoints(((cx, cy), side, angle)).astype(np.float64)
        return cv2.perspectiveTransform(box.reshape(-1, 1, 2), self.table_to_image).reshape(4, 2).astype(np.float32)

    def top_card(self, frame: np.ndarray, points_px: np.ndarray, grow_mm: int = 0) -> np.ndarray | None:
        """The card laid askew on top of the pile that the blob ``points_px`` (full-size px)
        is (:mod:`vision.askew`), or None (no calibration, or no card with four sides seen);
        with ``grow_mm``, a card reaching that far past the blob."""
        return run_to_the_end(self.finding_top_card(frame, points_px, grow_mm))

    def top_card_looks_at(self, points_px: np.ndarray) -> bool:
        """Whether :meth:`top_card` looks for a card on top of the blob ``points_px`` (full-size px) at
        all: the table calibrated and the blob short enough (:data:`vision.askew.MAX_SPAN`)."""
        return (self.table_to_image is not None and len(points_px) >= 5
                and within_reach(points_px, self.table_to_image, self.card_mm))

    def finding_top_card(self, frame: np.ndarray, points_px: np.ndarray, grow_mm: int = 0) -> Steps[np.ndarray | None]:
        """:meth:`top_card` in steps (:mod:`vision.steps`)."""
        if self.table_to_image is None or len(points_px) < 5:
            return None
        return (yield from finding_top_card(frame, points_px, self.table_to_image, self.card_mm, grow_mm))


class TableGrain:
    """The empty table's fine detail (its grain: gravel, grass, a printed pattern) and where a
    frame hides it (see HIDDEN): ``colour`` and the frames are BGR float32 at the working scale,
    smoothed (:func:`smooth`).

        >>> rng = np.random.default_rng(0)
        >>> table = cv2.GaussianBlur(rng.normal(120, 40, (90, 160, 3)).astype(np.float32), (0, 0), 1.0)
        >>> grain = TableGrain(table)
        >>> frame = table * 0.6                           # in a shadow: the grain still shows
        >>> frame[30:60, 40:70] = (60, 150, 200)          # a card, in a colour the table has too
        >>> hidden = grain.hidden(frame)
        >>> int(hidden[45, 55]), int(hidden[45, 120]), grain.share > 0.9   # a card hides the grain, a shadow does not
        (255, 0, True)
    """

    def __init__(self, colour: np.ndarray):
        self.detail = _detail(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY))
        self.power = cv2.blur(self.detail * self.detail, (HIDDEN_WINDOW, HIDDEN_WINDOW))
        self.where = cv2.compare(self.power, HIDDEN_DETAIL ** 2, cv2.CMP_GT)
        self._grained = cv2.countNonZero(self.where)   # px with a grain
        self.share = self._grained / self.where.size

    def hidden(self, f: np.ndarray) -> np.ndarray:
        """255 where the smoothed frame ``f`` hides the table's grain (0 everywhere if it hides more than
        HIDDEN_MOVED of it: the camera moved or turned, and every place would be news)."""
        now = _detail(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY))
        table, power = self._aligned(now)
        k = (HIDDEN_WINDOW, HIDDEN_WINDOW)
        ncc = cv2.blur(now * table, k) / cv2.sqrt(cv2.blur(now * now, k) * power + 1e-6)
        hidden = cv2.bitwise_and(cv2.compare(ncc, HIDDEN_NCC, cv2.CMP_LT), self.where)
        if cv2.countNonZero(hidden) > HIDDEN_MOVED * self._grained:
            return np.zeros_like(hidden)
        return cv2.morphologyEx(hidden, cv2.MORPH_OPEN, _HIDDEN_OPEN)

    def _aligned(self, now: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The table's detail and its power moved as the frame's detail ``now`` is, to the nearest pixel:
        a grain correlates with itself 2 px off no more (HIDDEN's note), and a camera nudged by a few px
        still sees the same table. The move is the phase correlation's, taken when it is clear (a stripe
        or a check, alike at many moves, is left as it is: it correlates with itself further off)."""
        (dx, dy), response = cv2.phaseCorrelate(self.detail, now)
        move = int(round(dy)), int(round(dx))
        if response < GRAIN_MOVE_RESPONSE or move == (0, 0):
            return self.detail, self.power
        return np.roll(self.detail, move, axis=(0, 1)), np.roll(self.power, move, axis=(0, 1))


def _any_channel_over(a: np.ndarray, limit: float) -> np.ndarray:
    """255 where some channel of ``a`` (float32, 3 channels) is over ``limit``. Each channel compared, then
    their sum saturated (numpy's max(axis=2) took a third of the live pipeline's time); compared as one
    channel: OpenCV 5.1 compares a 3-channel array with a number as with (number, 0, 0), where 5.0 compared
    every channel with it."""
    over = cv2.compare(a.reshape(a.shape[0], -1), limit, cv2.CMP_GT).reshape(a.shape)
    return cv2.transform(over, _ANY_CHANNEL)


def _detail(grey: np.ndarray) -> np.ndarray:
    """The fine detail of ``grey`` (float32): itself less its blur at DETAIL_SIGMA, so that a change of
    light or a glare spot, smooth over a card's size, leaves the pattern as it was."""
    return grey - cv2.GaussianBlur(grey, (0, 0), DETAIL_SIGMA)


def _pair_lengths(quad: np.ndarray) -> tuple[float, float]:
    """Mean lengths of a quadrilateral's sides 0 and 2, and of its sides 1 and 3."""
    side = [float(np.linalg.norm(quad[(k + 1) % 4] - quad[k])) for k in range(4)]
    return (side[0] + side[2]) / 2, (side[1] + side[3]) / 2
