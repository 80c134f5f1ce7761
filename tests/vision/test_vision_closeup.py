"""Close-up enrolment photos on any table, the refusals that say why, cards on white
tables, and --partial enrolment."""

from __future__ import annotations

import argparse
import json
import shutil

import cv2
import numpy as np
import pytest

from vision import background, cli
from vision.background import TableBackground
from vision.decks import deck_card_ids
from vision.detect import CardDetector
from vision.enrol import EnrolmentError, enrol_frame, find_photo_card
from vision.model import CardModel
from vision.recognise import CardRecogniser
from vision.synth import effects
from vision.synth.scene import Placement, SceneStyle, random_camera, render_table
from vision.synth2.faces import DESIGNS
from vision.synth2.render import calibration_shot, enrolment_photo, table_scene

WHITE = (228, 232, 235)


def area_ratio(found: np.ndarray, truth: np.ndarray) -> float:
    return cv2.contourArea(np.asarray(found, np.float32)) / cv2.contourArea(np.asarray(truth, np.float32))


@pytest.fixture(scope="module")
def close_white():
    """A camera close over a white table: a card fills about a tenth of the frame."""
    cam = random_camera(np.random.default_rng(1), SceneStyle(fill=(2.0, 2.0), tilt_max=0.1, turn_max_deg=5))
    background = np.full((720, 1280, 3), WHITE, np.uint8)

    def photo(placements):
        return render_table(placements, cam, np.random.default_rng(1), SceneStyle.clean(), background=background)

    return photo


def test_close_up_on_light_wood_enrols_with_the_right_outline(tmp_path):
    photo = enrolment_photo("green-7", "dark", 0, area=(0.3, 0.4), size=(1280, 960), kind="light-wood",
                            underexposed=False)
    work, corners = find_photo_card(photo.image)
    assert work.shape[:2] == (960, 1280)
    assert abs(area_ratio(corners, photo.corners) - 1) < 0.03
    model = enrol_frame(photo.image, "green-7", tmp_path / "m", deck="pass-pass")
    assert model.cards == ["green-7"]


def test_underexposed_and_huge_photos_are_brought_back(close_white):
    one = close_white([Placement("dog", (400, 225), 10)]).image
    truth_area = None
    for image in ((one * 0.22).astype(np.uint8), cv2.resize(one, (4032, 2268), interpolation=cv2.INTER_LINEAR)):
        work, corners = find_photo_card(image)
        assert work.shape[:2] == (720, 1280) and int(work.max()) >= 200
        area = cv2.contourArea(corners.astype(np.float32))
        truth_area = truth_area or area
        assert abs(area / truth_area - 1) < 0.03


def test_two_cards_blur_cut_and_glare_are_refused_with_their_reason(close_white):
    two = close_white([Placement("dog", (330, 225), 10), Placement("michi", (470, 225), -5)]).image
    with pytest.raises(EnrolmentError, match="2 cards found in two.jpg") as e:
        find_photo_card(two, "two.jpg")
    assert "une seule carte" in e.value.fr
    one = close_white([Placement("dog", (400, 225), 10)]).image
    find_photo_card(one)   # the same photo, sharp and whole, is fine
    with pytest.raises(EnrolmentError, match="blurred") as e:
        find_photo_card(cv2.GaussianBlur(one, (0, 0), 2.5))
    assert "floue" in e.value.fr
    for cut in (one[250:, 400:1000], one[300:, 400:1000]):
        with pytest.raises(EnrolmentError, match="cut by the edge") as e:
            find_photo_card(np.ascontiguousarray(cut))
        assert "coupée par le bord" in e.value.fr
    shiny = effects.glare(one, np.random.default_rng(0), centre=(670, 320), radius=60, intensity=200)
    with pytest.raises(EnrolmentError, match="reflection") as e:
        find_photo_card(shiny)
    assert "reflet" in e.value.fr


def test_card_on_a_white_table_is_found_with_and_without_the_calibration_shot():
    seed = 3_000_000          # table kind KINDS[seed % 7] == "white"
    scene = table_scene(seed, "pass-pass", "dark", 3)
    assert scene.kind == "white"
    shot = calibration_shot(seed, "pass-pass", "dark", 3)
    with_bg = CardDetector(background=TableBackground.from_shot(shot, table_to_image=scene.table_to_image))
    for detector in (CardDetector(), with_bg):
        quads = [q for q in detector.detect(scene.image) if q.complete]
        for truth in scene.cards:
            near = min(quads, key=lambda q: np.linalg.norm(q.corners.mean(0) - truth.corners.mean(0)))
            assert np.linalg.norm(near.corners.mean(0) - truth.corners.mean(0)) < 3
            assert abs(area_ratio(near.corners, truth.corners) - 1) < 0.06


