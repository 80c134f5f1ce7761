"""A whole outline a few pixels off, and a deck printed with a dark border.

Issue 12's second style, development scene 117 (never an evaluation one): a dark-bordered
purple 6 lies alone on a photographed table; the detector's outline stops 9 px short of one
side (the border lost in its own shadow), so the card read 0.61 and went unnamed. Fitted
to its closest face in two ECC rounds, it reads like its true outline. A guessed outline a few
pixels off that reads like no face is fitted to the deck's mean face; a place whose first guess
names nothing is read with its next guess; a ragged merged outline is also simplified coarsely."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.bench.eval_vision_style2 import deck_for, design_for, enrol_cards
from tests.vision.style2 import reading_where
from vision import background, features, partial, recognise, rules
from vision.background import TableBackground
from vision.border import border_given_back, printed_band
from vision.detect import CardDetector, snap_to_edges
from vision.enrol import EnrolmentError, describe_photo
from vision.model import CardModel
from vision.recognise import CardRecogniser
from vision.refine import fit_to_face
from vision.synth2.faces import draw_face
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


def test_a_full_bleed_deck_enrolled_in_part_is_not_taken_for_a_bordered_one():
    # full-bleed art dark to the edge: these five faces' rims all read under BORDER_DARK (0.44-0.48 of
    # their paper), as 37 % of the deck's faces do. Left with only such faces (enroll --partial), the deck
    # counted as bordered until 2026-11-29 (80 % of its faces dark-rimmed) and the recogniser left out a
    # wider rim than the whole deck's: a partial Passe Eclair model named rocce-vanessa as rocce-leon
    faces = enrol_cards("pass-pass", "bleed", ["blue-11", "blue-9", "purple-12", "blue-7", "green-7"]).faces
    assert all(features.dark_border(f) for f in faces.values())
    assert not features.bordered_deck(faces.values())
    assert features.deck_inset(faces.values()) == features.INSET
    given = border_given_back(faces)   # and no face is given a border it does not have
    assert all(given[c] is faces[c] for c in faces)
    # a printed border is far darker: the dark-bordered deck's faces read under PRINTED_BORDER
    dark = enrol_cards("pass-pass", "dark", ["blue-11", "blue-9", "purple-12"]).faces
    assert all(features.rim_darkness(f) < features.PRINTED_BORDER for f in dark.values())
    assert features.bordered_deck(dark.values())


def _purple_6_cut_short():
    """Scene 117, the purple 6's truth, the detector (its empty table known) and its outline, a side short."""
    scene = table_scene(SEED, "pass-pass", "dark", 8)
    truth = next(t for t in scene.cards if t.card == "purple-6")
    shot = calibration_shot(SEED, "pass-pass", "dark", 8)
    detector = CardDetector(background=TableBackground.from_shot(shot, table_to_image=scene.table_to_image))
    outline = min((q for q in detector.detect(scene.image) if q.complete),
                  key=lambda q: np.linalg.norm(q.corners.mean(0) - truth.corners.mean(0)))
    return scene, truth, detector, outline


def test_an_outline_cut_short_by_a_borders_shadow_is_fitted_and_named(dark_border_model):
    scene, truth, detector, outline = _purple_6_cut_short()
    rec = CardRecogniser(dark_border_model, detector, in_play_only=True)   # these faces only
    assert corner_error(outline.corners, truth.corners) > 6       # the detector's outline: a side short
    first = rec.identify(scene.image, outline.corners)
    assert first.card is None and first.best == "purple-6"
    once = fit_to_face(scene.image, first.corners, dark_border_model.faces["purple-6"])
    twice = fit_to_face(scene.image, first.corners, dark_border_model.faces["purple-6"], rounds=2)
    assert corner_error(twice, truth.corners) < corner_error(once, truth.corners)
    named = [m for m in rec.recognise(scene.image) if m.card == "purple-6"]
    assert len(named) == 1 and named[0].complete
    assert corner_error(named[0].corners, truth.corners) < 3


def test_a_fit_to_a_face_unlike_the_card_is_given_up_after_its_first_round(dark_border_model):
    # the same outline, 9 px short: its first ECC round correlates 0.77 with its own face, 0.42 with the
    # blue 9's (another layout), a fit that still converges and would be read again
    scene, truth, _, outline = _purple_6_cut_short()
    faces = dark_border_model.faces
    assert fit_to_face(scene.image, outline.corners, faces["blue-9"], rounds=2) is not None
    assert fit_to_face(scene.image, outline.corners, faces["blue-9"], 2, rules.HOPELESS_FIT) is None
    kept = fit_to_face(scene.image, outline.corners, faces["purple-6"], 2, rules.HOPELESS_FIT)
    assert kept is not None and corner_error(kept, truth.corners) < corner_error(outline.corners, truth.corners) - 4


@pytest.fixture(scope="module")
def dark_deck():
    # the whole deck, enrolled as the style-2 evaluation enrols it: the mean face is the deck's
    return enrol_cards("pass-pass", "dark")


def read_dark_scene(deck, seed, card, deck_id="pass-pass", design="dark"):
    """Scene ``seed`` of the second style (by default the dark-bordered Pass Pass deck's), a recogniser
    of ``deck`` with its empty table, and ``card``'s truth there."""
    count = 1 + seed % 10   # cards in the scene
    scene = table_scene(seed, deck_id, design, count)
    shot = calibration_shot(seed, deck_id, design, count)
    rec = CardRecogniser(deck, CardDetector(background=TableBackground.from_shot(
        shot, table_to_image=scene.table_to_image)))
    return scene, rec, next(t for t in scene.cards if t.card == card)


