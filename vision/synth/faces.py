"""Procedurally drawn card faces for both decks (the stand-in for the owner's deck).

The faces only need to look like a plausible print of each card: a white border with
rounded corners, a coloured panel, big and small indices, and a picture. The recogniser
is never told how they are drawn; it learns them from one photo each, as it would a
real deck.

    >>> face = render_face("purple-10")            # BGR uint8, portrait
    >>> face.shape[:2] == face_size_px()[::-1]
    True
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from vision.decks import CARD_SIZE_MM, FOOTBALLERS, PASS_PASS_COLOURS, deck_card_ids

PX_PER_MM = 4.0  # rendering resolution of a face; scenes scale it down

# BGR inks of the Pass Pass colours and of the footballers' shirts.
INK = {
    "purple": (140, 40, 120),
    "blue": (185, 105, 25),
    "green": (60, 150, 40),
    "yellow": (30, 195, 235),
}
SHIRT = {
    "leon": (40, 40, 210),
    "marlon": (200, 120, 30),
    "rocce": (50, 160, 50),
    "fabi": (20, 140, 245),
    "vanessa": (160, 60, 170),
}
PAPER = (238, 240, 242)
DARK = (40, 35, 30)


def face_size_px(px_per_mm: float = PX_PER_MM) -> tuple[int, int]:
    """(width, height) of a rendered face in pixels."""
    return round(CARD_SIZE_MM[0] * px_per_mm), round(CARD_SIZE_MM[1] * px_per_mm)


def _blank(px_per_mm: float) -> np.ndarray:
    w, h = face_size_px(px_per_mm)
    return np.full((h, w, 3), PAPER, np.uint8)


def _mm(v: float, s: float) -> int:
    return int(round(v * s))


def _text(img, txt, centre, height_mm, colour, s, thickness_mm=1.2, flip=False):
    """Draw ``txt`` centred on ``centre`` (mm) with a cap height of ``height_mm``."""
    font = cv2.FONT_HERSHEY_DUPLEX
    thick = max(1, _mm(thickness_mm, s))
    (tw, th), _ = cv2.getTextSize(txt, font, 1.0, thick)
    scale = height_mm * s / th
    (tw, th), _ = cv2.getTextSize(txt, font, scale, thick)
    if flip:  # drawn upside down, as the second index of a card
        tmp = np.zeros_like(img)
        cx, cy = _mm(centre[0], s), _mm(centre[1], s)
        cv2.putText(tmp, txt, (cx - tw // 2, cy + th // 2), font, scale, (255, 255, 255), thick, cv2.LINE_AA)
        mask = cv2.rotate(tmp, cv2.ROTATE_180)[..., 0:1].astype(np.float32) / 255
        img[:] = (img * (1 - mask) + np.array(colour, np.float32) * mask).astype(np.uint8)
        return
    org = (_mm(centre[0], s) - tw // 2, _mm(centre[1], s) + th // 2)
    cv2.putText(img, txt, org, font, scale, colour, thick, cv2.LINE_AA)


def _diamond(img, centre, size_mm, colour, s):
    cx, cy = centre
    r = size_mm / 2
    pts = np.array([[cx, cy - r * 1.3], [cx + r, cy], [cx, cy + r * 1.3], [cx - r, cy]]) * s
    cv2.fillConvexPoly(img, pts.round().astype(np.int32), colour, cv2.LINE_AA)


def _motif(img, colour_name, rect_mm, s):
    """A light pattern that differs by colour, so colours do not rest on hue alone."""
    x0, y0, x1, y1 = rect_mm
    light = tuple(int(c * 0.55 + 255 * 0.45) for c in INK[colour_name])
    k = PASS_PASS_COLOURS.index(colour_name)
    for i in range(6):
        for j in range(8):
            cx, cy = x0 + 4 + i * (x1 - x0 - 8) / 5, y0 + 4 + j * (y1 - y0 - 8) / 7
            c = (_mm(cx, s), _mm(cy, s))
            if k == 0:
                cv2.circle(img, c, _mm(1.6, s), light, -1, cv2.LINE_AA)
            elif k == 1:
                cv2.line(img, (c[0] - _mm(2, s), c[1]), (c[0] + _mm(2, s), c[1]), light, _mm(0.8, s), cv2.LINE_AA)
            elif k == 2:
                cv2.rectangle(img, (c[0] - _mm(1.2, s), c[1] - _mm(1.2, s)), (c[0] + _mm(1.2, s), c[1] + _mm(1.2, s)),
                              light, -1)
            else:
                cv2.drawMarker(img, c, light, cv2.MARKER_CROSS, _mm(3, s), _mm(0.8, s))


def _pass_pass(colour: str, value: int, s: float) -> np.ndarray:
    img = _blank(s)
    w, h = CARD_SIZE_MM
    ink = INK[colour]
    panel = (7.0, 12.0, w - 7.0, h - 12.0)
    cv2.rectangle(img, (_mm(panel[0], s), _mm(panel[1], s)), (_mm(panel[2], s), _mm(panel[3], s)), ink, -1)
    _motif(img, colour, panel, s)
    # big value in a paper disc, then the diamonds under it: (12 - value) // 3 of them
    cv2.circle(img, (_mm(w / 2, s), _mm(h / 2 - 6, s)), _mm(17, s), PAPER, -1, cv2.LINE_AA)
    _text(img, str(value), (w / 2, h / 2 - 6), 15, ink, s, thickness_mm=2.4)
    diamonds = (12 - value) // 3
    for i in range(diamonds):
        _diamond(img, (w / 2 + (i - (diamonds - 1) / 2) * 9, h / 2 + 19), 5.5, PAPER, s)
    for flip in (False, True):
        _text(img, str(value), (7.5, 6.0), 6.0, ink, s, thickness_mm=1.1, flip=flip)
    # a value bar along the panel's edge: a second, position-coded cue of the value
    bar_len = (panel[3] - panel[1]) * value / 12
    cv2.rectangle(img, (_mm(panel[2] - 3, s), _mm(panel[3] - bar_len, s)), (_mm(panel[2] - 1, s), _mm(panel[3], s)),
                  PAPER, -1)
    return img


def _footballer(img, name, centre, height_mm, s, ball=False):
    """A stick-and-shirt player with the shirt number of the footballer."""
    cx, cy = centre
    u = height_mm / 10
    shirt = SHIRT[name]
    cv2.circle(img, (_mm(cx, s), _mm(cy - 3.6 * u, s)), _mm(1.3 * u, s), (120, 160, 215), -1, cv2.LINE_AA)
    body = np.array([[cx - 2.2 * u, cy - 2.2 * u], [cx + 2.2 * u, cy - 2.2 * u],
                     [cx + 1.6 * u, cy + 1.6 * u], [cx - 1.6 * u, cy + 1.6 * u]]) * s
    cv2.fillConvexPoly(img, body.round().astype(np.int32), shirt, cv2.LINE_AA)
    for dx in (-0.9, 0.9):
        cv2.line(img, (_mm(cx + dx * u, s), _mm(cy + 1.6 * u, s)), (_mm(cx + dx * 1.5 * u, s), _mm(cy + 4.8 * u, s)),
                 DARK, max(1, _mm(0.8 * u, s)), cv2.LINE_AA)
    number = str(FOOTBALLERS.index(name) + 1)
    _text(img, number, (cx, cy - 0.3 * u), 2.0 * u, PAPER, s, thickness_mm=0.35 * u)
    if ball:
        bc = (_mm(cx + 2.6 * u, s), _mm(cy + 4.4 * u, s))
        cv2.circle(img, bc, _mm(0.9 * u, s), (250, 250, 250), -1, cv2.LINE_AA)
        cv2.circle(img, bc, _mm(0.9 * u, s), DARK, max(1, _mm(0.2 * u, s)), cv2.LINE_AA)


def _passe_eclair(big: str, small: str, s: float) -> np.ndarray:
    img = _blank(s)
    w, h = CARD_SIZE_MM
    cv2.rectangle(img, (_mm(5, s), _mm(5, s)), (_mm(w - 5, s), _mm(h - 5, s)), (150, 200, 120), -1)
    cv2.rectangle(img, (_mm(5, s), _mm(h - 30, s)), (_mm(w - 5, s), _mm(h - 5, s)), SHIRT[small], -1)
    cv2.line(img, (_mm(5, s), _mm(h / 2, s)), (_mm(w - 5, s), _mm(h / 2, s)), PAPER, _mm(0.7, s))
    _footballer(img, big, (w / 2 - 6, 32), 38, s, ball=True)
    _footballer(img, small, (w - 17, h - 18), 20, s)
    _text(img, big.upper(), (w / 2 - 6, 9.5), 3.5, DARK, s, thickness_mm=0.6)
    _text(img, small.upper(), (18, h - 10), 3.0, PAPER, s, thickness_mm=0.5)
    # pass arrow from the big player to the small one
    cv2.arrowedLine(img, (_mm(w / 2, s), _mm(h / 2 + 4, s)), (_mm(w - 22, s), _mm(h - 28, s)), DARK, _mm(1.2, s),
                    cv2.LINE_AA, tipLength=0.3)
    return img


def _dog(s: float) -> np.ndarray:
    img = _blank(s)
    w, h = CARD_SIZE_MM
    cv2.rectangle(img, (_mm(5, s), _mm(5, s)), (_mm(w - 5, s), _mm(h - 5, s)), (170, 215, 240), -1)
    brown, dark = (40, 80, 140), (20, 40, 70)
    cv2.ellipse(img, (_mm(w / 2, s), _mm(52, s)), (_mm(18, s), _mm(11, s)), 0, 0, 360, brown, -1, cv2.LINE_AA)
    cv2.circle(img, (_mm(w / 2 + 15, s), _mm(36, s)), _mm(9, s), brown, -1, cv2.LINE_AA)
    cv2.ellipse(img, (_mm(w / 2 + 21, s), _mm(33, s)), (_mm(3, s), _mm(7, s)), 20, 0, 360, dark, -1, cv2.LINE_AA)
    for x in (-12, -4, 6, 13):
        cv2.line(img, (_mm(w / 2 + x, s), _mm(58, s)), (_mm(w / 2 + x, s), _mm(70, s)), brown, _mm(3, s), cv2.LINE_AA)
    cv2.circle(img, (_mm(w / 2 + 17, s), _mm(34, s)), _mm(1.2, s), PAPER, -1, cv2.LINE_AA)
    _text(img, "SOCKE", (w / 2, 14), 6, dark, s, thickness_mm=1.0)
    return img


def _michi(s: float) -> np.ndarray:
    img = _blank(s)
    w, h = CARD_SIZE_MM
    cv2.rectangle(img, (_mm(5, s), _mm(5, s)), (_mm(w - 5, s), _mm(h - 5, s)), (40, 200, 240), -1)
    cv2.circle(img, (_mm(w / 2, s), _mm(h / 2, s)), _mm(20, s), (60, 60, 200), -1, cv2.LINE_AA)
    cv2.circle(img, (_mm(w / 2 - 7, s), _mm(h / 2 - 5, s)), _mm(3, s), PAPER, -1, cv2.LINE_AA)
    cv2.circle(img, (_mm(w / 2 + 7, s), _mm(h / 2 - 5, s)), _mm(3, s), PAPER, -1, cv2.LINE_AA)
    cv2.ellipse(img, (_mm(w / 2, s), _mm(h / 2 + 6, s)), (_mm(10, s), _mm(5, s)), 0, 0, 180, DARK, _mm(1.5, s),
                cv2.LINE_AA)
    _text(img, "GROS", (w / 2, 12), 6, DARK, s, thickness_mm=1.0)
    _text(img, "MICHI", (w / 2, h - 12), 6, DARK, s, thickness_mm=1.0)
    return img


def _foreign(kind: int, s: float) -> np.ndarray:
    """Faces that belong to no deck here (a lost joker, a card of another game)."""
    img = _blank(s)
    w, h = CARD_SIZE_MM
    red = (30, 30, 200)
    if kind % 3 == 0:  # a seven of hearts
        _text(img, "7", (8, 8), 7, red, s, thickness_mm=1.2)
        for i in range(7):
            cx, cy = w / 2 + (i % 2 - 0.5) * 22, 18 + (i // 2) * 17
            cv2.circle(img, (_mm(cx, s), _mm(cy, s)), _mm(5, s), red, -1, cv2.LINE_AA)
    elif kind % 3 == 1:  # a joker
        cv2.rectangle(img, (_mm(6, s), _mm(6, s)), (_mm(w - 6, s), _mm(h - 6, s)), (20, 20, 20), _mm(1.5, s))
        _text(img, "JOKER", (w / 2, h / 2), 8, (20, 20, 20), s, thickness_mm=1.4)
        cv2.circle(img, (_mm(w / 2, s), _mm(22, s)), _mm(9, s), (0, 160, 220), -1, cv2.LINE_AA)
    else:  # a rules summary card: lines of text
        for i in range(9):
            y = 12 + i * 8
            cv2.line(img, (_mm(8, s), _mm(y, s)), (_mm(w - 8 - 10 * (i % 3), s), _mm(y, s)), (90, 90, 90), _mm(1.4, s))
    return img


def face_kinds() -> list[str]:
    """Every face this module draws: both decks, then ``foreign-0..2`` (in no deck)."""
    return deck_card_ids("pass-pass") + deck_card_ids("passe-eclair") + [f"foreign-{k}" for k in range(3)]


@functools.lru_cache(maxsize=256)
def _render_cached(card: str, px_per_mm: float) -> np.ndarray:
    s = px_per_mm
    if card == "dog":
        img = _dog(s)
    elif card == "michi":
        img = _michi(s)
    elif card.startswith("foreign-"):
        img = _foreign(int(card.split("-")[1]), s)
    else:
        a, b = card.split("-")
        if a in INK:
            img = _pass_pass(a, int(b), s)
        elif a in SHIRT and b in SHIRT and a != b:
            img = _passe_eclair(a, b, s)
        else:
            raise ValueError(f"no face is drawn for card {card!r}")
    img.setflags(write=False)
    return img


def render_face(card: str, px_per_mm: float = PX_PER_MM) -> np.ndarray:
    """The face of ``card`` (a card id, or ``foreign-N``) as a BGR image, portrait."""
    return _render_cached(card, float(px_per_mm)).copy()


def rounded_corner_mask(px_per_mm: float = PX_PER_MM, radius_mm: float = 3.0) -> np.ndarray:
    """uint8 mask (255 inside) of a card with rounded corners, same size as a face."""
    w, h = face_size_px(px_per_mm)
    r = _mm(radius_mm, px_per_mm)
    m = np.zeros((h, w), np.uint8)
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m
