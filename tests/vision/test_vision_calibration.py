"""Calibration: the known homography of a rendered camera is recovered within 1 mm."""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibration import Calibration, CalibrationError, calibrate
from vision.markers import find_markers, marker_pictures, marker_sheet
from vision.synth.scene import SceneStyle, project, random_camera, render_table

GRID_MM = np.array([[x, y] for x in range(0, 801, 50) for y in range(0, 451, 50)], float)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_known_homography_recovered_within_1mm(profile, seed):
    rng = np.random.default_rng(seed)
    cam = random_camera(rng, SceneStyle(fill=(0.7, 0.78), turn_max_deg=6, tilt_max=0.3))  # markers in view
    frame = render_table([], cam, rng, SceneStyle(), pictures=marker_pictures(profile)).image
    cal = calibrate(frame, profile)
    back = cal.to_table(project(cam, GRID_MM))          # every 5 cm over the play area
    assert np.linalg.norm(back - GRID_MM, axis=1).max() < 1.0
    assert np.abs(cal.to_image(GRID_MM) - project(cam, GRID_MM)).max() < 2.0
    assert cal.markers_used == (0, 1, 2, 3)


def test_hidden_marker_is_named(profile):
    rng = np.random.default_rng(0)
    cam = random_camera(rng, SceneStyle(fill=(0.8, 0.8), turn_max_deg=0))
    pics = [p for p in marker_pictures(profile) if p.quad_mm.mean(axis=0)[0] > 400 or p.quad_mm.mean(axis=0)[1] < 200]
    frame = render_table([], cam, rng, SceneStyle.clean(), pictures=pics).image
    with pytest.raises(CalibrationError, match="not seen: 3") as e:
        calibrate(frame, profile)
    assert "repères" in e.value.fr


def test_moved_marker_is_refused(profile):
    rng = np.random.default_rng(0)
    cam = random_camera(rng, SceneStyle(fill=(0.8, 0.8), turn_max_deg=0))
    pics = marker_pictures(profile)
    pics[1] = type(pics[1])(pics[1].image, pics[1].quad_mm + [-60, 40])   # stuck in the wrong place
    frame = render_table([], cam, rng, SceneStyle.clean(), pictures=pics).image
    with pytest.raises(CalibrationError, match="moved"):
        calibrate(frame, profile)


def test_save_load_and_top_down(profile, tmp_path, rig):
    frame = render_table([], rig.camera, np.random.default_rng(0), SceneStyle.clean(),
                         pictures=rig.pictures, background=rig.background).image
    cal = calibrate(frame, profile)
    cal.save(tmp_path / "cal.json")
    again = Calibration.load(tmp_path / "cal.json")
    assert np.allclose(again.image_to_table, cal.image_to_table)
    top = cal.top_down(frame, px_per_mm=0.5)
    assert top.shape == (225, 400, 3)
    (tmp_path / "bad.json").write_text('{"image_to_table": [[1, 2]], "image_size": [1, 1]}')
    with pytest.raises(CalibrationError):
        Calibration.load(tmp_path / "bad.json")


def test_printed_sheet_markers_are_found(profile):
    sheet = marker_sheet(profile, dpi=100)
    assert sorted(find_markers(sheet, profile.marker_dictionary)) == [0, 1, 2, 3]
