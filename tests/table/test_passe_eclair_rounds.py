"""End of a Passe Éclair round (victory and consolation tokens), spending consolation
tokens, and the end of the game after 9 rounds."""

from __future__ import annotations

from collections import Counter

import pytest

from table.passe_eclair import IllegalAction, Place, SpendConsolation, StartRound, arranged_game, describe, new_game

START = ("leon-marlon", None, 0.0)


def last_card_game(players=3, sizes=(2, 1), seed=0, **kw):
    """Seat 0 holds only Marlon → Fabi (it follows the start card); the others hold
    ``sizes`` cards that cannot follow."""
    fillers = ["vanessa-rocce", "rocce-fabi", "fabi-vanessa", "vanessa-fabi", "rocce-vanessa", "fabi-rocce"]
    hands, i = [["marlon-fabi"]], 0
    for size in sizes:
        hands.append(fillers[i:i + size])
        i += size
    return arranged_game(players, hands=hands, pile=[START], seed=seed, **kw)


def event(outcome, kind):
    return next(e for e in outcome.events if e["type"] == kind)


def test_placing_the_last_card_wins_the_round_and_a_victory_token():
    game = last_card_game(coach=2)
    outcome = game.apply(Place(0, "marlon-fabi", t=1.0))
    won = event(outcome, "round_won")
    assert won["seat"] == 0 and won["round"] == 1 and won["hand_sizes"] == [0, 2, 1]
    assert game.victory_tokens[0] == [won["points"]] and len(game.victory_pool) == 8
    assert Counter(game.victory_pool) + Counter([won["points"]]) == Counter([1, 1, 1, 2, 2, 2, 3, 3, 3])
    assert "gagne le tour 1" in describe(won, "fr") and "wins round 1" in describe(won, "en")


def test_the_victory_token_is_drawn_at_random_from_those_left_with_the_seeded_rng():
    def token(seed):
        game = last_card_game(seed=seed)
        return event(game.apply(Place(0, "marlon-fabi", t=1.0)), "round_won")["points"]
    assert token(5) == token(5)
    assert {token(seed) for seed in range(30)} == {1, 2, 3}


def test_after_a_round_all_cards_go_to_the_box_and_the_winner_deals_from_the_draw_pile():
    draw = ["fabi-leon", "leon-rocce", "dog", "michi", "rocce-leon"]
    game = last_card_game(coach=2, draw=draw, rest_to="box")
    outcome = game.apply(Place(0, "marlon-fabi", t=1.0))
    assert outcome.types() == ["placed", "round_won", "consolation", "pile_to_box", "hands_to_box", "reshuffle", "deal"]
    assert event(outcome, "hands_to_box")["count"] == 3 and event(outcome, "pile_to_box")["count"] == 2
    assert (game.round, game.coach, game.phase) == (2, 0, "dealt") and game.pile == []
    assert game.hand_sizes() == [7, 7, 7]
    # the first five cards dealt are the old draw pile's, top first, one per seat in turn
    assert [game.hands[0][0], game.hands[1][0], game.hands[2][0], game.hands[0][1], game.hands[1][1]] == draw[::-1]
    assert game.draw_size + game.box_size == 60 - 21
    game.apply(StartRound(t=2.0))
    assert game.phase == "playing" and game.top is not None


def test_the_player_with_most_cards_left_takes_a_consolation_token():
    game = last_card_game(sizes=(1, 3))
    outcome = game.apply(Place(0, "marlon-fabi", t=1.0))
    cons = event(outcome, "consolation")
    assert cons["seat"] == 2 and cons["cards"] == 3 and game.consolation_tokens[2] == [cons["token"]]
    assert len(game.consolation_pool) == 8 and "consolation" in describe(cons, "en")


def test_a_tie_for_most_cards_gives_no_consolation_token():
    game = last_card_game(sizes=(2, 2))
    outcome = game.apply(Place(0, "marlon-fabi", t=1.0))
    tie = event(outcome, "no_consolation")
    assert tie["reason"] == "tie" and tie["seats"] == [1, 2] and "consolation" not in outcome.types()
    assert len(game.consolation_pool) == 9 and game.consolation_tokens == [[], [], []]
    assert "Égalité" in describe(tie, "fr")


def test_four_players_tie_for_most_gives_none_but_a_unique_most_gets_one():
    tie = last_card_game(players=4, sizes=(2, 1, 2))
    assert event(tie.apply(Place(0, "marlon-fabi", t=1.0)), "no_consolation")["seats"] == [1, 3]
    unique = last_card_game(players=4, sizes=(1, 3, 2))
    assert event(unique.apply(Place(0, "marlon-fabi", t=1.0)), "consolation")["seat"] == 2


def test_never_a_consolation_token_in_the_two_player_game():
    game = last_card_game(players=2, sizes=(6,))
    outcome = game.apply(Place(0, "marlon-fabi", t=1.0))
    assert "consolation" not in outcome.types() and "no_consolation" not in outcome.types()
    assert game.consolation_tokens == [[], []] and len(game.consolation_pool) == 9


def test_no_consolation_token_when_none_is_left():
    game = last_card_game(sizes=(1, 3), consolation_pool=[],
                          consolation_tokens=[["goal-1", "goal-1", "leon"], ["goal-1", "marlon"],
                                              ["goal-1", "rocce", "fabi", "vanessa"]])
    assert event(game.apply(Place(0, "marlon-fabi", t=1.0)), "no_consolation")["reason"] == "none_left"


