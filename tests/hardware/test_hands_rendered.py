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
    arm = draw_arm(shot, view, seat, tone=seat)
    assert hands.update(arm, 0.1) == [seat]
    assert hands.recent(0.12) == []            # one frame is a flicker of the light, not an arm
    assert hands.update(arm, 0.133) == [seat]
    assert hands.recent(0.3) == [seat]


def test_two_arms_at_once_are_both_seen(rig):
    prof, view, shot, cal = rig
    hands = HandWatcher(cal, prof, shot)
    both = draw_arm(draw_arm(shot, view, 0), view, 3, tone=2)
    assert hands.update(both, 1.0) == [0, 3]


@pytest.fixture(scope="module")
def blue_cloth():
    """A dark blue cloth (about BGR 45, 84, 128) that the darkest skin tone (60, 90, 140)
    differs from by less than DIFF_LEVEL in every channel."""
    prof = TableProfile.load()
    rng = np.random.default_rng(4)
    cloth = _background(rng, (1280, 720))
    view = random_camera(rng, SceneStyle(fill=(0.8, 0.85), turn_max_deg=6))
    shot = render_table([], view, rng, SceneStyle.clean(), pictures=marker_pictures(prof), background=cloth).image
    return prof, view, shot, calibrate(shot, prof), rng


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_dark_arm_on_a_dark_cloth_is_seen_by_its_hue(blue_cloth, seat):
    prof, view, shot, cal, rng = blue_cloth
    hands = HandWatcher(cal, prof, shot)
    frame = render_table([], view, rng, SceneStyle.clean(), background=shot).image   # the light of another moment
    assert hands.update(frame, 0.0) == []
    arm = draw_arm(frame, view, seat, reach=0.8, tone=2)
    assert int(np.abs(arm.astype(int) - frame.astype(int)).max(axis=2).max()) < 40   # hardly differs
    assert hands.update(arm, 0.1) == [seat]


def test_a_reach_long_before_a_card_landed_is_not_its_hand(rig):
    """A card laid by a hand nobody saw, 0.37 s after another seat's reach ended: asked
    (no seat), not credited to the earlier reach."""
    prof, view, shot, cal = rig
    hands = HandWatcher(cal, prof, shot)
    for i in range(4):
        hands.update(draw_arm(shot, view, 1, tone=1), i / 30)
    for i in range(4, 20):
        hands.update(shot, i / 30)
    assert hands.recent(4 / 30) == [1]
    assert hands.recent(15 / 30) == []
