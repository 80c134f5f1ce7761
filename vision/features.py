"""From a card's four corners in a photo to a vector that can be compared.

A card is warped flat (``rectify``), each colour is divided by the light that falls on
the card there (``flatten_light``: the paper's brightness nearby, so a lamp's colour, dim
light and the fall-off across the card cancel out), it is shrunk to a small grid and
turned into a unit vector with zero mean (``describe``): the dot product of two such
vectors is their normalised cross-correlation, 1.0 for the same picture.

    >>> from vision.synth.scene import random_scene
    >>> scene = random_scene(7, "pass-pass", n_cards=3)     # a rendered photo and its truth
    >>> card = scene.cards[0]
    >>> card.card, card.corners.shape                       # clockwise from the face's top-left, px
    ('blue-9', (4, 2))
    >>> flat = rectify(scene.image, card.corners)           # portrait, RECT_SIZE pixels
    >>> flat.shape
    (88, 63, 3)
    >>> v = describe(flat)
    >>> round(float(v @ v), 3)
    1.0
    >>> again = random_scene(9, ["blue-9"], n_cards=1)      # the same card in another photo
    >>> round(float(v @ describe(rectify(again.image, again.cards[0].corners))), 2)
    0.98
    >>> [round(float(v @ describe(rectify(scene.image, c.corners))), 2) for c in scene.cards[1:]]  # other cards
    [0.64, 0.74]
"""

from __future__ import annotations

import cv2
import numpy as np

RECT_SIZE = (63, 88)      # (w, h) of a rectified card: about 1 px per mm
NEXT = [1, 2, 3, 0]        # corner i -> i + 1 (cheaper than np.roll on 4 points)
OPPOSITE = [2, 3, 0, 1]    # the quad turned by 180 degrees
GRID_SIZE = (21, 29)      # (w, h) of the descriptor grid
# share of each side left out: corners are rounded, edges uncertain. 0.08 was tried (a dark
# border enrolled on one photo and lost in the cloth on the next moves the rim): style-2
# cards named from their true corners 464 -> 493 of 579, style 1 unchanged, but a card left
# out of a partial deck was named as its look-alike more often (style 1, 1 / 5 / 20 faces
# left out: 17 -> 24, 57 -> 73, 147 -> 158), the corner index being cut: kept at 0.04
INSET = 0.04


def order_clockwise(corners: np.ndarray) -> np.ndarray:
    """The 4 points in clockwise order on screen (y down), starting with the first one."""
    pts = np.asarray(corners, np.float32).reshape(4, 2)
    c = pts.sum(axis=0) / 4
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    order = list(np.argsort(ang))  # increasing angle = clockwise on screen
    start = order.index(0)
    return pts[order[start:] + order[:start]]


def short_side_first(corners: np.ndarray) -> np.ndarray:
    """Rotate the clockwise corner list so that corner 0 → 1 is a short side."""
    p = np.asarray(corners, np.float32)
    side = np.linalg.norm(p - p[NEXT], axis=1)
    return p if side[0] + side[2] <= side[1] + side[3] else p[NEXT]


def in_view(corners: np.ndarray, shape, size=RECT_SIZE) -> np.ndarray:
    """Which pixels of the quad ``corners`` rectified (as :func:`rectify` makes it, ``size``) lie inside
    an image of ``shape`` (h, w, ...): bool (h, w). Past the image's edge, :func:`rectify` draws the
    edge's own pixels out (the border replicated), which shows nothing of the card."""
    w, h = size
    to_image = cv2.getPerspectiveTransform(_rectified_corners(size), np.asarray(corners, np.float32))
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    pts = cv2.perspectiveTransform(np.stack([xs, ys], axis=-1).reshape(-1, 1, 2), to_image).reshape(h, w, 2)
    return ((pts[..., 0] >= -0.5) & (pts[..., 0] <= shape[1] - 0.5)
            & (pts[..., 1] >= -0.5) & (pts[..., 1] <= shape[0] - 0.5))


def aspect_ambiguous(corners: np.ndarray, limit: float = 1.2) -> bool:
    """True when the quad is too square on screen to tell its long side (strong tilt)."""
    p = np.asarray(corners, np.float32)
    side = np.linalg.norm(p - p[NEXT], axis=1)
    a, b = side[0] + side[2], side[1] + side[3]
    return max(a, b) / max(min(a, b), 1e-6) < limit


