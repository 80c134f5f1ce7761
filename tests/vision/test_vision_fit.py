"""A whole outline a few pixels off, and a deck printed with a dark border.

Issue 12's second style, development scene 117 (never an evaluation one): a dark-bordered
purple 6 lies alone on a photographed table; the detector's outline stops 9 px short of one
side (the border lost in its own shadow), so the card read 0.61 and went unnamed. Fitted
to its closest face in two ECC rounds, it reads like its true outline. A guessed outline a few
pixels off that reads like no face is fitted to the deck's mean face; a place whose first guess
names nothing is read with its next guess; a ragged merged outline is also simplified coarsely."""

from __future__ import annotations

import numpy as np
import pytest

from tests.bench.eval_vision_style2 import enrol_cards
from vision import features, partial, recognise
from vision.background import TableBackground
from vision.detect import CardDetector, snap_to_edges
from vision.enrol import EnrolmentError, describe_photo
from vision.model import CardModel
from vision.recognise import CardRecogniser
from vision.refine import fit_to_face
from vision.synth2.render import calibration_shot, enrolment_photo, table_scene

SEED = 117
CARDS = ["purple-8", "green-2", "blue-9", "purple-11", "green-5", "blue-7", "green-4", "purple-6",
         "purple-5", "purple-9", "blue-6", "green-6"]   # the scene's cards and some look-alikes


def enrol(cards, design):
    model = CardModel("pass-pass")
    for i, card in enumerate(cards):
        for attempt in range(6):   # a refused photo is retaken, as an owner would
            try:
                model.set_card(card, *describe_photo(enrolment_photo(card, design, 4_100_000 + 50 * i + attempt).image))
                break
            except EnrolmentError:
                continue
    assert len(model.cards) == len(cards)
    return model


@pytest.fixture(scope="module")
def dark_border_model():
    return enrol(CARDS, "dark")


def corner_error(found, truth):
    return min(float(np.abs(np.roll(found, k, axis=0) - truth).max()) for k in range(4))


def test_a_dark_bordered_deck_leaves_out_a_wider_rim_and_a_plain_one_does_not(dark_border_model, model_dirs):
    assert features.deck_inset(dark_border_model.faces.values()) == features.BORDERED_INSET
    assert features.deck_inset(CardModel.load(model_dirs["pass-pass"]).faces.values()) == features.INSET
    assert features.deck_inset(enrol(CARDS[:6], "bleed").faces.values()) == features.INSET


def test_an_outline_cut_short_by_a_borders_shadow_is_fitted_and_named(dark_border_model):
    scene = table_scene(SEED, "pass-pass", "dark", 8)
    truth = next(t for t in scene.cards if t.card == "purple-6")
    shot = calibration_shot(SEED, "pass-pass", "dark", 8)
    detector = CardDetector(background=TableBackground.from_shot(shot, table_to_image=scene.table_to_image))
    rec = CardRecogniser(dark_border_model, detector, in_play_only=True)   # these faces only
    outline = min((q for q in detector.detect(scene.image) if q.complete),
                  key=lambda q: np.linalg.norm(q.corners.mean(0) - truth.corners.mean(0)))
    assert corner_error(outline.corners, truth.corners) > 6       # the detector's outline: a side short
    first = rec.identify(scene.image, outline.corners)
    assert first.card is None and first.best == "purple-6"
    once = fit_to_face(scene.image, first.corners, dark_border_model.faces["purple-6"])
    twice = fit_to_face(scene.image, first.corners, dark_border_model.faces["purple-6"], rounds=2)
    assert corner_error(twice, truth.corners) < corner_error(once, truth.corners)
    named = [m for m in rec.recognise(scene.image) if m.card == "purple-6"]
    assert len(named) == 1 and named[0].complete
    assert corner_error(named[0].corners, truth.corners) < 3



@pytest.fixture(scope="module")
def dark_deck():
    # the whole deck, enrolled as the style-2 evaluation enrols it: the mean face is the deck's
    return enrol_cards("pass-pass", "dark")


def read_dark_scene(deck, seed, card):
    """Development scene ``seed`` of the dark-bordered Pass Pass deck, a recogniser with its empty
    table, and ``card``'s truth there."""
    count = 1 + seed % 10   # cards in the scene
    scene = table_scene(seed, "pass-pass", "dark", count)
    shot = calibration_shot(seed, "pass-pass", "dark", count)
    rec = CardRecogniser(deck, CardDetector(background=TableBackground.from_shot(
        shot, table_to_image=scene.table_to_image)))
    return scene, rec, next(t for t in scene.cards if t.card == card)


