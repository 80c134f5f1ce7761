"""The individual Pass Pass engine: setup, play, takes, Pass Pass, instant wins, round
and game scoring, refusals, saving."""

from __future__ import annotations

import json
import random

import pytest

from table.pass_pass import (
    Card,
    Game,
    IllegalAction,
    InvalidInput,
    PlayCard,
    RecordMember,
    TakeCard,
    TakeLow,
    new_game,
    shipped_deck,
    staged_game,
)


def c(card_id: str) -> Card:
    return Card.from_id(card_id, shipped_deck())


def play_trick(game: Game, *card_ids: str):
    """Play the cards in seat order from whoever is to act; return the events."""
    events = []
    for card_id in card_ids:
        events += game.apply(PlayCard(game.to_act, card_id)).events
    return events


def refused(game: Game, action, code: str) -> IllegalAction:
    """Apply an action that must be refused; check that nothing changed."""
    before = game.to_dict()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.code == code
    assert info.value.fr and info.value.fr != info.value.en
    assert game.to_dict() == before
    return info.value


# ----- setup ---------------------------------------------------------------------------
@pytest.mark.parametrize("players, teams", [(2, False), (6, False), (7, False), (3, True), (5, True),
                                            (8, True), ("4", False), (True, False), (4.0, False)])
def test_bad_player_counts_are_refused_in_both_languages(players, teams):
    with pytest.raises(ValueError) as info:
        new_game(players, teams=teams)
    assert isinstance(info.value, InvalidInput) and info.value.code == "bad_players"
    assert "joueurs" in info.value.fr and "players" in info.value.en


@pytest.mark.parametrize("first", [-1, 4, "0", None])
def test_bad_first_player(first):
    with pytest.raises(InvalidInput):
        new_game(4, first=first)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_deal_gives_eight_each_and_sets_the_rest_aside(players):
    game = new_game(players, seed=11)
    hands = [game.hand(s) for s in range(players)]
    assert all(len(h) == 8 for h in hands)
    aside = game.set_aside()
    assert len(aside) == 48 - 8 * players
    everything = [card for h in hands for card in h] + list(aside)
    assert sorted(card.id for card in everything) == sorted(card.id for card in shipped_deck().cards())
    assert all(card.diamonds == shipped_deck().canonical(card).diamonds for card in everything)


def test_same_seed_same_deal_other_seed_other_deal():
    assert new_game(4, seed=5).hand(0) == new_game(4, seed=5).hand(0)
    assert new_game(4, seed=5).hand(0) != new_game(4, seed=6).hand(0)
    assert new_game(4, rng=random.Random(5)).hand(2) == new_game(4, seed=5).hand(2)
    with pytest.raises(InvalidInput):
        new_game(4, seed=5, rng=random.Random(5))  # which one? refused, not guessed


def test_play_goes_round_from_the_first_player():
    game = new_game(4, seed=3, first=2)
    assert (game.phase, game.round, game.trick, game.leader, game.to_act) == ("play", 1, 1, 2, 2)
    seen = []
    for _ in range(4):
        seen.append(game.to_act)
        game.apply(game.legal_actions()[0])
    assert seen == [2, 3, 0, 1]
    assert game.phase == "first_take"
    assert [seat for seat, _ in game.current_trick] == [2, 3, 0, 1]


def test_legal_actions_in_play_are_the_hand():
    game = new_game(4, seed=3)
    assert {a.card for a in game.legal_actions()} == set(game.hand(0))
    assert all(isinstance(a, PlayCard) and a.seat == 0 for a in game.legal_actions())