def rectify(image: np.ndarray, corners: np.ndarray, size=RECT_SIZE) -> np.ndarray:
    """Warp the quad ``corners`` (clockwise, corner 0 = top-left of the result) flat."""
    m = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), _rectified_corners(size))
    return cv2.warpPerspective(image, m, tuple(size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _rectified_corners(size) -> np.ndarray:
    """Where a card's four corners lie in it rectified at ``size`` (w, h): pixel centres sit at integer
    coordinates, so the card's edges are half a pixel outside."""
    w, h = size
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - 0.5


def grown(corners: np.ndarray, shares) -> np.ndarray:
    """The quad ``corners`` (clockwise, corner 0 = top-left of the rectified card) with each side moved out by
    its share of the card (top, right, bottom, left: shares of its height, width, height, width), in perspective.

        >>> grown(np.float32([[0, 0], [63, 0], [63, 88], [0, 88]]), [0.0, 0.0, 0.0, 1 / 63]).round(1).tolist()
        [[-1.0, 0.0], [63.0, 0.0], [63.0, 88.0], [-1.0, 88.0]]
    """
    w, h = RECT_SIZE
    flat = _rectified_corners(RECT_SIZE)
    top, right, bottom, left = (float(x) for x in shares)
    out = flat + np.float32([[-left * w, -top * h], [right * w, -top * h],
                             [right * w, bottom * h], [-left * w, bottom * h]])
    to_flat = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), flat)
    return cv2.perspectiveTransform(out.reshape(-1, 1, 2), np.linalg.inv(to_flat)).reshape(-1, 2).astype(np.float32)


# The light on a card is read from its brightest colours nearby (the paper between the
# print): a running maximum wider than any stroke of ink, smoothed. Dividing by it leaves
# the print as a share of its paper whatever the lamp's colour, level and fall-off
# (a multiplicative light per channel; a camera's gamma keeps it multiplicative).
LIGHT_WINDOW = 15        # px at RECT_SIZE (63×88)
LIGHT_SMOOTH = 6.0       # px at RECT_SIZE
LIGHT_DENOISE = 1.5      # px at RECT_SIZE: the photo's noise smoothed before the paper's level is read
NOISE_FLOOR = 4.0        # added before dividing: a black ink must not become noise over noise
# written into saved models: templates made by another descriptor are made again from the faces
DESCRIPTOR = "light-flattened-2"   # -2: the paper read over a denoised image


def flatten_light(image: np.ndarray, window: int = LIGHT_WINDOW, smooth: float = LIGHT_SMOOTH) -> np.ndarray:
    """``image`` (a rectified card, any size) as a share of the light on it, float32, per
    channel: about 1.0 on the paper, lower on the ink."""
    f = image.astype(np.float32) + NOISE_FLOOR
    return f / _paper_level(f, window, smooth)


def _paper_level(f: np.ndarray, window: int = LIGHT_WINDOW, smooth: float = LIGHT_SMOOTH) -> np.ndarray:
    """The level of the paper around each pixel of ``f`` (a rectified card, float32, NOISE_FLOOR
    added): its brightest colours within ``window`` px, smoothed by ``smooth``."""
    # the maximum is taken over the image a little blurred: over raw pixels it is the paper
    # plus its noisiest pixel, by another amount in each channel, and white paper came out
    # tinted in blotches (style-2 development cards named from their true corners, best face
    # right 523 -> 551 of 579)
    paper = cv2.GaussianBlur(f, (0, 0), LIGHT_DENOISE * window / LIGHT_WINDOW)
    light = cv2.dilate(paper, cv2.getStructuringElement(cv2.MORPH_RECT, (window, window)))
    return cv2.GaussianBlur(light, (0, 0), smooth)


# Glare on a glossy table is a veil of light added over part of a card: dividing by the paper's level
# leaves the print there its pattern but less contrast, the more so where the veil is brighter (a
# smooth blob reaching across the card). Evened (``describe(..., even=True)``), the ink (1 - the
# flattened colours) is divided by its own root mean square nearby (EVEN_SIGMA), so a half-veiled print
# reads as strongly as the rest; EVEN_FLOOR keeps a blank stretch of paper blank (its noise is not
# raised to print). Read so always, style-2 development cards gained on glossy tables but lost on
# photographed ones, and two full-bleed medallion look-alikes were named wrongly: it is a second
# reading of veiled cards only (vision.rules.VEILED, vision/README.md, thirty-second session)
EVEN_SIGMA = 12.0    # px at RECT_SIZE (63×88)
EVEN_FLOOR = 0.05
# A card is veiled when the light on its paper, against the light on its enrolled face's, rises
# somewhere over VEIL_RISE times its usual level (95th percentile over the median). Style-2 development
# seeds 100..399, cards at their true corners against their own faces: 1.16 at the 90th percentile
# on every table kind, glare-washed cards 1.35-1.45
VEIL_RISE = 1.25