def read_at(rec, scene, truth, within: float = 20):
    """What ``rec`` reads of ``scene`` whose corners lie within ``within`` px of ``truth``'s."""
    return [m for m in rec.recognise(scene.image) if corner_error(m.corners, truth.corners) < within]


def without_placement_by_sides(monkeypatch):
    """Hold back vision/askew.py's placement of a card by its four sides (since 2026-12-01 it finds cards
    lying across another on its own), so that a test sees what another guessing path does."""
    def finds_nothing(*args, **kwargs):
        return None
        yield   # a work in steps (vision.steps), as the one it stands for

    monkeypatch.setattr(background, "finding_top_card", finds_nothing)


@pytest.mark.parametrize(("seed", "card"), [(121, "green-8"), (169, "green-10"), (189, "purple-9")])
def test_a_guess_that_reads_like_no_face_is_fitted_to_the_decks_mean_face(dark_deck, seed, card, monkeypatch):
    # development scenes: the card lies over another, their outlines merged; its guess is 3-12 px
    # off and read 0.25-0.31, as another card. Since 2026-11 such guesses are also snapped past
    # their shadow and fitted to faces they read 0.3 like, and since 2026-12 a card lying across
    # another is placed by its four sides (vision/askew.py): held back here, as the mean face was built
    monkeypatch.setattr(recognise, "snap_past_shadow", snap_to_edges)
    monkeypatch.setattr(rules, "GUESS_FIT_MIN_CONFIDENCE", rules.FIT_MIN_CONFIDENCE)
    without_placement_by_sides(monkeypatch)
    scene, rec, truth = read_dark_scene(dark_deck, seed, card)
    named = [m for m in rec.recognise(scene.image) if m.card == card]
    assert len(named) == 1 and not named[0].complete
    assert corner_error(named[0].corners, truth.corners) < 3
    rec.reader.mean_face = None   # without it the guess stays unnamed
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
    # the grain purple-3 hides (background.HIDDEN) finds it even from the finest polygon: held back
    monkeypatch.setattr(background, "HIDDEN", False)
    scene, rec, truth = read_dark_scene(dark_deck, seed, card)
    named = [m for m in rec.recognise(scene.image) if m.card == card]
    assert len(named) == 1 and not named[0].complete
    assert corner_error(named[0].corners, truth.corners) < 3
    monkeypatch.setattr(partial, "SIMPLIFY", partial.SIMPLIFY[:1])   # the finest polygon alone
    without_placement_by_sides(monkeypatch)
    assert card not in [m.card for m in rec.recognise(scene.image)]


@pytest.mark.parametrize(("seed", "card"), [(105, "blue-5"), (157, "yellow-3")])
def test_a_guess_lying_on_the_cards_shadow_is_snapped_past_it(dark_deck, seed, card, monkeypatch):
    # development scenes: the difference from the empty table took in the card's shadow, so the guess
    # made from it lay outside the card, further than the paper's edge is looked for. (Since CLEAR_FITTED
    # scene 157's yellow 3 is named first from its whole outline's fit, a clear reading: held back)
    monkeypatch.setattr(rules, "CLEAR_FITTED", False)
    scene, rec, truth = read_dark_scene(dark_deck, seed, card)
    named = [m for m in rec.recognise(scene.image) if m.card == card]
    assert len(named) == 1 and not named[0].complete
    assert corner_error(named[0].corners, truth.corners) < 3
    monkeypatch.setattr(recognise, "snap_past_shadow", snap_to_edges)   # the paper's edge alone
    # (from there a fit to blue-5's face that hardly moves the outline names it too, by its blurred reading;
    # counted as a fit that moved it, its clear reading names it since CLEAR_FITTED)
    monkeypatch.setattr(rules, "SMALL_FIT", -1.0)
    monkeypatch.setattr(rules, "CLEAR_FITTED", False)
    without_placement_by_sides(monkeypatch)
    assert card not in [m.card for m in rec.recognise(scene.image)]


def test_a_purple_twelve_lying_on_another_card_is_named_from_its_guess_and_never_as_the_ten(dark_deck):
    # development scene 149: purple-12 lies over blue-12. Its guesses held to the paper's edge read under
    # 0.5 as look-alikes and were named once fitted to their closest faces (GUESS_FIT_MIN_CONFIDENCE), until
    # purple-10's face, enrolled inside its border, got its border back (vision.border): that guess now
    # reads 0.28, and the guess snapped past the card's shadow names it. Fitted to the borderless
    # purple-10, the whole outline had read 0.909 as purple-10 (named so at a whole outline's 0.90)
    scene, rec, truth = read_dark_scene(dark_deck, 149, "purple-12")
    here = [m for m in rec.recognise(scene.image) if corner_error(m.corners, truth.corners) < 20]
    assert [m.card for m in here] == ["purple-12"] and not here[0].complete
    assert corner_error(here[0].corners, truth.corners) < 3


