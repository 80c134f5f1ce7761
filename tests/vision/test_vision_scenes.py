"""The scene renderer: seeds decide everything, and the truth says what can be seen."""

from __future__ import annotations

import numpy as np

from vision.decks import deck_card_ids
from vision.synth.faces import face_kinds, render_face
from vision.synth.scene import Placement, SceneStyle, random_camera, random_scene, render_table


def test_every_face_is_drawn_and_faces_differ():
    faces = {k: render_face(k) for k in face_kinds()}
    assert len(faces) == 48 + 22 + 3
    a, b = faces["purple-10"].astype(int), faces["purple-11"].astype(int)
    assert np.abs(a - b).sum() > 0
    assert not np.array_equal(faces["leon-marlon"], faces["marlon-leon"])


def test_same_seed_same_scene_and_other_seed_other_scene():
    one, again = random_scene(3, "pass-pass", 4), random_scene(3, "pass-pass", 4)
    other = random_scene(4, "pass-pass", 4)
    assert np.array_equal(one.image, again.image)
    assert [c.card for c in one.cards] == [c.card for c in again.cards]
    assert not np.array_equal(one.image, other.image)
    assert all(c.card in deck_card_ids("pass-pass") for c in one.cards)


def test_truth_marks_overlap_and_hand_as_not_fully_visible():
    cam = random_camera(np.random.default_rng(0), SceneStyle(tilt_max=0, turn_max_deg=0))
    under = Placement("blue-3", (300, 200), 0)
    over = Placement("green-7", (330, 230), 10)        # laid on top, overlapping
    alone = Placement("yellow-1", (600, 200), 45)
    scene = render_table([under, over, alone], cam, np.random.default_rng(1), SceneStyle.clean())
    vis = {c.card: c for c in scene.cards}
    assert not vis["blue-3"].fully_visible and 0.2 < vis["blue-3"].visible_fraction < 0.9
    assert vis["green-7"].fully_visible and vis["yellow-1"].fully_visible
    handed = render_table([alone], cam, np.random.default_rng(1), SceneStyle.clean(), hand_over=0, hand_reach=0.4)
    assert handed.cards[0].hand_covered and not handed.cards[0].fully_visible
