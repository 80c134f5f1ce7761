"""Rules-audit fixes of issue 13: a card reported late is judged where it landed (not sent
back when it landed seconds earlier), the together window works in landing order, and a
Gros Michi entered as ``MichiSwap`` is checked for "together" like any card."""

from __future__ import annotations

from table.passe_eclair import MichiSwap, Place, arranged_game

START = ("leon-marlon", None, 0.0)


def table3(strict=True):
    return arranged_game(3, hands=[["marlon-fabi", "fabi-rocce", "dog"], ["marlon-rocce", "michi", "rocce-leon"],
                                   ["fabi-vanessa", "rocce-vanessa", "leon-fabi"]], pile=[START], strict=strict)


def test_a_card_reported_late_that_landed_5_s_earlier_is_judged_where_it_landed():
    game = table3(strict=False)
    game.apply(Place(1, "marlon-rocce", t=6.0, answers=0))
    outcome = game.apply(Place(0, "marlon-fabi", t=1.0))           # landed 5 s earlier, reported now
    placed, = [e for e in outcome.events if e["type"] == "placed"]
    assert placed["on"] == "leon-marlon" and placed["wrong"] is None and placed["landed_before"] == [1]
    assert [e.card for e in game.pile] == ["leon-marlon", "marlon-fabi", "marlon-rocce"]
    assert game.hand_sizes() == [2, 2, 3]                           # nobody takes a card back
    assert game.pile[-1].wrong["code"] == "wrong_footballer"        # Marlon → Rocce does not go on Marlon → Fabi


def test_within_the_window_the_card_that_landed_first_stays_whatever_the_order_of_reports():
    game = table3()
    game.apply(Place(1, "marlon-rocce", t=1.0))
    outcome = game.apply(Place(0, "marlon-fabi", t=0.95))          # landed 50 ms before, reported after
    assert [(e["type"], e["seat"]) for e in outcome.events] == [("placed", 0), ("returned_to_hand", 1)]
    assert game.top == "marlon-fabi" and "marlon-rocce" in game.hands[1]
    again = table3()
    again.apply(Place(1, "marlon-rocce", t=1.0))
    back = again.apply(Place(0, "marlon-fabi", t=1.1)).events       # landed after, within the window
    assert [e["type"] for e in back] == ["returned_to_hand"] and again.top == "marlon-rocce"


def test_a_gros_michi_entered_as_a_swap_is_checked_for_together():
    game = table3()
    game.apply(Place(0, "marlon-fabi", t=1.0, answers=0))
    hands = [list(h) for h in game.hands]
    outcome = game.apply(MichiSwap(1, 2, t=1.05))
    assert [e["type"] for e in outcome.events] == ["returned_to_hand"]
    assert outcome.events[0]["card"] == "michi" and outcome.events[0]["reason"] == "together"
    assert [list(h) for h in game.hands] == hands and game.top == "marlon-fabi"
