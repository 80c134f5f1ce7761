"""PtiPassPass tokens in the cup grid's cells and Passe-Murailles pegs in the frame's top
holes, told apart by colour after one calibration shot.

The calibration shot shows known things in known places (``CALIBRATION_LAYOUT``): a
blue, a green and an orange token in the first three cells of the top row, the fourth
cell bare, a cup on the fifth; a red peg in hole 0, a blue peg in hole 1, hole 2 empty.
Each class keeps its mean colour (relative to the bare surface around it) and spread;
pixels are then given to the nearest class, which makes the result follow the owner's
tokens and light.

    >>> from vision.calibration import calibrate
    >>> from vision.markers import marker_pictures
    >>> from vision.synth.items import peg_discs, token_discs
    >>> from vision.synth.scene import SceneStyle, random_camera, render_table
    >>> profile = TableProfile.load()
    >>> camera = random_camera(np.random.default_rng(1), SceneStyle(fill=(0.8, 0.85), turn_max_deg=6))
    >>> cloth = np.full((720, 1280, 3), (60, 110, 40), np.uint8)     # the same green cloth in every frame
    >>> def photo(tokens, cups, pegs, seed, style=SceneStyle()):     # the table as the camera sees it
    ...     discs = token_discs(profile, tokens, cups) + peg_discs(profile, pegs)
    ...     return render_table([], camera, np.random.default_rng(seed), style, background=cloth,
    ...                         pictures=marker_pictures(profile), discs=discs).image
    >>> shot = photo({(0, 0): ["blue"], (0, 1): ["green"], (0, 2): ["orange"]}, {(0, 4)},
    ...              {0: "red", 1: "blue"}, seed=0, style=SceneStyle.clean())   # CALIBRATION_LAYOUT
    >>> cal = calibrate(shot, profile)
    >>> colours = ColourModel.from_shot(shot, cal, profile)
    >>> frame = photo({(1, 2): ["blue", "orange"]}, {(2, 5)}, {4: "red"}, seed=5)  # other light, noise, blur
    >>> read_cell(frame, cal, profile, colours, (1, 2))
    CellReading(cell=(1, 2), covered=False, colours=['blue', 'orange'])
    >>> read_cell(frame, cal, profile, colours, (2, 5)).covered    # a cup on it
    True
    >>> read_hole(frame, cal, profile, colours, 4), read_hole(frame, cal, profile, colours, 0)
    ('red', None)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.errors import VisionError
from vision.profile import TableProfile

TOKEN_COLOURS = ("blue", "green", "orange")
PEG_COLOURS = ("red", "blue")
CALIBRATION_LAYOUT = {
    "cells": {"blue": (0, 0), "green": (0, 1), "orange": (0, 2), "cloth": (0, 3), "cup": (0, 4)},
    "holes": {"red": 0, "blue": 1, "hole": 2},
}
PX_PER_MM = 2.0            # resolution of the top-down patches
L_WEIGHT = 0.35            # brightness counts less than hue: the light changes, the inks do not
TOKEN_RADIUS_MM = 11.0     # a token's radius, for the calibration sample and the area test
MIN_SPREAD = 0.06          # log units: the light of a later frame is never quite the shot's
MAX_DISTANCE = 6.0         # in spreads: farther from every class is "something else"
_OPEN_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
CELL_LOOK = 0.36           # radius looked at for tokens, as a share of the cell's side
RIM = (0.38, 0.44)         # the bare rim of the mat (a ring, shares of the side): the local white
# A peg head down a top hole keeps this share of the light per slide above it (the simulated
# frames darken it so, hardware/sim_table.py; a real frame's figure is measured with a peg at
# each depth); read down to slide MAX_DEPTH (table.passe_murailles.frame.CAMERA_DEPTH).
SHADE_PER_SLIDE = 0.8
MAX_DEPTH = 3
DEPTH_MARGIN = 0.35        # in slides: a reading farther than this from a whole slide gives no depth


class ColourCalibrationError(VisionError, ValueError):
    """A colour calibration shot that cannot be used."""


@dataclass
class ColourModel:
    """Mean colour features and spread of each class, from a calibration shot."""

    cell_classes: dict[str, tuple[list[float], list[float]]] = field(default_factory=dict)
    hole_classes: dict[str, tuple[list[float], list[float]]] = field(default_factory=dict)
    token_area_px: float = 0.0
    cover_classes: dict[str, list[float]] = field(default_factory=dict)   # ring colour: bare mat or cup

    @classmethod
    def from_shot(cls, frame: np.ndarray, cal: Calibration, profile: TableProfile,
                  layout=CALIBRATION_LAYOUT) -> ColourModel:
        model = cls()
        for name, cell in layout["cells"].items():
            feats, ring_bgr = _cell_features(frame, cal, profile, cell)
            h, w = feats.shape[:2]
            r = TOKEN_RADIUS_MM * PX_PER_MM * (0.6 if name in TOKEN_COLOURS else 1.2)
            inner = _ring(h, w, 0, r)
            if name in ("cloth", "cup"):
                model.cover_classes[name] = _chroma(ring_bgr)
                if name == "cup":
                    continue
            model.cell_classes[name] = _stats(feats[inner])
        for name, col in layout["holes"].items():
            model.hole_classes[name] = _stats(_hole_pixels(frame, cal, profile, col))
        # one token's area as this camera sees it (edge pixels blur into the mat)
        model.token_area_px = float(np.pi * (TOKEN_RADIUS_MM * PX_PER_MM) ** 2)
        areas = [model._colour_counts(frame, cal, profile, layout["cells"][c]).get(c, 0) for c in TOKEN_COLOURS]
        if min(areas) > 0.3 * model.token_area_px:
            model.token_area_px = float(np.mean(areas))
        for a in TOKEN_COLOURS:
            if _distance(model.cell_classes[a][0], model.cell_classes["cloth"]) < 3.0:
                cell = layout["cells"][a]
                raise ColourCalibrationError(f"the {a} token is not where the calibration layout says (cell {cell})",
                                             f"le jeton {a} n'est pas à sa place de calibration (case {cell})")
        return model

    def _colour_counts(self, frame, cal, profile, cell) -> dict[str, int]:
        """Pixels of each class in the looked-at disc of a cell."""
        return {name: int(mask.sum()) for name, mask in self._class_masks(frame, cal, profile, cell).items()}

    def _class_masks(self, frame, cal, profile, cell) -> dict[str, np.ndarray]:
        patch, _ = _cell_features(frame, cal, profile, cell)
        h, w = patch.shape[:2]
        look = _ring(h, w, 0, min(h, w) * CELL_LOOK)
        labels = np.full((h, w), -1, np.int32)
        labels[look] = _classify(patch[look], self.cell_classes)
        return {name: labels == i for i, name in enumerate(self.cell_classes)}

    def count_tokens(self, frame, cal, profile, cell) -> list[str]:
        """Tokens in a cell: each blob of a token colour counts as many tokens as its area
        holds (at least one, if it is at least a third of a token)."""
        colours = []
        for colour, mask in self._class_masks(frame, cal, profile, cell).items():
            if colour not in TOKEN_COLOURS:
                continue
            mask = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, _OPEN_KERNEL)
            n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
            for area in stats[1:, cv2.CC_STAT_AREA]:
                if area >= self.token_area_px / 3:
                    colours += [colour] * max(1, int(round(area / self.token_area_px)))
        return sorted(colours)

    def to_json(self) -> dict:
        return {"cell_classes": self.cell_classes, "hole_classes": self.hole_classes,
                "token_area_px": self.token_area_px, "cover_classes": self.cover_classes}

    @classmethod
    def from_json(cls, d: dict) -> ColourModel:
        conv = lambda m: {k: (list(v[0]), list(v[1])) for k, v in m.items()}
        return cls(conv(d["cell_classes"]), conv(d["hole_classes"]), float(d["token_area_px"]),
                   {k: list(v) for k, v in d.get("cover_classes", {}).items()})

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json()) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> ColourModel:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


@dataclass
class CellReading:
    cell: tuple[int, int]
    covered: bool            # a cup stands on the cell: nothing can be seen
    colours: list[str]       # tokens seen, sorted, one entry per token


def _stats(pixels: np.ndarray) -> tuple[list[float], list[float]]:
    px = pixels.reshape(-1, pixels.shape[-1]).astype(np.float64)
    return px.mean(axis=0).tolist(), np.maximum(px.std(axis=0), MIN_SPREAD).tolist()


def _distance(mean, cls_stats) -> float:
    m, s = np.asarray(cls_stats[0]), np.asarray(cls_stats[1])
    return float(np.sqrt((((np.asarray(mean) - m) / s) ** 2).sum()))


def _ring(h: int, w: int, r0: float, r1: float) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w]
    d = np.hypot(xx - (w - 1) / 2, yy - (h - 1) / 2)
    return (d >= r0) & (d <= r1)


def _balanced(patch: np.ndarray, ring: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(colour features of the patch relative to its ``ring``, the ring's BGR median).

    The ring is what surrounds the thing looked at (the bare mat around the tokens, the
    frame around a hole): dividing by it cancels the light's colour and strength there.
    Features per pixel: log-brightness relative to the ring (weighted down: shadows and
    glare change it) and the three log-chromaticities (which the light does not)."""
    ref = np.median(patch[ring].reshape(-1, 3), axis=0).astype(np.float32) + 1.0
    rel = np.log((patch.astype(np.float32) + 1.0) / ref)
    bright = rel.mean(axis=2, keepdims=True)
    return np.concatenate([bright * L_WEIGHT, rel - bright], axis=2), ref


