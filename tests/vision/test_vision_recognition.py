"""Detection and recognition on rendered scenes: right or silent, never confidently wrong."""

from __future__ import annotations

import numpy as np
import pytest

from vision.model import CardModel
from vision.recognise import CardRecogniser
from vision.synth.evaluate import score_scene
from vision.synth.scene import Placement, SceneStyle, random_camera, random_scene, render_table

# scene seeds of the tests: 2_000_000.. (disjoint from tuning 0..999 and the report's 1_000_000..)
SEEDS = range(2_000_000, 2_000_016)


@pytest.fixture(scope="module")
def recognisers(model_dirs):
    return {deck: CardRecogniser(CardModel.load(path)) for deck, path in model_dirs.items()}


def test_cards_in_varied_scenes_are_named_right(recognisers):
    right = wrong = visible = silent = 0
    for seed in SEEDS:
        deck = "pass-pass" if seed % 2 else "passe-eclair"
        scene = random_scene(seed, deck, 1 + seed % 8)
        score = score_scene(scene.cards, recognisers[deck].recognise(scene.image), seed)
        right, wrong = right + score.right, wrong + score.wrong
        visible += score.visible
        silent += score.abstained_visible + score.missed_visible
    assert wrong == 0
    assert visible > 40 and silent <= 0.05 * visible
    assert right >= visible - silent


def test_corners_land_on_the_card(recognisers):
    scene = random_scene(2_000_101, "pass-pass", 3, SceneStyle.clean())
    matches = recognisers["pass-pass"].recognise(scene.image)
    for truth in scene.cards:
        m = min(matches, key=lambda m: np.linalg.norm(m.corners.mean(0) - truth.corners.mean(0)))
        assert m.card == truth.card
        # same corners up to where the count starts (the face may be upside down)
        err = min(np.abs(np.roll(m.corners, k, axis=0) - truth.corners).max() for k in range(4))
        assert err < 2.5


def test_card_not_in_the_deck_is_unknown(recognisers):
    cam = random_camera(np.random.default_rng(5), SceneStyle(tilt_max=0.1))
    for k, foreign in enumerate(["foreign-0", "foreign-1", "foreign-2"]):
        lay = [Placement(foreign, (250, 220), 20 + k * 40), Placement("green-4", (550, 220), 70)]
        scene = render_table(lay, cam, np.random.default_rng(k), SceneStyle.clean())
        matches = recognisers["pass-pass"].recognise(scene.image)
        near = min(matches, key=lambda m: np.linalg.norm(m.corners.mean(0) - scene.cards[0].corners.mean(0)))
        assert near.card is None and near.best is not None   # seen, but not named
        assert "green-4" in [m.card for m in matches]


@pytest.mark.parametrize("in_play_only", [False, True])
def test_a_deck_with_no_card_enrolled_yet_sees_cards_and_names_none(in_play_only):
    # a deck enrolled over several evenings starts empty: its recogniser was not even built before
    # (2026-11-28: numpy could not shape an empty bank of templates)
    scene = random_scene(2_000_102, "pass-pass", 3, SceneStyle.clean())
    matches = CardRecogniser(CardModel("pass-pass"), in_play_only=in_play_only).recognise(scene.image)
    assert len(matches) == 3 and all(m.card is None for m in matches)


def test_card_of_the_other_deck_is_unknown(recognisers):
    cam = random_camera(np.random.default_rng(6), SceneStyle(tilt_max=0.1))
    scene = render_table([Placement("leon-marlon", (400, 220), 30)], cam, np.random.default_rng(2), SceneStyle.clean())
    matches = recognisers["pass-pass"].recognise(scene.image)
    assert len(matches) == 1 and matches[0].card is None


def test_top_card_of_an_overlap_is_named(recognisers):
    cam = random_camera(np.random.default_rng(8), SceneStyle(tilt_max=0.15))
    lay = [Placement("purple-6", (380, 220), 0), Placement("blue-9", (420, 250), 25)]
    scene = render_table(lay, cam, np.random.default_rng(3), SceneStyle.clean())
    named = [m.card for m in recognisers["pass-pass"].recognise(scene.image) if m.card]
    assert "blue-9" in named
    assert "purple-5" not in named and "purple-7" not in named
