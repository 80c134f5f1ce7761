"""The table profile: marker positions and zones, in table millimetres.

    >>> prof = TableProfile.load()                # the shipped default
    >>> prof.zone_of((400, 200)), prof.cell_of((200, 130))
    ('trick', (0, 0))

Zones never mention pixels, so moving the camera needs only a new calibration.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from table.rules import ProfileError

DEFAULT_PROFILE = Path(__file__).with_name("profiles") / "table.toml"


@dataclass
class TableProfile:
    play_area_mm: tuple[float, float]
    marker_dictionary: str
    marker_size_mm: float
    marker_centres_mm: dict[int, tuple[float, float]]
    zones: dict[str, tuple[float, float, float, float]]
    cup_origin_mm: tuple[float, float]
    cup_cell_mm: float
    cup_rows: int
    cup_cols: int
    frame_first_hole_mm: tuple[float, float]
    frame_hole_pitch_mm: float
    frame_holes: int
    frame_hole_radius_mm: float

    @classmethod
    def load(cls, path: str | Path | None = None) -> TableProfile:
        p = Path(path) if path else DEFAULT_PROFILE
        try:
            d = tomllib.loads(p.read_text(encoding="utf-8"))
            m, cups, frame = d["markers"], d["cups"], d["frame"]
            ids, centres = list(m["ids"]), list(m["centres_mm"])
            if len(ids) != len(centres) or len(ids) < 4 or len(set(ids)) != len(ids):
                raise ProfileError(f"{p}: markers need at least 4 distinct ids, one centre each")
            prof = cls(
                play_area_mm=tuple(float(v) for v in d["play_area"]["size_mm"]),
                marker_dictionary=str(m["dictionary"]),
                marker_size_mm=float(m["size_mm"]),
                marker_centres_mm={int(i): (float(c[0]), float(c[1])) for i, c in zip(ids, centres)},
                zones={str(k): tuple(float(v) for v in r) for k, r in d.get("zones", {}).items()},
                cup_origin_mm=tuple(float(v) for v in cups["origin_mm"]),
                cup_cell_mm=float(cups["cell_mm"]), cup_rows=int(cups["rows"]), cup_cols=int(cups["cols"]),
                frame_first_hole_mm=tuple(float(v) for v in frame["first_hole_mm"]),
                frame_hole_pitch_mm=float(frame["hole_pitch_mm"]), frame_holes=int(frame["holes"]),
                frame_hole_radius_mm=float(frame["hole_radius_mm"]),
            )
        except ProfileError:
            raise
        except (OSError, KeyError, TypeError, ValueError, IndexError, tomllib.TOMLDecodeError) as e:
            raise ProfileError(f"cannot use table profile {p}: {type(e).__name__}: {e}") from None
        for name, r in prof.zones.items():
            if len(r) != 4 or r[0] >= r[2] or r[1] >= r[3]:
                raise ProfileError(f"{p}: zone {name!r} must be [x0, y0, x1, y1] with x0 < x1 and y0 < y1")
        return prof

    def marker_corners_mm(self, marker_id: int) -> np.ndarray:
        """The 4 corners of a marker (top-left, top-right, bottom-right, bottom-left) in mm,
        in the order ArUco reports them for a marker printed upright."""
        cx, cy = self.marker_centres_mm[marker_id]
        h = self.marker_size_mm / 2
        return np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]], np.float64)

    def zone_of(self, point_mm) -> str | None:
        """The first zone (in file order) holding ``point_mm``, or None."""
        x, y = float(point_mm[0]), float(point_mm[1])
        for name, (x0, y0, x1, y1) in self.zones.items():
            if x0 <= x <= x1 and y0 <= y <= y1:
                return name
        return None

    def cell_rect_mm(self, row: int, col: int) -> tuple[float, float, float, float]:
        x0 = self.cup_origin_mm[0] + col * self.cup_cell_mm
        y0 = self.cup_origin_mm[1] + row * self.cup_cell_mm
        return x0, y0, x0 + self.cup_cell_mm, y0 + self.cup_cell_mm

    def cell_of(self, point_mm) -> tuple[int, int] | None:
        col = int((point_mm[0] - self.cup_origin_mm[0]) // self.cup_cell_mm)
        row = int((point_mm[1] - self.cup_origin_mm[1]) // self.cup_cell_mm)
        return (row, col) if 0 <= row < self.cup_rows and 0 <= col < self.cup_cols else None

    def hole_centre_mm(self, column: int) -> tuple[float, float]:
        x, y = self.frame_first_hole_mm
        return x + column * self.frame_hole_pitch_mm, y
