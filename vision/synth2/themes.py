"""Faces cut from a card game's theme: a deck no one here drew, for evaluation only.

Debian's ``gnome-cards-data`` ships AisleRiot's card themes, SVG sheets of the French
52-card deck drawn by other people; some (``lattmann``, ``berlin``, ``orell``, ``tarocco``)
carry scans of old printed court cards. A theme is a scene design ``theme:<name>``
(``vision.synth2.faces.draw_face`` sends it here); the Pass Pass deck's 48 ids are laid on
48 of its cards, kings left out: colour → suit, value 1–12 → ace, 2–10, jack, queen. So a
scene of the second style can be laid with a deck whose look-alikes are a real deck's
(a 6 and a 7 of hearts differ by one pip; hearts and diamonds share their ink).

    >>> from vision.synth2.faces import draw_face
    >>> face, alpha = draw_face("yellow-12", "theme:lattmann")   # the queen of hearts
    >>> face.shape, alpha.shape
    ((352, 252, 3), (352, 252))

Each card is rasterised by ``rsvg-convert`` (Debian's ``librsvg2-bin``) from its element
id (``club_1`` … ``heart_queen``); where a theme gives that id to a row or a part of the card
(lattmann's 8s, orell's diamonds), the card is cut from its cell of the theme's 13 × 5 sheet.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np

THEME_PREFIX = "theme:"
THEMES_DIR = Path(os.environ.get("PASSETABLE_CARD_THEMES", "/usr/share/aisleriot/cards"))
SUIT = {"purple": "club", "green": "diamond", "yellow": "heart", "blue": "spade"}
RANK = {11: "jack", 12: "queen"}   # 1..10 keep their number (the ace is ``<suit>_1``)
BOX_MARGIN = 0.02   # a card drawn in a box with more than this share of its width empty on a side is cut out


class ThemeUnavailable(RuntimeError):
    """The theme's file or the SVG renderer is not on this machine."""


def is_theme(design: str) -> bool:
    return design.startswith(THEME_PREFIX)


def theme_element(card: str) -> str:
    """The theme's element id of a Pass Pass card id: ``"yellow-12"`` → ``"heart_queen"``."""
    colour, value = card.rsplit("-", 1)
    if colour not in SUIT or not 1 <= int(value) <= 12:
        raise ValueError(f"{card!r} is not a Pass Pass card: a theme lays only that deck")
    return f"{SUIT[colour]}_{RANK.get(int(value), value)}"


def theme_face(card: str, theme: str, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(BGR face, alpha) of ``card`` in ``theme``, ``size`` = (width, height) in pixels: the theme's
    card stretched to the table's card size (AisleRiot's cards are 2:3, the table's 63 × 88 mm)."""
    element = theme_element(card)
    bgra = _decoded(_rasterised(theme, element, 2 * size[0]))
    if not _whole_card(bgra):   # some themes name a card's part, or a row, by the card's id
        bgra = _sheet_cell(theme, element, 2 * size[0])
    bgra = cv2.resize(_card_only(bgra), size, interpolation=cv2.INTER_AREA)
    alpha = bgra[:, :, 3].copy()
    # the face's colour where the paper is see-through: white, so a resized edge is not black
    k = alpha[:, :, None].astype(np.float32) / 255.0
    face = np.clip(bgra[:, :, :3] * k + 255.0 * (1.0 - k), 0, 255).astype(np.uint8)
    return face, alpha


def _card_only(bgra: np.ndarray) -> np.ndarray:
    """``bgra`` cut to the card's own outline (its opaque pixels) where more than BOX_MARGIN of the box's
    width lies empty on a side: tango's clubs are drawn in a box 12 % wider and taller than the card, and
    were laid 11 % small on the table. A margin of a px or two (a half-transparent last row, paris' aces)
    stays: every other card of the eight themes looked at is drawn as before."""
    ys, xs = np.nonzero(bgra[:, :, 3] >= 128)
    w = bgra.shape[1]
    if len(xs) == 0 or max(xs.min(), w - 1 - xs.max()) <= BOX_MARGIN * w:
        return bgra
    return bgra[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _whole_card(bgra: np.ndarray) -> bool:
    return 1.3 <= bgra.shape[0] / bgra.shape[1] <= 1.7


def _decoded(png: bytes) -> np.ndarray:
    bgra = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    if bgra is None or bgra.ndim != 3 or bgra.shape[2] != 4:
        raise ThemeUnavailable("the card theme did not rasterise to an image with alpha")
    return bgra


def _sheet_cell(theme: str, element: str, width: int) -> np.ndarray:
    """``element``'s cell of the theme's whole sheet: AisleRiot lays its cards 13 to a row (ace to
    king), a row a suit (clubs, diamonds, hearts, spades), the jokers and back below."""
    suit, rank = element.split("_")
    row = ("club", "diamond", "heart", "spade").index(suit)
    col = {"jack": 10, "queen": 11}.get(rank, None)
    col = int(rank) - 1 if col is None else col
    sheet = _decoded(_rasterised(theme, None, 13 * width))
    h, w = sheet.shape[0] / 5, sheet.shape[1] / 13
    cell = sheet[round(row * h):round((row + 1) * h), round(col * w):round((col + 1) * w)]
    if not _whole_card(cell) or cell[:, :, 3].mean() < 200:
        raise ThemeUnavailable(f"theme {theme!r}: {element!r} is neither an element of its own nor a cell "
                               "of a 13 × 5 sheet")
    return cell


@functools.lru_cache(maxsize=128)
def _rasterised(theme: str, element: str | None, width: int) -> bytes:
    """PNG of ``element`` (the whole sheet if None), ``width`` pixels wide."""
    path = THEMES_DIR / f"{theme}.svgz"
    if not path.is_file():
        raise ThemeUnavailable(f"no card theme {theme!r} at {path}: apt install gnome-cards-data "
                               "(or set PASSETABLE_CARD_THEMES to a folder of AisleRiot .svgz themes)")
    renderer = shutil.which("rsvg-convert")
    if renderer is None:
        raise ThemeUnavailable("rsvg-convert is missing: apt install librsvg2-bin")
    only = ["-i", element] if element else []
    done = subprocess.run([renderer, *only, "-w", str(width), "-a", str(path)], capture_output=True, timeout=60)
    if done.returncode != 0 or not done.stdout:
        raise ThemeUnavailable(f"theme {theme!r} has no card {element!r}: "
                               f"{done.stderr.decode(errors='replace').strip()[:200]}")
    return done.stdout
