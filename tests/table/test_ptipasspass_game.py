"""PtiPassPass full-knowledge rules: every rule sentence, special case and ruling."""

from __future__ import annotations

import json

import pytest

from table.ptipasspass import (
    AbandonRound,
    AnnounceColour,
    CallDoublon,
    CallMenteur,
    CupShown,
    IllegalAction,
    NextRound,
    Pass,
    Place,
    Reveal,
    Swap,
    TokenShown,
    new_game,
)
from table.ptipasspass.playout import round_can_be_won

ONE_EACH = {"blue": 1, "green": 1, "orange": 1, "unknown": 0}


def drop(game, colour, cup, announce=None):
    """The active player places ``colour`` into ``cup``; nobody calls anything."""
    seat = game.active
    game.apply(Place(seat, colour, cup))
    game.apply(Pass())
    game.apply(AnnounceColour(seat, announce or colour))
    return game.apply(Pass())


def types(outcome):
    return [e["type"] for e in outcome.events]


# Three players, nine drops (seats 0, 1, 2, 0, 1, 2, ...): row 0 = b b g, row 1 = g g b,
# row 2 = o o o. Row 2 and column 0 win; rows 0 and 1 fail; swapping (0,2)-(1,2) makes
# row 0 all blue.
SETUP_A = [("blue", (0, 0)), ("blue", (0, 1)), ("green", (0, 2)),
           ("green", (1, 0)), ("green", (1, 1)), ("blue", (1, 2)),
           ("orange", (2, 0)), ("orange", (2, 1)), ("orange", (2, 2))]


def game_after(drops, players=3, first=0):
    game = new_game(players, first=first)
    for colour, cup in drops:
        drop(game, colour, cup)
    return game


# ---------------------------------------------------------------- setting up
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_new_game_gives_one_token_of_each_colour_and_empty_cups(players):
    game = new_game(players, first=players - 1)
    assert game.hands == [ONE_EACH] * players
    assert len(game.cups) == 3 * players and all(tokens == () for tokens in game.cups.values())
    assert game.victory_tokens == [0] * players and game.victory_pool == players + 1
    assert (game.phase, game.active, game.round) == ("name_cup", players - 1, 1)
    assert not game.is_over() and game.winners() == [] and game.scores() == [0] * players


@pytest.mark.parametrize("players", [2, 7, 0, "4", True, None])
def test_player_count_outside_three_to_six_is_refused_in_both_languages(players):
    with pytest.raises(IllegalAction) as refused:
        new_game(players)
    assert refused.value.code == "players"
    assert "3 to 6" in refused.value.text("en") and "3 à 6" in refused.value.text("fr")


def test_bad_mode_and_first_player_are_refused():
    with pytest.raises(IllegalAction) as refused:
        new_game(4, mode="psychic")
    assert refused.value.code == "mode"
    with pytest.raises(IllegalAction) as refused:
        new_game(4, first=4)
    assert refused.value.code == "bad_seat"


def test_first_player_can_be_drawn_from_a_seed():
    firsts = {new_game(5, first=None, seed=s).active for s in range(40)}
    assert firsts <= set(range(5)) and len(firsts) > 1
    assert new_game(5, first=None, seed=3).active == new_game(5, first=None, seed=3).active


# ---------------------------------------------------------------- place turn
def test_no_call_puts_the_token_in_the_named_cup_and_passes_left():
    game = new_game(4, first=2)
    assert game.apply(Place(2, "orange", (1, 3))).phase == "doublon_window"
    assert game.apply(Pass()).phase == "announce"
    assert game.apply(AnnounceColour(2, "orange")).phase == "menteur_window"
    outcome = game.apply(Pass())
    assert types(outcome) == ["no_call", "token_placed", "turn_started"]
    assert game.cups[(1, 3)] == ("orange",)
    assert game.hands[2] == {"blue": 1, "green": 1, "orange": 0, "unknown": 0}
    assert game.cup_knowledge[(1, 3)].claimed == ("orange",)
    assert (game.active, game.phase) == (3, "name_cup")
    drop(game, "blue", (0, 0))
    assert game.active == 0  # clockwise: seat + 1, wrapping round


