"""Rendered table scenes with ground truth: the test bench of the whole vision package.

A scene is a table seen through a perspective camera, cards laid on it (any rotation,
sometimes overlapping, sometimes under a hand), optional flat pictures (ArUco markers)
and discs (tokens, pegs), then photometric damage. The truth says, for every card, its
corners in image pixels and how much of it can be seen.

    >>> scene = random_scene(7, "pass-pass", n_cards=3)
    >>> scene.image.shape, len(scene.cards)
    ((720, 1280, 3), 3)

The simulated table renders its frames with :func:`render_table` and a fixed camera.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.decks import CARD_SIZE_MM, deck_card_ids
from vision.synth import effects
from vision.synth.faces import render_face, rounded_corner_mask

IMAGE_SIZE = (1280, 720)
PLAY_AREA_MM = (800.0, 450.0)
TABLE_COLOURS = ((60, 110, 40), (40, 70, 110), (70, 70, 70), (110, 70, 40), (50, 90, 130), (90, 60, 60))


@dataclass(frozen=True)
class Placement:
    """A card lying face up: its centre on the table (mm) and its turn (degrees)."""

    card: str
    centre_mm: tuple[float, float]
    angle_deg: float = 0.0

    def corners_mm(self, size_mm=CARD_SIZE_MM) -> np.ndarray:
        w, h = size_mm
        a = np.radians(self.angle_deg)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        return local @ rot.T + np.asarray(self.centre_mm)


@dataclass(frozen=True)
class Picture:
    """A flat printed picture (an ArUco marker) with its 4 corners on the table (mm)."""

    image: np.ndarray
    quad_mm: np.ndarray


@dataclass(frozen=True)
class Disc:
    """A round object seen from above (a token, a peg head): centre, radius (mm), BGR."""

    centre_mm: tuple[float, float]
    radius_mm: float
    bgr: tuple[int, int, int]


@dataclass
class CardTruth:
    card: str
    corners: np.ndarray          # (4, 2) image px: the face's top-left, top-right, bottom-right, bottom-left
    visible_fraction: float      # share of the card's area not covered by a later card or a hand
    hand_covered: bool = False
    in_frame: bool = True        # all four corners inside the image

    @property
    def fully_visible(self) -> bool:
        return self.in_frame and self.visible_fraction >= 0.995


@dataclass
class Scene:
    image: np.ndarray
    cards: list[CardTruth]
    table_to_image: np.ndarray
    seed: int | None = None


@dataclass(frozen=True)
class SceneStyle:
    """How hard the scenes are: ranges the renderer draws each scene's conditions from."""

    tilt_max: float = 0.3            # far edge of the play area shrunk by up to this share
    turn_max_deg: float = 20.0       # camera turned about its axis by up to this
    fill: tuple[float, float] = (0.85, 1.0)
    overlap_prob: float = 0.25       # chance that a card is laid partly over an earlier one
    hand_prob: float = 0.15
    gradient_max: float = 0.35
    cast_max: float = 0.18           # channel gains within 1 ± this
    glare_prob: float = 0.25
    blur_max: float = 1.2
    motion_blur_prob: float = 0.08
    noise_max: float = 7.0
    jpeg_quality: tuple[int, int] = (40, 95)
    shadow: float = 0.45             # darkness of a card's drop shadow
    print_jitter: float = 6.0        # per-copy ink difference (grey levels)

    @classmethod
    def clean(cls) -> SceneStyle:
        """Careful enrolment photos: mild tilt, even light, no hand, no overlap."""
        return cls(tilt_max=0.1, turn_max_deg=8, fill=(0.9, 1.0), overlap_prob=0, hand_prob=0,
                   gradient_max=0.1, cast_max=0.05, glare_prob=0, blur_max=0.4, motion_blur_prob=0,
                   noise_max=2.0, jpeg_quality=(90, 95))


