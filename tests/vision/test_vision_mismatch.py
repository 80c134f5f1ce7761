"""A reading clear of every close rival may leave more of its print unexplained (``rules.MISMATCH_CLEAR``).

Issue 12's second style, development scenes 1279 and 243 (photographed tables): a full-bleed yellow 4 and
a yellow 3 lying alone read 0.94-0.97 at their true corners, clear of every rival by 0.44-0.45, yet the
pale print's worst patch is 0.96-1.06 of what the look-alikes leave unexplained there, over the 0.9
a whole outline may leave (``MAX_MISMATCH``): they went unnamed."""

from __future__ import annotations

import pytest

from tests.bench.eval_vision_style2 import enrol_cards
from tests.vision.style2 import corner_error, evaluation_scene
from vision import rules
from vision.detect import CardDetector
from vision.recognise import CardRecogniser


@pytest.fixture(scope="module")
def yellow_model():
    """The full-bleed Pass Pass yellows and the other inks' 3s and 4s, enrolled from close-up photos."""
    cards = [f"yellow-{v}" for v in range(1, 13)] + [f"{ink}-{v}" for ink in ("blue", "green", "purple")
                                                     for v in (3, 4)]
    return enrol_cards("pass-pass", "bleed", cards=cards)


@pytest.mark.parametrize("seed, card", [(1279, "yellow-4"), (243, "yellow-3")])
def test_a_clear_reading_of_a_pale_print_is_named(yellow_model, monkeypatch, seed, card):
    scene, _ = evaluation_scene(seed)
    truth = next(t for t in scene.cards if t.card == card and t.fully_visible)
    m = CardRecogniser(yellow_model).identify(scene.image, truth.corners)
    assert m.card == card and m.margin >= rules.MISMATCH_CLEAR_MARGIN, (m.best, m.confidence, m.margin)
    monkeypatch.setattr(rules, "MISMATCH_CLEAR", False)
    m = CardRecogniser(yellow_model).identify(scene.image, truth.corners)
    assert m.card is None and m.best == card, (m.best, m.confidence, m.margin)


def test_a_guessed_card_printed_in_one_ink_may_leave_as_much_as_a_whole_one(yellow_model, monkeypatch):
    # development scene 827 (felt): a full-bleed yellow 7 in a pile, its outline guessed from the merged
    # shape and fitted within a pixel, reads 0.95, clear by 0.30; its worst patch leaves 0.79-0.81, over
    # the 0.75 a guess may leave (MAX_MISMATCH_NOT_WHOLE, for medallions another card may cover), under a
    # whole outline's 0.9: a face of one ink has no medallion to hide (rules.MISMATCH_ONE_INK)
    scene, background = evaluation_scene(827)
    assert scene.kind == "felt" and any(t.card == "yellow-7" and t.fully_visible for t in scene.cards)

    def named():
        rec = CardRecogniser(yellow_model, CardDetector(background=background))
        return [m.card for m in rec.recognise(scene.image)]

    assert "yellow-7" in named()
    monkeypatch.setattr(rules, "MISMATCH_ONE_INK", False)
    assert "yellow-7" not in named()


def test_a_clear_reading_of_a_guessed_card_with_a_medallion_keeps_the_guess_limit(monkeypatch):
    # evaluation scene 3,057,358 (fresh until 2026-12-03; white table): a full-bleed leon-fabi, its medallion
    # half under leon-marlon's green cloth, read leon-rocce (whose medallion is green) 0.90, clear by 0.42,
    # its worst patch 0.81: over a guess's 0.75, under a clear reading's 1.1. A face with a medallion, its
    # outline guessed, keeps 0.75 however clear (rules.MISMATCH_CLEAR_GUESS_ONE_INK)
    scene, background = evaluation_scene(3_057_358)
    truth = next(t for t in scene.cards if t.card == "leon-fabi")
    assert not truth.fully_visible
    deck = enrol_cards("passe-eclair", "bleed")

    def read_as_leon_rocce():
        rec = CardRecogniser(deck, CardDetector(background=background))
        return [m for m in rec.recognise(scene.image) if m.card == "leon-rocce"]

    assert read_as_leon_rocce() == []
    monkeypatch.setattr(rules, "MISMATCH_CLEAR_GUESS_ONE_INK", False)
    # (vision.tells leaves it unnamed too since the thirty-ninth session: its medallion half under the card on
    # top, showing no print of its own; both held back here)
    monkeypatch.setattr(rules, "TELLS_HIDDEN", False)
    monkeypatch.setattr(rules, "TELLS_UNSEEN", False)
    wrong = read_as_leon_rocce()
    assert len(wrong) == 1 and corner_error(wrong[0].corners, truth.corners) < 12   # px; the card is about 110 long


def test_a_reading_nearer_a_same_ink_look_alike_is_still_checked_whole(yellow_model, monkeypatch):
    # evaluation scene 3,053,391 (fresh set 4; photographed table): a fully visible full-bleed yellow 5 read
    # yellow-3 at 0.90 on its whole outline. Where yellow 3 and yellow 7 differ it read nearer yellow 7 (fine
    # margin -0.02) and the colours took yellow 3's side; that ended the checks, so its worst patch, 0.99 of
    # what the look-alikes leave (a whole outline may leave 0.9), was never weighed. Now it is
    # (rules.SAME_INK_STILL_CHECKED): refused, the outline is fitted to the faces it resembles and read
    # yellow 5.
    scene, background = evaluation_scene(3_053_391)
    truth = next(t for t in scene.cards if t.card == "yellow-5")
    assert truth.fully_visible

    def named_there():
        rec = CardRecogniser(yellow_model, CardDetector(background=background))
        return [m.card for m in rec.recognise(scene.image) if corner_error(m.corners, truth.corners) < 12]

    assert named_there() == ["yellow-5"]
    monkeypatch.setattr(rules, "SAME_INK_STILL_CHECKED", False)
    # since the forty-sixth session a whole outline named under 0.93 is also fitted to the face it named and read
    # again (rules.CONFIRM_WHOLE_BELOW): fitted to the yellow 3's face, it reads yellow 5 too. Each rule alone
    # mends it
    assert named_there() == ["yellow-5"]
    monkeypatch.setattr(rules, "CONFIRM_WHOLE_BELOW", 0.0)
    assert named_there() == ["yellow-3"]
    monkeypatch.setattr(rules, "SAME_INK_STILL_CHECKED", True)
    assert named_there() == ["yellow-5"]
