"""Faces of cards nobody enrolled, pieced together from the enrolled ones (vision.ghosts):
the recogniser's rivals for a deck enrolled with ``--partial``. The recogniser side (a missing
card is never named) is tests/vision/test_vision_partial_deck.py."""

from __future__ import annotations

import numpy as np
import pytest

from vision.decks import deck_card_ids
from vision.ghosts import ghost_faces, id_parts
from vision.model import CardModel
from vision.verify import FineCheck, fine

LEFT_OUT = {
    "pass-pass": ["purple-1", "blue-3", "green-11", "yellow-6", "purple-7"],
    "passe-eclair": ["leon-rocce", "fabi-marlon", "leon-vanessa"],
}


def _print_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Between two faces' light-free prints (as the recogniser's last look sees them), the nearer way round."""
    fa, fb = fine(a), fine(b)
    return min(float(np.linalg.norm(fa - fb)), float(np.linalg.norm(fa - fb[::-1, ::-1])))


@pytest.mark.parametrize("deck", sorted(LEFT_OUT))
def test_a_left_out_card_lies_on_its_ghosts_side_of_its_enrolled_look_alikes(deck, model_dirs):
    """The recogniser's last look (vision.verify.FineCheck.margin): the real face of a card left
    out lies on its ghost's side against each of its three nearest enrolled faces, while each of
    those faces lies on its own side against the ghost."""
    model = CardModel.load(model_dirs[deck])
    enrolled = {c: f for c, f in model.faces.items() if c not in LEFT_OUT[deck]}
    ghosts = ghost_faces(deck_card_ids(deck), enrolled)
    assert sorted(ghosts) == sorted(LEFT_OUT[deck])
    check = FineCheck({**enrolled, **ghosts})
    for card in LEFT_OUT[deck]:
        real = model.faces[card]
        assert ghosts[card].shape == real.shape and ghosts[card].dtype == np.uint8
        alike = sorted(enrolled, key=lambda c: _print_distance(enrolled[c], real))[:3]
        for other in alike:
            assert check.margin(real, other, [card]) < -0.2, (card, other)
            assert check.margin(enrolled[other], other, [card]) > 0.2, (card, other)


def test_a_whole_deck_and_ids_of_one_part_get_no_ghost(model_dirs):
    model = CardModel.load(model_dirs["passe-eclair"])
    assert ghost_faces(deck_card_ids("passe-eclair"), model.faces) == {}
    without_dog = {c: f for c, f in model.faces.items() if c != "dog"}
    assert ghost_faces(deck_card_ids("passe-eclair"), without_dog) == {}   # "dog" has no parts to piece
    assert id_parts("purple-12") == ("purple", "12") and id_parts("michi") is None and id_parts("a-b-c") is None


def test_too_few_faces_to_piece_give_no_ghost(model_dirs):
    model = CardModel.load(model_dirs["pass-pass"])
    two = {c: model.faces[c] for c in ("purple-1", "blue-2")}
    assert ghost_faces(deck_card_ids("pass-pass"), two) == {}
