"""A card's printed border, found in perspective: the outline of a printed field moved out
to the card's edge.

A dark border round a pale field is often traced at the field's edge (the border taken
for the table). :func:`vision.outline.grow_to_outer_edge` looks for the outer edge side by
side, which fails on a close-up photo held at a slant: the border is 18 px wide on the far
side and 48 px on the near one. Here the search runs in the plane of the card: the
field's outline fixes it (a homography from a unit square), each side of the card is a
line parallel to a side of the field at some share of the field's size, and each side's
share is the one where the colour steps from the band's to the table's. A printed border
is kept when all four sides find their step, opposite sides at about the same share, with
one colour all round the band. A shadow or a neighbouring card steps on one or two sides,
a patterned table has no one colour in the band: neither is taken for a border.

    >>> import numpy as np
    >>> img = np.full((400, 400, 3), (40, 120, 40), np.uint8)                 # green cloth
    >>> _ = cv2.rectangle(img, (137, 105), (262, 280), (20, 20, 20), -1)      # a card, 63 x 88 mm at 2 px/mm
    >>> _ = cv2.rectangle(img, (147, 115), (252, 270), (230, 230, 230), -1)   # its field inside a 5 mm border
    >>> field = np.array([[146.5, 114.5], [252.5, 114.5], [252.5, 270.5], [146.5, 270.5]], np.float32)
    >>> card = np.array([[136.5, 104.5], [262.5, 104.5], [262.5, 280.5], [136.5, 280.5]], np.float32)
    >>> float(np.abs(outer_edge_in_perspective(img, field) - card).max()) < 1.0
    True
    >>> outer_edge_in_perspective(img, card) is None    # round the card: cloth, no border
    True
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.features import BORDER_DARK, bordered_deck, dark_border

SHARES = np.arange(0.025, 0.2, 0.004, dtype=np.float32)   # border widths tried (shares of the field: ~1.4-11 mm;
# a card's soft shadow all round is narrower than a printed border)
SIDE_T = np.linspace(0.15, 0.85, 12, dtype=np.float32)   # where along each side the step is read
STEP_SHARE = 0.004       # the colours compared this far inside and outside a candidate edge (~0.2 mm),
STEP_PX = 2.0            # and at least this far
BAND_SPREAD = 0.5        # the band's colour may differ by at most this share of its step to the table
SAME_WIDTH = 0.3         # opposite sides' widths may differ by this share (the field's outline is not exact)
UNIT_SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
# the points of each side of the unit square (top, right, bottom, left) at shares t along
# it, moved out by o (a share of the field's size)
SIDES = (lambda t, o: np.stack([t, -o], -1), lambda t, o: np.stack([1 + o, t], -1),
         lambda t, o: np.stack([1 - t, 1 + o], -1), lambda t, o: np.stack([-o, 1 - t], -1))


def _sample(frame: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """The frame's colours (float32) at the points ``pts`` (..., 2)."""
    flat = pts.reshape(-1, 2).astype(np.float32)
    rows = -(-len(flat) // 1024)   # remap takes maps under 32767 a side
    grid = np.zeros((rows * 1024, 2), np.float32)
    grid[:len(flat)] = flat
    grid = grid.reshape(rows, 1024, 2)
    bgr = cv2.remap(frame, grid[..., 0], grid[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return bgr.reshape(-1, 3)[:len(flat)].astype(np.float32).reshape(*pts.shape[:-1], 3)


def _to_image(to_img: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(pts.reshape(1, -1, 2).astype(np.float32), to_img).reshape(pts.shape)


def outer_edge_in_perspective(frame: np.ndarray, field: np.ndarray, min_step: float = 12.0) -> np.ndarray | None:
    """The card's corners round the printed ``field`` (4 corners, clockwise on screen), in
    the order of ``field``'s; None when no printed border shows round it."""
    q = np.asarray(field, np.float32).reshape(4, 2)
    to_img = cv2.getPerspectiveTransform(UNIT_SQUARE, q)
    sides_px = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)   # across side i: the length of side i + 1
    found = [_side(frame, to_img, i, max(STEP_PX / max(sides_px[(i + 1) % 4], 1.0), STEP_SHARE)) for i in range(4)]
    if any(f is None or f[1] < min_step for f in found):
        return None   # a side with no step: no printed border (or a shadow, a neighbour on one side)
    share = [f[0] for f in found]
    for a, b in ((share[0], share[2]), (share[1], share[3])):
        if abs(a - b) > SAME_WIDTH * max(a, b):
            return None   # a printed border is as wide on opposite sides
    colours = np.concatenate([f[2] for f in found])
    contrast = min(f[3] for f in found)
    if np.median(np.abs(colours - np.median(colours, axis=0)), axis=0).max() > BAND_SPREAD * contrast:
        return None   # the band is not one colour: a table's pattern, not a printed border
    top, right, bottom, left = share
    return _to_image(to_img, np.array([[-left, -top], [1 + right, -top], [1 + right, 1 + bottom],
                                       [-left, 1 + bottom]], np.float32))


def _side(frame: np.ndarray, to_img: np.ndarray, i: int, step: float):
    """(share, median step, band colours, band-to-table contrast) of the card's edge beyond
    side ``i`` of the field, or None when the step is still rising at the widest share."""
    point = SIDES[i]
    t, o = np.meshgrid(SIDE_T, SHARES)                                    # (S, T)
    inside = _sample(frame, _to_image(to_img, point(t, o - step)))
    outside = _sample(frame, _to_image(to_img, point(t, o + step)))
    middle = _sample(frame, _to_image(to_img, point(t, o / 2)))
    edge = np.abs(inside - outside).max(axis=-1)                          # (S, T)
    contrast = np.abs(middle - outside).max(axis=-1)
    # the step counts where the colour just inside is the band's (else the edge is the field's),
    # near enough for a JPEG's colours bled over the edge
    edge *= np.abs(inside - middle).max(axis=-1) < BAND_SPREAD * contrast
    score = np.median(edge, axis=1)
    k = _plateau_middle(score, int(np.argmax(score)))
    if k == len(SHARES) - 1:
        return None
    return float(SHARES[k]), float(score[k]), middle[k], float(np.median(contrast[k]))


def _plateau_middle(score: np.ndarray, best: int) -> int:
    """The step is read either side of an edge: the best widths make a plateau, and its
    middle is the edge."""
    top = score >= 0.9 * score[best]
    lo, hi = best, best
    while lo > 0 and top[lo - 1]:
        lo -= 1
    while hi < len(top) - 1 and top[hi + 1]:
        hi += 1
    return (lo + hi) // 2 if hi < len(top) - 1 else hi


def border_given_back(faces: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``faces`` (rectified enrolment photos) with the faces of a dark-bordered deck that were
    enrolled inside their border given the deck's border back: the field shrunk into the
    border's width measured on the deck's other faces, the band painted their border's colour.
    A deck is bordered when its median face has a printed border
    (:func:`vision.features.bordered_deck`); a deck printed with a thin dark line round its edge
    (:func:`rim_sides`) has its line given back on the sides enrolled inside it; other decks are returned as they are.

    On a dark table a close-up's border cannot be told from the cloth, so its card is enrolled
    from the field inside (style 2: 6 of the 48 dark-bordered Pass Pass faces). Such a face then
    matches other cards read inside their border and pulls the outline fitted to it inside the
    border: a purple 12 fitted to the borderless purple 10 read like it.

        >>> field = np.full((88, 63, 3), 220, np.uint8)
        >>> card = np.zeros((88, 63, 3), np.uint8); card[4:84, 3:60] = 220
        >>> faces = border_given_back({"a": card, "b": card, "c": card, "d": card, "e": card, "f": field})
        >>> int(faces["f"][1, 30, 0]), int(faces["f"][44, 30, 0]), faces["f"].shape
        (0, 220, (88, 63, 3))
        >>> lined = np.full((88, 63, 3), 220, np.uint8); lined[0] = lined[-1] = lined[:, 0] = lined[:, -1] = 0
        >>> faces = border_given_back({"a": lined, "b": lined, "c": lined, "d": field})   # d enrolled inside
        >>> int(faces["d"][0, 30, 0]), int(faces["d"][44, 0, 0]), int(faces["d"][44, 30, 0])
        (0, 0, 220)
    """
    return faces_and_line(faces)[0]


def faces_and_line(faces: dict[str, np.ndarray]) -> tuple[dict[str, np.ndarray], Line | None]:
    """:func:`border_given_back`'s faces and the line printed round the deck's edge (its widths, colour and each
    face's sides as enrolled), or None for a deck not lined or printed with a border: both from one reading of the
    faces' rims (about 45 ms for 48 faces on this Xeon).

        >>> paper = np.full((88, 63, 3), 220, np.uint8)
        >>> lined = paper.copy(); lined[0] = lined[-1] = lined[:, 0] = lined[:, -1] = 0
        >>> _, line = faces_and_line({"a": lined, "b": lined, "c": lined, "d": paper})
        >>> [round(float(w) * s, 1) for w, s in zip(line.widths, (88, 63, 88, 63))], line.sides["d"]
        ([1.0, 1.0, 1.0, 1.0], 'PPPP')
        >>> faces_and_line({"a": paper, "b": paper})[1] is None
        True
        >>> open_left = lined.copy(); open_left[:, 0] = 220   # no face shows a line on its left: none measured there
        >>> _, line = faces_and_line({"a": open_left, "b": open_left})
        >>> [round(float(w) * s, 1) for w, s in zip(line.widths, (88, 63, 88, 63))]
        [1.0, 1.0, 1.0, 0.0]
    """
    if not bordered_deck(faces.values()):
        line = _line(faces)
        return _line_given_back(faces, line), line
    bordered = {c: f for c, f in faces.items() if dark_border(f)}
    if len(bordered) == len(faces):
        return dict(faces), None
    return _given_back(faces, bordered), None


def _given_back(faces: dict[str, np.ndarray], bordered: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``faces`` with those not in ``bordered`` framed in the band measured on ``bordered``'s."""
    measured = [printed_band(f) for f in bordered.values()]
    widths = np.median([m[0] for m in measured], axis=0)   # top, right, bottom, left: shares of the card
    colour = np.median([m[1] for m in measured], axis=0)
    out = dict(faces)
    for card, face in faces.items():
        if card not in bordered:
            out[card] = _framed(face, widths, colour)
    return out


# A deck printed with a thin dark line round its edge (dondorf, tango: under 1.2 mm, about 1 px at 63 x 88) is not
# bordered: its rim reads as paper. Where a close-up's line is lost in the table (a dark or grey cloth) the outline is
# found inside it on that side, and the face is a little large: tango's faces enrolled inside on three or four sides
# were 0.8-2.5 % large (ECC against the drawn faces), and their spades and clubs, one ink with small pips, were named as
# each other (0.96-0.99) in 512 of 4,422 names; dondorf's 5 of spades as its 5 of clubs (vision/README.md, fifty-fifth
# and fifty-sixth sessions). Each side of a face is read in its outermost LINE_PX px against the paper just inside
# it: a line (a row under BORDER_DARK of that paper), paper (nothing under LINE_PAPER: enrolled inside the line
# there), or neither (art, or a border running inwards: left as it is). A deck is lined when at least LINED_SIDES of
# its faces' sides show the line and more show it than paper (the style-2 decks: at most 10 %; the AisleRiot themes:
# 57-88 %); its faces' paper sides are then given the line measured on the lined ones.
LINE_PX = 2
LINE_PAPER = 0.85
LINED_SIDES = 0.25


def rim_sides(face: np.ndarray) -> str:
    """What each side of a rectified face (top, right, bottom, left) shows at its rim: ``L`` a thin dark line,
    ``P`` paper to the edge, ``x`` neither (art or a border running on inwards)."""
    return "".join(_kind(rim, inner) for rim, inner, _ in _rims(face, colours=False))


def _kind(rim: np.ndarray, inner: float) -> str:
    """``L``, ``P`` or ``x`` (:func:`rim_sides`) for a side whose outermost px read ``rim`` of the paper just inside,
    itself ``inner`` of the face's paper."""
    if inner < BORDER_DARK:
        return "x"
    return "L" if rim.min() < BORDER_DARK else "P" if rim.min() >= LINE_PAPER else "x"


def _rims(face: np.ndarray, colours: bool = True) -> list[tuple[np.ndarray, float, np.ndarray | None]]:
    """Each side's (top, right, bottom, left) outermost LINE_PX rows or columns, each the median along the side's
    middle three fifths, as shares of the paper just inside them (a close-up's light falls off across the card:
    a side's paper read 0.76-0.87 of the face's); that paper's level as a share of the face's; the outermost's
    colour as a share of that paper's, by channel (None without ``colours``: a card read, not a face enrolled)."""
    grey, paper = _grey_and_paper(face)
    h, w = face.shape[:2]
    mid_x, mid_y = slice(w // 5, w - w // 5), slice(h // 5, h - h // 5)
    outermost = (face[0, mid_x], face[mid_y, -1], face[-1, mid_x], face[mid_y, 0])
    colour = _paper_colour(face) if colours else None
    out = []
    for profile, rim in zip(_rim_profiles(grey, 2 * LINE_PX, 2 * LINE_PX), outermost):
        inner = max(float(profile[LINE_PX:].min()), 1.0)
        share = inner / max(paper, 1.0)
        out.append((profile[:LINE_PX] / inner, share, None if colour is None else
                    np.median(rim.astype(np.float32), axis=0) / np.maximum(colour * share, 1.0)))
    return out


class Line(NamedTuple):
    """The line printed round a deck's faces: its ``widths`` (shares of the face: top, right, bottom, left,
    of its height, width, height, width), ``colour`` (BGR, float32) and each face's ``sides`` (:func:`rim_sides`)."""

    widths: np.ndarray
    colour: np.ndarray
    sides: dict[str, str]


def _line(faces: dict[str, np.ndarray]) -> Line | None:
    """The line printed round the edge of a deck's ``faces`` known not to be bordered (:func:`faces_and_line`),
    or None."""
    read = {c: _rims(f) for c, f in faces.items()}
    sides = {c: "".join(_kind(rim, inner) for rim, inner, _ in read[c]) for c in faces}
    every = "".join(sides.values())
    lined, bare = every.count("L"), every.count("P")
    if lined < LINED_SIDES * len(every) or lined <= bare:
        return None
    rims = [(i, rim) for card in faces for i, (kind, rim) in enumerate(zip(sides[card], read[card])) if kind == "L"]
    h, w = faces[next(iter(faces))].shape[:2]
    covers = [float(np.clip(1 - share, 0, 1).sum()) for _, (share, _, _) in rims]
    # a side no face shows the line on has none measured: nothing is given back or moved there
    side_covers = [[c for (j, _), c in zip(rims, covers) if j == i] for i in range(4)]
    widths = np.array([np.median(c) if c else 0.0 for c in side_covers], np.float32)
    widths /= np.array([h, w, h, w], np.float32)
    # the outermost pixel's colour, by channel (divided by a width over one pixel)
    unmixed = [1 - (1 - colour) / max(cover, 1.0) for (_, (_, _, colour)), cover in zip(rims, covers)]
    paper = np.median([_paper_colour(f) for f in faces.values()], axis=0)
    return Line(widths, paper * np.clip(np.median(unmixed, axis=0), 0, 1), sides)


def _line_given_back(faces: dict[str, np.ndarray], line: Line | None) -> dict[str, np.ndarray]:
    """``faces`` of a deck printed with a line round its edge (``line``) with the line given back on each side
    where a face was enrolled inside it (as :func:`border_given_back` gives a border); other decks' (``line``
    None) as they are.

    The line is thinner than a pixel (tango's 0.8 mm: 0.8 px): a lined side's outermost pixel is its ink and
    paper mixed. Each side's width is how much darker than paper its pixels are, the line taken as black (for
    tango's and dondorf's black lines 0.77 and 1.0 px, median; measured by the steepest rise, 1 px for both, the
    faces given it back were 1 % small). Its colour is the lined pixels' median, as mixed (for a side over a
    pixel wide, lightened by its width): so a line under a pixel wide is given back lighter than it shows on
    the lined faces (tango's outermost pixel about 0.4 of the paper against 0.2). Painting it black, as its
    width assumes, is yet to be read on the themes (vision/README.md, fifty-sixth session)."""
    out = dict(faces)
    if line is None:
        return out
    for card, face in faces.items():
        if "P" in line.sides[card]:
            out[card] = _framed(face, np.where([k == "P" for k in line.sides[card]], line.widths, 0.0), line.colour)
    return out


def _paper_colour(face: np.ndarray) -> np.ndarray:
    """A rectified face's paper colour (each channel's 90th percentile away from the rim), float32."""
    h, w = face.shape[:2]
    return np.percentile(face[h // 8:h - h // 8, w // 8:w - w // 8].reshape(-1, 3).astype(np.float32), 90, axis=0)


def printed_band(face: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(widths of the dark band on each side, top, right, bottom, left, as shares of the face's
    height or width; its median colour) of a face with a dark border.

    A band ends where the brightest channel rises most steeply: that is where a close-up's
    outline finds the field (the largest colour change), an ink line round the field included
    or not by its colour. Measured where the grey level crossed 60 % of the paper's, the band took
    in a blue or purple line (dark in grey) and the faces given a border back were framed about
    a pixel too small on each side (style 2, at 63x88: ECC scale across 0.968 -> 0.988-0.993 against
    the drawn faces; measured on the six faces enrolled inside their border, vision/README.md)."""
    grey, paper = _grey_and_paper(face)
    h, w = grey.shape
    level = BORDER_DARK * paper
    profiles = _rim_profiles(grey, h // 4, w // 4)
    widths = [_steepest_rise(p, level) / n for p, n in zip(profiles, (h, w, h, w))]
    ring = np.zeros((h, w), bool)
    t, r, b, lft = (max(1, int(np.floor(x * n))) for x, n in zip(widths, (h, w, h, w)))
    ring[:t], ring[h - b:], ring[:, :lft], ring[:, w - r:] = True, True, True, True
    return np.array(widths, np.float32), np.median(face[ring].astype(np.float32), axis=0)


def _grey_and_paper(face: np.ndarray) -> tuple[np.ndarray, float]:
    """A rectified face's brightest channel (float32) and its paper's level there (the 90th percentile
    away from the rim)."""
    grey = face.max(axis=2).astype(np.float32)
    h, w = grey.shape
    return grey, float(np.percentile(grey[h // 8:h - h // 8, w // 8:w - w // 8], 90))


def _rim_profiles(grey: np.ndarray, rows: int, cols: int) -> tuple[np.ndarray, ...]:
    """From the rim inwards, top, right, bottom and left: the median of each of the outermost ``rows``
    rows (``cols`` columns) along the side's middle three fifths."""
    h, w = grey.shape
    mid_x, mid_y = slice(w // 5, w - w // 5), slice(h // 5, h - h // 5)
    return (np.median(grey[:rows, mid_x], axis=1), np.median(grey[mid_y, ::-1][:, :cols], axis=0),
            np.median(grey[::-1][:rows, mid_x], axis=1), np.median(grey[mid_y, :cols], axis=0))


def _steepest_rise(profile: np.ndarray, level: float) -> float:
    """Where ``profile`` (from the rim inwards) rises most steeply before it first reaches
    ``level``, in px from the rim's outer edge (between samples: a parabola's top)."""
    above = np.nonzero(profile >= level)[0]
    end = int(above[0]) if len(above) else len(profile) - 1
    d = np.diff(profile[:end + 1].astype(np.float32))
    if len(d) == 0:
        return 0.0
    i = int(np.argmax(d))
    frac = 0.0
    if 0 < i < len(d) - 1 and abs(den := d[i - 1] - 2 * d[i] + d[i + 1]) > 1e-6:
        frac = float(np.clip(0.5 * (d[i - 1] - d[i + 1]) / den, -0.5, 0.5))
    return i + 1 + frac   # the step from sample i to i + 1 lies on px i + 1 (sample i covers px i..i+1)


def _framed(field: np.ndarray, widths: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """``field`` shrunk inside a band of ``colour`` ``widths`` wide (shares: top, right, bottom, left)."""
    h, w = field.shape[:2]
    top, right, bottom, left = widths[0] * h, widths[1] * w, widths[2] * h, widths[3] * w
    sx, sy = (w - left - right) / w, (h - top - bottom) / h
    # pixel centres: the field's edges (-0.5 and w - 0.5) land on the band's inner edges
    m = np.float32([[sx, 0, left - 0.5 + 0.5 * sx], [0, sy, top - 0.5 + 0.5 * sy]])
    return cv2.warpAffine(field, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                          borderValue=tuple(float(c) for c in colour))
