"""vision/hands.py on rendered frames: an arm reaching the pile from a seat's side of the
table is seen at that seat's edge only; two arms at once are both seen."""

from __future__ import annotations

import numpy as np
import pytest

from hardware.sim_cards import draw_arm
from vision.calibration import calibrate
from vision.hands import HandWatcher
from vision.markers import marker_pictures
from vision.profile import TableProfile
from vision.synth.scene import SceneStyle, _background, random_camera, render_table


@pytest.fixture(scope="module")
def rig():
    prof = TableProfile.load()
    rng = np.random.default_rng(3)
    view = random_camera(rng, SceneStyle(fill=(0.8, 0.85), turn_max_deg=6))
    shot = render_table([], view, rng, SceneStyle.clean(), pictures=marker_pictures(prof),
                        background=_background(rng, (1280, 720))).image
    return prof, view, shot, calibrate(shot, prof)


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_an_arm_from_a_side_is_seen_at_that_seat_only(rig, seat):
    prof, view, shot, cal = rig
    hands = HandWatcher(cal, prof, shot)
    assert hands.update(shot, 0.0) == []
    assert hands.update(draw_arm(shot, view, seat, tone=seat), 0.1) == [seat]
    assert hands.recent(0.3) == [seat]


def test_two_arms_at_once_are_both_seen(rig):
    prof, view, shot, cal = rig
    hands = HandWatcher(cal, prof, shot)
    both = draw_arm(draw_arm(shot, view, 0), view, 3, tone=2)
    assert hands.update(both, 1.0) == [0, 3]
