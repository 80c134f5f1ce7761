"""Table calibration: from a frame showing the corner markers to a homography between
image pixels and table millimetres.

    >>> import numpy as np
    >>> from vision.markers import marker_pictures
    >>> from vision.synth.scene import SceneStyle, random_camera, render_table
    >>> profile = TableProfile.load()
    >>> rng = np.random.default_rng(1)
    >>> camera = random_camera(rng, SceneStyle(fill=(0.8, 0.85), turn_max_deg=6))   # a tilted, turned view
    >>> frame = render_table([], camera, rng, SceneStyle.clean(), pictures=marker_pictures(profile)).image
    >>> cal = calibrate(frame, profile)
    >>> cal.markers_used, cal.error_mm < 1.0
    ((0, 1, 2, 3), True)
    >>> cal.to_table([[640, 360]]).round()          # image px -> table mm
    array([[369., 267.]])
    >>> cal.to_image([[25, 25]]).round()            # table mm (marker 0's centre) -> image px
    array([[297., 130.]])
    >>> top = cal.top_down(frame, px_per_mm=1.0)    # the table from straight above
    >>> top.shape
    (450, 800, 3)

Zones live in table millimetres (the profile), so a moved camera needs only a new
calibration shot. The calibration is saved as JSON beside the service's data.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.errors import VisionError
from vision.markers import find_markers
from vision.profile import TableProfile


class CalibrationError(VisionError, ValueError):
    """The markers could not be found or do not fit together; ``fr`` in French."""


@dataclass
class Calibration:
    image_to_table: np.ndarray          # 3x3, image px -> table mm
    image_size: tuple[int, int]         # (w, h) of the frames it was made from
    error_mm: float = 0.0               # RMS distance of the marker corners after fitting
    markers_used: tuple[int, ...] = ()

    @property
    def table_to_image(self) -> np.ndarray:
        return np.linalg.inv(self.image_to_table)

    def to_table(self, points_px) -> np.ndarray:
        pts = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.image_to_table).reshape(-1, 2)

    def to_image(self, points_mm) -> np.ndarray:
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.table_to_image).reshape(-1, 2)

    def top_down(self, frame: np.ndarray, px_per_mm: float = 1.0, area_mm=(800.0, 450.0)) -> np.ndarray:
        """The table seen from straight above, ``px_per_mm`` pixels per millimetre."""
        scale = np.diag([px_per_mm, px_per_mm, 1.0])
        size = (int(round(area_mm[0] * px_per_mm)), int(round(area_mm[1] * px_per_mm)))
        return cv2.warpPerspective(frame, scale @ self.image_to_table, size, flags=cv2.INTER_LINEAR)

    def to_json(self) -> dict:
        return {"image_to_table": self.image_to_table.tolist(), "image_size": list(self.image_size),
                "error_mm": self.error_mm, "markers_used": list(self.markers_used)}

    @classmethod
    def from_json(cls, d: dict) -> Calibration:
        m = np.asarray(d["image_to_table"], np.float64)
        if m.shape != (3, 3) or not np.all(np.isfinite(m)):
            raise CalibrationError("the saved calibration is damaged", "la calibration enregistrée est abîmée")
        return cls(m, tuple(d["image_size"]), float(d.get("error_mm", 0.0)), tuple(d.get("markers_used", ())))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        try:
            return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise CalibrationError(f"cannot read calibration {path}: {e}",
                                   f"impossible de lire la calibration {path} : {e}") from None


def calibrate(frame: np.ndarray, profile: TableProfile, max_error_mm: float = 3.0) -> Calibration:
    """Fit the homography from the profile's markers seen in ``frame``.

    Every corner of every known marker is one correspondence (16 with four markers).
    Missing markers are named; a fit worse than ``max_error_mm`` (a marker moved or
    misprinted) is refused."""
    seen = find_markers(frame, profile.marker_dictionary)
    known = {i: c for i, c in seen.items() if i in profile.marker_centres_mm}
    missing = sorted(set(profile.marker_centres_mm) - set(known))
    if len(known) < 4:
        names = ", ".join(str(i) for i in missing)
        raise CalibrationError(f"calibration needs the four corner markers; not seen: {names}",
                               f"la calibration a besoin des quatre repères ; non vus : {names}")
    img_pts = np.vstack([known[i] for i in sorted(known)])
    mm_pts = np.vstack([profile.marker_corners_mm(i) for i in sorted(known)])
    h, _ = cv2.findHomography(img_pts, mm_pts, 0)
    if h is None:
        raise CalibrationError("the markers do not give a usable view of the table",
                               "les repères ne donnent pas une vue utilisable de la table")
    err = np.linalg.norm(cv2.perspectiveTransform(img_pts.reshape(-1, 1, 2), h).reshape(-1, 2) - mm_pts, axis=1)
    rms = float(np.sqrt((err ** 2).mean()))
    if rms > max_error_mm:
        raise CalibrationError(f"the markers do not agree with the profile (error {rms:.1f} mm): was one moved?",
                               f"les repères ne correspondent pas au profil (écart {rms:.1f} mm) : l'un a-t-il bougé ?")
    return Calibration(h, (frame.shape[1], frame.shape[0]), rms, tuple(sorted(known)))
