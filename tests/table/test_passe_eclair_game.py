"""The Passe Éclair engine during a round: placements in real time, together, overtaken,
wrong cards, blocked play, the Gros Michi, draw-pile exhaustion, refusals."""

from __future__ import annotations

import json

import pytest

from table.passe_eclair import (
    Blocked,
    IllegalAction,
    MichiSwap,
    Place,
    Simultaneous,
    SpendConsolation,
    SpotWrong,
    StartRound,
    arranged_game,
    describe,
    new_game,
)

START = ("leon-marlon", None, 0.0)  # a start card turned by the coach, serial 0


def snapshot(game) -> str:
    return json.dumps(game.to_dict(), sort_keys=True)


def table3(strict=True, **kw):
    """Three players on the start card Léon → Marlon (serial 0)."""
    hands = kw.pop("hands", [["marlon-fabi", "fabi-rocce", "dog"],
                             ["marlon-rocce", "michi", "rocce-leon"],
                             ["fabi-vanessa", "rocce-vanessa", "leon-fabi"]])
    return arranged_game(3, hands=hands, pile=kw.pop("pile", [START]), strict=strict, **kw)


def refused(game, action, code):
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.code == code, info.value.en
    assert info.value.fr and info.value.fr != info.value.en
    assert snapshot(game) == before  # a refusal changes nothing
    return info.value


# ---- setup and start card -----------------------------------------------------------------
def test_new_game_shuffles_with_the_seed_and_deals_seven_each():
    a, b, c = new_game(4, seed=11, coach=2), new_game(4, seed=11, coach=2), new_game(4, seed=12)
    assert a.hand_sizes() == [7, 7, 7, 7] and a.draw_size == 60 - 28 and a.box_size == 0 and a.pile == []
    assert a.hands == b.hands and a.draw_pile == b.draw_pile
    assert a.hands != c.hands
    assert (a.phase, a.round, a.coach) == ("dealt", 1, 2)
    assert a.legal_actions() == {0: [], 1: [], 2: [], 3: []}


def test_the_coach_turns_a_start_card_skipping_dogs_and_michis():
    game = arranged_game(3, hands=[["dog"]] * 3, phase="dealt", coach=1,
                         draw=["leon-fabi", "vanessa-fabi", "michi", "dog", "michi"], rest_to="box")
    outcome = game.apply(StartRound(t=5.0))
    start = [e for e in outcome.events if e["type"] == "start_card"][0]
    assert start["seat"] == 1 and start["card"] == "vanessa-fabi" and start["skipped"] == ["michi", "dog", "michi"]
    assert [p.card for p in game.pile] == ["michi", "dog", "michi", "vanessa-fabi"]
    assert all(p.by is None for p in game.pile) and game.top == "vanessa-fabi"
    assert game.draw_pile == ["leon-fabi"] and game.phase == "playing"


def test_placing_before_the_start_card_is_refused():
    game = new_game(3, seed=1)
    refused(game, Place(0, game.hands[0][0], t=0.1), "not_started")


# ---- placing ------------------------------------------------------------------------------
def test_a_legal_card_goes_from_hand_to_pile_with_a_full_event():
    game = table3()
    outcome = game.apply(Place(1, "marlon-rocce", t=1.0, answers=0))
    (event,) = outcome.events
    assert event == {"type": "placed", "seat": 1, "card": "marlon-rocce", "serial": 1, "on": "leon-marlon",
                     "on_serial": 0, "answers": 0, "overtaken": False, "t": 1.0, "wrong": None, "cards_left": 2}
    assert game.top == "marlon-rocce" and game.top_entry.by == 1 and "marlon-rocce" not in game.hands[1]
    assert describe(event, "fr") == "Joueur 2 pose Marlon → Rocce sur Léon → Marlon."
    assert describe(event, "en", names=["Ann", "Bob", "Cy"]) == "Bob places Marlon → Rocce on Léon → Marlon."


def test_a_card_that_does_not_follow_is_refused_with_the_reason():
    game = table3()
    problem = refused(game, Place(0, "fabi-rocce", t=1.0), "wrong_footballer")
    assert "Marlon" in problem.en and "Marlon" in problem.fr