def test_faces_enrolled_inside_their_border_are_given_the_decks_border_back():
    # purple-10's close-up (the style-2 evaluation's enrolment photo) lies on a dark table: its border was
    # taken for the cloth and the face enrolled from the field inside; the others kept their border
    cards = ["purple-10", "purple-12", "blue-10", "green-10", "purple-8", "blue-6"]
    faces = enrol_cards("pass-pass", "dark", cards).faces
    assert [c for c in cards if not features.dark_border(faces[c])] == ["purple-10"]
    given = border_given_back(faces)
    assert features.dark_border(given["purple-10"])
    assert all(given[c] is faces[c] for c in cards[1:])   # the faces with their border are left as they are
    # the band as wide as the others' (at 63x88: within a pixel on each side)
    others = np.median([printed_band(faces[c])[0] for c in cards[1:]], axis=0)
    assert np.abs((printed_band(given["purple-10"])[0] - others) * [88, 63, 88, 63]).max() < 1.0
    # and its print where the same print in another ink lies (grey, either turn): 0.47 as enrolled, 0.90 given back
    assert _grey_likeness(given["purple-10"], faces["blue-10"]) > 0.85 > 0.6 > _grey_likeness(faces["purple-10"],
                                                                                               faces["blue-10"])
    # where the drawn face has it: framed at most 0.9 px too small on each side at 63x88 (0.63 and 0.66 px;
    # 1.23 and 1.22 px when the band was measured where the grey level crossed 60 % of the paper's: it took
    # in the purple and blue ink lines round the field, which the close-up's outline leaves out)
    shrink = _shrink_against(given["purple-10"], draw_face("purple-10", "dark")[0])
    assert (shrink * [63, 88] / 2).max() < 0.9, shrink


def _shrink_against(face, drawn):
    """(1 - scale) in x and y of ``face`` against the ``drawn`` face (ECC affine, grey, best turn)."""
    def grey(f):
        small = cv2.resize(f, (126, 176), interpolation=cv2.INTER_AREA)
        return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    fits = []
    for turned in (drawn, np.ascontiguousarray(drawn[::-1, ::-1])):
        fits.append(cv2.findTransformECC(grey(turned), grey(face), np.eye(2, 3, dtype=np.float32), cv2.MOTION_AFFINE,
                                         (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 200, 1e-6), None, 5))
    _, warp = max(fits, key=lambda f: f[0])
    return 1 - np.array([warp[0, 0], warp[1, 1]])


def _grey_likeness(a, b):
    def unit(f):
        g = cv2.cvtColor(f, cv2.COLOR_BGR2GRAY).astype(np.float32)
        g -= g.mean()
        return g / np.linalg.norm(g)
    return max(float((unit(a) * unit(b)).sum()), float((unit(a)[::-1, ::-1] * unit(b)).sum()))


def test_a_whole_outline_read_a_little_under_the_threshold_is_named_by_its_blurred_reading(dark_deck, monkeypatch):
    # development scene 141, felt: the dark-bordered purple-3's whole outline is found 1.8 px off and
    # reads it 0.890 (0.917 at its true outline); blurred by SOFT_BLUR it reads it 0.918, the same way
    # round, by the same margin. Without that reading, the outline fitted to the face read 0.929 (under 0.93;
    # that fit hardly moved it, so it is named by the blurred reading there too)
    scene, rec, truth = read_dark_scene(dark_deck, 141, "purple-3")
    here = [m for m in rec.recognise(scene.image) if corner_error(m.corners, truth.corners) < 20]
    assert [(m.card, m.complete) for m in here] == [("purple-3", True)]
    monkeypatch.setattr(rules, "SOFT_FROM", 2.0)   # never read blurred
    monkeypatch.setattr(rules, "SMALL_FIT", -1.0)
    assert rec.identify(scene.image, here[0].corners).card is None
    # a guess made there is named since its fit is read at a guess's thresholds (CONFIRM_AT_GUESS): held back
    monkeypatch.setattr(rules, "CONFIRM_AT_GUESS", False)
    assert "purple-3" not in [m.card for m in rec.recognise(scene.image)]


@pytest.mark.parametrize("seed", [1361, 1669])
def test_a_sparse_face_read_under_the_threshold_but_clear_of_every_rival_is_named_where_its_fit_holds(
        dark_deck, seed, monkeypatch):
    # development scenes 1361 and 1669, white tables: a yellow 1 (two numerals and a pip on a wide blank face,
    # washed out) reads 0.86 / 0.85 at its whole outline, blurred too, but 0.32 / 0.33 clear of every rival;
    # fitted to its face the outline hardly moves (rules.CLEAR)
    scene, rec, truth = read_dark_scene(dark_deck, seed, "yellow-1")
    assert scene.kind == "white"
    here = [m for m in rec.recognise(scene.image) if corner_error(m.corners, truth.corners) < 20]
    assert [(m.card, m.complete) for m in here] == [("yellow-1", True)]
    assert here[0].confidence < dark_deck.min_confidence
    # (a guess read clear with nothing found over it is named since the fifty-third session: held back)
    monkeypatch.setattr(rules, "UNCOVERED_CLEAR", False)
    monkeypatch.setattr(rules, "CLEAR", False)
    assert "yellow-1" not in [m.card for m in rec.recognise(scene.image)]