def test_cards_on_a_striped_table_are_found_where_the_stripes_go_calm(monkeypatch):
    # a development scene (seed 137, never an evaluation one): six of its seven cards lie
    # fully in view on a cloth striped like the card's print; none was found before. The calm test
    # alone: with the hidden grain (background.HIDDEN) yellow-1's outline takes in its drop shadow
    # over the stripes (its centre over 4 px off; all six are still named)
    monkeypatch.setattr(background, "HIDDEN", False)
    seed = 137
    scene = table_scene(seed, "pass-pass", "dark", 8)
    assert scene.kind == "patterned"
    shot = calibration_shot(seed, "pass-pass", "dark", 8)
    detector = CardDetector(background=TableBackground.from_shot(shot, table_to_image=scene.table_to_image))
    quads = [q for q in detector.detect(scene.image) if q.complete]
    visible = [t for t in scene.cards if t.fully_visible]
    found = 0
    for truth in visible:
        near = min(quads, key=lambda q: np.linalg.norm(q.corners.mean(0) - truth.corners.mean(0)), default=None)
        found += near is not None and np.linalg.norm(near.corners.mean(0) - truth.corners.mean(0)) < 4 \
            and abs(area_ratio(near.corners, truth.corners) - 1) < 0.08
    assert len(visible) >= 5 and found >= len(visible) - 1