def test_a_lie_nobody_catches_still_drops_the_real_token():
    game = new_game(3)
    drop(game, "blue", (0, 1), announce="green")
    assert game.cups[(0, 1)] == ("blue",)
    assert game.cup_knowledge[(0, 1)].claimed == ("green",)


def test_doublon_on_a_cup_holding_tokens_gives_them_all_to_the_active_player():
    game = game_after([("blue", (0, 0)), ("orange", (0, 0))])  # seat 0 then seat 1 (nobody called)
    assert game.cups[(0, 0)] == ("blue", "orange")
    game.apply(Place(2, "green", (0, 0)))
    outcome = game.apply(CallDoublon(1))
    assert types(outcome) == ["doublon_called", "cup_lifted", "doublon_resolved", "turn_started"]
    resolved = outcome.events[2]
    assert resolved["cup_held_tokens"] and resolved["taker"] == 2 and resolved["tokens"] == ["blue", "orange"]
    assert game.cups[(0, 0)] == ()
    assert game.hands[2] == {"blue": 2, "green": 1, "orange": 2, "unknown": 0}  # keeps the held green
    assert game.hands[1] == {"blue": 1, "green": 1, "orange": 0, "unknown": 0}
    assert game.cup_knowledge[(0, 0)].taken == ("blue", "orange")
    assert (game.active, game.phase) == (0, "name_cup")


def test_doublon_on_an_empty_cup_gives_the_held_token_to_the_accuser():
    game = new_game(3)
    game.apply(Place(0, "blue", (2, 2)))
    outcome = game.apply(CallDoublon(2))
    assert outcome.events[2]["cup_held_tokens"] is False and outcome.events[2]["taker"] == 2
    assert game.hands[0] == {"blue": 0, "green": 1, "orange": 1, "unknown": 0}
    assert game.hands[2] == {"blue": 2, "green": 1, "orange": 1, "unknown": 0}
    assert game.cups[(2, 2)] == ()
    assert game.active == 1


def test_menteur_on_a_lie_lets_the_liar_keep_the_token():
    game = new_game(3)
    game.apply(Place(0, "blue", (0, 0)))
    game.apply(Pass())
    game.apply(AnnounceColour(0, "orange"))
    outcome = game.apply(CallMenteur(1))
    resolved = outcome.events[1]
    assert resolved["lied"] is True and resolved["shown"] == "blue" and resolved["taker"] == 0
    assert game.hands[0] == ONE_EACH and game.hands[1] == ONE_EACH
    assert game.cups[(0, 0)] == ()
    assert (game.active, game.phase) == (1, "name_cup")


def test_menteur_on_the_truth_gives_the_token_to_the_accuser():
    game = new_game(3)
    game.apply(Place(0, "blue", (0, 0)))
    game.apply(Pass())
    game.apply(AnnounceColour(0, "blue"))
    outcome = game.apply(CallMenteur(2))
    assert outcome.events[1]["lied"] is False and outcome.events[1]["taker"] == 2
    assert game.hands[0] == {"blue": 0, "green": 1, "orange": 1, "unknown": 0}
    assert game.hands[2] == {"blue": 2, "green": 1, "orange": 1, "unknown": 0}
    assert game.cups[(0, 0)] == ()


def test_announcing_a_colour_no_longer_held_is_simply_a_lie():
    game = new_game(3)
    game.apply(Place(0, "blue", (0, 0)))
    game.apply(CallDoublon(1))  # empty cup: seat 1 takes seat 0's blue
    drop(game, "green", (0, 1))  # seat 1
    drop(game, "green", (0, 2))  # seat 2
    game.apply(Place(0, "green", (1, 0)))
    game.apply(Pass())
    game.apply(AnnounceColour(0, "blue"))  # seat 0 holds no blue at all
    assert game.apply(CallMenteur(2)).events[1]["lied"] is True