# ----- refusals ------------------------------------------------------------------------
def test_illegal_actions_change_nothing():
    game = new_game(4, seed=9)
    foreign = next(card for card in game.hand(1))
    refused(game, PlayCard(1, game.hand(1)[0]), "not_your_turn")
    refused(game, PlayCard(0, foreign), "card_not_in_hand")
    refused(game, PlayCard(7, game.hand(0)[0]), "bad_seat")
    refused(game, TakeCard(0, game.hand(0)[0]), "wrong_phase")
    refused(game, TakeLow(0, [game.hand(0)[0]]), "wrong_phase")
    refused(game, RecordMember(0, 0), "wrong_phase")
    refused(game, "play the purple 10", "unknown_action")
    for _ in range(4):
        game.apply(game.legal_actions()[0])
    first = game.to_act
    other = next(seat for seat in range(4) if seat != first)
    refused(game, TakeCard(other, game.table_cards[0]), "not_your_turn")
    refused(game, TakeCard(first, next(card for card in game.hand(0))), "card_not_on_table")
    refused(game, PlayCard(first, game.hand(first)[0]), "wrong_phase")


def test_wrong_phase_message_says_what_is_awaited():
    game = staged_game(4)
    play_trick(game, "purple-10", "blue-11", "green-4", "purple-6")
    exc = refused(game, PlayCard(0, "yellow-1"), "wrong_phase")
    assert "player 1" in exc.en and "joueur 1" in exc.fr  # David (seat 0) must take


# ----- the rule book's examples, played through the engine ----------------------------
def test_example_1_takes_and_lead():
    game = staged_game(4)
    events = play_trick(game, "purple-10", "purple-11", "purple-12", "purple-6")
    resolved = events[-1]
    assert resolved["type"] == "trick_resolved"
    assert (resolved["majority"], resolved["first"], resolved["second"]) == ("purple", 2, 1)
    assert game.phase == "first_take" and game.to_act == 2
    outcome = game.apply(TakeCard(2, "purple-12"))
    # No tie among the remaining 10, 11, 6: the second take is forced and applied.
    taken = outcome.of_type("card_taken")
    assert [(e["seat"], e["winner"], e["auto"]) for e in taken] == [(2, "first", False), (1, "second", True)]
    assert taken[1]["cards"] == ["purple-6", "purple-10"]
    assert outcome.of_type("cards_out")[0]["cards"] == ["purple-11"]
    assert game.in_front(1) == (c("purple-6"), c("purple-10"))
    assert game.out_cards() == (c("purple-11"),)
    assert (game.phase, game.trick, game.leader, game.to_act) == ("play", 2, 1, 1)
    assert game.current_trick == () and game.table_cards == ()
    summary = game.last_trick
    assert summary.complete and summary.taken == ((2, (c("purple-12"),)), (1, (c("purple-6"), c("purple-10"))))


def test_example_2_first_winner_takes_a_card_of_another_colour():
    game = staged_game(4)
    play_trick(game, "purple-10", "blue-11", "green-4", "purple-6")
    game.apply(TakeCard(0, "green-4"))
    assert game.in_front(0) == (c("green-4"),)
    assert set(game.in_front(3)) == {c("purple-6"), c("purple-10")}
    assert game.out_cards() == (c("blue-11"),)
    assert game.leader == 3


# ----- the second winner's choice ------------------------------------------------------
def tie_trick() -> Game:
    """Purple 12 (seat 0) and purple 3 (seat 1) win; green 5 and blue 5 tie on the cut."""
    game = staged_game(4)
    play_trick(game, "purple-12", "purple-3", "green-5", "blue-5")
    game.apply(TakeCard(0, "purple-12"))
    return game


def test_second_winner_tie_choice_is_offered_as_legal_actions():
    game = tie_trick()
    assert (game.phase, game.to_act) == ("second_take", 1)
    choices = game.legal_actions()
    assert {frozenset(card.id for card in a.cards) for a in choices} == {
        frozenset({"purple-3", "green-5"}), frozenset({"purple-3", "blue-5"})}
    assert all(isinstance(a, TakeLow) and a.seat == 1 for a in choices)


