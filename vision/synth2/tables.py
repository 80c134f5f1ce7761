"""Table tops of the second style, drawn at the play area's size in table millimetres.

Kinds: ``dark`` (dark felt or stained wood), ``felt`` (green or blue baize), ``light-wood``
(pale grain), ``white`` (a white or cream tablecloth, a little woven), ``patterned``
(gingham checks, stripes or polka dots), ``photo`` (real photographs from scikit-image:
brick, grass, gravel, lunar rock as stone, tinted), ``glossy`` (a varnished light table
that catches reflections). Everything is deterministic in the ``rng`` given.

    >>> top = table_top("white", np.random.default_rng(3), (400, 225))
    >>> top.shape, int(top.mean()) > 190
    ((225, 400, 3), True)
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

KINDS = ("dark", "felt", "light-wood", "white", "patterned", "photo", "glossy")
PHOTOS = ("brick", "grass", "gravel", "moon")


@functools.lru_cache(maxsize=8)
def _photo(name: str) -> np.ndarray:
    from skimage import data  # test extra; only the evaluation needs it

    return np.ascontiguousarray(getattr(data, name)())


def _noise_field(rng: np.random.Generator, size, cell: int) -> np.ndarray:
    w, h = size
    small = rng.standard_normal((h // cell + 2, w // cell + 2)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _wood(rng, size, base, contrast) -> np.ndarray:
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    warp = _noise_field(rng, size, 60) * 14
    rings = np.sin((yy + warp) * rng.uniform(0.15, 0.3) + _noise_field(rng, size, 25) * 1.5)
    fine = _noise_field(rng, (w, h), 3) * 0.3
    shade = 1 + contrast * (0.6 * rings + fine)
    planks = (xx // rng.uniform(120, 220)).astype(int)
    shade *= 1 + (planks % 3 - 1) * 0.04
    return np.clip(np.asarray(base, np.float32)[None, None] * shade[..., None], 0, 255).astype(np.uint8)


def _pattern(rng, size) -> np.ndarray:
    w, h = size
    ground = np.array(rng.choice([(235, 235, 240), (220, 235, 245), (240, 240, 230)]), np.float32)
    ink = np.array(rng.choice([(60, 60, 200), (170, 90, 40), (60, 140, 60), (40, 40, 40)]), np.float32)
    img = np.tile(ground, (h, w, 1))
    step = rng.uniform(18, 40)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    kind = rng.integers(3)
    if kind == 0:      # gingham: bands both ways, darker where they cross
        a = ((xx // (step / 2)) % 2 == 0).astype(np.float32)
        b = ((yy // (step / 2)) % 2 == 0).astype(np.float32)
        k = (0.35 * a + 0.35 * b)[..., None]
    elif kind == 1:    # stripes
        k = (((xx + yy * 0.3) // (step / 3)) % 3 == 0).astype(np.float32)[..., None] * 0.8
    else:              # polka dots
        d = np.hypot((xx % step) - step / 2, (yy % step) - step / 2)
        k = (d < step * 0.18).astype(np.float32)[..., None] * 0.9
    img = img * (1 - k) + ink * k
    return cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (0, 0), 0.8)


def _from_photo(rng, size) -> np.ndarray:
    w, h = size
    grey = _photo(PHOTOS[int(rng.integers(len(PHOTOS)))]).astype(np.float32)
    reps = (int(np.ceil(h / grey.shape[0])) + 1, int(np.ceil(w / grey.shape[1])) + 1)
    big = np.tile(grey, reps)
    zoom = rng.uniform(0.6, 1.2)
    big = cv2.resize(big, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_AREA)
    y0 = int(rng.integers(0, max(1, big.shape[0] - h)))
    x0 = int(rng.integers(0, max(1, big.shape[1] - w)))
    patch = big[y0:y0 + h, x0:x0 + w]
    if patch.shape[:2] != (h, w):
        patch = cv2.resize(patch, (w, h))
    tint = np.array(rng.choice([(150, 170, 200), (120, 160, 130), (190, 190, 190), (110, 140, 190)]), np.float32)
    level = rng.uniform(0.6, 1.25)
    img = (patch[..., None] / 128.0) * tint * level
    return np.clip(img, 0, 255).astype(np.uint8)


def table_top(kind: str, rng: np.random.Generator, size) -> np.ndarray:
    """A BGR table top of ``kind``, ``size`` = (width, height) pixels."""
    w, h = size
    if kind == "dark":
        base = rng.choice([(35, 35, 40), (30, 40, 60), (45, 40, 35)]) * rng.uniform(0.8, 1.3)
        return _wood(rng, size, base, 0.12)
    if kind == "felt":
        base = np.array(rng.choice([(50, 110, 30), (110, 70, 25), (40, 40, 120)]), np.float32) * rng.uniform(0.8, 1.3)
        tex = 1 + _noise_field(rng, size, 30) * 0.05 + rng.standard_normal((h, w)).astype(np.float32) * 0.05
        return np.clip(base[None, None] * tex[..., None], 0, 255).astype(np.uint8)
    if kind in ("light-wood", "glossy"):
        base = rng.choice([(140, 185, 215), (160, 195, 220), (120, 170, 205), (185, 205, 220)])
        return _wood(rng, size, base, 0.08 if kind == "light-wood" else 0.05)
    if kind == "white":
        base = np.array(rng.choice([(238, 240, 242), (225, 235, 240), (245, 245, 245)]), np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        weave = 1 + 0.02 * np.sin(xx * 1.3) * np.sin(yy * 1.3) + _noise_field(rng, size, 80) * 0.02
        return np.clip(base[None, None] * weave[..., None], 0, 255).astype(np.uint8)
    if kind == "patterned":
        return _pattern(rng, size)
    if kind == "photo":
        return _from_photo(rng, size)
    raise ValueError(f"unknown table kind {kind!r}")
