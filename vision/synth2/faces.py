"""Card faces of the second style: two designs per deck, neither like the first style's.

``dark``: a near-black border round a tinted field, numerals in a serif font, pips as
diamonds. ``bleed``: art printed to the card's edge (a gradient with stripes), numerals
in a white disc, pips as triangles. Passe Éclair faces show the big footballer as a
figure (head, shirt with a number, shorts) and the small one in a medallion.

    >>> face, alpha = draw_face("blue-7", "dark")
    >>> face.shape, alpha.shape, int(alpha[0, 0]), int(alpha[200, 120])
    ((352, 252, 3), (352, 252), 0, 255)
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from vision.decks import CARD_SIZE_MM
from vision.synth2.themes import THEME_PREFIX, is_theme, theme_face

DESIGNS = ("dark", "bleed")
S = 4.0   # pixels per mm of a drawn face
W, H = round(CARD_SIZE_MM[0] * S), round(CARD_SIZE_MM[1] * S)

SUIT = {"purple": (150, 50, 95), "blue": (160, 80, 10), "green": (70, 120, 20), "yellow": (20, 170, 215)}
PLAYER = {"leon": (30, 30, 170), "marlon": (210, 170, 60), "rocce": (40, 200, 140),
          "fabi": (0, 100, 230), "vanessa": (140, 30, 200)}
HAIR = {"leon": (20, 40, 70), "marlon": (30, 30, 30), "rocce": (60, 160, 210),
        "fabi": (20, 60, 120), "vanessa": (40, 90, 160)}
NUMBER = {"leon": 9, "marlon": 4, "rocce": 7, "fabi": 11, "vanessa": 10}


def _p(x_mm: float, y_mm: float) -> tuple[int, int]:
    return round(x_mm * S), round(y_mm * S)


def _label(img, text, centre_mm, height_mm, colour, font=cv2.FONT_HERSHEY_TRIPLEX, weight=1.0):
    thick = max(1, round(weight * S))
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, thick)
    scale = height_mm * S / max(th, 1)
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    cx, cy = _p(*centre_mm)
    cv2.putText(img, text, (cx - tw // 2, cy + th // 2), font, scale, colour, thick, cv2.LINE_AA)


def _alpha() -> np.ndarray:
    a = np.zeros((H, W), np.uint8)
    r = round(3.5 * S)
    cv2.rectangle(a, (r, 0), (W - 1 - r, H - 1), 255, -1)
    cv2.rectangle(a, (0, r), (W - 1, H - 1 - r), 255, -1)
    for cx, cy in ((r, r), (W - 1 - r, r), (r, H - 1 - r), (W - 1 - r, H - 1 - r)):
        cv2.circle(a, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return a


def _lighter(bgr, k):
    return tuple(int(c + (255 - c) * k) for c in bgr)


def _darker(bgr, k):
    return tuple(int(c * (1 - k)) for c in bgr)


def _pip_places(n: int) -> list[tuple[float, float]]:
    cols = 2 if n <= 8 else 3
    rows = (n + cols - 1) // cols
    out = []
    for i in range(n):
        r, c = divmod(i, cols)
        in_row = min(cols, n - r * cols)
        x = 31.5 + (c - (in_row - 1) / 2) * 11
        y = 50 + (r - (rows - 1) / 2) * 7.5
        out.append((x, y))
    return out


def _diamond(img, c_mm, size_mm, colour):
    x, y = c_mm
    pts = np.array([_p(x, y - size_mm), _p(x + size_mm * 0.7, y), _p(x, y + size_mm), _p(x - size_mm * 0.7, y)])
    cv2.fillConvexPoly(img, pts, colour, cv2.LINE_AA)


def _triangle(img, c_mm, size_mm, colour):
    x, y = c_mm
    pts = np.array([_p(x, y - size_mm), _p(x + size_mm, y + size_mm * 0.8), _p(x - size_mm, y + size_mm * 0.8)])
    cv2.fillConvexPoly(img, pts, colour, cv2.LINE_AA)


def _number_face(colour: str, value: int, design: str) -> np.ndarray:
    ink = SUIT[colour]
    if design == "dark":
        img = np.full((H, W, 3), (28, 26, 24), np.uint8)
        cv2.rectangle(img, _p(3.2, 3.2), _p(59.8, 84.8), _lighter(ink, 0.82), -1)
        cv2.rectangle(img, _p(3.2, 3.2), _p(59.8, 84.8), ink, max(1, round(0.6 * S)))
        _label(img, str(value), (31.5, 22), 13, ink, cv2.FONT_HERSHEY_TRIPLEX, 1.6)
        for xy in _pip_places(value):
            _diamond(img, xy, 2.6, ink)
        _label(img, str(value), (9, 80), 5, _darker(ink, 0.3), cv2.FONT_HERSHEY_COMPLEX, 0.6)
        _label(img, colour[:3].upper(), (50, 80), 3.5, _darker(ink, 0.3), cv2.FONT_HERSHEY_COMPLEX, 0.5)
        return img
    img = np.zeros((H, W, 3), np.uint8)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    t = (xx / W * 0.4 + yy / H * 0.6)[..., None]
    img[:] = np.clip(np.array(_lighter(ink, 0.35), np.float32) * (1 - t) + np.array(_darker(ink, 0.55)) * t, 0, 255)
    for k in range(-6, 12):
        x0 = k * 9 * S
        cv2.line(img, (int(x0), 0), (int(x0 + H * 0.6), H), _darker(ink, 0.3), max(1, round(1.2 * S)), cv2.LINE_AA)
    cv2.circle(img, _p(31.5, 24), round(11 * S), (245, 245, 245), -1, cv2.LINE_AA)
    _label(img, str(value), (31.5, 24), 10, _darker(ink, 0.2), cv2.FONT_HERSHEY_SIMPLEX, 1.4)
    for xy in _pip_places(value):
        _triangle(img, (xy[0], xy[1] + 12), 2.4, (250, 250, 250))
    _label(img, colour.upper(), (31.5, 81), 4, (250, 250, 250), cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC, 0.7)
    return img


def _figure(img, name: str, centre_mm, scale: float):
    """A footballer seen from the front: hair, face, shirt with number, shorts."""
    x, y = centre_mm
    shirt, hair = PLAYER[name], HAIR[name]
    cv2.ellipse(img, _p(x, y - 16 * scale), (round(6 * scale * S), round(7 * scale * S)), 0, 0, 360,
                (150, 180, 225), -1, cv2.LINE_AA)
    cv2.ellipse(img, _p(x, y - 19 * scale), (round(6.5 * scale * S), round(4.5 * scale * S)), 0, 180, 360,
                hair, -1, cv2.LINE_AA)
    body = np.array([_p(x - 11 * scale, y - 7 * scale), _p(x + 11 * scale, y - 7 * scale),
                     _p(x + 8 * scale, y + 12 * scale), _p(x - 8 * scale, y + 12 * scale)])
    cv2.fillConvexPoly(img, body, shirt, cv2.LINE_AA)
    cv2.rectangle(img, _p(x - 8 * scale, y + 12 * scale), _p(x + 8 * scale, y + 19 * scale), (245, 245, 245), -1)
    _label(img, str(NUMBER[name]), (x, y + 2 * scale), 7 * scale, (250, 250, 250), cv2.FONT_HERSHEY_DUPLEX,
           0.9 * scale)


def _animal(img, kind: str, design: str):
    if kind == "dog":
        fur = (40, 80, 130)
        cv2.ellipse(img, _p(31.5, 52), _p(17, 10), 0, 0, 360, fur, -1, cv2.LINE_AA)
        cv2.circle(img, _p(20, 36), round(8 * S), fur, -1, cv2.LINE_AA)
        cv2.ellipse(img, _p(14, 32), _p(3, 7), 20, 0, 360, _darker(fur, 0.4), -1, cv2.LINE_AA)
        cv2.circle(img, _p(18, 35), round(1.2 * S), (10, 10, 10), -1, cv2.LINE_AA)
        _label(img, "SOCKE", (31.5, 74), 5, (30, 30, 30) if design == "dark" else (250, 250, 250),
               cv2.FONT_HERSHEY_COMPLEX, 0.7)
    else:
        body = (30, 200, 240)
        cv2.ellipse(img, _p(31.5, 45), _p(10, 24), 25, 0, 360, body, -1, cv2.LINE_AA)
        cv2.ellipse(img, _p(31.5, 45), _p(10, 24), 25, 0, 360, (20, 120, 150), max(1, round(0.8 * S)), cv2.LINE_AA)
        cv2.circle(img, _p(27, 38), round(1.5 * S), (20, 20, 20), -1, cv2.LINE_AA)
        cv2.circle(img, _p(35, 36), round(1.5 * S), (20, 20, 20), -1, cv2.LINE_AA)
        _label(img, "GROS MICHI", (31.5, 76), 4.5, (30, 30, 30) if design == "dark" else (250, 250, 250),
               cv2.FONT_HERSHEY_COMPLEX, 0.6)


def _footballer_face(card: str, design: str) -> np.ndarray:
    if design == "dark":
        img = np.full((H, W, 3), (35, 20, 15), np.uint8)
        cv2.rectangle(img, _p(3.2, 3.2), _p(59.8, 84.8), (215, 225, 200), -1)
    else:
        img = np.zeros((H, W, 3), np.uint8)
        for k in range(0, 88, 8):   # mown stripes of a pitch, to the card's edge
            cv2.rectangle(img, _p(0, k), _p(63, k + 4), (40, 140, 40), -1)
            cv2.rectangle(img, _p(0, k + 4), _p(63, k + 8), (55, 165, 60), -1)
        cv2.circle(img, _p(31.5, 44), round(12 * S), (230, 240, 230), max(1, round(0.7 * S)), cv2.LINE_AA)
    if card in ("dog", "michi"):
        _animal(img, card, design)
        return img
    big, small = card.split("-")
    _figure(img, big, (31.5, 44), 1.35)
    text = (30, 30, 30) if design == "dark" else (250, 250, 250)
    _label(img, big.upper(), (31.5, 12), 5, text, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX if design == "bleed"
           else cv2.FONT_HERSHEY_COMPLEX, 0.8)
    cv2.circle(img, _p(50, 74), round(9 * S), (250, 250, 250), -1, cv2.LINE_AA)
    cv2.circle(img, _p(50, 74), round(9 * S), PLAYER[small], max(1, round(1.2 * S)), cv2.LINE_AA)
    _figure(img, small, (50, 76), 0.38)
    _label(img, small[:3].upper(), (16, 77), 4, text, cv2.FONT_HERSHEY_PLAIN, 0.7)
    return img


@functools.lru_cache(maxsize=256)
def _cached(card: str, design: str) -> tuple[np.ndarray, np.ndarray]:
    if is_theme(design):
        return theme_face(card, design[len(THEME_PREFIX):], (W, H))
    if design not in DESIGNS:
        raise ValueError(f"unknown design {design!r}")
    if card in ("dog", "michi") or card.split("-")[0] in PLAYER:
        face = _footballer_face(card, design)
    else:
        colour, value = card.rsplit("-", 1)
        face = _number_face(colour, int(value), design)
    return face, _alpha()


def draw_face(card: str, design: str) -> tuple[np.ndarray, np.ndarray]:
    """(BGR face, alpha with rounded corners) of ``card`` in ``design`` (one of ``DESIGNS``, or
    ``theme:<name>``, a deck drawn by others: :mod:`vision.synth2.themes`); copies, free to change."""
    face, alpha = _cached(card, design)
    return face.copy(), alpha.copy()