def dealt_with_tokens():
    """Round 2 dealt; seat 1 holds a Léon and a goal consolation token."""
    hands = [["fabi-leon"] * 2 + ["dog"] * 5, ["leon-marlon", "leon-rocce", "rocce-leon"] + ["dog"] * 4,
             ["michi"] * 7]
    return arranged_game(3, hands=hands, phase="dealt", round=2, consolation_pool=["goal-1"] * 3 +
                         ["marlon", "rocce", "fabi", "vanessa"], consolation_tokens=[[], ["leon", "goal-1"], []],
                         victory_pool=[1, 1, 2, 2, 2, 3, 3, 3], victory_tokens=[[1], [], []])


def test_a_footballer_consolation_token_discards_one_card_with_that_footballer_big():
    game = dealt_with_tokens()
    outcome = game.apply(SpendConsolation(1, "leon", "leon-rocce"))
    assert outcome.events == [{"type": "consolation_spent", "seat": 1, "token": "leon", "card": "leon-rocce",
                               "cards_left": 6}]
    assert game.consolation_tokens[1] == ["goal-1"] and game.spent_tokens[1] == ["leon"]
    assert "leon-rocce" not in game.hands[1] and game.box[-1] == "leon-rocce"
    assert game.goal_points() == [1, 1, 0]  # a spent footballer token was worth nothing anyway
    with pytest.raises(IllegalAction) as info:
        game.apply(SpendConsolation(1, "leon", "leon-marlon"))
    assert info.value.code == "no_such_token"


@pytest.mark.parametrize("action, code", [
    (SpendConsolation(1, "leon", "rocce-leon"), "card_not_of_token"),  # Léon is small there, not big
    (SpendConsolation(1, "leon", "leon-fabi"), "not_in_hand"),
    (SpendConsolation(0, "leon", "fabi-leon"), "no_such_token"),
    (SpendConsolation(1, "marlon", "leon-marlon"), "no_such_token"),
])
def test_spending_refusals_change_nothing(action, code):
    game = dealt_with_tokens()
    before = game.to_dict()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.code == code and info.value.fr and game.to_dict() == before


def test_tokens_are_spent_only_at_the_start_of_a_round():
    game = dealt_with_tokens()
    game.apply(StartRound(t=0.0))
    with pytest.raises(IllegalAction) as info:
        game.apply(SpendConsolation(1, "leon", "leon-rocce"))
    assert info.value.code == "playing"


def test_a_token_won_in_one_round_is_spent_at_the_start_of_the_next():
    game = last_card_game(sizes=(1, 3), consolation_pool=["marlon"], draw=["marlon-leon", "dog", "dog"],
                          rest_to="box", consolation_tokens=[["goal-1"] * 4, ["leon", "rocce"], ["fabi", "vanessa"]])
    game.apply(Place(0, "marlon-fabi", t=1.0))
    assert game.consolation_tokens[2] == ["fabi", "vanessa", "marlon"] and game.phase == "dealt"
    assert game.hands[2][0] == "marlon-leon"  # dealt third, from the top of the old draw pile
    game.apply(SpendConsolation(2, "marlon", "marlon-leon"))
    assert game.hand_sizes() == [7, 7, 6] and game.spent_tokens[2] == ["marlon"]


def final_round(victory_tokens, consolation_tokens, consolation_pool, sizes=(1, 3)):
    return last_card_game(sizes=sizes, round=9, victory_pool=[3], victory_tokens=victory_tokens,
                          consolation_tokens=consolation_tokens, consolation_pool=consolation_pool)


def test_after_nine_rounds_most_goal_points_win_and_a_tie_is_shared():
    game = final_round([[1, 2, 2], [1, 3, 3], [1, 2]], [["goal-1", "marlon"], ["goal-1", "goal-1"], ["goal-1", "leon"]],
                       ["rocce", "fabi", "vanessa"])
    assert game.goal_points() == [6, 9, 4] and game.winners() == [] and not game.is_over()
    outcome = game.apply(Place(0, "marlon-fabi", t=1.0))
    assert outcome.types()[-1] == "game_over" and "deal" not in outcome.types()
    assert game.is_over() and game.round == 9 and game.phase == "game_over"
    assert game.goal_points() == [9, 9, 4] and game.scores() == [9, 9, 4] and game.winners() == [0, 1]
    assert outcome.events[-1] == {"type": "game_over", "winners": [0, 1], "goal_points": [9, 9, 4]}
    assert "Joueur 1, Joueur 2 gagne" in describe(outcome.events[-1], "fr")
    assert game.hand_sizes() == [0, 0, 0] and game.draw_size + game.box_size == 60
    with pytest.raises(IllegalAction) as info:
        game.apply(StartRound())
    assert info.value.code == "game_over"


def test_consolation_goal_points_can_decide_the_game():
    game = final_round([[1, 2, 2], [1, 3, 3], [1, 2]], [["goal-1"], ["goal-1"], ["goal-1", "goal-1", "leon"]],
                       ["marlon", "rocce", "fabi", "vanessa"])
    game.apply(Place(0, "marlon-fabi", t=1.0))
    assert game.goal_points() == [9, 8, 5] and game.winners() == [0]


def test_the_game_lasts_as_many_rounds_as_victory_tokens():
    game = new_game(3, seed=2)
    assert game.rounds == 9 and game.round == 1