def test_calls_follow_the_order_of_the_turn_and_only_the_first_counts():
    game = new_game(4)
    game.apply(Place(0, "green", (0, 0)))
    with pytest.raises(IllegalAction) as refused:
        game.apply(CallMenteur(1))  # no colour announced yet
    assert refused.value.code == "wrong_phase"
    with pytest.raises(IllegalAction) as refused:
        game.apply(CallDoublon(0))
    assert refused.value.code == "caller_is_active"
    game.apply(Pass())
    with pytest.raises(IllegalAction) as refused:
        game.apply(CallDoublon(1))  # too late: the cup was accepted
    assert refused.value.code == "wrong_phase" and "couleur" in refused.value.fr
    game.apply(AnnounceColour(0, "green"))
    game.apply(CallMenteur(3))
    with pytest.raises(IllegalAction):
        game.apply(CallMenteur(2))  # the turn is over: a second accuser is not heard


@pytest.mark.parametrize("action,code", [
    (Place(1, "blue", (0, 0)), "not_your_turn"),
    (Place(0, "purple", (0, 0)), "bad_colour"),
    (Place(0, None, (0, 0)), "colour_needed"),
    (Place(0, "blue", (3, 0)), "no_such_cup"),
    (Place(9, "blue", (0, 0)), "bad_seat"),
    (Swap(0, (0, 0), (0, 1)), "wrong_phase"),
    (Reveal(0, ((0, 0), (0, 1), (0, 2))), "wrong_phase"),
    (CupShown((0, 0), ()), "wrong_phase"),
    (TokenShown("blue"), "wrong_phase"),
    (NextRound(), "wrong_phase"),
    ("place blue", "bad_action"),
])
def test_refused_steps_at_the_start_change_nothing(action, code):
    game = new_game(3)
    before = game.to_dict()
    with pytest.raises(IllegalAction) as refused:
        game.apply(action)
    assert refused.value.code == code
    assert refused.value.text("fr") and refused.value.text("en")
    assert game.to_dict() == before


def test_a_colour_not_in_hand_cannot_be_held():
    game = game_after([("blue", (0, 0)), ("blue", (0, 1)), ("blue", (0, 2))])
    before = game.to_dict()
    with pytest.raises(IllegalAction) as refused:
        game.apply(Place(0, "blue", (1, 1)))
    assert refused.value.code == "colour_not_in_hand" and "bleu" in refused.value.fr
    assert game.to_dict() == before


# ---------------------------------------------------------------- reveal turn
def test_an_empty_hand_makes_a_reveal_turn():
    game = game_after(SETUP_A)
    assert game.hands == [{"blue": 0, "green": 0, "orange": 0, "unknown": 0}] * 3
    assert (game.active, game.phase) == (0, "swap_or_reveal")
    with pytest.raises(IllegalAction):
        game.apply(Place(0, "blue", (0, 0)))


def test_a_failed_reveal_without_swap_puts_the_cups_back_and_passes_on():
    game = game_after(SETUP_A)
    before = game.cups
    outcome = game.apply(Reveal(0, ((0, 0), (0, 1), (0, 2))))
    reveal = outcome.events[-2]
    assert reveal["type"] == "reveal" and reveal["won"] is False
    assert reveal["tokens"] == [["blue"], ["blue"], ["green"]]
    assert game.cups == before and game.victory_tokens == [0, 0, 0]
    assert (game.active, game.phase) == (1, "swap_or_reveal")


def test_a_winning_reveal_takes_a_victory_token_and_the_next_round_starts_left_of_the_winner():
    game = game_after(SETUP_A, first=1)  # seats 1, 2, 0, ...: seat 1 reveals first
    assert game.active == 1
    outcome = game.apply(Reveal(1, ((2, 2), (2, 1), (2, 0))))  # a line named backwards
    assert types(outcome) == ["reveal_started", "cup_lifted", "cup_lifted", "cup_lifted", "reveal",
                              "victory_token", "round_won"]
    assert outcome.events[4]["picks"] == ["orange"] * 3
    assert game.victory_tokens == [0, 1, 0] and game.victory_pool == 3
    assert game.phase == "round_over" and game.next_first == 2 and not game.is_over()
    assert game.legal_actions() == [NextRound()]
    outcome = game.apply(NextRound())
    assert types(outcome) == ["round_started", "turn_started"]
    assert (game.round, game.active, game.phase) == (2, 2, "name_cup")
    assert game.hands == [ONE_EACH] * 3 and all(t == () for t in game.cups.values())
    assert game.victory_tokens == [0, 1, 0]  # victory tokens stay across rounds