def test_second_winner_choice_applied_and_wrong_choices_refused():
    game = tie_trick()
    refused(game, TakeLow(1, ["green-5", "blue-5"]), "not_lowest")
    refused(game, TakeLow(1, ["purple-3"]), "not_lowest")
    refused(game, TakeLow(1, ["purple-3", "green-5", "blue-5"]), "not_lowest")
    refused(game, TakeLow(0, ["purple-3", "blue-5"]), "not_your_turn")
    outcome = game.apply(TakeLow(1, ["blue-5", "purple-3"]))  # any order
    assert outcome.of_type("card_taken")[0]["auto"] is False
    assert set(game.in_front(1)) == {c("purple-3"), c("blue-5")}
    assert game.out_cards() == (c("green-5"),)
    assert game.leader == 1 and game.phase == "play"


def test_first_winner_can_make_the_second_take_forced():
    game = staged_game(4)
    play_trick(game, "purple-12", "purple-3", "green-5", "blue-5")
    outcome = game.apply(TakeCard(0, "green-5"))
    assert outcome.of_type("card_taken")[1]["cards"] == ["purple-3", "blue-5"]
    assert game.phase == "play"


def test_three_players_second_winner_takes_both_remaining_nothing_out():
    game = staged_game(3)
    play_trick(game, "yellow-2", "purple-9", "yellow-8")
    assert game.last_trick.first == 2 and game.last_trick.second == 0
    game.apply(TakeCard(2, "purple-9"))
    assert set(game.in_front(0)) == {c("yellow-2"), c("yellow-8")}
    assert game.out_cards() == ()
    assert game.leader == 0


def test_five_players_two_cards_out():
    game = staged_game(5)
    play_trick(game, "yellow-3", "yellow-4", "blue-8", "green-2", "yellow-1")
    assert (game.last_trick.first, game.last_trick.second) == (2, 1)
    game.apply(TakeCard(2, "blue-8"))
    assert set(game.in_front(1)) == {c("yellow-1"), c("green-2")}
    assert set(game.out_cards()) == {c("yellow-3"), c("yellow-4")}


# ----- Pass Pass -----------------------------------------------------------------------
def test_pass_pass_marked_when_the_fourth_colour_is_taken():
    game = staged_game(4, in_front=[["purple-1", "blue-1", "green-1"], [], [], []])
    outcome = play_trick(game, "yellow-12", "yellow-2", "purple-5", "blue-6")
    outcome = game.apply(TakeCard(0, "yellow-12"))
    marks = outcome.of_type("pass_pass")
    assert marks == [{"type": "pass_pass", "seat": 0, "count": 1, "total": 1}]
    assert game.pass_pass_marks(0).per_round == (1,) and game.pass_pass_marks(0).total == 1


def test_second_pass_pass_in_one_round():
    front = ["purple-1", "blue-1", "green-1", "yellow-1", "purple-2", "blue-2", "green-2"]
    game = staged_game(4, trick=5, in_front=[[], front, [], []], leader=1)
    assert game.pass_pass_marks(1).per_round == (1,)
    play_trick(game, "yellow-12", "yellow-11", "purple-3", "blue-3")
    outcome = game.apply(TakeCard(1, "yellow-12"))
    assert outcome.of_type("pass_pass") == [{"type": "pass_pass", "seat": 1, "count": 2, "total": 2}]
    assert game.pass_pass_marks(1).per_round == (2,)


def test_no_new_mark_without_a_new_set():
    game = staged_game(3, in_front=[["purple-1", "blue-1", "green-1", "yellow-1"], [], []])
    play_trick(game, "purple-12", "green-3", "blue-4")
    outcome = game.apply(TakeCard(0, "purple-12"))
    assert outcome.of_type("pass_pass") == []
    assert game.pass_pass_marks(0).total == 1


def two_rounds(pass_pass: list[int]) -> list[dict]:
    """Two finished rounds in which each seat made the given Pass Pass (round 1)."""
    players = len(pass_pass)
    return [{"points": [5] * players, "pass_pass": pass_pass}, {"points": [5] * players, "pass_pass": [0] * players}]


