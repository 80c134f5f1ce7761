"""The simulated Passe Éclair camera table with two cards landing together (the
``together`` fault): two arms slap cards on the pile a few frames apart, the upper card is
taken back by its player's arm. Rendered frames through the real pipeline into a session:
the page ends with the lower card on the pile, its player's, and the hand sizes of the
truth; every pile fact from the camera or a person answering it, nothing from ``sim``."""

from __future__ import annotations

import pytest

from hardware.sim_eclair import CameraPasseEclairTable, RoundFigures

PILE_FACTS = {"card_seen", "card_unknown", "passe_eclair.place", "passe_eclair.start_card"}


@pytest.fixture(scope="module")
def model(rendered_decks):
    return rendered_decks("passe-eclair")


def _pile(session):
    return [(e["card"], e["by"]) for e in session.snapshot()["view"]["pile"]]


def _camera_only(session):
    log = list(session.log.read())
    assert not [o for o in log if o.source == "sim"]
    facts = [o for o in log if o.kind in PILE_FACTS]
    assert facts and {o.source for o in facts} == {"camera"}          # nothing typed onto the pile
    assert {o.source for o in log if o.kind == "resolve"} <= {"dashboard"}


def test_a_pair_slapped_together_leaves_the_lower_card_its_players(model, session):
    """Inès (2) slaps Fabi → Rocce, Léa (0) Fabi → Léon on it 2 frames later; Léa takes hers
    back. The page placed Fabi → Léon on top, then Fabi → Rocce on it for Léa's hand."""
    table = CameraPasseEclairTable(session, model, seed=3, players=(3,))
    table.new_game()
    table._lay("leon-marlon", None)
    table._lay("marlon-fabi", 1)
    table._lay_together("fabi-rocce", 2, "fabi-leon", 0, 0.07)
    assert _pile(session) == [("leon-marlon", None), ("marlon-fabi", 1), ("fabi-rocce", 2)]
    assert session.snapshot()["view"]["hand_sizes"] == [7, 6, 6]
    assert session.snapshot()["alerts"] == [] and table._fig.wrong == [] and table._fig.tapped_in == 0
    assert table._fig.questions <= 3     # which card (the two make one blob), who laid it, under or on
    assert any("landed together" in line["text"]["en"] for line in session.snapshot()["feed"])
    _camera_only(session)


def test_with_the_together_fault_the_page_keeps_the_truths_pile_and_hands(model, session):
    table = CameraPasseEclairTable(session, model, seed=41, players=(3,), faults="together@1.0")
    table.new_game()
    fig = RoundFigures()
    for _ in range(10):
        if not table.step(fig):
            break
    assert fig.wrong == []
    together = [line for line in session.snapshot()["feed"] if "landed together" in line["text"]["en"]]
    assert len(together) >= 2                                          # pairs laid, the upper cards back
    view = session.snapshot()["view"]
    assert view["pile_size"] == len(table.mind.pile)
    assert _pile(session) == [(e.card, e.by) for e in table.mind.pile][-len(view["pile"]):]
    assert view["hand_sizes"] == table.mind.hand_sizes()
    assert session.snapshot()["alerts"] == []
    _camera_only(session)


def test_a_pile_boxed_before_the_tap_is_one_question_and_the_new_card_is_the_start_card(model, session):
    """(The ``boxed`` fault, beside the together one.) No one can play: the players box the
    pile and the coach turns the next card before anyone taps. The camera sees the pile
    leave and a card on the empty pile: asked "could no one play?", yes: the new start card
    (it was placed as the coach's card on the old pile)."""
    table = CameraPasseEclairTable(session, model, seed=3, players=(3,))
    table.new_game()
    coach = table.mind.coach
    table._lay("leon-marlon", None)
    table._lay("marlon-fabi", (coach + 1) % 3)
    table._lay("fabi-rocce", (coach + 2) % 3)
    sizes = session.snapshot()["view"]["hand_sizes"]
    table._boxing = True
    table._clear()
    table._lay("rocce-leon", None)
    view = session.snapshot()["view"]
    assert [(e["card"], e["by"]) for e in view["pile"]] == [("rocce-leon", None)]
    assert view["phase"] == "playing" and view["hand_sizes"] == sizes
    assert table._fig.asked == {"camera_boxed": 1} and session.snapshot()["alerts"] == []
    assert not [o for o in session.log.read() if o.kind == "passe_eclair.blocked"]   # never typed
    _camera_only(session)