def even_contrast(lit: np.ndarray) -> np.ndarray:
    """``lit`` (:func:`flatten_light` of a rectified card, any size) with its print's contrast
    evened out across the card (EVEN_SIGMA)."""
    ink = 1.0 - lit
    sigma = EVEN_SIGMA * lit.shape[1] / RECT_SIZE[0]
    rms = cv2.sqrt(cv2.GaussianBlur((ink * ink).mean(axis=2), (0, 0), sigma))
    return 1.0 - ink / (rms[..., None] + EVEN_FLOOR)


def veiled(flat: np.ndarray, face: np.ndarray) -> bool:
    """True when ``flat`` (a card rectified as ``face``, its enrolled face, lies) shows a veil of
    glare over part of it (VEIL_RISE)."""
    rise = paper_rise(flat, cv2.resize(face, RECT_SIZE, interpolation=cv2.INTER_AREA))
    return float(np.percentile(rise, 95)) > VEIL_RISE * float(np.median(rise))


def paper_rise(flat: np.ndarray, face: np.ndarray) -> np.ndarray:
    """How much brighter the paper of ``flat`` is than ``face``'s (the same size, lying the same way)
    around each pixel: the light on the card, and more where glare adds to it."""
    return grey_paper(flat) / grey_paper(face)


def grey_paper(flat: np.ndarray) -> np.ndarray:
    """The grey level of the paper around each pixel of a rectified card."""
    return _paper_level(cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(np.float32) + NOISE_FLOOR)


# A deck printed with a dark border all round: the border tells no card from another, and
# its apparent width changes with the outline found (enrolled from the paper's edge or the
# border's, a border lost in a dark cloth), so a wider rim is left out. A deck without one
# keeps INSET: its corner index lies near the edge (see INSET's note).
BORDERED_INSET = 0.08
BORDER_DARK = 0.6      # a face's rim darker than this share of its paper is a printed border
# A deck is bordered when the median of its faces' rims is darker than PRINTED_BORDER. On style 2's
# enrolment photos (70 faces of each design) printed borders read 0.08-0.13 of the paper (the 6 faces
# enrolled inside their border 0.96-0.99), full-bleed art 0.44-0.95: a median decides the same on
# any half of a deck's faces. Until 2026-11-29 a deck was bordered when
# 80 % of its faces were under BORDER_DARK: 73 % of the full-bleed Passe Eclair faces were, and 5
# full-bleed Pass Pass faces left out of a partial model tipped it (a wrong name, vision/README.md).
PRINTED_BORDER = 0.3


def rim_darkness(face: np.ndarray) -> float:
    """How dark a rectified face's lightest side is at its rim, as a share of its paper's grey
    (under 0.15 for a printed black border, about 1 for a plain card)."""
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
    h, w = grey.shape
    dx, dy = max(1, int(round(w * INSET))), max(1, int(round(h * INSET)))
    paper = max(float(np.percentile(grey[dy:h - dy, dx:w - dx], 90)), 1.0)
    sides = (grey[:dy], grey[h - dy:], grey[:, :dx], grey[:, w - dx:])
    return max(float(np.median(side)) for side in sides) / paper


def dark_border(face: np.ndarray) -> bool:
    """Whether a rectified face has a dark rim all round (a border, or art dark to the edge)."""
    return rim_darkness(face) < BORDER_DARK


def bordered_deck(faces) -> bool:
    """Whether the deck these enrolled ``faces`` (rectified photos) belong to is printed with a
    dark border: decided on the median face, so the same on any half of the deck enrolled."""
    faces = list(faces)
    return bool(faces) and float(np.median([rim_darkness(f) for f in faces])) < PRINTED_BORDER


def deck_inset(faces) -> float:
    """The share of each side the descriptor leaves out for a deck whose enrolled
    ``faces`` (rectified photos) these are: BORDERED_INSET for a bordered deck."""
    return BORDERED_INSET if bordered_deck(faces) else INSET