def test_no_two_footballer_cards_in_a_row_by_one_player_at_three():
    game = table3(hands=[["dog", "fabi-leon"], ["marlon-rocce", "rocce-leon", "vanessa-fabi"], ["fabi-vanessa"]])
    game.apply(Place(1, "marlon-rocce", t=1.0))
    refused(game, Place(1, "rocce-leon", t=3.0), "own_card")
    assert game.legal_actions() == {0: ["dog"], 1: [], 2: []}
    game.apply(Place(0, "dog", t=4.0))  # someone else places a card in between...
    game.apply(Place(1, "rocce-leon", t=5.0))  # ...and the player may go on
    assert game.top == "rocce-leon"


def test_at_two_players_one_player_may_chain():
    game = arranged_game(2, hands=[["marlon-rocce", "rocce-leon", "dog"], ["fabi-vanessa"]], pile=[START])
    game.apply(Place(0, "marlon-rocce", t=1.0))
    assert game.legal_actions()[0] == ["dog", "rocce-leon"]
    game.apply(Place(0, "rocce-leon", t=1.5))
    assert [p.by for p in game.pile] == [None, 0, 0]


def test_the_dogs_player_may_place_on_it_straight_away_and_so_may_others():
    game = table3()
    game.apply(Place(0, "dog", t=1.0))
    assert game.legal_actions() == {0: ["fabi-rocce", "marlon-fabi"], 1: ["marlon-rocce", "michi", "rocce-leon"],
                                    2: ["fabi-vanessa", "leon-fabi", "rocce-vanessa"]}
    game.apply(Place(0, "fabi-rocce", t=1.3))
    assert game.top == "fabi-rocce" and game.top_entry.by == 0


def test_another_player_may_get_a_card_in_between_dog_and_second_card():
    game = table3()
    game.apply(Place(0, "dog", t=1.0))
    game.apply(Place(2, "leon-fabi", t=1.4))
    refused(game, Place(0, "marlon-fabi", t=1.6), "wrong_footballer")  # lands on Léon → Fabi now
    game.apply(Place(0, "fabi-rocce", t=1.7))
    assert [p.card for p in game.pile] == ["leon-marlon", "dog", "leon-fabi", "fabi-rocce"]


# ---- real time: together, overtaken, simultaneous -----------------------------------------
def test_a_card_landing_within_the_window_goes_back_to_hand():
    game = table3()
    game.apply(Place(1, "marlon-rocce", t=1.0, answers=0))
    outcome = game.apply(Place(0, "marlon-fabi", t=1.1, answers=0))
    assert outcome.events == [{"type": "returned_to_hand", "seat": 0, "card": "marlon-fabi", "reason": "together",
                               "under_serial": 1, "t": 1.1}]
    assert game.top == "marlon-rocce" and "marlon-fabi" in game.hands[0] and len(game.pile) == 2
    assert "reprend" in describe(outcome.events[0], "fr") and "lower" in describe(outcome.events[0], "en")


def test_the_window_is_configurable_and_the_same_seat_never_collides():
    game = table3(together_window=0.05)
    game.apply(Place(1, "marlon-rocce", t=1.0))
    game.apply(Place(2, "rocce-vanessa", t=1.1))  # 0.1 s later: outside a 0.05 s window
    assert game.top == "rocce-vanessa"
    game = table3()
    game.apply(Place(0, "dog", t=1.0))
    game.apply(Place(0, "marlon-fabi", t=1.01))  # one hand places one card after the other
    assert game.top == "marlon-fabi"


def test_answering_the_top_card_is_never_together_with_it():
    game = table3()
    game.apply(Place(1, "marlon-rocce", t=1.0))
    game.apply(Place(2, "rocce-vanessa", t=1.05, answers=1))
    assert game.top == "rocce-vanessa"


def test_an_overtaken_card_is_judged_against_the_card_it_lands_on():
    strict = table3()
    strict.apply(Place(1, "marlon-rocce", t=1.0, answers=0))
    refused(strict, Place(0, "marlon-fabi", t=1.5, answers=0), "wrong_footballer")  # fitted only the start card
    event = strict.apply(Place(2, "rocce-vanessa", t=1.6, answers=0)).events[0]  # happens to fit the new top
    assert event["overtaken"] and event["on"] == "marlon-rocce" and event["wrong"] is None
    assert "déjà couverte" in describe(event, "fr")
    lenient = table3(strict=False)
    lenient.apply(Place(1, "marlon-rocce", t=1.0, answers=0))
    event = lenient.apply(Place(0, "marlon-fabi", t=1.5, answers=0)).events[0]
    assert event["overtaken"] and event["wrong"]["code"] == "wrong_footballer"
    assert lenient.top == "marlon-fabi"