@pytest.mark.parametrize("seed", [109, 325])
def test_a_model_with_a_face_missing_reads_a_dark_rimmed_outline_from_inside(dark_deck, seed, monkeypatch):
    # purple-10's close-up lay on a dark table and was enrolled inside its border. With a face
    # missing from the model (here blue-1's), no face is given its border back, so a purple-10 on the
    # table (development scenes, patterned and white) is named only from inside its dark rim
    model = CardModel(dark_deck.deck, list(dark_deck.cards), dark_deck.templates,
                      {c: f for c, f in dark_deck.faces.items() if c != "blue-1"})
    assert not features.dark_border(model.faces["purple-10"])
    scene, rec, truth = read_dark_scene(model, seed, "purple-10")
    here = [m.card for m in rec.recognise(scene.image) if corner_error(m.corners, truth.corners) < 20]
    assert here == ["purple-10"]
    rec.reader.read_inside = False
    # read from its outer outline against a face enrolled inside its border, scene 109's purple-10 leans
    # towards the blue 10's colours where the two faces differ (the border band) and would be named so
    # since HUE_TELLS: a configuration the recogniser never runs (a model with a face missing reads inside)
    monkeypatch.setattr(rules, "HUE_TELLS", False)
    assert [m.card for m in rec.recognise(scene.image) if corner_error(m.corners, truth.corners) < 20] == [None]


@pytest.mark.parametrize(("seed", "card"), [(653, "blue-2"), (393, "yellow-11")])
def test_an_outline_a_fit_hardly_moved_is_named_at_a_whole_outlines_threshold(dark_deck, seed, card, monkeypatch):
    # development scenes (light wood, felt): the card's outline was guessed (it touches another card) and
    # fitted to its face, which moved no corner by 1 % of the diagonal; it reads 0.90-0.93, under a fitted
    # outline's 0.93 but over a whole one's 0.90, and blurred it reads the same card surer still. (Scene 333's
    # blue 9 showed it until faces were enrolled where the card is: its fit now reads a margin of 0.08
    # against the green 9 and it goes unnamed; not traced further). Scene 653's blue 2 is named from its whole
    # outline since its ink's hue tells it from the green 2 (HUE_TELLS), scene 393's yellow 11 from its whole
    # outline's fit, read clear (CLEAR_FITTED): both held back here
    monkeypatch.setattr(rules, "HUE_TELLS", False)
    monkeypatch.setattr(rules, "CLEAR_FITTED", False)
    scene, rec, truth = read_dark_scene(dark_deck, seed, card)
    here = [m for m in rec.recognise(scene.image) if corner_error(m.corners, truth.corners) < 20]
    assert [(m.card, m.complete) for m in here] == [(card, False)]
    assert corner_error(here[0].corners, truth.corners) < 3
    sharp = rec.identify(scene.image, here[0].corners, recognise.Found.FITTED)
    assert sharp.card is None and sharp.best == card
    assert rec.model.min_confidence <= sharp.confidence < rec.model.min_confidence + rules.FITTED_EXTRA_CONFIDENCE
    # (a guess read clear with nothing found over it is named since the fifty-third session: held back)
    monkeypatch.setattr(rules, "UNCOVERED_CLEAR", False)
    monkeypatch.setattr(rules, "SMALL_FIT", 0.0)   # every fit counted as one that moved the outline
    assert card not in [m.card for m in rec.recognise(scene.image)]


def test_a_reading_by_a_narrow_margin_is_named_only_if_its_print_is_surely_the_cards(dark_deck, monkeypatch):
    # development scene 117, photographed table: the dark-bordered blue 9's whole outline reads it 0.93, but
    # only 0.08 clear of the green 9 (the two faces differ in their ink alone); its full-size print lies
    # 0.22 on the blue 9's side, so it is named. (Its colour also tells it from the green 9, which since
    # HUE_TELLS then no longer holds the margin down: held back here)
    monkeypatch.setattr(rules, "HUE_TELLS", False)
    scene, rec, truth = read_dark_scene(dark_deck, 117, "blue-9")
    here = [m for m in rec.recognise(scene.image) if corner_error(m.corners, truth.corners) < 20]
    assert [(m.card, m.complete) for m in here] == [("blue-9", True)]
    m = rec.identify(scene.image, here[0].corners)
    assert m.card == "blue-9" and rules.NARROW_MARGIN <= m.margin < rec.model.min_margin
    monkeypatch.setattr(rules, "FINE_SURE_MARGIN", 0.5)   # the print must be surer than it is
    assert rec.identify(scene.image, here[0].corners).card is None
    monkeypatch.setattr(rules, "NARROW_MARGIN", rec.model.min_margin)   # no narrow margin named
    assert "blue-9" not in [m.card for m in rec.recognise(scene.image)]


@pytest.mark.parametrize(("seed", "card", "twin"), [(477, "blue-8", "green-8"), (717, "blue-7", "green-7")])
def test_a_rival_in_another_ink_the_cards_colour_leans_from_does_not_hold_its_margin_down(
        dark_deck, seed, card, twin, monkeypatch):
    # development scenes 477 (felt) and 717 (white table), warm light: the dark-bordered blue card's whole
    # outline reads 0.93-0.94, but the coarse reading puts it only 0.02-0.08 clear of the same value in
    # green (the faces differ in their ink alone) and its full-size print 0.01-0.16 on its side; where the
    # two faces differ its colour leans clearly blue. Against its other rivals it is clear by 0.3 or more
    scene, rec, truth = read_dark_scene(dark_deck, seed, card)
    here = [m for m in rec.recognise(scene.image) if corner_error(m.corners, truth.corners) < 20]
    assert [(m.card, m.complete) for m in here] == [(card, True)]
    assert rec.identify(scene.image, here[0].corners).margin >= rec.model.min_margin
    monkeypatch.setattr(rules, "HUE_TELLS", False)   # every rival holds the margin down
    m = rec.identify(scene.image, here[0].corners)
    assert m.card is None and m.best == card and m.margin < rules.FINE_SURE_MARGIN
    ink = rec.reader.ink
    assert ink.other_ink(card, twin) and not ink.other_ink(card, "blue-1")   # one ink: not told so
    assert card not in [m.card for m in rec.recognise(scene.image)]