def test_swap_then_reveal_wins_with_the_swapped_contents():
    game = game_after(SETUP_A)
    game.apply(Swap(0, (0, 2), (1, 2)))
    assert game.cups[(0, 2)] == ("blue",) and game.cups[(1, 2)] == ("green",)
    outcome = game.apply(Reveal(0, ((0, 0), (0, 1), (0, 2))))
    assert outcome.events[-3]["won"] is True and game.victory_tokens[0] == 1


def test_swapped_cups_stay_swapped_after_a_failed_reveal():
    game = game_after(SETUP_A)
    game.apply(Swap(0, (0, 1), (0, 2)))
    outcome = game.apply(Reveal(0, ((0, 0), (0, 1), (0, 2))))
    assert outcome.events[-2]["won"] is False
    assert game.cups[(0, 1)] == ("green",) and game.cups[(0, 2)] == ("blue",)
    assert game.active == 1


def test_only_one_swap_of_two_contiguous_cups():
    game = game_after(SETUP_A)
    for a, b in (((0, 0), (1, 1)), ((0, 0), (0, 2)), ((0, 0), (0, 0))):
        with pytest.raises(IllegalAction) as refused:
            game.apply(Swap(0, a, b))
        assert refused.value.code == "not_contiguous"
    with pytest.raises(IllegalAction) as refused:
        game.apply(Swap(1, (0, 0), (0, 1)))
    assert refused.value.code == "not_your_turn"
    game.apply(Swap(0, (1, 0), (0, 0)))
    before = game.to_dict()
    with pytest.raises(IllegalAction) as refused:
        game.apply(Swap(0, (2, 0), (2, 1)))
    assert refused.value.code == "already_swapped" and game.to_dict() == before


@pytest.mark.parametrize("line", [((0, 0), (1, 1), (2, 1)), ((0, 0), (0, 1)), ((0, 0), (0, 1), (9, 9)), "row 0"])
def test_a_reveal_must_lift_three_aligned_contiguous_cups(line):
    game = game_after(SETUP_A)
    before = game.to_dict()
    with pytest.raises(IllegalAction) as refused:
        game.apply(Reveal(0, line))
    assert refused.value.code in {"not_a_line", "no_such_cup"}
    assert game.to_dict() == before


def test_a_diagonal_reveal_counts():
    game = game_after(SETUP_A)  # diagonal (0,0) (1,1) (2,2) = blue, green, orange
    outcome = game.apply(Reveal(0, ((0, 0), (1, 1), (2, 2))))
    assert outcome.events[-3]["won"] is True


def test_a_cup_with_several_tokens_lets_the_player_pick():
    # seat 1 drops its blue on seat 0's green (nobody calls Doublon!): (0,0) = green + blue.
    drops = [("green", (0, 0)), ("blue", (0, 0)), ("blue", (0, 2)),
             ("blue", (1, 0)), ("green", (1, 1)), ("green", (1, 2)),
             ("orange", (2, 0)), ("orange", (2, 1)), ("orange", (2, 2))]
    game = game_after(drops)
    assert game.cups[(0, 0)] == ("blue", "green") and game.cups[(0, 1)] == ()
    line = ((0, 0), (1, 0), (2, 0))   # green|blue, blue, orange
    with pytest.raises(IllegalAction) as refused:
        game.apply(Reveal(0, line, picks=("orange", "blue", "orange")))
    assert refused.value.code == "bad_picks"
    # Picks that make no set do not cost the win: the player picks what suits them best.
    outcome = game.apply(Reveal(0, line, picks=("blue", "blue", "orange")))
    reveal = outcome.events[-3]
    assert reveal["won"] is True and reveal["picks"] == ["green", "blue", "orange"]
    assert reveal["declared_picks"] == ["blue", "blue", "orange"]


def test_declared_picks_follow_their_cups_when_a_line_is_named_backwards():
    drops = [("green", (0, 0)), ("blue", (0, 0)), ("blue", (0, 2)),
             ("blue", (1, 0)), ("green", (1, 1)), ("green", (1, 2)),
             ("orange", (2, 0)), ("orange", (2, 1)), ("orange", (2, 2))]
    game = game_after(drops)
    # Column 0 named bottom-up: orange, blue, green|blue -> picks orange, blue, green.
    outcome = game.apply(Reveal(0, ((2, 0), (1, 0), (0, 0)), picks=("orange", "blue", "green")))
    reveal = outcome.events[-3]
    assert reveal["line"] == ((0, 0), (1, 0), (2, 0))
    assert reveal["picks"] == ["green", "blue", "orange"] == reveal["declared_picks"]