def _patch(frame, cal: Calibration, rect_mm) -> np.ndarray:
    x0, y0, x1, y1 = rect_mm
    shift = np.array([[PX_PER_MM, 0, -x0 * PX_PER_MM], [0, PX_PER_MM, -y0 * PX_PER_MM], [0, 0, 1]])
    size = (int(round((x1 - x0) * PX_PER_MM)), int(round((y1 - y0) * PX_PER_MM)))
    return cv2.warpPerspective(frame, shift @ cal.image_to_table, size, flags=cv2.INTER_AREA)


def _chroma(bgr) -> list[float]:
    """Colour without its strength: each channel's share of the sum."""
    b = np.asarray(bgr, np.float64)
    return (b / max(float(b.sum()), 1.0)).tolist()


def _cell_features(frame, cal, profile: TableProfile, cell) -> tuple[np.ndarray, np.ndarray]:
    """The cell seen from above, balanced against the mat's rim; and the rim's colour."""
    patch = _patch(frame, cal, profile.cell_rect_mm(*cell))
    h, w = patch.shape[:2]
    side = min(h, w)
    return _balanced(patch, _ring(h, w, RIM[0] * side, RIM[1] * side))


def _hole_pixels(frame, cal, profile: TableProfile, column: int) -> np.ndarray:
    cx, cy = profile.hole_centre_mm(column)
    r = profile.frame_hole_radius_mm
    R = 2.0 * r
    patch = _patch(frame, cal, (cx - R, cy - R, cx + R, cy + R))
    h, w = patch.shape[:2]
    feats, _ = _balanced(patch, _ring(h, w, 1.4 * r * PX_PER_MM, 1.9 * r * PX_PER_MM))
    return feats[_ring(h, w, 0, 0.6 * r * PX_PER_MM)]