@pytest.mark.parametrize(("seed", "card"), [(1301, "green-12")])
def test_an_outline_cut_short_at_one_end_is_drawn_out_to_a_cards_length(dark_deck, seed, card, monkeypatch):
    # development scenes: the card lies partly under another; its guess stops 5-20 mm short of one
    # end and read 0.77 like the purple 6 (713), 0.18 like it (1301). Drawn out to a card's length
    # (the table known), the end it lost is read: named, within 3 px of its true corners. (713's
    # purple-8, named so from 2026-11-29, is unnamed since 2026-12-01: aligned to its face it reads
    # 0.904, under a fitted outline's threshold, so its name is not confirmed)
    scene, rec, truth = read_dark_scene(dark_deck, seed, card)
    named = [m for m in rec.recognise(scene.image) if m.card == card]
    assert len(named) == 1 and corner_error(named[0].corners, truth.corners) < 3
    monkeypatch.setattr(TableBackground, "cut_short", lambda self, corners: False)
    assert card not in [m.card for m in rec.recognise(scene.image)]


def _table_713():
    """Development scene 713's empty table, and its purple 8 (lying whole)."""
    scene = table_scene(713, "pass-pass", "dark", 4)
    truth = next(t for t in scene.cards if t.card == "purple-8")
    table = TableBackground.from_shot(calibration_shot(713, "pass-pass", "dark", 4),
                                      table_to_image=scene.table_to_image)
    return scene, truth, table


def _cut(scene, truth, lost_mm: float, side: str) -> np.ndarray:
    """``truth``'s outline (image px) with ``lost_mm`` cut off on the table at one ``side``: "end" (its length
    made shorter) or "side" (its width made narrower)."""
    to_table = np.linalg.inv(scene.table_to_image)
    mm = cv2.perspectiveTransform(truth.corners.reshape(-1, 1, 2).astype(np.float64), to_table).reshape(4, 2)
    long_first = np.linalg.norm(mm[1] - mm[0]) > np.linalg.norm(mm[2] - mm[1])
    a, b = (1, 2) if long_first == (side == "end") else (2, 3)   # the two corners moved
    cut = mm.copy()
    cut[a] -= lost_mm * (mm[a] - mm[a - 1]) / np.linalg.norm(mm[a] - mm[a - 1])
    cut[b] -= lost_mm * (mm[b] - mm[(b + 1) % 4]) / np.linalg.norm(mm[b] - mm[(b + 1) % 4])
    return cv2.perspectiveTransform(cut.reshape(-1, 1, 2), scene.table_to_image).reshape(4, 2).astype(np.float32)


def test_an_outline_is_cut_short_when_only_its_long_sides_fall_short():
    scene, truth, table = _table_713()
    assert not table.cut_short(truth.corners)
    centre = truth.corners.mean(axis=0)
    assert not table.cut_short(centre + (truth.corners - centre) * 0.92)   # a bordered card seen inside its border
    longer, other_end = table.drawn_out(truth.corners)   # already a card's length: drawn out by nothing
    assert corner_error(longer, truth.corners) < 0.01 and corner_error(other_end, truth.corners) < 0.01
    # its long sides 7 mm short (8 %), at one end: cut short, and drawn out at that end it is the card again
    short = _cut(scene, truth, 7, "end")
    assert table.cut_short(short)
    assert min(corner_error(q, truth.corners) for q in table.drawn_out(short)) < 0.5


@pytest.mark.parametrize("lost_mm", [30, 45])
def test_an_outline_cut_shorter_than_its_width_is_still_cut_short(lost_mm):
    # a card a third or half under another: what shows is shorter than the card is wide, so its longer
    # sides are the card's width (a 9 of diamonds read as its 7 at 58 x 64 mm, forty-third session)
    scene, truth, table = _table_713()
    short = _cut(scene, truth, lost_mm, "end")
    assert table.cut_short(short)
    assert min(corner_error(q, truth.corners) for q in table.drawn_out(short)) < 0.5
    # a card a little small all round (an outline a few mm inside its edges) is not a card cut short
    centre = truth.corners.mean(axis=0)
    assert not table.cut_short(centre + (truth.corners - centre) * 0.93)


def test_an_outline_a_cards_length_but_narrow_is_drawn_out_to_its_width():
    # a card with one side under another: a card's length, 20 mm narrower (a 6 of hearts read as its 3 at
    # 49 x 87 mm, forty-third session); drawn out sideways, it is the card again
    scene, truth, table = _table_713()
    narrow = _cut(scene, truth, 20, "side")
    assert table.cut_short(narrow)
    assert min(corner_error(q, truth.corners) for q in table.drawn_out(narrow)) < 0.5


