"""A card that differs from the empty table only in pieces is placed by its four sides.

Issue 12's second style, development scenes on photographed tables (grass, gravel, brick): a
full-bleed or dark-bordered card whose print is close to the table's colours leaves pieces of
foreground, none card-shaped and each too small or too ragged to be taken for a card. The pieces
near one another are taken together and the card whose four sides show around them is guessed
(``detect.LEFTOVERS``); without that, these cards were not found at all."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.style2 import detected_near, strict_sides_only
from vision import background as bg_module
from vision import detect
from vision.background import TableBackground
from vision.detect import CardDetector
from vision.steps import run_to_the_end


@pytest.mark.parametrize(("seed", "card"), [(257, "yellow-9"), (1055, "purple-12"), (1118, "michi")])
def test_a_card_seen_only_in_pieces_is_guessed_from_its_four_sides(seed, card, monkeypatch):
    # the grain these cards hide now finds two of them whole and the third without its leftovers
    # (test_vision_grain.py): held back, so that the pieces are all there is; and so is the looser search
    # for a card's sides (askew.LOOSE_SIDE_SUPPORT), which places 257's yellow 9 first, 8.8 px off
    monkeypatch.setattr(bg_module, "HIDDEN", False)
    strict_sides_only(monkeypatch)
    scene, _, nearest = detected_near(seed, card)
    assert scene.kind == "photo"
    error, quad = nearest()
    assert error < 8
    assert not quad.complete  # a guess
    monkeypatch.setattr(detect, "LEFTOVERS", False)
    assert nearest()[0] > 30


def test_without_a_calibration_no_leftover_is_looked_at():
    # a card's size on the table unknown: pieces cannot be told from a card's share of it
    empty = np.full((720, 1280, 3), 60, np.uint8)
    frame = empty.copy()
    frame[300:330, 600:640] = 200   # a small piece of something
    detector = CardDetector(background=TableBackground.from_shot(empty))
    mask = np.zeros((360, 640), np.uint8)
    mask[150:165, 300:320] = 255
    assert run_to_the_end(detector._in_leftovers(frame, mask, [])) == []


@pytest.mark.parametrize(("seed", "card"), [(1611, "blue-11"), (239, "blue-5")])
def test_a_card_of_the_felts_own_hue_is_placed_by_sides_backed_more_loosely(seed, card, monkeypatch):
    # development scenes on blue felt: a full-bleed blue card (1611 alone, 239 lying over another) differs from
    # the cloth in a ragged piece, and along its sides against the cloth the edges turn with its stripes: under
    # 40 % of two sides lie within 8 degrees of the side's angle (askew.LOOSE_ANGLE_TOLERANCE, LOOSE_SIDE_SUPPORT)
    scene, _, nearest = detected_near(seed, card)
    assert scene.kind == "felt"
    assert nearest()[0] < 4
    strict_sides_only(monkeypatch)   # the strict pass alone
    assert nearest()[0] > 30
