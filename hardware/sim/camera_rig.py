"""The simulated tables' camera rig: a camera placed over the rendered table, moved (as a
person would) until the calibration shot of the empty table shows every marker.

    >>> import numpy as np
    >>> from vision.profile import TableProfile
    >>> rig = place_camera(np.random.default_rng(1), TableProfile.load())
    >>> rig.shot.shape, rig.placings >= 1, rig.calibration is not None
    ((720, 1280, 3), True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

CAMERA_PLACINGS = 10  # camera poses tried until the calibration shot shows every marker
IMAGE = (1280, 720)


@dataclass
class CameraRig:
    view: Any          # the camera's pose (vision.synth.scene.random_camera)
    shot: np.ndarray   # the calibration shot (the empty table, and any calibration discs)
    calibration: Any   # vision.calibration.Calibration
    background: np.ndarray
    pictures: Any      # the markers as drawn on the table
    placings: int      # poses tried


def place_camera(rng: np.random.Generator, profile: Any, *, discs: list | None = None) -> CameraRig:
    """Pose the camera at random until ``calibrate`` finds every marker in the shot
    (``discs``: tokens or pegs on the table for the colour shot); raises the last
    ``CalibrationError`` after ``CAMERA_PLACINGS`` poses."""
    from vision.calibration import CalibrationError, calibrate
    from vision.markers import marker_pictures
    from vision.synth.scene import SceneStyle, _background, random_camera, render_table

    background = _background(rng, IMAGE)
    pictures = marker_pictures(profile)
    for attempt in range(CAMERA_PLACINGS):
        view = random_camera(rng, SceneStyle(fill=(0.8, 0.85), turn_max_deg=6))
        shot = render_table([], view, rng, SceneStyle.clean(), pictures=pictures, background=background,
                            discs=discs or []).image
        try:
            calibration = calibrate(shot, profile)
        except CalibrationError:
            if attempt == CAMERA_PLACINGS - 1:
                raise
            continue
        return CameraRig(view, shot, calibration, background, pictures, attempt + 1)
    raise AssertionError("unreachable")