@pytest.mark.parametrize(("seed", "card"), [(1525, "green-10")])
def test_a_card_whose_worst_patch_is_a_little_unlike_its_face_is_named(dark_deck, seed, card, monkeypatch):
    # development scene, glossy table: the card, its outline seen whole, reads 0.95 by a wide margin, but
    # its worst patch (a highlight) is 0.81-0.83 of its look-alikes' (MAX_MISMATCH): refused until
    # 2026-11-29 at 0.75, named at 0.9. (Scene 1297's green-11, a guess in an outline merged with its
    # neighbour's, named so from 2026-11-29, is refused again: guesses keep MAX_MISMATCH_NOT_WHOLE 0.75)
    scene, rec, truth = read_dark_scene(dark_deck, seed, card)
    named = [m for m in rec.recognise(scene.image) if m.card == card]
    assert len(named) == 1 and corner_error(named[0].corners, truth.corners) < 3
    monkeypatch.setattr(rules, "MAX_MISMATCH", 0.75)
    monkeypatch.setattr(rules, "MISMATCH_CLEAR", False)   # clear by over 0.35, it would be named under 1.1
    assert card not in [m.card for m in rec.recognise(scene.image)]


@pytest.fixture(scope="module")
def bleed_eclair_deck():
    return enrol_cards("passe-eclair", "bleed")


@pytest.mark.parametrize("seed", [3_020_102, 3_020_618])
def test_a_partly_hidden_card_whose_difference_is_covered_is_not_named_as_its_look_alike(
        bleed_eclair_deck, seed, monkeypatch):
    # evaluation scenes (fresh until 2026-12-01): a full-bleed vanessa-fabi partly under another card, its
    # medallion (orange; vanessa-rocce's is green) covered; read vanessa-rocce 0.93, its worst patch between
    # 0.75 and 0.9 of the look-alikes'. An outline not seen whole keeps MAX_MISMATCH_NOT_WHOLE 0.75
    scene, rec, truth = read_dark_scene(bleed_eclair_deck, seed, "vanessa-fabi", "passe-eclair", "bleed")
    assert not truth.fully_visible
    assert "vanessa-rocce" not in [m.card for m in rec.recognise(scene.image)]
    monkeypatch.setattr(rules, "MAX_MISMATCH_NOT_WHOLE", rules.MAX_MISMATCH)
    # (in 3,020,102 vision.tells leaves it unnamed too, its medallion under the card on top and showing no print
    # of its own: both held back here)
    monkeypatch.setattr(rules, "TELLS_HIDDEN", False)
    monkeypatch.setattr(rules, "TELLS_UNSEEN", False)
    wrong = [m for m in rec.recognise(scene.image) if m.card == "vanessa-rocce"]
    assert len(wrong) == 1 and not wrong[0].complete
    assert np.linalg.norm(wrong[0].corners.mean(0) - truth.corners.mean(0)) < 20


@pytest.mark.parametrize("seed", [3_025_438, 3_025_646])
def test_a_guess_named_as_snapped_is_named_only_if_its_fit_to_that_face_names_it_too(bleed_eclair_deck, seed,
                                                                                    monkeypatch):
    # evaluation scenes (fresh until 2026-12-01): a full-bleed vanessa-fabi, fully visible, guessed in an
    # outline merged with its neighbour's 5 px off; on a card this small the orange medallion was read out of
    # place and the guess named vanessa-rocce (0.91-0.92, the full-size checks passed). Fitted to that face
    # the outline lies within about a pixel, and reads vanessa-fabi 0.98
    scene, rec, truth = read_dark_scene(bleed_eclair_deck, seed, "vanessa-fabi", "passe-eclair", "bleed")
    assert truth.fully_visible

    def said_there():
        centre = truth.corners.mean(axis=0)
        return [m for m in rec.recognise(scene.image) if np.linalg.norm(m.corners.mean(axis=0) - centre) < 20]

    said = said_there()
    assert [m.card for m in said] == ["vanessa-fabi"] and corner_error(said[0].corners, truth.corners) < 2

    def kept_as_snapped(self, frame, m):   # a step of the reading, as _confirmed is
        yield from ()
        return m

    monkeypatch.setattr(CardRecogniser, "_confirmed", kept_as_snapped)
    assert [m.card for m in said_there()] == ["vanessa-rocce"]


@pytest.mark.parametrize(("seed", "card", "kept"), [(459, "yellow-5", True), (3_027_469, "blue-8", True),
                                                 (334, "michi", False)])