def run(argv):
    parser = argparse.ArgumentParser(prog="passetable")
    cli.add_subcommands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_partial_enrolment_names_only_the_enrolled_cards(photo_dirs, tmp_path, capsys):
    first, second = tmp_path / "evening1", tmp_path / "evening2"
    first.mkdir()
    second.mkdir()
    for card in ("dog", "michi"):
        shutil.copy(photo_dirs["passe-eclair"] / f"{card}.png", first)
    shutil.copy(photo_dirs["passe-eclair"] / "leon-marlon.png", second)
    out = tmp_path / "model"
    assert run(["enroll", "--deck", "passe-eclair", "--images", str(first), "--out", str(out)]) == 2
    assert "missing" in capsys.readouterr().err
    assert run(["enroll", "--deck", "passe-eclair", "--images", str(first), "--out", str(out), "--partial"]) == 0
    assert "2 of the 22 cards" in capsys.readouterr().out
    assert run(["enroll", "--deck", "passe-eclair", "--images", str(second), "--out", str(out), "--partial"]) == 0
    assert "3 of the 22 cards" in capsys.readouterr().out
    assert CardModel.load(out).cards == ["dog", "michi", "leon-marlon"]
    cam = random_camera(np.random.default_rng(4), SceneStyle(tilt_max=0.1))
    lay = [Placement("dog", (200, 220), 15), Placement("fabi-rocce", (420, 220), 60), Placement("michi", (640, 220), 5)]
    scene = render_table(lay, cam, np.random.default_rng(4), SceneStyle.clean())
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), scene.image)
    assert run(["recognize", "--model", str(out), str(path), "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    named = sorted(c["card"] for c in cards if c["card"])
    assert named == ["dog", "michi"] and len(cards) == 3    # fabi-rocce seen, not named
    rec = CardRecogniser(CardModel.load(out))
    assert sorted(m.card for m in rec.recognise(scene.image) if m.card) == ["dog", "michi"]


def test_watcher_with_the_empty_table_sees_a_card_on_white_cloth(model_dirs, profile):
    from vision.calibration import Calibration
    from vision.pipeline import TableWatcher
    from vision.sources import Frame

    cam = random_camera(np.random.default_rng(2), SceneStyle(fill=(0.8, 0.85), turn_max_deg=6))
    cal = Calibration(np.linalg.inv(cam), (1280, 720))
    cloth = np.full((720, 1280, 3), WHITE, np.uint8)
    steady = SceneStyle(gradient_max=0, cast_max=0, glare_prob=0, blur_max=0.3, noise_max=2, jpeg_quality=(90, 95),
                        overlap_prob=0, hand_prob=0, motion_blur_prob=0)   # the room's light does not change
    empty = render_table([], cam, np.random.default_rng(0), steady, background=cloth).image
    rec = CardRecogniser(CardModel.load(model_dirs["pass-pass"]))
    w = TableWatcher(rec, cal, profile, appear_frames=2, vanish_frames=2, empty_table=empty)
    assert rec.detector.background is not None
    lay = [Placement("blue-8", (400, 225), 70)]
    seen = []
    for k in range(3):
        img = render_table(lay, cam, np.random.default_rng(k + 1), steady, background=cloth).image
        seen += [(o.kind, o.data["card"], o.data["zone"]) for o in w.process(Frame(img, k / 30, k))]
    assert seen == [("card_seen", "blue-8", "trick")]


@pytest.mark.parametrize("card, design, seed", [("blue-10", "dark", 4_000_021), ("rocce-marlon", "dark", 4_000_009),
                                                ("green-10", "dark", 4_700_033)])
def test_a_dark_border_photographed_at_a_slant_is_enrolled_to_the_cards_edge(card, design, seed):
    """Held at a slant, the border is 18 px wide on the far side and 48 px on the near one:
    looked for side by side the outline stayed on the printed field (84 % of the card)."""
    from vision.enrol import card_in_photo

    photo = enrolment_photo(card, design, seed)
    assert abs(area_ratio(card_in_photo(photo.image), photo.corners) - 1) < 0.03


@pytest.mark.parametrize("card, seed", [("green-7", 4_000_130), ("blue-7", 4_001_118), ("yellow-9", 4_000_144)])
def test_a_full_bleed_card_is_not_grown_into_its_shadow(card, seed):
    """No printed border: the card's soft shadow all round is not taken for one."""
    from vision.enrol import card_in_photo

    photo = enrolment_photo(card, "bleed", seed)
    assert abs(area_ratio(card_in_photo(photo.image), photo.corners) - 1) < 0.03


@pytest.mark.parametrize("card, seed", [("purple-8", 4_000_107), ("leon-fabi", 4_000_102)])
def test_a_corner_grabcut_lost_to_the_table_is_found_where_the_sides_cross(card, seed, monkeypatch):
    """The style-2 evaluation's enrolment photos of two full-bleed cards: GrabCut's outline lost a
    rounded corner to the table, and the lines fitted to the four sides cross 6-8 px from it (at
    GrabCut's 360 px). Held to 6 px, the corner stayed: faces enrolled 2.6 and 1.7 px off at 63x88."""
    from vision import closeup
    from vision.enrol import card_in_photo

    photo = enrolment_photo(card, "bleed", seed)
    assert corner_error_on_face(card_in_photo(photo.image), photo.corners) < 0.6
    monkeypatch.setattr(closeup, "REFINE_REACH", 0.0)
    assert corner_error_on_face(card_in_photo(photo.image), photo.corners) > 1.5


def corner_error_on_face(found: np.ndarray, truth: np.ndarray) -> float:
    """The largest corner error of ``found`` against ``truth``, in px of the face rectified at 63x88."""
    face = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32)
    to_face = cv2.getPerspectiveTransform(np.asarray(truth, np.float32), face)
    f = cv2.perspectiveTransform(np.asarray(found, np.float32).reshape(-1, 1, 2), to_face).reshape(-1, 2)
    orders = [np.roll(f, k, axis=0)[::s] for k in range(4) for s in (1, -1)]
    return min(float(np.linalg.norm(g - face, axis=1).max()) for g in orders)


def test_a_border_is_not_read_into_a_shadow_on_two_sides_or_a_patterned_table():
    from vision.border import outer_edge_in_perspective

    card = np.array([[136.5, 104.5], [262.5, 104.5], [262.5, 280.5], [136.5, 280.5]], np.float32)
    shadowed = np.full((400, 400, 3), (150, 170, 185), np.uint8)            # light wood
    cv2.rectangle(shadowed, (141, 110), (268, 287), (70, 80, 90), -1)       # a hard shadow right and below
    cv2.rectangle(shadowed, (137, 105), (262, 280), (235, 235, 235), -1)    # a white full-bleed card
    assert outer_edge_in_perspective(shadowed, card) is None
    rng = np.random.default_rng(3)
    checks = np.kron(rng.integers(0, 2, (50, 50)), np.ones((8, 8)))[..., None] * np.array([120, 90, 60]) + 40
    patterned = checks.astype(np.uint8)                                      # a chequered cloth
    cv2.rectangle(patterned, (137, 105), (262, 280), (235, 235, 235), -1)
    assert outer_edge_in_perspective(patterned, card) is None


def test_a_card_whose_edge_is_lost_in_the_cloth_is_enrolled_whole_not_the_shirt_printed_on_it():
    """A dark photo of a green-striped full-bleed card on green cloth: the card's own edge is
    barely there, the footballer's orange shirt is a sharp card-shaped outline. The shirt
    lies on something twice its size and more that is not the table, so the card is looked
    for around it (it used to be enrolled as the card: the card was then named as a look-alike)."""
    seed = 4_000_000 + deck_card_ids("passe-eclair").index("fabi-leon") + 100 * DESIGNS.index("bleed")
    photo = enrolment_photo("fabi-leon", "bleed", seed)   # the first photo tests/bench/eval_vision_style2.py takes
    work, corners = find_photo_card(photo.image, "fabi-leon.jpg")
    share = cv2.contourArea(np.asarray(corners, np.float32)) / (work.shape[0] * work.shape[1])
    assert share == pytest.approx(photo.area_fraction, rel=0.15)