@pytest.mark.parametrize(("seed", "card"), [(121, "green-8"), (169, "green-10"), (189, "purple-9")])
def test_a_guess_that_reads_like_no_face_is_fitted_to_the_decks_mean_face(dark_deck, seed, card, monkeypatch):
    # development scenes: the card lies over another, their outlines merged; its guess is 3-12 px
    # off and read 0.25-0.31, as another card. Since 2026-11 such guesses are also snapped past
    # their shadow and fitted to faces they read 0.3 like: held back here, as the mean face was built
    monkeypatch.setattr(recognise, "snap_past_shadow", snap_to_edges)
    monkeypatch.setattr(recognise, "GUESS_FIT_MIN_CONFIDENCE", recognise.FIT_MIN_CONFIDENCE)
    scene, rec, truth = read_dark_scene(dark_deck, seed, card)
    named = [m for m in rec.recognise(scene.image) if m.card == card]
    assert len(named) == 1 and not named[0].complete
    assert corner_error(named[0].corners, truth.corners) < 3
    rec._mean_face = None   # without it the guess stays unnamed
    assert card not in [m.card for m in rec.recognise(scene.image)]


@pytest.mark.parametrize(("seed", "card"), [(117, "purple-11"), (309, "green-5")])
def test_a_place_whose_best_ranked_guess_names_nothing_is_tried_with_the_next_guess(dark_deck, seed, card):
    # development scenes: the card lies over another; the guess that ranked first at its place named
    # nothing, and until 2026-11 no other guess was read there
    scene, rec, truth = read_dark_scene(dark_deck, seed, card)
    named = [m for m in rec.recognise(scene.image) if m.card == card]
    assert len(named) == 1 and not named[0].complete
    assert corner_error(named[0].corners, truth.corners) < 3
    assert all(m.card is None or m.card in {t.card for t in scene.cards} for m in rec.recognise(scene.image))


def test_a_card_on_a_ragged_merged_outline_is_guessed_from_a_coarser_polygon(dark_deck, monkeypatch):
    # development scene 229, a photographed brick table: purple-3 lies over green-11, their difference
    # from the empty table is ragged, and simplified finely it showed no right-angled corner
    seed, card = 229, "purple-3"
    scene, rec, truth = read_dark_scene(dark_deck, seed, card)
    named = [m for m in rec.recognise(scene.image) if m.card == card]
    assert len(named) == 1 and not named[0].complete
    assert corner_error(named[0].corners, truth.corners) < 3
    monkeypatch.setattr(partial, "SIMPLIFY", partial.SIMPLIFY[:1])   # the finest polygon alone
    assert card not in [m.card for m in rec.recognise(scene.image)]


@pytest.mark.parametrize(("seed", "card"), [(105, "blue-5"), (157, "yellow-3")])
def test_a_guess_lying_on_the_cards_shadow_is_snapped_past_it(dark_deck, seed, card, monkeypatch):
    # development scenes: the difference from the empty table took in the card's shadow, so the guess
    # made from it lay outside the card, further than the paper's edge is looked for
    scene, rec, truth = read_dark_scene(dark_deck, seed, card)
    named = [m for m in rec.recognise(scene.image) if m.card == card]
    assert len(named) == 1 and not named[0].complete
    assert corner_error(named[0].corners, truth.corners) < 3
    monkeypatch.setattr(recognise, "snap_past_shadow", snap_to_edges)   # the paper's edge alone
    assert card not in [m.card for m in rec.recognise(scene.image)]


def test_a_guess_reading_below_a_half_is_fitted_to_its_closest_faces(dark_deck, monkeypatch):
    # development scene 149: purple-12's guess, held to the paper's edge, reads under 0.5 as a look-alike
    seed, card = 149, "purple-12"
    scene, rec, truth = read_dark_scene(dark_deck, seed, card)
    monkeypatch.setattr(recognise, "snap_past_shadow", snap_to_edges)
    named = [m for m in rec.recognise(scene.image) if m.card == card]
    assert len(named) == 1 and corner_error(named[0].corners, truth.corners) < 3
    monkeypatch.setattr(recognise, "GUESS_FIT_MIN_CONFIDENCE", recognise.FIT_MIN_CONFIDENCE)
    assert card not in [m.card for m in rec.recognise(scene.image)]