def test_a_guess_in_one_ink_whose_fit_reads_it_at_a_guesss_thresholds_keeps_its_name(seed, card, kept, monkeypatch):
    # development scene 459 (a full-bleed yellow 5 on a patterned cloth) and evaluation scene 3,027,469 (a
    # dark-bordered blue 8), each touching another card: the guess names the card (0.91, margins 0.18-0.44);
    # fitted to its face the outline lands a few px further off and reads it under a fitted outline's 0.93.
    # Read at a guess's thresholds the fit names it too: the name stands. Not for michi (development scene
    # 334), a many-coloured Passe Eclair face: there a name may rest on a medallion another card hides.
    # (Since the forty-third session michi's first guess, shorter than the card is wide, is read drawn out to a
    # card's length and named there: that reading is held back to see the rule)
    # (a guess read clear with nothing found over it is named since the fifty-third session: held back)
    monkeypatch.setattr(rules, "UNCOVERED_CLEAR", False)
    deck, design = deck_for(seed), design_for(seed)
    scene, rec, truth = read_dark_scene(enrol_cards(deck, design), seed, card, deck, design)
    assert truth.fully_visible

    def said_there():
        return [(m.card, m.complete) for m in rec.recognise(scene.image)
                if corner_error(m.corners, truth.corners) < 20]

    if not kept:
        assert said_there() == [(card, False)]
        monkeypatch.setattr(TableBackground, "cut_short", lambda self, corners: False)
    assert said_there() == [(card if kept else None, False)]
    if kept:
        monkeypatch.setattr(rules, "CONFIRM_AT_GUESS", False)   # the fit must name it at its own thresholds
        monkeypatch.setattr(rules, "FIT_CLEAR", False)          # (or be clear of every rival by far,
        monkeypatch.setattr(rules, "CLEAR_FITTED", False)       # or clear under the threshold,
        monkeypatch.setattr(rules, "UNGLARED", set())           # or read without a brighter patch: vision.glare)
        assert said_there() == [(None, False)]
    else:
        monkeypatch.setattr(rec.reader.ink, "one_ink", lambda c: True)   # taken for a face in one ink, it is named
        assert said_there() == [(card, False)]


def test_a_guess_in_one_ink_read_under_the_threshold_but_clear_of_every_rival_is_named_where_its_fit_holds(
        dark_deck, monkeypatch):
    # development scene 133, a dark table: the purple 1 (a sparse face) reads 0.86 even at its true outline,
    # 0.41 clear of every rival; in the scene it is read from a guess whose fit to that face hardly moves it
    # (rules.CLEAR: a face printed in one ink)
    scene, rec, truth = read_dark_scene(dark_deck, 133, "purple-1")
    named = [m for m in rec.recognise(scene.image) if m.card == "purple-1"]
    assert len(named) == 1 and corner_error(named[0].corners, truth.corners) < 3
    assert named[0].confidence < dark_deck.min_confidence
    # (a guess read clear with nothing found over it is named since the fifty-third session: held back)
    monkeypatch.setattr(rules, "UNCOVERED_CLEAR", False)
    monkeypatch.setattr(rules, "CLEAR_ONE_INK", False)
    # (a guess's fit that moved it is read clear too: since CLEAR_FITTED it names purple-1 as a clear reading
    # where the guess is a face of one ink: held back with the rest)
    monkeypatch.setattr(rules, "CLEAR_FITTED", False)
    assert "purple-1" not in [m.card for m in rec.recognise(scene.image)]


def test_a_many_coloured_guess_clear_of_its_rivals_under_the_threshold_is_not_named(bleed_eclair_deck, monkeypatch):
    # development scene 314: a full-bleed marlon-leon partly under another card, its guess read marlon-rocce
    # 0.88, 0.41 clear of every rival, a fit that hardly moves it: a many-coloured face, whose name may rest on
    # the medallion another card hides, is not named so (rules.CLEAR_ONE_INK; named, 7 such in 1,600
    # development scenes were all wrong)
    scene, rec, truth = read_dark_scene(bleed_eclair_deck, 314, "marlon-leon", "passe-eclair", "bleed")
    assert not truth.fully_visible

    def said_there():   # (the scene's own marlon-rocce lies elsewhere)
        centre = truth.corners.mean(axis=0)
        return [(m.card, m.complete) for m in rec.recognise(scene.image)
                if np.linalg.norm(m.corners.mean(axis=0) - centre) < 20]

    assert "marlon-rocce" not in [card for card, _ in said_there()]
    monkeypatch.setattr(type(rec.reader.ink), "one_ink", lambda self, card: True)
    # (its medallion, under the card on top, shows no print of its own: vision.tells leaves it unnamed too)
    monkeypatch.setattr(rules, "TELLS_UNSEEN", False)
    assert ("marlon-rocce", False) in said_there()


def test_a_fitted_guess_at_a_whole_outlines_threshold_clear_of_every_rival_by_far_is_named(bleed_eclair_deck,
                                                                                          monkeypatch):
    # development scene 138, a photographed table: michi, fully visible, found only as guesses; fitted to its
    # face it reads 0.91 (0.906 even at its true outline), 0.44 clear of every rival, under a fitted outline's
    # 0.93. At a whole outline's threshold and clear of every rival by FIT_CLEAR_MARGIN it is named
    scene, rec, truth = read_dark_scene(bleed_eclair_deck, 138, "michi", "passe-eclair", "bleed")
    assert truth.fully_visible

    said = read_at(rec, scene, truth)
    assert [(m.card, m.complete) for m in said] == [("michi", False)]
    assert bleed_eclair_deck.min_confidence <= said[0].confidence < bleed_eclair_deck.min_confidence + \
        rules.FITTED_EXTRA_CONFIDENCE and said[0].margin >= rules.FIT_CLEAR_MARGIN
    # (a guess read clear with nothing found over it is named since the fifty-third session: held back)
    monkeypatch.setattr(rules, "UNCOVERED_CLEAR", False)
    monkeypatch.setattr(rules, "FIT_CLEAR", False)
    assert [(m.card, m.complete) for m in read_at(rec, scene, truth)] == [(None, False)]


