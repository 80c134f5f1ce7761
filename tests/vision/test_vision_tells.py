"""A card whose tell (what tells it from its look-alikes) lies under another card on top of it is
not named (``vision.tells``, ``recognise.TELLS_HIDDEN``): Passe Éclair's ``marlon-leon`` with
``vanessa-leon`` over its medallion reads like ``marlon-rocce``.

Issue 12's second style, development scenes, the cards at their true corners."""

from __future__ import annotations

import pytest

from tests.bench.eval_vision_style2 import deck_for, design_for, enrol_cards
from tests.vision.style2 import evaluation_scene
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


@pytest.mark.parametrize("seed, under, over", [(438, "marlon-leon", "vanessa-leon"), (827, "purple-12", "yellow-7")])
def test_a_card_whose_tell_lies_under_the_card_on_top_is_hidden_the_one_on_top_is_not(tells, seed, under, over):
    scene, _ = evaluation_scene(seed)
    truth = {t.card: t for t in scene.cards}
    assert truth[over].visible_fraction == 1.0 and truth[under].visible_fraction < 0.8   # which lies on top
    lying = {c: CardMatch(c, c, 0.95, 0.3, truth[c].corners) for c in (under, over)}
    assert tells[seed].hidden(scene.image, lying[under], list(lying.values()))
    assert not tells[seed].hidden(scene.image, lying[over], list(lying.values()))


def test_a_cards_look_alikes_are_its_familys(tells):
    # marlon-leon's tells: where marlon-rocce, marlon-fabi and marlon-vanessa differ from it (not vanessa-leon,
    # another player with the same medallion), each a part of the card (22-46 % on this full-bleed design)
    assert len(tells[438].tells["marlon-leon"]) == 3
    assert all(0 < t.mean() < 0.5 for t in tells[438].tells["marlon-leon"])
    assert len(tells[827].tells["purple-12"]) == 11 and "yellow-7" not in tells[827].tells


def test_a_card_read_as_its_look_alike_under_another_is_left_unnamed(monkeypatch):
    """Fresh scene 3,051,478 (third fresh set, thirty-fourth session): a ``fabi-leon`` partly under
    another card was named ``fabi-rocce``; with its tell under the card on top, it is left unnamed."""
    from vision import recognise
    from vision.detect import CardDetector
    from vision.recognise import CardRecogniser

    scene, background = evaluation_scene(3_051_478)
    model = enrol_cards(deck_for(3_051_478), design_for(3_051_478))

    def named():
        return [m.card for m in CardRecogniser(model, CardDetector(background=background)).recognise(scene.image)]

    truth = [t.card for t in scene.cards]
    assert "fabi-leon" in truth and "fabi-rocce" not in truth
    assert "fabi-rocce" not in named()
    monkeypatch.setattr(recognise, "TELLS_HIDDEN", False)
    assert "fabi-rocce" in named()