def test_a_line_with_an_empty_cup_fails():
    drops = [("green", (0, 0)), ("blue", (0, 0)), ("blue", (0, 2)),
             ("blue", (1, 0)), ("green", (1, 1)), ("green", (1, 2)),
             ("orange", (2, 0)), ("orange", (2, 1)), ("orange", (2, 2))]
    game = game_after(drops)
    outcome = game.apply(Reveal(0, ((0, 1), (1, 1), (2, 1))))  # (0,1) is empty
    assert outcome.events[-2]["won"] is False and game.victory_tokens == [0, 0, 0]


def test_the_second_victory_token_wins_the_game():
    game = game_after(SETUP_A)
    game.apply(Reveal(0, ((2, 0), (2, 1), (2, 2))))
    game.apply(NextRound())          # round 2 starts with seat 1
    for colour, cup in SETUP_A:      # seats 1, 2, 0, ... drop the same pattern
        drop(game, colour, cup)
    game.apply(Reveal(1, ((0, 0), (0, 1), (0, 2))))   # fails
    game.apply(Reveal(2, ((1, 0), (1, 1), (1, 2))))   # fails
    outcome = game.apply(Reveal(0, ((0, 0), (1, 0), (2, 0))))
    assert types(outcome)[-2:] == ["victory_token", "game_won"]
    assert game.is_over() and game.phase == "over"
    assert game.winners() == [0] and game.scores() == [2, 0, 0] and game.victory_pool == 2
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction) as refused:
        game.apply(NextRound())
    assert refused.value.code == "game_over"


def test_an_empty_handed_accuser_must_place_won_tokens_before_revealing():
    drops = [("blue", (0, 0)), ("blue", (0, 1)), ("blue", (0, 2)),
             ("green", (1, 0)), ("green", (1, 1)), ("green", (1, 2)), ("orange", (2, 0))]
    game = game_after(drops)
    assert game.hands[0] == {"blue": 0, "green": 0, "orange": 0, "unknown": 0}
    game.apply(Place(1, "orange", (2, 1)))
    game.apply(CallDoublon(0))        # empty-handed seat 0 calls on an empty cup and wins
    assert game.hands[0]["orange"] == 1 and game.hands[1]["orange"] == 0
    drop(game, "orange", (2, 2))      # seat 2
    assert (game.active, game.phase) == (0, "name_cup")
    with pytest.raises(IllegalAction) as refused:
        game.apply(Reveal(0, ((2, 0), (2, 1), (2, 2))))
    assert refused.value.code == "wrong_phase"
    drop(game, "orange", (2, 1))      # seat 0 places it
    assert (game.active, game.phase) == (1, "swap_or_reveal")


def test_menteur_by_an_empty_handed_player_too():
    drops = [("blue", (0, 0)), ("blue", (0, 1)), ("blue", (0, 2)),
             ("green", (1, 0)), ("green", (1, 1)), ("green", (1, 2)), ("orange", (2, 0))]
    game = game_after(drops)
    game.apply(Place(1, "orange", (2, 1)))
    game.apply(Pass())
    game.apply(AnnounceColour(1, "orange"))
    game.apply(CallMenteur(0))
    assert game.hands[0]["orange"] == 1


# ---------------------------------------------------------------- stuck rounds
def test_a_round_with_empty_hands_and_fewer_than_three_filled_cups_is_replayed():
    drops = [("blue", (0, 0)), ("blue", (0, 0)), ("blue", (0, 1)),
             ("green", (0, 0)), ("green", (0, 1)), ("green", (0, 1)),
             ("orange", (0, 0)), ("orange", (0, 0)), ("orange", (0, 1))]
    game = new_game(3)
    for colour, cup in drops[:-1]:
        drop(game, colour, cup)
    outcome = drop(game, *drops[-1])
    assert types(outcome)[-1] == "round_blocked"
    assert game.phase == "round_over" and game.next_first == 0 and game.victory_tokens == [0, 0, 0]
    game.apply(NextRound())
    assert (game.round, game.active, game.hands[0]) == (2, 0, ONE_EACH)


