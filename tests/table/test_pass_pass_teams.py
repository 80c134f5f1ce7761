"""Pass Pass in teams of two, at 4 players (2 teams) and 6 players (3 teams)."""

from __future__ import annotations

import json

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
from table.pass_pass.teams import suggest_member


def c(card_id: str) -> Card:
    return Card.from_id(card_id, shipped_deck())


def play_trick(game: Game, *card_ids: str) -> None:
    for card_id in card_ids:
        game.apply(PlayCard(game.to_act, card_id))


def refused(game: Game, action, code: str) -> None:
    before = game.to_dict()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.code == code and info.value.fr != info.value.en
    assert game.to_dict() == before


def test_team_assignment_at_4_and_6():
    four = new_game(4, teams=True, seed=1)
    assert four.team_count == 2
    assert [four.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert four.members(0) == (0, 2) and four.members(1) == (1, 3)
    six = new_game(6, teams=True, seed=1)
    assert six.team_count == 3
    assert [six.team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert [six.members(t) for t in range(3)] == [(0, 3), (1, 4), (2, 5)]
    assert all(len(six.hand(s)) == 8 for s in range(6)) and six.set_aside() == ()


def test_team_queries_in_an_individual_game_are_refused():
    game = new_game(4, seed=1)
    assert game.team_count == 0
    with pytest.raises(InvalidInput):
        game.team_of(0)
    with pytest.raises(InvalidInput):
        game.suggested_member(0)


# A 4-player round-1 position before the last trick (teams: {0, 2} and {1, 3}).
FRONTS_4 = [
    ["purple-1"],                                                  # 4 points
    ["purple-10", "blue-9", "green-9"],                            # 5 points
    ["blue-12"],                                                   # 1 point
    ["purple-11", "blue-10", "green-12", "yellow-11", "yellow-10"],  # 5 points, 1 Pass Pass
]


def last_trick_of_round_1() -> Game:
    """Seat 0 wins the purple 15 and takes the green 1; seat 2 gets the two lowest left,
    blue 1 and purple 7 (6 points); purple 8 is out."""
    game = staged_game(4, teams=True, trick=8, in_front=FRONTS_4)
    play_trick(game, "purple-8", "green-1", "purple-7", "blue-1")
    game.apply(TakeCard(0, "green-1"))
    return game


def test_round_end_asks_each_team_and_suggests_a_member():
    game = last_trick_of_round_1()
    line = game.round_scores[0]
    assert line.points == (8, 5, 7, 5) and line.pass_pass == (0, 0, 0, 1)
    assert line.recorded == (None, None)
    assert (game.phase, game.to_act) == ("record", 0)
    assert set(game.legal_actions()) == {RecordMember(0, 0), RecordMember(0, 2), RecordMember(1, 1), RecordMember(1, 3)}
    assert game.out_cards() == (c("purple-8"),)
    assert game.suggested_member(0) == 0  # more points (8 against 7)
    assert game.suggested_member(1) == 3  # same points, more Pass Pass


def test_suggestion_on_a_full_tie_is_the_lower_seat():
    assert suggest_member(1, 4, points=[0, 6, 0, 6], pass_pass=[0, 1, 0, 1]) == 1
    assert suggest_member(1, 6, points=[0, 6, 0, 0, 6, 0], pass_pass=[0, 0, 0, 0, 1, 0]) == 4


def test_recording_in_any_order_then_next_round():
    game = last_trick_of_round_1()
    refused(game, PlayCard(0, "yellow-1"), "wrong_phase")
    refused(game, RecordMember(0, 1), "not_member")
    refused(game, RecordMember(2, 0), "bad_team")
    outcome = game.apply(RecordMember(1, 1))  # team 1 chooses seat 1, not the suggestion
    assert outcome.events == ({"type": "member_recorded", "round": 1, "team": 1, "seat": 1,
                               "points": 5, "pass_pass": 0},)
    assert game.to_act == 0
    refused(game, RecordMember(1, 3), "already_recorded")
    assert game.legal_actions() == [RecordMember(0, 0), RecordMember(0, 2)]
    outcome = game.apply(RecordMember(0, 2))
    assert outcome.types() == ("member_recorded", "round_started")
    assert game.round_scores[0].recorded == (2, 1)
    assert game.scores() == {0: 7, 1: 5}
    assert game.pass_pass_totals() == {0: 0, 1: 0}
    assert (game.round, game.phase, game.leader) == (2, "play", 2)


def test_team_instant_win_counts_the_recorded_pass_pass():
    earlier = [{"points": [9, 9, 9, 9], "pass_pass": [2, 0, 0, 0], "recorded": [0, 1]}]
    game = staged_game(4, teams=True, trick=2, leader=2, earlier=earlier,
                       in_front=[[], [], ["purple-1", "blue-1", "green-1"], []])
    play_trick(game, "yellow-12", "yellow-3", "purple-9", "blue-10")  # seat 2 leads and wins
    outcome = game.apply(TakeCard(2, "yellow-12"))
    mark = outcome.of_type("pass_pass")[0]
    assert (mark["seat"], mark["team"], mark["count"], mark["team_total"]) == (2, 0, 1, 3)
    assert outcome.of_type("instant_win")[0] == {"type": "instant_win", "seat": 2, "team": 0, "total": 3}
    assert game.is_over() and game.winners() == [0] and game.won_by == "pass_pass"


def test_unrecorded_pass_pass_do_not_count_for_the_team():
    # Seat 0 made 2 Pass Pass in round 1 but team 0 recorded seat 2 (none).
    earlier = [{"points": [5, 9, 9, 9], "pass_pass": [2, 0, 0, 0], "recorded": [2, 1]}]
    game = staged_game(4, teams=True, trick=2, earlier=earlier,
                       in_front=[["purple-1", "blue-1", "green-1"], [], [], []])
    play_trick(game, "yellow-12", "yellow-3", "purple-9", "blue-10")
    outcome = game.apply(TakeCard(0, "yellow-12"))
    mark = outcome.of_type("pass_pass")[0]
    assert (mark["total"], mark["team_total"]) == (3, 1)
    assert not game.is_over() and outcome.of_type("instant_win") == []


def finish_4_player_team_game(earlier: list[dict]) -> Game:
    """Round 3's last trick gives seat 0 four points (green 1) and seat 2 six (blue 1
    and purple 7); then each team records its first member (seats 0 and 1)."""
    game = staged_game(4, teams=True, trick=8, earlier=earlier)
    play_trick(game, "purple-8", "green-1", "purple-7", "blue-1")
    game.apply(TakeCard(0, "green-1"))
    assert game.phase == "record" and game.round == 3
    game.apply(RecordMember(0, 0))
    outcome = game.apply(RecordMember(1, 1))
    assert outcome.types()[-1] == "game_over"
    return game


def test_team_game_won_on_recorded_points():
    game = finish_4_player_team_game([
        {"points": [10, 12, 3, 14], "pass_pass": [0, 1, 0, 1], "recorded": [0, 1]},
        {"points": [5, 3, 5, 5], "pass_pass": [1, 0, 0, 0], "recorded": [0, 3]},
    ])
    assert game.scores() == {0: 19, 1: 17}
    assert game.winners() == [0] and game.won_by == "points"


def test_team_points_tie_broken_by_recorded_pass_pass():
    game = finish_4_player_team_game([
        {"points": [10, 14, 3, 14], "pass_pass": [0, 1, 0, 1], "recorded": [0, 1]},
        {"points": [5, 5, 5, 5], "pass_pass": [0, 1, 2, 0], "recorded": [0, 1]},
    ])
    assert game.scores() == {0: 19, 1: 19}
    assert game.pass_pass_totals() == {0: 0, 1: 2}  # seat 2's unrecorded 2 do not count
    assert game.winners() == [1]


def test_team_shared_victory():
    game = finish_4_player_team_game([
        {"points": [10, 14, 3, 14], "pass_pass": [1, 1, 0, 0], "recorded": [0, 1]},
        {"points": [5, 5, 5, 5], "pass_pass": [0, 0, 0, 0], "recorded": [2, 3]},
    ])
    assert game.scores() == {0: 19, 1: 19} and game.pass_pass_totals() == {0: 1, 1: 1}
    assert game.winners() == [0, 1]


def test_six_players_three_teams_tie_choice_three_out_and_shared_result():
    earlier = [
        {"points": [10, 15, 7, 0, 0, 0], "pass_pass": [0] * 6, "recorded": [0, 1, 2]},
        {"points": [0] * 6, "pass_pass": [0] * 6, "recorded": [3, 4, 5]},
    ]
    game = staged_game(6, teams=True, trick=8, earlier=earlier)
    play_trick(game, "purple-12", "blue-1", "purple-2", "green-1", "yellow-1", "purple-3")
    assert (game.last_trick.first, game.last_trick.second) == (0, 5)
    game.apply(TakeCard(0, "purple-12"))
    # Blue, green and yellow 1 tie for the two lowest: three choices.
    assert game.phase == "second_take" and len(game.legal_actions()) == 3
    outcome = game.apply(TakeLow(5, ["blue-1", "green-1"]))
    assert set(outcome.of_type("cards_out")[0]["cards"]) == {"purple-2", "yellow-1", "purple-3"}
    assert game.round_scores[-1].points == (1, 0, 0, 0, 0, 8)
    assert len(game.legal_actions()) == 6
    assert [game.suggested_member(t) for t in range(3)] == [0, 1, 5]
    for team in range(3):
        game.apply(RecordMember(team, game.suggested_member(team)))
    assert game.scores() == {0: 11, 1: 15, 2: 15}
    assert game.winners() == [1, 2]
    saved = json.loads(json.dumps(game.to_dict()))
    assert Game.from_dict(saved).to_dict() == game.to_dict()