def _classify(pixels: np.ndarray, classes: dict) -> np.ndarray:
    """Index (in ``classes`` order) of the nearest class for each pixel's features; ``len(classes)``
    for a pixel near none of them (the table beside the mat, a finger)."""
    names = list(classes)
    means = np.array([classes[n][0] for n in names])
    spreads = np.array([classes[n][1] for n in names])
    d = (((pixels[:, None, :] - means[None]) / spreads[None]) ** 2).sum(axis=2)
    best = np.argmin(d, axis=1)
    best[d[np.arange(len(d)), best] > MAX_DISTANCE ** 2] = len(names)
    return best


def read_cell(frame: np.ndarray, cal: Calibration, profile: TableProfile, model: ColourModel,
              cell: tuple[int, int]) -> CellReading:
    """What a cell shows: covered by a cup, or the tokens lying in it (maybe none)."""
    _, rim_bgr = _cell_features(frame, cal, profile, cell)
    if model.cover_classes:
        chroma = np.asarray(_chroma(rim_bgr))
        near = {k: float(np.linalg.norm(chroma - np.asarray(v))) for k, v in model.cover_classes.items()}
        if min(near, key=near.get) == "cup":
            return CellReading(tuple(cell), True, [])
    colours = model.count_tokens(frame, cal, profile, cell)
    return CellReading(tuple(cell), False, sorted(colours))


def read_hole(frame: np.ndarray, cal: Calibration, profile: TableProfile, model: ColourModel,
              column: int) -> str | None:
    """The colour of the peg in top hole ``column`` ("red"/"blue"), or None if empty."""
    what = hole_reading(frame, cal, profile, model, column)[0]
    return what if what in PEG_COLOURS else None


def hole_reading(frame: np.ndarray, cal: Calibration, profile: TableProfile, model: ColourModel,
                 column: int) -> tuple[str | None, float]:
    """What top hole ``column`` shows: ``(class, brightness)``, the class a peg colour,
    ``"hole"`` (empty) or None (neither clearly), the brightness the median
    log-brightness of its pixels relative to the frame around the hole."""
    px = _hole_pixels(frame, cal, profile, column)
    names = list(model.hole_classes)
    labels = _classify(px, model.hole_classes)
    counts = np.bincount(labels, minlength=len(names) + 1)[:len(names)]
    best = int(np.argmax(counts))
    if counts[best] <= 0.5 * len(px):
        return None, 0.0
    return names[best], float(np.median(px[labels == best][:, 0])) / L_WEIGHT


def peg_depth(model: ColourModel, colour: str, column: int, brightness: float, empty: dict[int, float],
              layout=CALIBRATION_LAYOUT) -> int | None:
    """The slide a ``colour`` peg head seen down top hole ``column`` sits in (1: the top
    slide), from how much darker it is than the calibration's peg of that colour: each
    slide above it takes ``SHADE_PER_SLIDE`` of the light. ``empty``: each hole's own
    brightness seen empty (:func:`hole_reading`), which cancels what differs from hole to
    hole (the frame's shadow, the camera's angle). None when a reference is missing or
    the reading falls between two slides."""
    ref_hole = layout["holes"].get(colour)
    if colour not in model.hole_classes or column not in empty or ref_hole not in empty:
        return None
    ref = model.hole_classes[colour][0][0] / L_WEIGHT
    level = 1.0 + ((brightness - empty[column]) - (ref - empty[ref_hole])) / np.log(SHADE_PER_SLIDE)
    depth = int(round(level))
    if abs(level - depth) > DEPTH_MARGIN or not 1 <= depth <= MAX_DEPTH:
        return None
    return depth