def test_third_pass_pass_wins_at_once_and_the_round_is_not_scored():
    game = staged_game(4, trick=3, in_front=[["purple-1", "blue-1", "green-1"], [], [], []],
                       earlier=two_rounds([2, 0, 0, 0]))
    play_trick(game, "yellow-12", "yellow-2", "purple-5", "blue-6")
    outcome = game.apply(TakeCard(0, "yellow-12"))
    assert outcome.types() == ("card_taken", "pass_pass", "instant_win", "game_over")
    assert outcome.of_type("instant_win")[0] == {"type": "instant_win", "seat": 0, "team": None, "total": 3}
    assert outcome.of_type("game_over")[0]["by"] == "pass_pass"
    assert game.is_over() and game.winners() == [0] and game.won_by == "pass_pass"
    assert len(game.round_scores) == 2  # round 3 is not scored
    assert game.pass_pass_marks(0).per_round == (2, 0, 1)
    assert game.legal_actions() == [] and game.to_act is None
    refused(game, TakeLow(1, ["yellow-2", "purple-5"]), "game_over")


def test_current_round_marks_count_towards_the_instant_win():
    # Two Pass Pass already ticked this round, none before: the third one wins.
    front = ["purple-1", "blue-1", "green-1", "yellow-1", "purple-2", "blue-2", "green-2", "yellow-2",
             "purple-3", "blue-3", "green-3"]
    game = staged_game(3, trick=8, in_front=[front, [], []])
    play_trick(game, "yellow-12", "blue-11", "purple-9")
    game.apply(TakeCard(0, "yellow-12"))
    assert game.winners() == [0] and game.round_scores == ()


def test_both_winners_reach_three_first_winner_wins():
    game = staged_game(4, trick=4, leader=0, earlier=two_rounds([2, 2, 0, 0]),
                       in_front=[["purple-1", "blue-1", "green-1"], ["purple-2", "blue-2", "green-2"], [], []])
    play_trick(game, "yellow-12", "yellow-3", "purple-9", "blue-10")
    assert (game.last_trick.first, game.last_trick.second) == (0, 1)
    outcome = game.apply(TakeCard(0, "yellow-12"))
    assert game.winners() == [0]
    assert [e["seat"] for e in outcome.of_type("pass_pass")] == [0]
    assert game.in_front(1) == (c("purple-2"), c("blue-2"), c("green-2"))  # never took yellow 3


def test_second_winner_alone_reaches_three():
    game = staged_game(4, trick=4, leader=0, earlier=two_rounds([0, 2, 0, 0]),
                       in_front=[[], ["purple-2", "blue-2", "green-2"], [], []])
    play_trick(game, "yellow-12", "yellow-3", "purple-9", "blue-10")
    outcome = game.apply(TakeCard(0, "yellow-12"))
    assert outcome.types()[-2:] == ("instant_win", "game_over")
    assert game.winners() == [1]


# ----- round and game scoring ----------------------------------------------------------
def test_round_scoring_and_next_round():
    # Before the last trick: seat 0 has purple 1 (3 diamonds), seat 2 green 12 and blue 7.
    game = staged_game(3, trick=8, in_front=[["purple-1"], [], ["green-12", "blue-7"]], leader=2)
    play_trick(game, "yellow-11", "yellow-12", "purple-2")
    assert (game.last_trick.first, game.last_trick.second) == (0, 2)
    outcome = game.apply(TakeCard(0, "yellow-12"))
    assert outcome.types()[-2:] == ("round_over", "round_started")
    round_over = outcome.of_type("round_over")[0]
    # seat 0: purple 1 (1+3) + yellow 12 (1) = 5; seat 2: green 12 (1) + blue 7 (2)
    # + yellow 11 (1) + purple 2 (4) = 8.
    assert round_over["points"] == [5, 0, 8]
    assert game.round_scores[0].points == (5, 0, 8)
    assert game.scores() == {0: 5, 1: 0, 2: 8}
    assert outcome.of_type("round_started")[0] == {"type": "round_started", "round": 2, "leader": 2}
    assert (game.round, game.trick, game.phase, game.leader) == (2, 1, "play", 2)
    assert all(game.in_front(s) == () for s in range(3)) and game.out_cards() == ()
    assert game.pass_pass_marks(0).per_round == (0, 0)