def test_simultaneous_keeps_the_earliest_and_returns_the_others():
    game = table3()
    outcome = game.apply(Simultaneous((Place(0, "marlon-fabi", t=1.02), Place(1, "marlon-rocce", t=1.0),
                                       Place(2, "fabi-vanessa", t=1.01))))
    assert outcome.types() == ["returned_to_hand", "returned_to_hand", "placed"]
    assert [e["seat"] for e in outcome.events] == [2, 0, 1]
    assert game.top == "marlon-rocce" and game.hand_sizes() == [3, 2, 3]


def test_simultaneous_on_equal_times_keeps_the_first_listed():
    game = table3()
    game.apply(Simultaneous((Place(0, "marlon-fabi", t=1.0), Place(1, "marlon-rocce", t=1.0))))
    assert game.top == "marlon-fabi" and game.hand_sizes() == [2, 3, 3]


def test_simultaneous_with_an_illegal_lowest_card_is_refused_as_a_whole_in_strict_mode():
    game = table3()
    refused(game, Simultaneous((Place(0, "fabi-rocce", t=1.0), Place(1, "marlon-rocce", t=1.1))),
            "wrong_footballer")
    refused(game, Simultaneous((Place(0, "marlon-fabi", t=1.0), Place(1, "fabi-leon", t=1.1))), "not_in_hand")


def test_simultaneous_landing_together_with_the_top_sends_all_back():
    game = table3()
    game.apply(Place(1, "marlon-rocce", t=1.0))
    outcome = game.apply(Simultaneous((Place(0, "marlon-fabi", t=1.05), Place(2, "rocce-vanessa", t=1.06))))
    assert outcome.types() == ["returned_to_hand", "returned_to_hand"] and game.top == "marlon-rocce"


# ---- wrong cards (lenient, physical-table mode) ---------------------------------------------
def test_a_wrong_card_lies_flagged_until_spotted_then_goes_back_with_a_penalty_card():
    game = table3(strict=False, draw=["vanessa-rocce", "fabi-leon"], rest_to="box")
    placed = game.apply(Place(0, "fabi-rocce", t=1.0)).events[0]
    assert placed["wrong"]["code"] == "wrong_footballer" and "MAUVAISE CARTE" in describe(placed, "fr")
    assert game.pile[-1].wrong == placed["wrong"]
    game.apply(Place(1, "rocce-leon", t=2.0))  # played on the wrong card as it lies there
    outcome = game.apply(SpotWrong(0, t=3.0))
    assert outcome.types() == ["returned_to_hand", "penalty_draw"]
    assert outcome.events[0]["reason"] == "spotted" and outcome.events[1]["card"] == "fabi-leon"
    assert sorted(game.hands[0]) == sorted(["marlon-fabi", "dog", "fabi-rocce", "fabi-leon"])
    assert [p.card for p in game.pile] == ["leon-marlon", "rocce-leon"] and game.draw_pile == ["vanessa-rocce"]
    refused(game, SpotWrong(0), "nothing_to_spot")


def test_spotting_a_correct_card_or_in_strict_mode_is_refused():
    game = table3(strict=False)
    game.apply(Place(1, "marlon-rocce", t=1.0))
    refused(game, SpotWrong(1), "nothing_to_spot")
    refused(table3(), SpotWrong(0), "nothing_to_spot")


def test_a_wrong_last_card_does_not_win_the_round():
    game = table3(strict=False, hands=[["fabi-rocce"], ["marlon-rocce", "dog"], ["fabi-vanessa"]])
    outcome = game.apply(Place(0, "fabi-rocce", t=1.0))
    assert "round_won" not in outcome.types() and game.phase == "playing" and game.hands[0] == []
    game.apply(SpotWrong(0))
    assert len(game.hands[0]) == 2 and game.round == 1


def test_a_player_whose_wrong_cards_leave_with_the_pile_wins_with_an_empty_hand():
    game = table3(strict=False, hands=[["fabi-rocce"], ["vanessa-rocce"], ["fabi-vanessa"]])
    game.apply(Place(0, "fabi-rocce", t=1.0))
    outcome = game.apply(Blocked(t=5.0))  # nobody spotted it; the pile goes to the box
    assert "round_won" in outcome.types() and game.victory_tokens[0] and game.round == 2


