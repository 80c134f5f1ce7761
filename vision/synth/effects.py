"""Photometric damage for rendered scenes: light, colour casts, glare, blur, noise, JPEG,
and a hand reaching over the table.

Every function takes the image and a ``numpy.random.Generator`` made from the scene's
seed, so a scene is the same every time its seed is.

    >>> rng = np.random.default_rng(1)
    >>> out = jpeg(add_noise(np.full((8, 8, 3), 128, np.uint8), rng, 5.0), 60)
    >>> out.shape
    (8, 8, 3)
"""

from __future__ import annotations

import cv2
import numpy as np

SKIN = ((120, 160, 215), (95, 130, 190), (70, 100, 150), (140, 180, 230))


def _to_u8(img: np.ndarray) -> np.ndarray:
    return img if img.dtype == np.uint8 else cv2.convertScaleAbs(img)


def lighting_gradient(img: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """Multiply by a linear ramp plus a soft spot: ``strength`` 0.3 = ±30 % across.

    Works on uint8 or float32 images and returns the same type."""
    h, w = img.shape[:2]
    sh, sw = h // 8 + 1, w // 8 + 1
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(a) * (xx / sw - 0.5) + np.sin(a) * (yy / sh - 0.5)) * 2 * strength
    cx, cy = rng.uniform(0, sw), rng.uniform(0, sh)
    spot = np.exp(-(((xx - cx) / sw) ** 2 + ((yy - cy) / sh) ** 2) * 3) * strength * 0.5
    gain = np.clip(1.0 + ramp + spot - strength * 0.25, 0.3, 2.0).astype(np.float32)
    gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    out = cv2.multiply(img.astype(np.float32), cv2.merge([gain, gain, gain]))
    return _to_u8(out) if img.dtype == np.uint8 else out


def colour_cast(img: np.ndarray, gains_bgr) -> np.ndarray:
    """A white-balance error: each channel scaled by its gain."""
    out = cv2.multiply(img.astype(np.float32), tuple(float(g) for g in gains_bgr) + (1.0,))
    return _to_u8(out) if img.dtype == np.uint8 else out


def glare(img: np.ndarray, rng: np.random.Generator, centre=None, radius=None, intensity=None) -> np.ndarray:
    """A specular highlight: a soft bright ellipse added on top."""
    h, w = img.shape[:2]
    cx, cy = centre if centre is not None else (rng.uniform(0, w), rng.uniform(0, h))
    r = radius if radius is not None else rng.uniform(25, 90)
    k = intensity if intensity is not None else rng.uniform(50, 140)
    layer = np.zeros((h, w), np.float32)
    cv2.ellipse(layer, (int(cx), int(cy)), (int(r), int(r * rng.uniform(0.4, 1.0))), rng.uniform(0, 180),
                0, 360, float(k), -1)
    layer = cv2.GaussianBlur(layer, (0, 0), r / 3)
    out = cv2.add(img.astype(np.float32), cv2.merge([layer, layer, layer]))
    return _to_u8(out) if img.dtype == np.uint8 else out


def blur(img: np.ndarray, sigma: float) -> np.ndarray:
    return cv2.GaussianBlur(img, (0, 0), sigma) if sigma > 0.05 else img


def motion_blur(img: np.ndarray, length: int, angle_deg: float) -> np.ndarray:
    """Blur along a line of ``length`` pixels, as a card slid under a slow shutter."""
    length = max(1, int(length))
    k = np.zeros((length * 2 + 1, length * 2 + 1), np.float32)
    c = length
    dx, dy = np.cos(np.radians(angle_deg)) * length, np.sin(np.radians(angle_deg)) * length
    cv2.line(k, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1)
    return cv2.filter2D(img, -1, k / k.sum())


def add_noise(img: np.ndarray, rng: np.random.Generator, sigma: float) -> np.ndarray:
    """Sensor noise: Gaussian, ``sigma`` grey levels."""
    if sigma <= 0:
        return img
    noise = rng.standard_normal(img.shape, dtype=np.float32) * np.float32(sigma)
    out = cv2.add(img.astype(np.float32), noise)
    return _to_u8(out) if img.dtype == np.uint8 else out


def jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", _to_u8(img), [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else _to_u8(img)


def hand_polygons(rng: np.random.Generator, target: np.ndarray, reach: float) -> list[np.ndarray]:
    """Palm and fingers (image px polygons) reaching over ``target`` (a card's 4 corners).

    The fingertips stop ``reach`` (0..1) of the way across the card, so about that much
    of it is hidden along the approach direction.
    """
    centre = target.mean(axis=0)
    size = np.linalg.norm(target[0] - target[2])
    a = rng.uniform(0, 2 * np.pi)
    d = np.array([np.cos(a), np.sin(a)])       # from the card towards the wrist
    n = np.array([-d[1], d[0]])
    tip = centre + d * size * (0.5 - reach)     # fingertips line
    palm_c = tip + d * size * 0.75
    polys = []
    palm = cv2.ellipse2Poly(tuple(int(v) for v in palm_c), (int(size * 0.45), int(size * 0.38)), int(np.degrees(a)),
                            0, 360, 10)
    polys.append(palm)
    fw = size * 0.09
    for i in range(4):
        base = palm_c + n * (i - 1.5) * fw * 1.9 - d * size * 0.2
        end = tip + n * (i - 1.5) * fw * 1.9 + d * (abs(i - 1.5) * fw * 0.8)
        quad = np.array([base + n * fw / 2, end + n * fw / 2, end - n * fw / 2, base - n * fw / 2])
        polys.append(quad.round().astype(np.int32))
    wrist = np.array([palm_c + n * size * 0.3, palm_c + n * size * 0.3 + d * size * 3,
                      palm_c - n * size * 0.3 + d * size * 3, palm_c - n * size * 0.3])
    polys.append(wrist.round().astype(np.int32))
    return polys


def draw_hand(img: np.ndarray, labels: np.ndarray, polys: list[np.ndarray], rng: np.random.Generator) -> None:
    """Paint the hand into ``img`` (shaded skin) and mark it 255 in ``labels``."""
    skin = np.array(SKIN[int(rng.integers(len(SKIN)))], np.float32)
    mask = np.zeros(img.shape[:2], np.uint8)
    for p in polys:
        cv2.fillPoly(mask, [p.reshape(-1, 1, 2)], 255, cv2.LINE_AA)
    m = cv2.GaussianBlur(mask, (5, 5), 0).astype(np.float32)[..., None] / 255
    shade = rng.uniform(0.75, 1.1, (img.shape[0] // 16 + 1, img.shape[1] // 16 + 1)).astype(np.float32)
    shade = cv2.GaussianBlur(shade, (3, 3), 0)
    shade = cv2.resize(shade, (img.shape[1], img.shape[0]))[..., None]
    img[:] = np.clip(img * (1 - m) + skin * shade * m, 0, 255).astype(np.uint8)
    labels[mask > 127] = 255