def finish_round_3(round_1_points: list[int], pass_pass: list[list[int]]) -> Game:
    """A 3-player game at round 3's last trick, after rounds with these points (round 1)
    and Pass Pass (rounds 1 and 2, per seat). The trick gives seat 0 one point (purple
    12) and seat 1 five (purple 11, and blue 1 with its 3 diamonds)."""
    earlier = [{"points": round_1_points, "pass_pass": [m[0] for m in pass_pass]},
               {"points": [0, 0, 0], "pass_pass": [m[1] for m in pass_pass]}]
    game = staged_game(3, trick=8, earlier=earlier)
    play_trick(game, "purple-12", "purple-11", "blue-1")
    game.apply(TakeCard(0, "purple-12"))
    return game


def test_game_won_on_points_despite_fewer_pass_pass():
    game = finish_round_3([10, 10, 30], [[1, 1], [1, 0], [0, 0]])
    assert game.is_over() and game.won_by == "points"
    assert game.scores() == {0: 11, 1: 15, 2: 30}
    assert game.winners() == [2]


def test_points_tie_broken_by_total_pass_pass():
    game = finish_round_3([14, 10, 0], [[1, 0], [1, 1], [0, 0]])
    assert game.scores() == {0: 15, 1: 15, 2: 0}
    assert game.pass_pass_totals() == {0: 1, 1: 2, 2: 0}
    assert game.winners() == [1]


def test_shared_victory_on_equal_points_and_pass_pass():
    game = finish_round_3([14, 10, 0], [[1, 0], [0, 1], [0, 0]])
    assert game.winners() == [0, 1]
    over = game.last_trick  # the last trick still tells what happened
    assert over.complete and over.second == 1
    assert game.leader == 1  # would lead a round that does not come


def test_full_game_events_end_with_game_over():
    game = new_game(4, seed=21)
    types = []
    while not game.is_over():
        types += game.apply(game.legal_actions()[0]).types()
    assert types[-1] == "game_over" and types.count("game_over") == 1
    assert types.count("trick_resolved") == types.count("card_played") // 4
    if game.won_by == "points":
        assert types.count("round_over") == 3 and types.count("round_started") == 2


# ----- saving --------------------------------------------------------------------------
def test_to_dict_round_trip_mid_game_and_same_future():
    rng = random.Random(4)
    game = new_game(5, seed=77)
    for _ in range(57):  # into round 2
        game.apply(rng.choice(game.legal_actions()))
    saved = json.loads(json.dumps(game.to_dict()))
    copy = Game.from_dict(saved)
    assert copy.to_dict() == game.to_dict()
    assert copy.hand(3) == game.hand(3) and copy.round_scores == game.round_scores
    while not game.is_over():  # the copy follows the same future, deals included
        action = rng.choice(game.legal_actions())
        assert game.apply(action) == copy.apply(action)
    assert copy.to_dict() == game.to_dict() and copy.winners() == game.winners()


def test_to_dict_round_trip_in_second_take_and_over():
    game = tie_trick()
    assert Game.from_dict(json.loads(json.dumps(game.to_dict()))).legal_actions() == game.legal_actions()
    over = finish_round_3([14, 10, 0], [[1, 0], [0, 1], [0, 0]])
    again = Game.from_dict(json.loads(json.dumps(over.to_dict())))
    assert again.winners() == [0, 1] and again.is_over() and again.to_dict() == over.to_dict()


def test_from_dict_refuses_other_data():
    with pytest.raises(ValueError):
        Game.from_dict({"format": "passe-murailles/1"})
