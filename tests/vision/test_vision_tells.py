"""A card whose tell (what tells it from its look-alikes) lies under another card on top of it is
not named (``vision.tells``, ``rules.TELLS_HIDDEN``): Passe Éclair's ``marlon-leon`` with
``vanessa-leon`` over its medallion reads like ``marlon-rocce``. Nor one whose tell does not show its
own print, whatever lies there (``rules.TELLS_UNSEEN``): a token over a medallion, which a game's table
watcher then asks about as an unknown card.

Issue 12's second style, development scenes, the cards at their true corners."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.bench.eval_vision_style2 import deck_for, design_for, enrol_cards
from tests.vision.style2 import evaluation_scene, reading_where
from vision.recognise import CardMatch
from vision.tells import Tells

LOOKED_AT = {438: ["marlon-leon", "marlon-rocce", "marlon-fabi", "marlon-vanessa", "vanessa-leon"],
             827: [f"purple-{v}" for v in range(1, 13)] + ["yellow-7"]}


@pytest.fixture(scope="module")
def tells():
    """Faces of the decks of development scenes 438 (Passe Éclair) and 827 (Pass Pass), enrolled from
    close-up photos: the cards looked at and their look-alikes."""
    return {seed: Tells(enrol_cards(deck_for(seed), design_for(seed), cards=cards).faces)
            for seed, cards in LOOKED_AT.items()}


def _lying(seed: int, under: str, over: str):
    scene, _ = evaluation_scene(seed)
    truth = {t.card: t for t in scene.cards}
    assert truth[over].visible_fraction == 1.0 and truth[under].visible_fraction < 0.8   # which lies on top
    return scene.image, {c: CardMatch(c, c, 0.95, 0.3, truth[c].corners) for c in (under, over)}


def test_a_card_whose_tell_lies_under_the_card_on_top_is_hidden_the_one_on_top_is_not(tells):
    image, lying = _lying(438, "marlon-leon", "vanessa-leon")   # vanessa-leon over marlon-leon's medallion
    assert tells[438].hidden(image, lying["marlon-leon"], list(lying.values()))
    assert not tells[438].hidden(image, lying["vanessa-leon"], list(lying.values()))


def test_a_card_still_told_by_what_shows_is_not_hidden(tells):
    # yellow-7 lies over purple-12's value, but its twelve pips show: they tell it from every other purple
    # (under a third of each tell covered). Compared in grey levels, two faces enrolled under different light
    # differed almost everywhere, and this card was taken for hidden
    image, lying = _lying(827, "purple-12", "yellow-7")
    assert not tells[827].hidden(image, lying["purple-12"], list(lying.values()))


def test_a_cards_look_alikes_are_its_familys(tells):
    # marlon-leon's tells: where marlon-rocce, marlon-fabi and marlon-vanessa differ from it (not vanessa-leon,
    # another player with the same medallion): the medallion, under a tenth of the card (0.6-3.8 % here)
    assert len(tells[438].tells["marlon-leon"]) == 3
    assert all(0 < t.mean() < 0.1 for t, _ in tells[438].tells["marlon-leon"])
    assert len(tells[827].tells["purple-12"]) == 11 and "yellow-7" not in tells[827].tells


def _medallion_faces():
    """Two faces alike but for the medallion (orange, green), and a photo of the orange one, three times
    the size, with a grey token over its medallion."""
    faces = {}
    for card, colour in (("leon-fabi", (30, 110, 220)), ("leon-rocce", (60, 160, 40))):
        face = np.full((88, 63, 3), (200, 210, 220), np.uint8)
        cv2.rectangle(face, (12, 30), (50, 60), (40, 40, 40), -1)
        cv2.circle(face, (48, 74), 7, colour, -1)
        faces[card] = face
    photo = cv2.resize(faces["leon-fabi"], (189, 264), interpolation=cv2.INTER_LINEAR)
    token = photo.copy()
    cv2.circle(token, (144, 222), 36, (120, 125, 130), -1)   # a token wider than the medallion
    return faces, photo, token


def test_a_tell_is_where_two_faces_differ_whatever_light_and_way_round_they_were_enrolled():
    faces, _, _ = _medallion_faces()
    # the green-medallion face photographed under a warmer, dimmer light and stored turned
    warm = (faces["leon-rocce"] * np.float32([0.65, 0.85, 0.95])).astype(np.uint8)[::-1, ::-1]
    tells = Tells({"leon-fabi": faces["leon-fabi"], "leon-rocce": np.ascontiguousarray(warm)})
    tell, rival = tells.tells["leon-fabi"][0]
    assert rival == "leon-rocce"
    medallion = np.zeros(tell.shape, np.uint8)
    cv2.circle(medallion, (48, 74), 9, 1, -1)
    assert tell.any() and not (tell & ~medallion.astype(bool)).any()         # the medallion and nothing else


def test_a_card_read_as_its_look_alike_under_another_is_left_unnamed(monkeypatch):
    """Fresh scene 3,051,478 (third fresh set, thirty-fourth session): a ``fabi-leon`` partly under
    another card was named ``fabi-rocce``; with its tell under the card on top, it is left unnamed."""
    from vision import rules
    from vision.detect import CardDetector
    from vision.recognise import CardRecogniser

    scene, background = evaluation_scene(3_051_478)
    model = enrol_cards(deck_for(3_051_478), design_for(3_051_478))

    def named():
        return [m.card for m in CardRecogniser(model, CardDetector(background=background)).recognise(scene.image)]

    truth = [t.card for t in scene.cards]
    assert "fabi-leon" in truth and "fabi-rocce" not in truth
    assert "fabi-rocce" not in named()
    monkeypatch.setattr(rules, "TELLS_UNSEEN", False)   # the card on top alone leaves it unnamed
    assert "fabi-rocce" not in named()
    monkeypatch.setattr(rules, "TELLS_HIDDEN", False)
    assert "fabi-rocce" in named()


def test_a_card_whose_tell_shows_something_else_than_its_print_is_unseen():
    faces, photo, token = _medallion_faces()
    tells = Tells(faces)
    corners = np.float32([[0, 0], [189, 0], [189, 264], [0, 264]]) - 0.5
    read = CardMatch("leon-fabi", "leon-fabi", 0.95, 0.3, corners)
    assert not tells.unseen(photo, read)                 # its own medallion shows
    assert tells.unseen(token, read)                     # a token lies over it
    # a look-alike's medallion, the same shape in another colour, shows a print there: the colours' checks judge it
    assert not tells.unseen(photo, CardMatch("leon-rocce", "leon-rocce", 0.95, 0.3, corners))


def test_a_faces_corners_tell_nothing(monkeypatch):
    """Each enrolment photo's table shows in a face's rounded corners: two faces that differ only there tell
    each other apart nowhere, and a card whose corners show another table is not taken for unseen
    (vision.tells.CORNER_PX)."""
    from vision import tells as tells_module

    faces, photo, _ = _medallion_faces()
    same = {"leon-fabi": faces["leon-fabi"].copy(), "leon-rocce": faces["leon-fabi"].copy()}
    for card, table in (("leon-fabi", (180, 60, 200)), ("leon-rocce", (90, 90, 90))):   # pink, grey tables
        for x, y in ((0, 0), (57, 0), (0, 82), (57, 82)):
            same[card][y:y + 6, x:x + 6] = table
    on_green = photo.copy()
    for x, y in ((0, 0), (171, 0), (0, 246), (171, 246)):
        on_green[y:y + 18, x:x + 18] = (40, 140, 40)                # a green table in the photo's corners
    corners = np.float32([[0, 0], [189, 0], [189, 264], [0, 264]]) - 0.5
    read = CardMatch("leon-fabi", "leon-fabi", 0.95, 0.3, corners)
    assert not Tells(same).unseen(on_green, read)
    monkeypatch.setattr(tells_module, "CORNER_PX", 0)                # the corners counted as print
    assert Tells(same).unseen(on_green, read)


@pytest.mark.parametrize("seed, card", [(3_087_122, "leon-rocce"), (3_087_006, "marlon-rocce")])
def test_a_fully_visible_card_is_named_whatever_table_shows_in_its_corners(monkeypatch, seed, card):
    """Style-2 fresh set 21 (forty-eighth session): fully visible leon-rocce and marlon-rocce (full-bleed, on a white
    and a glossy table) were left unnamed as unseen, where they differ from leon-fabi / marlon-fabi reading 0.27 like
    their own faces: the two faces' corners, each showing its enrolment photo's table, counted as that difference."""
    from vision import rules
    from vision import tells as tells_module

    truth, read_there = reading_where(seed, card)
    assert truth.fully_visible
    assert read_there() == [card]
    monkeypatch.setattr(tells_module, "CORNER_PX", 0)
    assert read_there() == [None]
    monkeypatch.setattr(rules, "TELLS_UNSEEN", False)   # what took the name was the unseen check
    assert read_there() == [card]


def test_a_token_over_a_medallion_leaves_the_card_unnamed(monkeypatch):
    """Fresh scene 3,060,246 (seventh fresh set, thirty-eighth session): a grey token over a fully visible
    vanessa-fabi's orange medallion was read as vanessa-marlon's grey one. Now the card is left unnamed."""
    from vision import rules

    _, read_there = reading_where(3_060_246, "vanessa-fabi")
    assert read_there() == [None]
    monkeypatch.setattr(rules, "TELLS_UNSEEN", False)
    assert read_there() == ["vanessa-marlon"]


def _film_a_token_laid(monkeypatch, seed: int):
    """Scene ``seed`` filmed at rest through the table watcher as the camera part runs it: 10 frames without
    its coins, then 40 with them (fresh sensor noise each frame). (frame, kind, card, zone) of what it reports."""
    from vision.background import TableBackground
    from vision.calibration import Calibration
    from vision.detect import CardDetector
    from vision.pipeline import TableWatcher
    from vision.profile import TableProfile
    from vision.recognise import CardRecogniser
    from vision.sources import Frame
    from vision.synth2 import render

    deck, design, count = deck_for(seed), design_for(seed), 1 + seed % 10
    with_coins = render.table_scene(seed, deck, design, count)
    with monkeypatch.context() as bare_table:
        bare_table.setattr(render, "_distractors", lambda *args: None)   # the rest of the scene drawn the same
        without = render.table_scene(seed, deck, design, count)
    shot = render.calibration_shot(seed, deck, design, count)
    detector = CardDetector(background=TableBackground.from_shot(shot, table_to_image=without.table_to_image))
    watcher = TableWatcher(CardRecogniser(enrol_cards(deck, design), detector, still_frames=True),
                           Calibration(np.linalg.inv(without.table_to_image), (1280, 720)), TableProfile.load(),
                           empty_table=shot, unknown_frames=15)
    rng = np.random.default_rng(0)
    events = []
    for k, image in enumerate([without.image] * 10 + [with_coins.image] * 40):
        noisy = np.clip(image + rng.normal(0, 2.0, image.shape), 0, 255).astype(np.uint8)
        seen = watcher.process(Frame(noisy, k / 30, k))
        events += [(k, o.kind, o.data.get("card"), o.data.get("zone")) for o in seen]
    return events


def test_a_token_laid_on_a_cards_medallion_in_play_is_asked_about_never_scored_as_another_card(monkeypatch):
    """Scene 3,060,246 in a game: vanessa-fabi lies in the trick, then a grey token is laid over its orange
    medallion. The card stays (no card_gone) and the place is asked about as an unknown card after 15 frames;
    without TELLS_UNSEEN a second card, vanessa-marlon, was reported in the trick, silently."""
    from vision import rules

    events = _film_a_token_laid(monkeypatch, 3_060_246)
    assert any(k < 10 and kind == "card_seen" and card == "vanessa-fabi" and zone == "trick"
               for k, kind, card, zone in events)
    after = [(kind, card, zone) for k, kind, card, zone in events if k >= 10]
    assert after == [("card_unknown", None, "trick")]
    monkeypatch.setattr(rules, "TELLS_UNSEEN", False)
    after = [(kind, card, zone) for k, kind, card, zone in _film_a_token_laid(monkeypatch, 3_060_246) if k >= 10]
    assert ("card_seen", "vanessa-marlon", "trick") in after