def test_a_guess_its_fit_names_keeps_the_name_though_the_fit_reads_a_little_less_sure(dark_deck, monkeypatch):
    # development scene 2029, a glossy table: a yellow 9 under glare, guessed 0.6 px off, reads 0.855, 0.36
    # clear of every rival, unnamed at a guess's threshold. Its fit hardly moves it and names it as a clear
    # reading (CLEAR) at 0.852. Until the thirty-fifth session a fit was kept only if it read surer than the
    # guess, and this name was thrown away. (Its fits that moved it read it clear too: held back)
    monkeypatch.setattr(rules, "CLEAR_FITTED", False)
    scene, rec, truth = read_dark_scene(dark_deck, 2029, "yellow-9")
    assert scene.kind == "glossy" and truth.fully_visible

    said = read_at(rec, scene, truth)
    assert [(m.card, m.complete) for m in said] == [("yellow-9", False)]
    assert corner_error(said[0].corners, truth.corners) < 2
    guessed = rec.identify(scene.image, said[0].corners, recognise.Found.GUESSED)
    assert guessed.card is None and guessed.best == "yellow-9"
    # (a guess read clear with nothing found over it is named since the fifty-third session: held back)
    monkeypatch.setattr(rules, "UNCOVERED_CLEAR", False)
    monkeypatch.setattr(rules, "CLEAR", False)
    # (read without its glared cells the fit is clear too, and named so since the fifty-first session: held back)
    monkeypatch.setattr(rules, "UNGLARED_CLEAR", False)
    assert [m.card for m in read_at(rec, scene, truth)] == [None]


def test_a_whole_outline_named_barely_is_fitted_to_that_face_and_read_again(monkeypatch):
    # fresh scene 3,076,787 (set 16, a dark table): a full-bleed green 5's whole outline lies 6 px off and reads
    # green-3 at 0.902, 0.17 clear of every rival; it was named so. Fitted to the green 3's face, the outline
    # comes within 2 px of the card and reads green-5 at 0.95 (CONFIRM_WHOLE_BELOW)
    scene, rec, truth = read_dark_scene(enrol_cards("pass-pass", "bleed"), 3_076_787, "green-5", "pass-pass", "bleed")
    assert scene.kind == "dark" and truth.fully_visible

    said = read_at(rec, scene, truth)
    assert [(m.card, m.complete) for m in said] == [("green-5", True)]
    assert corner_error(said[0].corners, truth.corners) < 3
    monkeypatch.setattr(rules, "CONFIRM_WHOLE_BELOW", 0.0)
    said = read_at(rec, scene, truth)
    assert [(m.card, m.complete) for m in said] == [("green-3", True)]
    assert corner_error(said[0].corners, truth.corners) > 4


def test_a_guess_named_by_a_clear_reading_of_its_fit_yields_to_a_next_face_that_reads_surer(monkeypatch):
    """Style-2 fresh scene 3,092,263 (set 23, forty-ninth session), a glossy table: a full-bleed yellow 12 lies
    partly under a yellow 4. Its guessed outline read most like yellow-9; fitted to yellow-9's face it was drawn
    onto that print (its pips a row off) and named yellow-9 by a clear reading, 0.85. Fitted to the next closest
    face as well (yellow-10's), it reads yellow-12 at 0.94, named: that surer name wins."""
    truth, read_there = reading_where(3_092_263, "yellow-12")
    assert not truth.fully_visible
    assert read_there() == ["yellow-12"]
    monkeypatch.setattr(rules, "NEXT_FACES_CHECK_CLEAR", False)
    assert read_there() == ["yellow-9"]


def test_a_whole_outline_its_fit_named_again_yields_to_a_next_face_that_reads_surer(monkeypatch):
    """Style-2 fresh scene 3,097,215 (set 26, fiftieth session), light wood: a full-bleed yellow 11, a token over
    one corner, its whole outline found 5 px off. It read yellow-9 0.92, and fitted to yellow-9's face (the 11's
    pips a row off the 9's land on them), 0.916: named yellow-9. Fitted to the next closest faces as well, the
    fit to yellow-11's face reads yellow-11 at 0.977: that surer name wins (NEXT_FACES_CHECK_WHOLE)."""
    truth, read_there = reading_where(3_097_215, "yellow-11")
    assert read_there() == ["yellow-11"]
    monkeypatch.setattr(rules, "NEXT_FACES_CHECK_WHOLE", False)
    assert read_there() == ["yellow-9"]


def test_a_name_given_by_a_clear_fit_is_taken_back_when_a_next_face_reads_surer_though_refused(monkeypatch):
    """Fresh scene 3,101,507 (set 27, fifty-first session), a white table: a full-bleed blue 10 half under a blue
    7, its pips and value's disc partly hidden. Its guess fitted to blue-9's face read blue-9 0.82, clear of every
    rival: named. Fitted to the next faces too (NEXT_FACES_CHECK_CLEAR), blue-10's reads 0.90, 0.49 clear, and is
    refused (its tell lies under the 7). Two cards read so, neither surely: no name (NEXT_FACES_DOUBT)."""
    truth, read_there = reading_where(3_101_507, "blue-10")
    assert not truth.fully_visible
    assert "blue-9" not in read_there()
    monkeypatch.setattr(rules, "NEXT_FACES_DOUBT", False)
    assert read_there() == ["blue-9"]