def describe(flat: np.ndarray, grid=GRID_SIZE, inset=INSET, blur: float = 0.0, even: bool = False) -> np.ndarray:
    """A zero-mean unit vector of the colours of a rectified card, the light taken out;
    with ``blur`` (px at RECT_SIZE) the print is blurred first, as a second, softer reading;
    with ``even``, its contrast evened out first (:func:`even_contrast`), a reading under glare."""
    h, w = flat.shape[:2]
    dx, dy = int(round(w * inset)), int(round(h * inset))
    lit = flatten_light(flat)
    if even:
        lit = even_contrast(lit)
    if blur:
        lit = cv2.GaussianBlur(lit, (0, 0), blur)
    core = lit[dy:h - dy, dx:w - dx]
    return _unit(cv2.resize(core, grid, interpolation=cv2.INTER_AREA))


def describe_quick(image: np.ndarray, corners: np.ndarray, grid=GRID_SIZE, inset=INSET) -> np.ndarray:
    """Like ``describe(rectify(image, corners))`` but warped straight to the small grid:
    coarser (no averaging), for ranking many guessed outlines cheaply."""
    gw, gh = grid
    full_w, full_h = gw / (1 - 2 * inset), gh / (1 - 2 * inset)
    ox, oy = full_w * inset, full_h * inset
    dst = np.array([[-ox, -oy], [full_w - ox, -oy], [full_w - ox, full_h - oy], [-ox, full_h - oy]], np.float32) - 0.5
    m = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    small = cv2.warpPerspective(image, m, (gw, gh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    scale = gw / RECT_SIZE[0]   # the light's window at the grid's size
    return _unit(flatten_light(small, int(round(LIGHT_WINDOW * scale)) | 1, LIGHT_SMOOTH * scale))


def _unit(small: np.ndarray) -> np.ndarray:
    v = small.astype(np.float32).ravel()
    v = v - v.mean()
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-6 else v


CONTRAST_INSET = 0.06    # a dark border enrolled or not shifts the rim (0.08 and 0.10 tried: no better)
CONTRAST_SIGMA = 6.0     # grid px: what varies slower than this is the light (fall-off, cast), not print
CHROMA_GAIN = 2.0        # weight of colour against lightness: one value in two inks differs by colour only


def describe_contrast(flat: np.ndarray, grid=GRID_SIZE, inset=CONTRAST_INSET) -> np.ndarray:
    """A zero-mean unit vector of the card's print with the light taken out: log colours
    (a lamp's colour and level become offsets) minus their blurred selves (the fall-off
    of the light across the card goes too), colour differences weighted up."""
    h, w = flat.shape[:2]
    dx, dy = int(round(w * inset)), int(round(h * inset))
    small = cv2.resize(flat[dy:h - dy, dx:w - dx], grid, interpolation=cv2.INTER_AREA).astype(np.float32)
    log = np.log(small + 4.0)   # + 4: the camera's noise floor, so black ink does not dominate
    log -= cv2.GaussianBlur(log, (0, 0), CONTRAST_SIGMA)
    grey = log.mean(axis=2, keepdims=True)
    v = (grey + CHROMA_GAIN * (log - grey)).ravel()
    v = v - v.mean()
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-6 else v


PRINT_INSET = 0.16   # only the middle: a guessed outline's edge or a printed border is not the print
# added before the log: a dark surface's grain is large in log terms (with NOISE_FLOOR's 4 a phone's
# back read 0.07-0.10, as much as faint ink; with 16, about 0.04; style-2 development seeds 100..399)
PRINT_FLOOR = 16.0


def print_contrast(flat: np.ndarray) -> float:
    """How strongly anything is printed in the middle of a rectified card: the 99th
    percentile of |log grey - the same blurred by 5 px| (ink against its paper, whatever the
    light). Near 0 over a phone's back, a patch of glare or skin; the test decks' enrolled
    faces score from 0.12 (a pale yellow card) to over 1."""
    h, w = flat.shape[:2]
    dx, dy = int(round(w * PRINT_INSET)), int(round(h * PRINT_INSET))
    grey = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(np.float32) + PRINT_FLOOR
    fine_log = np.log(cv2.GaussianBlur(grey, (0, 0), 1.0))   # the camera's own noise smoothed
    d = np.abs(fine_log - np.log(cv2.GaussianBlur(grey, (0, 0), 5.0)))[dy:h - dy, dx:w - dx]
    return float(np.percentile(d, 99))


def rotate_descriptor(v: np.ndarray, grid=GRID_SIZE) -> np.ndarray:
    """The descriptor of the same card turned by 180 degrees."""
    return v.reshape(grid[1], grid[0], 3)[::-1, ::-1].ravel().copy()