def test_the_table_may_abandon_a_round_no_reveal_can_win():
    # (0,0) = three blues and three greens, (0,1) = orange, (0,2) = two oranges: no set is possible.
    drops = [("blue", (0, 0)), ("blue", (0, 0)), ("blue", (0, 0)),
             ("green", (0, 0)), ("green", (0, 0)), ("green", (0, 0)),
             ("orange", (0, 1)), ("orange", (0, 2)), ("orange", (0, 2))]
    game = game_after(drops)
    assert game.phase == "swap_or_reveal" and not round_can_be_won(game)
    assert AbandonRound() in game.legal_actions()
    assert types(game.apply(AbandonRound())) == ["round_abandoned"]
    assert game.phase == "round_over" and game.next_first == 0


def test_abandoning_needs_every_hand_empty():
    drops = [("blue", (0, 0)), ("blue", (0, 1)), ("blue", (0, 2)),
             ("green", (1, 0)), ("green", (1, 1)), ("green", (1, 2)), ("orange", (2, 0))]
    game = game_after(drops)
    game.apply(Place(1, "orange", (2, 1)))
    game.apply(Pass())
    game.apply(AnnounceColour(1, "orange"))
    game.apply(CallMenteur(2))        # the truth: seat 2 now holds two oranges
    drop(game, "orange", (2, 1))      # seat 2 places one, keeps one
    assert (game.active, game.phase) == (0, "swap_or_reveal") and game.hands[2]["orange"] == 1
    assert AbandonRound() not in game.legal_actions()
    before = game.to_dict()
    with pytest.raises(IllegalAction) as refused:
        game.apply(AbandonRound())
    assert refused.value.code == "hands_not_empty" and game.to_dict() == before


# ---------------------------------------------------------------- serialisation and listing
def test_to_dict_round_trip_mid_turn_is_json_and_plays_on_identically():
    game = game_after(SETUP_A[:4])
    game.apply(Place(1, "green", (1, 1)))
    game.apply(Pass())
    data = json.loads(json.dumps(game.to_dict()))
    restored = type(game).from_dict(data)
    assert restored.to_dict() == game.to_dict()
    for g in (game, restored):
        g.apply(AnnounceColour(1, "blue"))
        g.apply(CallMenteur(2))
    assert restored.to_dict() == game.to_dict() and restored.hands == game.hands


def test_from_dict_refuses_damaged_data():
    data = new_game(3).to_dict()
    with pytest.raises(IllegalAction) as refused:
        type(new_game(3)).from_dict({**data, "phase": "dancing"})
    assert refused.value.code == "bad_state"
    with pytest.raises(IllegalAction):
        type(new_game(3)).from_dict({"game": "pass-pass"})
    broken = dict(data)
    del broken["ledger"]
    with pytest.raises(IllegalAction):
        type(new_game(3)).from_dict(broken)


def test_legal_actions_by_phase():
    game = new_game(4)
    places = game.legal_actions()
    assert len(places) == 3 * 12 and all(isinstance(a, Place) and a.seat == 0 for a in places)
    game.apply(Place(0, "blue", (0, 0)))
    assert game.legal_actions() == [Pass(), CallDoublon(1), CallDoublon(2), CallDoublon(3)]
    game.apply(Pass())
    assert {a.colour for a in game.legal_actions()} == {"blue", "green", "orange"}
    game.apply(AnnounceColour(0, "blue"))
    assert game.legal_actions() == [Pass(), CallMenteur(1), CallMenteur(2), CallMenteur(3)]
    reveal_game = game_after(SETUP_A)
    kinds = [type(a).__name__ for a in reveal_game.legal_actions()]
    assert kinds.count("Swap") == 12 and kinds.count("Reveal") == 8 and kinds.count("AbandonRound") == 1
    reveal_game.apply(Swap(0, (0, 0), (0, 1)))
    assert "Swap" not in {type(a).__name__ for a in reveal_game.legal_actions()}