def random_camera(rng: np.random.Generator, style: SceneStyle = SceneStyle(), image_size=IMAGE_SIZE,
                  play_area_mm=PLAY_AREA_MM) -> np.ndarray:
    """A table-mm → image-px homography: the play area seen tilted, turned and scaled."""
    W, H = image_size
    pw, ph = play_area_mm
    fill = rng.uniform(*style.fill)
    scale = min(W * fill / pw, H * fill / ph)
    shrink = rng.uniform(0, style.tilt_max)
    w, h = pw * scale, ph * scale
    # far edge (table y = 0) narrower than the near edge; the far edge also looks shorter
    quad = np.array([[-w / 2 * (1 - shrink), -h / 2], [w / 2 * (1 - shrink), -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    quad[:, 1] = (quad[:, 1] + h / 2) * (1 - shrink * 0.3) - h / 2 + shrink * 0.15 * h
    a = np.radians(rng.uniform(-style.turn_max_deg, style.turn_max_deg))
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    quad = quad @ rot.T + np.array([W / 2, H / 2]) + rng.uniform(-0.03, 0.03, 2) * (W, H)
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    return cv2.getPerspectiveTransform(src, quad.astype(np.float32))


def project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply homography ``h`` to (N, 2) points."""
    pts = np.asarray(pts, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, h).reshape(-1, 2)


def _background(rng: np.random.Generator, size) -> np.ndarray:
    W, H = size
    base = np.array(TABLE_COLOURS[int(rng.integers(len(TABLE_COLOURS)))], np.float32) * rng.uniform(0.8, 1.2)
    low = cv2.resize(rng.standard_normal((H // 40 + 2, W // 40 + 2), dtype=np.float32), (W, H),
                     interpolation=cv2.INTER_CUBIC)
    grain = rng.standard_normal((H // 2, W // 2), dtype=np.float32)
    tex = 1 + low * 0.06 + cv2.resize(grain, (W, H), interpolation=cv2.INTER_NEAREST) * 0.03
    return cv2.convertScaleAbs(cv2.merge([tex * float(base[0]), tex * float(base[1]), tex * float(base[2])]))


def _paste(img, labels, label, picture, alpha_mask, quad_px, shadow=0.0, shadow_offset=(2.0, 3.0)):
    """Warp ``picture`` so that its corners land on ``quad_px`` and blend it in."""
    H_img, W_img = img.shape[:2]
    x0, y0 = np.floor(quad_px.min(axis=0) - 6).astype(int)
    x1, y1 = np.ceil(quad_px.max(axis=0) + 6).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W_img), min(y1, H_img)
    if x1 <= x0 or y1 <= y0:
        return 0
    # shrink the picture first so the warp does not alias fine print
    side = max(np.linalg.norm(quad_px[0] - quad_px[1]), np.linalg.norm(quad_px[1] - quad_px[2]))
    ph, pw = picture.shape[:2]
    k = min(1.0, 1.5 * side / max(pw, ph))
    if k < 1.0:
        picture = cv2.resize(picture, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        alpha_mask = cv2.resize(alpha_mask, (picture.shape[1], picture.shape[0]), interpolation=cv2.INTER_AREA)
    ph, pw = picture.shape[:2]
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32) - 0.5  # pixel edges, not centres
    m = cv2.getPerspectiveTransform(src, (quad_px - [x0, y0]).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(picture, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    alpha = cv2.warpPerspective(alpha_mask, m, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    roi = img[y0:y1, x0:x1].astype(np.float32)
    if shadow > 0:
        sm = np.float32([[1, 0, shadow_offset[0]], [0, 1, shadow_offset[1]]])
        sh = cv2.GaussianBlur(cv2.warpAffine(alpha, sm, size), (0, 0), 1.5)
        roi *= 1 - shadow * sh[..., None]
    roi = roi * (1 - alpha[..., None]) + warped.astype(np.float32) * alpha[..., None]
    img[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    painted = alpha > 0.5
    labels[y0:y1, x0:x1][painted] = label
    return int(painted.sum())


def render_table(placements: list[Placement], table_to_image: np.ndarray, rng: np.random.Generator,
                 style: SceneStyle = SceneStyle(), *, image_size=IMAGE_SIZE, pictures=(), discs=(),
                 hand_over: int | None = None, hand_reach: float = 0.3, background: np.ndarray | None = None) -> Scene:
    """Draw ``placements`` (in that order, later cards on top) seen through ``table_to_image``.

    ``hand_over`` is the index of a card that a hand reaches over, ``hand_reach`` the share
    of it that the fingers cover. ``rng`` draws the damage (see :class:`SceneStyle`).
    """
    img = background.copy() if background is not None else _background(rng, image_size)
    labels = np.zeros(img.shape[:2], np.uint8)
    for pic in pictures:
        quad = project(table_to_image, pic.quad_mm)
        _paste(img, labels, 0, pic.image, np.full(pic.image.shape[:2], 255, np.uint8), quad)
    for disc in discs:
        circle = np.array([[disc.centre_mm[0] + disc.radius_mm * np.cos(t),
                            disc.centre_mm[1] + disc.radius_mm * np.sin(t)]
                           for t in np.linspace(0, 2 * np.pi, 32, endpoint=False)])
        poly = project(table_to_image, circle)
        cv2.fillPoly(img, [np.round(poly * 16).astype(np.int32).reshape(-1, 1, 2)], disc.bgr, cv2.LINE_AA, shift=4)
    mask = rounded_corner_mask()
    truths, painted = [], []
    for i, p in enumerate(placements):
        face = render_face(p.card)
        if style.print_jitter > 0:  # this copy's inks differ a little from the enrolled one
            face = np.clip(face.astype(np.float32) + rng.normal(0, style.print_jitter, 3), 0, 255).astype(np.uint8)
        quad = project(table_to_image, p.corners_mm())
        painted.append(_paste(img, labels, i + 1, face, mask, quad, shadow=style.shadow))
        truths.append(CardTruth(p.card, quad, 1.0))
    if hand_over is not None and placements:
        polys = effects.hand_polygons(rng, truths[hand_over].corners, hand_reach)
        effects.draw_hand(img, labels, polys, rng)
    _fill_visibility(truths, labels, painted)
    img = _damage(img, rng, style)
    return Scene(img, truths, table_to_image)


def _fill_visibility(truths: list[CardTruth], labels: np.ndarray, painted: list[int]) -> None:
    """Visible share of each card: its pixels left in ``labels`` over those it painted."""
    counts = np.bincount(labels.ravel(), minlength=256)
    h, w = labels.shape
    for i, t in enumerate(truths):
        t.visible_fraction = min(1.0, counts[i + 1] / max(painted[i], 1))
        t.in_frame = bool(np.all((t.corners >= 0) & (t.corners <= [w - 1, h - 1])))
        if 255 in labels[_bbox(t.corners, labels.shape)]:
            full = np.zeros(labels.shape, np.uint8)
            cv2.fillConvexPoly(full, np.round(t.corners).astype(np.int32), 1)
            t.hand_covered = bool(np.any(labels[full > 0] == 255))
        if t.hand_covered:
            t.visible_fraction = min(t.visible_fraction, 0.99)


def _bbox(corners: np.ndarray, shape) -> tuple[slice, slice]:
    x0, y0 = np.clip(np.floor(corners.min(axis=0)).astype(int), 0, None)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
    return slice(y0, min(y1, shape[0])), slice(x0, min(x1, shape[1]))


def _damage(img: np.ndarray, rng: np.random.Generator, style: SceneStyle) -> np.ndarray:
    img = img.astype(np.float32)  # one conversion for the whole chain
    if style.gradient_max > 0:
        img = effects.lighting_gradient(img, rng, rng.uniform(0, style.gradient_max))
    if style.cast_max > 0:
        img = effects.colour_cast(img, 1 + rng.uniform(-style.cast_max, style.cast_max, 3))
    if rng.random() < style.glare_prob:
        img = effects.glare(img, rng)
    if rng.random() < style.motion_blur_prob:
        img = effects.motion_blur(img, int(rng.integers(2, 5)), rng.uniform(0, 180))
    else:
        img = effects.blur(img, rng.uniform(0, style.blur_max))
    img = effects.add_noise(img, rng, rng.uniform(1.0, max(style.noise_max, 1.0)))
    return effects.jpeg(img, int(rng.integers(style.jpeg_quality[0], style.jpeg_quality[1] + 1)))


def _free_spot(rng: random.Random, laid: list[Placement], area, overlap_with: Placement | None):
    """A placement centre/angle: clear of the others, or partly over ``overlap_with``."""
    pw, ph = area
    margin = 60.0
    for _ in range(200):
        if overlap_with is not None:
            a = rng.uniform(0, 2 * np.pi)
            d = rng.uniform(35, 60)
            c = (overlap_with.centre_mm[0] + d * np.cos(a), overlap_with.centre_mm[1] + d * np.sin(a))
        else:
            c = (rng.uniform(margin, pw - margin), rng.uniform(margin, ph - margin))
        if not (margin <= c[0] <= pw - margin and margin <= c[1] <= ph - margin):
            continue
        others = [p for p in laid if p is not overlap_with]
        if all(np.hypot(c[0] - p.centre_mm[0], c[1] - p.centre_mm[1]) > 115 for p in others):
            return c
    return None


def random_placements(rng: random.Random, cards: list[str], style: SceneStyle = SceneStyle(),
                      area=PLAY_AREA_MM) -> list[Placement]:
    laid: list[Placement] = []
    for card in cards:
        over = rng.choice(laid) if laid and rng.random() < style.overlap_prob else None
        c = _free_spot(rng, laid, area, over)
        if c is None and over is not None:
            c = _free_spot(rng, laid, area, None)
        if c is None:
            continue
        laid.append(Placement(card, c, rng.uniform(0, 360)))
    return laid


def random_scene(seed: int, deck_or_cards, n_cards: int = 5, style: SceneStyle = SceneStyle(),
                 image_size=IMAGE_SIZE) -> Scene:
    """A scene fully decided by ``seed``: random cards of a deck (or from a list), camera,
    placements, hand and damage."""
    rnd = random.Random(seed)
    nprng = np.random.default_rng(seed)
    pool = deck_card_ids(deck_or_cards) if isinstance(deck_or_cards, str) else list(deck_or_cards)
    cards = rnd.sample(pool, min(n_cards, len(pool)))
    cam = random_camera(nprng, style, image_size)
    placements = random_placements(rnd, cards, style)
    hand = rnd.randrange(len(placements)) if placements and rnd.random() < style.hand_prob else None
    scene = render_table(placements, cam, nprng, style, image_size=image_size, hand_over=hand,
                         hand_reach=rnd.uniform(0.15, 0.45))
    return replace(scene, seed=seed)


def card_photo(card: str, seed: int = 0, style: SceneStyle | None = None, image_size=IMAGE_SIZE) -> np.ndarray:
    """An enrolment photo: one card alone on the table, taken with some care."""
    style = style or SceneStyle.clean()
    rnd = random.Random(seed)
    nprng = np.random.default_rng(seed)
    cam = random_camera(nprng, style, image_size)
    pw, ph = PLAY_AREA_MM
    p = Placement(card, (pw / 2 + rnd.uniform(-80, 80), ph / 2 + rnd.uniform(-50, 50)), rnd.uniform(0, 360))
    return render_table([p], cam, nprng, style, image_size=image_size).image
