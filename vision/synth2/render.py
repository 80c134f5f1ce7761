"""Scenes, calibration shots and enrolment photos of the second style, with their truth.

A pinhole camera (focal length, distance, pitch up to 35°, any roll) looks at the table;
cards are warped through it with a soft drop shadow, sometimes over one another, with
coins or a phone about; then the light (colour temperature, level, fall-off, glare) and
the phone camera (focus, shot noise, JPEG) do their damage.

    >>> scene = table_scene(11, "pass-pass", "dark", 4)
    >>> scene.image.shape, len(scene.cards), scene.kind in KINDS
    ((720, 1280, 3), 4, True)
    >>> shot = calibration_shot(11, "pass-pass", "dark", 4)     # the same table, empty
    >>> photo = enrolment_photo("blue-3", "dark", 5)
    >>> photo.image.ndim, 0.15 <= photo.area_fraction <= 0.75
    (3, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import cv2
import numpy as np

from vision.decks import CARD_SIZE_MM, deck_card_ids
from vision.synth2.faces import S as FACE_PX_PER_MM
from vision.synth2.faces import draw_face
from vision.synth2.tables import KINDS, table_top

SIZE = (1280, 720)
AREA_MM = (800.0, 450.0)
KELVIN_GAINS = {2700: (0.55, 0.78, 1.0), 3500: (0.72, 0.87, 1.0), 4500: (0.88, 0.95, 1.0),
                5500: (1.0, 1.0, 1.0), 6500: (1.08, 1.02, 0.93)}   # B, G, R of a white under that light


@dataclass
class CardTruth2:
    card: str
    corners: np.ndarray         # (4, 2) image px: face's top-left, top-right, bottom-right, bottom-left
    visible_fraction: float = 1.0
    in_frame: bool = True

    @property
    def fully_visible(self) -> bool:
        return self.in_frame and self.visible_fraction >= 0.995


@dataclass
class Scene2:
    image: np.ndarray
    cards: list[CardTruth2]
    table_to_image: np.ndarray
    kind: str
    design: str
    seed: int


@dataclass
class Photo2:
    image: np.ndarray
    corners: np.ndarray
    area_fraction: float


def camera(f: float, distance: float, pitch_deg: float, roll_deg: float, size=SIZE, centre_mm=(0.0, 0.0),
           shift_px=(0.0, 0.0)) -> np.ndarray:
    """Homography table mm → image px of a pinhole camera ``distance`` mm above ``centre_mm``."""
    p, r = np.radians(pitch_deg), np.radians(roll_deg)
    rx = np.array([[1, 0, 0], [0, np.cos(p), -np.sin(p)], [0, np.sin(p), np.cos(p)]])
    rz = np.array([[np.cos(r), -np.sin(r), 0], [np.sin(r), np.cos(r), 0], [0, 0, 1]])
    rot = rz @ rx
    k = np.array([[f, 0, size[0] / 2 + shift_px[0]], [0, f, size[1] / 2 + shift_px[1]], [0, 0, 1]])
    t = np.array([0.0, 0.0, distance])
    move = np.array([[1, 0, -centre_mm[0]], [0, 1, -centre_mm[1]], [0, 0, 1]])
    h = k @ np.column_stack([rot[:, 0], rot[:, 1], t]) @ move
    return h / h[2, 2]


def _apply(h: np.ndarray, pts) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)


def _card_to_table(centre, angle_deg) -> np.ndarray:
    """Homography face px → table mm of a card lying at ``centre`` turned by ``angle_deg``."""
    a = np.radians(angle_deg)
    c, s = np.cos(a), np.sin(a)
    w, h = CARD_SIZE_MM
    scale = 1 / FACE_PX_PER_MM
    return np.array([[c * scale, -s * scale, centre[0] - c * w / 2 + s * h / 2],
                     [s * scale, c * scale, centre[1] - s * w / 2 - c * h / 2], [0, 0, 1]])


def _lay(img, labels, label, face, alpha, face_to_img, shadow: float, light_dir) -> int:
    """Warp ``face`` into ``img`` through ``face_to_img``; returns the pixels it painted."""
    fh, fw = face.shape[:2]
    corners = _apply(face_to_img, [[0, 0], [fw, 0], [fw, fh], [0, fh]])
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 8, 0)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 8, [img.shape[1], img.shape[0]])
    if x1 <= x0 or y1 <= y0:
        return 0
    on_screen = max(np.linalg.norm(corners[0] - corners[1]), np.linalg.norm(corners[1] - corners[2]))
    shrink = 1.0
    while max(fw, fh) * shrink * 0.5 > on_screen * 1.2:   # halve until near the on-screen size
        shrink *= 0.5
    if shrink < 1:
        face = cv2.resize(face, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(alpha, (face.shape[1], face.shape[0]), interpolation=cv2.INTER_AREA)
    to_roi = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ face_to_img @ np.diag([1 / shrink, 1 / shrink, 1])
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(face, to_roi, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    a = cv2.warpPerspective(alpha, to_roi, size, flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
    roi = img[y0:y1, x0:x1]
    if shadow > 0:
        shift = np.float32([[1, 0, light_dir[0]], [0, 1, light_dir[1]]])
        sh = cv2.GaussianBlur(cv2.warpAffine(a[..., 0], shift, size), (0, 0), 2.0)[..., None]
        roi *= 1 - shadow * sh
    roi[:] = roi * (1 - a) + warped * a
    hit = a[..., 0] > 0.5
    labels[y0:y1, x0:x1][hit] = label
    return int(hit.sum())


def _light(img: np.ndarray, rng: np.random.Generator, glare_prob: float) -> np.ndarray:
    h, w = img.shape[:2]
    kelvin = list(KELVIN_GAINS)[int(rng.integers(len(KELVIN_GAINS)))]
    gains = np.array(KELVIN_GAINS[kelvin], np.float32) * rng.uniform(0.6, 1.15)
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    fall = 1 - rng.uniform(0.1, 0.45) * (((xx - cx) / w) ** 2 + ((yy - cy) / h) ** 2)
    fall = cv2.resize(fall, (w, h), interpolation=cv2.INTER_LINEAR)
    img = img * fall[..., None] * gains
    if rng.random() < glare_prob:
        for _ in range(int(rng.integers(1, 3))):
            spot = np.zeros((h, w), np.float32)
            axes = (int(rng.uniform(20, 110)), int(rng.uniform(10, 60)))
            cv2.ellipse(spot, (int(rng.uniform(0, w)), int(rng.uniform(0, h))), axes, rng.uniform(0, 180), 0, 360,
                        float(rng.uniform(80, 220)), -1)
            img = img + cv2.GaussianBlur(spot, (0, 0), max(axes) / 3)[..., None]
    return img


def _phone_camera(img: np.ndarray, rng: np.random.Generator, quality=(50, 92), focus=(0.0, 1.0)) -> np.ndarray:
    sigma = rng.uniform(*focus)
    if sigma > 0.2:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    shot = np.sqrt(np.maximum(img, 0) * rng.uniform(0.05, 0.4) + rng.uniform(1, 9))
    img = img + rng.standard_normal(img.shape).astype(np.float32) * shot
    _, buf = cv2.imencode(".jpg", np.clip(img, 0, 255).astype(np.uint8),
                           [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(quality[0], quality[1] + 1))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _view(rng: np.random.Generator) -> np.ndarray:
    f = rng.uniform(850, 1250)
    fill = rng.uniform(0.8, 1.0)
    distance = AREA_MM[0] * f / (fill * SIZE[0])
    return camera(f, distance, rng.uniform(0, 35), rng.uniform(-25, 25), SIZE, (AREA_MM[0] / 2, AREA_MM[1] / 2),
                  rng.uniform(-25, 25, 2))


def _table(kind: str, rng: np.random.Generator) -> np.ndarray:
    return table_top(kind, rng, SIZE).astype(np.float32)


def _layout(rnd: random.Random, cards: list[str], overlap_prob: float = 0.2):
    laid = []
    for card in cards:
        for _ in range(300):
            if laid and rnd.random() < overlap_prob:
                under = rnd.choice(laid)[1]
                a = rnd.uniform(0, 2 * np.pi)
                c = (under[0] + rnd.uniform(40, 65) * np.cos(a), under[1] + rnd.uniform(40, 65) * np.sin(a))
                others = [p for _, p, _ in laid if p is not under]
            else:
                c = (rnd.uniform(70, AREA_MM[0] - 70), rnd.uniform(70, AREA_MM[1] - 70))
                others = [p for _, p, _ in laid]
            if 55 <= c[0] <= AREA_MM[0] - 55 and 55 <= c[1] <= AREA_MM[1] - 55 and \
                    all(np.hypot(c[0] - p[0], c[1] - p[1]) > 120 for p in others):
                laid.append((card, c, rnd.uniform(0, 360)))
                break
    return laid


def _scene_parts(seed: int, deck: str, design: str, n_cards: int):
    rnd = random.Random(seed * 7 + 3)
    rng = np.random.default_rng([seed, 2])
    kind = KINDS[seed % len(KINDS)]
    cam = _view(rng)
    cards = rnd.sample(deck_card_ids(deck), min(n_cards, len(deck_card_ids(deck))))
    return rnd, rng, kind, cam, _layout(rnd, cards)


def _distractors(img, labels, rnd: random.Random, cam: np.ndarray) -> None:
    if rnd.random() < 0.15:   # coins
        for _ in range(rnd.randint(1, 3)):
            c = (rnd.uniform(40, AREA_MM[0] - 40), rnd.uniform(40, AREA_MM[1] - 40))
            r = rnd.uniform(9, 13)
            ring = _apply(cam, [(c[0] + r * np.cos(t), c[1] + r * np.sin(t)) for t in np.linspace(0, 6.28, 24)])
            colour = rnd.choice([(60, 140, 180), (150, 150, 150)])
            cv2.fillPoly(img, [np.round(ring).astype(np.int32)], colour, cv2.LINE_AA)
            cv2.fillPoly(labels, [np.round(ring).astype(np.int32)], 255)
    if rnd.random() < 0.08:   # a phone lying face down
        c = (rnd.uniform(80, AREA_MM[0] - 80), rnd.uniform(80, AREA_MM[1] - 80))
        a = np.radians(rnd.uniform(0, 180))
        rect = np.array([[-36, -74], [36, -74], [36, 74], [-36, 74]]) @ np.array([[np.cos(a), np.sin(a)],
                                                                                   [-np.sin(a), np.cos(a)]])
        quad = np.round(_apply(cam, rect + c)).astype(np.int32)
        cv2.fillConvexPoly(img, quad, (30, 30, 35), cv2.LINE_AA)
        cv2.fillConvexPoly(labels, quad, 255)


def table_scene(seed: int, deck: str, design: str, n_cards: int = 5) -> Scene2:
    """A scene fully decided by ``seed`` (the table kind is ``KINDS[seed % 7]``)."""
    rnd, rng, kind, cam, laid = _scene_parts(seed, deck, design, n_cards)
    img = _table(kind, rng)
    labels = np.zeros(img.shape[:2], np.uint8)
    shadow = rnd.uniform(0.15, 0.5)
    light_dir = (rnd.uniform(-3, 3), rnd.uniform(0.5, 3.5))
    truths, painted = [], []
    for i, (card, centre, angle) in enumerate(laid):
        face, alpha = draw_face(card, design)
        face = np.clip(face.astype(np.float32) + rng.normal(0, 4, 3), 0, 255).astype(np.uint8)   # this print's inks
        to_img = cam @ _card_to_table(centre, angle)
        painted.append(_lay(img, labels, i + 1, face, alpha, to_img, shadow, light_dir))
        fh, fw = face.shape[:2]
        truths.append(CardTruth2(card, _apply(to_img, [[0, 0], [fw, 0], [fw, fh], [0, fh]]).astype(np.float32)))
    _distractors(img, labels, rnd, cam)
    counts = np.bincount(labels.ravel(), minlength=256)
    for i, t in enumerate(truths):
        t.visible_fraction = min(1.0, counts[i + 1] / max(painted[i], 1))
        t.in_frame = bool(np.all((t.corners >= 0) & (t.corners <= [SIZE[0] - 1, SIZE[1] - 1])))
    img = _light(img, np.random.default_rng([seed, 3]), 0.7 if kind == "glossy" else 0.2)
    return Scene2(_phone_camera(img, rng), truths, cam, kind, design, seed)


def calibration_shot(seed: int, deck: str, design: str, n_cards: int = 5) -> np.ndarray:
    """The empty table of scene ``seed`` as the calibration shot saw it (same camera and
    table, its own light level, noise and JPEG; no cards, coins or phone)."""
    _, rng, kind, _, _ = _scene_parts(seed, deck, design, n_cards)
    img = _table(kind, rng)
    shot_rng = np.random.default_rng([seed, 5])
    img = _light(img, np.random.default_rng([seed, 3]), 0.0) * shot_rng.uniform(0.95, 1.05)   # same lamps
    return _phone_camera(img, shot_rng)


PHOTO_SIZES = ((640, 480), (1280, 720), (1280, 960), (1600, 1200), (2016, 1512))


def enrolment_photo(card: str, design: str, seed: int, area=(0.2, 0.7), size=None, kind: str | None = None,
                    underexposed: bool | None = None) -> Photo2:
    """A close-up photo of ``card`` alone, as an owner takes it: the card covers ``area`` of
    the frame, the phone tilted up to 30° and turned any way, on any table kind; a third
    of them underexposed (the card at about a fifth to a third of full brightness)."""
    rnd = random.Random(seed)
    rng = np.random.default_rng([seed, 9])
    size = size or PHOTO_SIZES[rnd.randrange(len(PHOTO_SIZES))]
    kind = kind or KINDS[rnd.randrange(len(KINDS))]
    frac = rnd.uniform(*area)
    f = rnd.uniform(0.8, 1.1) * size[0]
    distance = f * np.sqrt(CARD_SIZE_MM[0] * CARD_SIZE_MM[1] / (frac * size[0] * size[1]))
    pitch, roll = rnd.uniform(0, 30), rnd.uniform(-180, 180)
    face, alpha = draw_face(card, design)
    fh, fw = face.shape[:2]
    while True:   # step back until the whole card fits in the frame
        to_img = camera(f, distance, pitch, roll, size, (0, 0)) @ _card_to_table((0, 0), 0)
        corners = _apply(to_img, [[0, 0], [fw, 0], [fw, fh], [0, fh]])
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        room = np.array(size, np.float64) * 0.96 - (hi - lo)   # a margin of 2 % of the frame at least
        if room.min() >= 0:
            break
        distance *= 1.05
    target = np.array([0.02 * z + rnd.uniform(0.0, 1.0) * r for z, r in zip(size, np.maximum(room, 0))]) - lo
    shift = np.array([[1, 0, target[0]], [0, 1, target[1]], [0, 0, 1]])
    to_img = shift @ to_img
    corners = _apply(to_img, [[0, 0], [fw, 0], [fw, fh], [0, fh]])
    img = table_top(kind, rng, size).astype(np.float32)
    labels = np.zeros(img.shape[:2], np.uint8)
    _lay(img, labels, 1, face, alpha, to_img, rnd.uniform(0.1, 0.4), (rnd.uniform(-4, 4), rnd.uniform(1, 5)))
    img = _light(img, rng, 0.0)
    dark = rnd.random() < 1 / 3 if underexposed is None else underexposed
    if dark:
        img *= rnd.uniform(0.2, 0.35)
    img = _phone_camera(img, rng, quality=(80, 95), focus=(0.0, 0.6))
    share = float(cv2.contourArea(corners.astype(np.float32))) / (size[0] * size[1])
    return Photo2(img, corners.astype(np.float32), share)