# ---- blocked play ---------------------------------------------------------------------------
def test_blocked_is_refused_while_someone_can_play():
    game = table3()
    problem = refused(game, Blocked(), "not_blocked")
    assert "Léon → Marlon" in problem.fr


def test_when_no_one_can_play_the_pile_goes_to_the_box_and_the_coach_turns_a_new_card():
    game = table3(hands=[["fabi-rocce"], ["rocce-leon", "vanessa-leon"], ["fabi-vanessa"]], coach=2,
                  draw=["vanessa-fabi", "dog"], rest_to="box")
    assert game.is_blocked() and game.legal_actions() == {0: [], 1: [], 2: []}
    box_before = game.box_size
    outcome = game.apply(Blocked(t=9.0))
    assert outcome.types() == ["blocked", "pile_to_box", "start_card"]
    assert outcome.events[2]["seat"] == 2 and outcome.events[2]["skipped"] == ["dog"]
    assert game.top == "vanessa-fabi" and game.box_size == box_before + 1 and game.hand_sizes() == [1, 2, 1]
    assert "entraîneur" in describe(outcome.events[0], "fr")


def test_blocked_when_only_the_top_cards_player_holds_the_follower_but_not_at_two():
    hands3 = [["vanessa-leon"], ["marlon-rocce", "rocce-fabi"], ["vanessa-fabi"]]
    game = table3(hands=hands3)
    game.apply(Place(1, "marlon-rocce", t=1.0))
    assert game.is_blocked()
    game2 = arranged_game(2, hands=[["vanessa-leon"], ["marlon-rocce", "rocce-fabi"]], pile=[START])
    game2.apply(Place(1, "marlon-rocce", t=1.0))
    assert not game2.is_blocked()
    refused(game2, Blocked(), "not_blocked")


def test_lenient_blocked_is_recorded_with_who_could_have_played():
    game = table3(strict=False)
    event = game.apply(Blocked()).events[0]
    assert event["could_play"] == [0, 1] and "pouvait jouer" in describe(event, "fr")


# ---- the Gros Michi -------------------------------------------------------------------------
def test_gros_michi_on_a_dog_swaps_hands_and_its_player_turns_a_new_start_card():
    game = table3(draw=["fabi-leon", "dog", "michi"], rest_to="box")
    game.apply(Place(0, "dog", t=1.0))
    old1, old2 = list(game.hands[1]), list(game.hands[2])
    outcome = game.apply(MichiSwap(1, 2, t=2.0))
    assert outcome.types() == ["placed", "michi_swap", "pile_to_box", "start_card"]
    assert outcome.events[0]["on"] == "dog"
    assert game.hands[1] == old2 and game.hands[2] == [c for c in old1 if c != "michi"]
    start = outcome.events[3]
    assert start["seat"] == 1 and start["card"] == "fabi-leon" and start["skipped"] == ["michi", "dog"]
    assert game.pile[-1].by is None and game.top == "fabi-leon" and game.coach == 0
    assert "Gros Michi" in describe(outcome.events[1], "fr")


def test_gros_michi_placed_first_then_swapped_and_nothing_lands_in_between():
    game = table3()
    game.apply(Place(0, "dog", t=1.0))
    game.apply(Place(1, "michi", t=2.0))
    assert game.phase == "michi" and game.pending_michi == 1 and game.legal_actions()[2] == []
    refused(game, Place(2, "leon-fabi", t=2.5), "michi_pending")
    refused(game, MichiSwap(2, 0), "not_your_michi")
    refused(game, StartRound(), "michi_pending")
    outcome = game.apply(MichiSwap(1, 0, t=3.0))
    assert outcome.types()[:2] == ["michi_swap", "pile_to_box"] and game.phase == "playing"


def test_gros_michi_is_refused_unless_on_a_dog_or_blocked():
    game = table3()
    assert "michi" not in game.legal_actions()[1]
    refused(game, MichiSwap(1, 2), "michi_not_on_dog")
    refused(game, Place(1, "michi", t=1.0), "michi_not_on_dog")
    refused(game, MichiSwap(0, 2), "not_in_hand")
    refused(game, MichiSwap(1, 1), "swap_self")


