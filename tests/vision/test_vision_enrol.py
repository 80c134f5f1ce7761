"""Enrolment: one photo per face; anything missing, extra or unreadable is named."""

from __future__ import annotations

import shutil

import cv2
import numpy as np
import pytest

from vision.enrol import EnrolmentError, enrol_directory, enrol_frame, enrolment_status
from vision.model import CardModel, ModelError
from vision.recognise import CardRecogniser
from vision.synth.scene import Placement, SceneStyle, card_photo, random_camera, render_table


@pytest.fixture
def photos(photo_dirs, tmp_path):
    return shutil.copytree(photo_dirs["passe-eclair"], tmp_path / "photos")


def test_missing_photo_is_named(photos, tmp_path):
    (photos / "rocce-fabi.png").unlink()
    with pytest.raises(EnrolmentError) as e:
        enrol_directory("passe-eclair", photos, tmp_path / "m")
    assert "rocce-fabi.png" in e.value.en and "manquante" in e.value.fr
    assert not (tmp_path / "m" / "model.json").exists()


def test_extra_photo_is_named(photos, tmp_path):
    shutil.copy(photos / "dog.png", photos / "cat.png")
    with pytest.raises(EnrolmentError, match="cat.png"):
        enrol_directory("passe-eclair", photos, tmp_path / "m")


def test_unreadable_photo_is_named(photos, tmp_path):
    (photos / "michi.png").write_bytes(b"not an image")
    with pytest.raises(EnrolmentError, match="michi.png"):
        enrol_directory("passe-eclair", photos, tmp_path / "m")


def test_photo_with_two_cards_or_none_is_refused(photos, tmp_path):
    cam = random_camera(np.random.default_rng(1), SceneStyle.clean())
    two = render_table([Placement("dog", (250, 220)), Placement("michi", (550, 220))], cam,
                       np.random.default_rng(1), SceneStyle.clean()).image
    cv2.imwrite(str(photos / "dog.png"), two)
    with pytest.raises(EnrolmentError, match="2 cards found in dog.png"):
        enrol_directory("passe-eclair", photos, tmp_path / "m")
    cv2.imwrite(str(photos / "dog.png"), np.full((720, 1280, 3), 60, np.uint8))
    with pytest.raises(EnrolmentError, match="no whole card found in dog.png"):
        enrol_directory("passe-eclair", photos, tmp_path / "m")


def test_unknown_deck_and_missing_folder(tmp_path):
    with pytest.raises(EnrolmentError, match="unknown deck"):
        enrol_directory("tarot", tmp_path, tmp_path / "m")
    with pytest.raises(EnrolmentError, match="does not exist"):
        enrol_directory("pass-pass", tmp_path / "nope", tmp_path / "m")


def test_enrol_frame_builds_a_model_card_by_card(tmp_path):
    model_dir = tmp_path / "live"
    with pytest.raises(EnrolmentError, match="say which deck"):
        enrol_frame(card_photo("dog", 1), "dog", model_dir)
    enrol_frame(card_photo("dog", 1), "dog", model_dir, deck="passe-eclair")
    status = enrolment_status(model_dir, "passe-eclair")
    assert status["next"] == "leon-marlon" and sum(c["enrolled"] for c in status["cards"]) == 1
    model = enrol_frame(card_photo("michi", 2), "michi", model_dir)
    assert model.cards == ["dog", "michi"] and CardModel.load(model_dir).cards == ["dog", "michi"]
    with pytest.raises(EnrolmentError, match="holds the passe-eclair deck"):
        enrolment_status(model_dir, "pass-pass")
    assert enrolment_status(tmp_path / "none", "pass-pass")["next"] == "purple-1"
    with pytest.raises(EnrolmentError, match="not a card of the passe-eclair deck"):
        enrol_frame(card_photo("blue-3", 3), "blue-3", model_dir)
    # the two-card model already tells them apart
    rec = CardRecogniser(CardModel.load(model_dir))
    assert [m.card for m in rec.recognise(card_photo("michi", 9))] == ["michi"]


def test_the_status_says_which_enrolled_cards_wait_for_more_of_the_deck(photo_dirs, tmp_path):
    """Two purple cards enrolled: a card not enrolled may look like them (another purple, another 1
    or 2), so the page must say they are not named yet; with every purple and every 1 and 2 enrolled
    the faces of the others can be pieced together and nothing is held back."""
    model_dir = tmp_path / "model"
    for card in ("purple-1", "purple-2"):
        enrol_frame(cv2.imread(str(photo_dirs["pass-pass"] / f"{card}.png")), card, model_dir, deck="pass-pass")
    held = {c["card"] for c in enrolment_status(model_dir, "pass-pass")["cards"] if c["held_back"]}
    assert held == {"purple-1", "purple-2"}
    for colour in ("purple", "blue", "green", "yellow"):
        for value in (1, 2):
            if colour != "purple" or value > 2:
                card = f"{colour}-{value}"
                enrol_frame(cv2.imread(str(photo_dirs["pass-pass"] / f"{card}.png")), card, model_dir)
    for value in range(3, 13):
        enrol_frame(cv2.imread(str(photo_dirs["pass-pass"] / f"purple-{value}.png")), f"purple-{value}", model_dir)
    status = enrolment_status(model_dir, "pass-pass")
    assert sum(c["enrolled"] for c in status["cards"]) == 18
    assert not any(c["held_back"] for c in status["cards"])


def test_broken_model_dir_is_reported(tmp_path, model_dirs):
    with pytest.raises(ModelError, match="model.json is missing"):
        CardModel.load(tmp_path)
    broken = shutil.copytree(model_dirs["pass-pass"], tmp_path / "broken")
    np.save(broken / "templates.npy", np.zeros((3, 5), np.float32))
    with pytest.raises(ModelError, match="does not match"):
        CardModel.load(broken)
    (broken / "model.json").write_text("{not json")
    with pytest.raises(ModelError, match="cannot read"):
        CardModel.load(broken)


def test_a_model_enrolled_by_an_earlier_descriptor_gets_its_templates_made_again(tmp_path, model_dirs):
    import json

    old = shutil.copytree(model_dirs["pass-pass"], tmp_path / "old")
    meta = json.loads((old / "model.json").read_text())
    del meta["descriptor"]                               # as written before 2026-11-27
    (old / "model.json").write_text(json.dumps(meta))
    fresh = CardModel.load(model_dirs["pass-pass"])
    np.save(old / "templates.npy", np.zeros_like(fresh.templates))   # what the old descriptor made: unusable now
    model = CardModel.load(old)
    assert np.allclose(model.templates, fresh.templates, atol=1e-6)
    (old / "faces" / f"{model.cards[0]}.png").unlink()   # a face lost: nothing to make its template from
    with pytest.raises(ModelError, match="enrol the deck again") as e:
        CardModel.load(old)
    assert "refaire l'apprentissage" in e.value.fr