def test_gros_michi_when_no_one_can_play():
    game = table3(hands=[["fabi-rocce"], ["michi", "vanessa-leon"], ["fabi-vanessa"]])
    assert game.is_blocked() and game.legal_actions() == {0: [], 1: ["michi"], 2: []}
    outcome = game.apply(MichiSwap(1, 0, t=4.0))
    assert outcome.events[0]["on"] == "leon-marlon" and outcome.events[0]["wrong"] is None
    assert game.hands[1] == ["fabi-rocce"] and game.hands[0] == ["vanessa-leon"]


def test_lenient_gros_michi_off_a_dog_is_recorded_flagged_and_the_swap_happens():
    game = table3(strict=False)
    old0 = list(game.hands[0])
    outcome = game.apply(MichiSwap(1, 0, t=2.0))
    assert outcome.events[0]["wrong"]["code"] == "michi_not_on_dog"
    assert outcome.types()[1:] == ["michi_swap", "pile_to_box", "start_card"] and game.hands[1] == old0


def test_gros_michi_as_last_card_makes_the_swapped_player_win():
    game = table3(hands=[["fabi-rocce", "dog"], ["michi"], ["fabi-vanessa", "vanessa-leon"]],
                  victory_pool=[2], victory_tokens=[[1, 1, 1], [2, 2], [3, 3, 3]], round=9)
    game.apply(Place(0, "dog", t=1.0))
    outcome = game.apply(MichiSwap(1, 2, t=2.0))
    won = [e for e in outcome.events if e["type"] == "round_won"][0]
    assert won["seat"] == 2 and won["hand_sizes"] == [1, 2, 0]
    assert game.victory_tokens[2] == [3, 3, 3, 2] and game.victory_tokens[1] == [2, 2]


# ---- the draw pile --------------------------------------------------------------------------
def test_an_empty_draw_pile_takes_the_shuffled_box_with_the_seeded_rng():
    def drawn(seed):
        game = table3(strict=False, draw=[], rest_to="box", seed=seed)
        box_before = game.box_size
        game.apply(Place(0, "fabi-rocce", t=1.0))
        outcome = game.apply(SpotWrong(0))
        assert outcome.types() == ["returned_to_hand", "reshuffle", "penalty_draw"]
        assert outcome.events[1]["count"] == box_before and game.box_size == 0
        assert game.draw_size == box_before - 1
        return game.draw_pile + [outcome.events[2]["card"]]
    assert drawn(3) == drawn(3)
    assert drawn(3) != drawn(4)
    assert sorted(drawn(3)) == sorted(drawn(4))


def test_with_draw_pile_and_box_empty_the_last_card_turned_stays_and_penalties_give_nothing():
    rest = arranged_game(3, hands=[[], [], []], pile=[("michi", None)], draw=["dog"], rest_to="box").box
    hands = [rest[0::3], rest[1::3], rest[2::3]]  # the players hold every other card
    game = arranged_game(3, hands=hands, pile=[("michi", None)], draw=["dog"], box=[], strict=False)
    outcome = game.apply(Blocked(t=1.0))
    assert outcome.types() == ["blocked", "pile_to_box", "reshuffle", "start_card"]
    start = outcome.events[-1]
    assert start["exhausted"] and start["card"] == "michi" and start["skipped"] == ["dog"]
    assert [p.card for p in game.pile] == ["dog", "michi"] and game.draw_size == game.box_size == 0
    card = next(c for c in game.hands[0] if c not in ("dog", "michi"))
    assert game.apply(Place(0, card, t=2.0)).events[0]["wrong"]["code"] == "nothing_on_michi"
    outcome = game.apply(SpotWrong(0))
    assert outcome.events[-1] == {"type": "penalty_draw", "seat": 0, "card": None, "cards_left": len(hands[0])}
    assert sorted(game.hands[0]) == sorted(hands[0])


# ---- refusals change nothing ------------------------------------------------------------------
@pytest.mark.parametrize("action, code", [
    (Place(0, "leon-fabi", t=1.0), "not_in_hand"),
    (Place(7, "dog", t=1.0), "bad_seat"),
    (Place(0, "dog", t=1.0, answers=99), "bad_answers"),
    (Place(2, "leon-fabi", t=1.0), "wrong_footballer"),
    (StartRound(), "playing"),
    (SpendConsolation(0, "marlon", "marlon-fabi"), "playing"),
    (MichiSwap(1, 5), "bad_seat"),
    (Blocked(), "not_blocked"),
    (SpotWrong(2), "nothing_to_spot"),
    ("place leon", "bad_action"),
])
def test_illegal_actions_change_nothing(action, code):
    refused(table3(), action, code)
