"""Events, feed lines, actions as data, and random playouts."""

from __future__ import annotations

import json
import random

import pytest

from table.pass_pass import (
    InvalidInput,
    PlayCard,
    RecordMember,
    TakeCard,
    TakeLow,
    action_from_dict,
    feed_line,
    new_game,
    random_playout,
)

ALL_TYPES = {"round_started", "card_played", "trick_resolved", "card_taken", "cards_out", "pass_pass",
             "instant_win", "round_over", "member_recorded", "game_over"}


def events_of_games(configs, seeds) -> list[dict]:
    events = []
    for players, teams in configs:
        for seed in seeds:
            rng = random.Random(seed)
            game = new_game(players, teams=teams, rng=rng)
            while not game.is_over():
                outcome = game.apply(rng.choice(game.legal_actions()))
                assert json.loads(json.dumps(outcome.to_dict())) == outcome.to_dict()
                events += outcome.events
    return events


def test_every_event_type_has_a_feed_line_in_both_languages():
    events = events_of_games([(4, False), (4, True), (5, False)], range(12))
    assert {e["type"] for e in events} == ALL_TYPES
    names = ["Ana", "Bruno", "Chloé", "Dan", "Eve"]
    for event in events:
        fr, en = feed_line(event, "fr"), feed_line(event, "en")
        assert fr != en and event["type"] not in (fr, en)
        if "seat" in event and event.get("type") != "instant_win":
            assert names[event["seat"]] in feed_line(event, "en", names=names)


def test_feed_line_examples():
    played = {"type": "card_played", "round": 1, "trick": 2, "seat": 1, "card": "green-7",
              "colour": "green", "value": 7, "diamonds": 1}
    assert feed_line(played, "fr") == "Joueur 2 joue le 7 vert."
    assert feed_line(played, "en", names=["A", "Bea"]) == "Bea plays green 7."
    shared = {"type": "game_over", "winners": [0, 2], "teams": False, "by": "points", "points": [], "pass_pass": []}
    assert feed_line(shared, "fr") == "Victoire partagée : Joueur 1 et Joueur 3 !"
    team_win = {"type": "instant_win", "seat": 2, "team": 0, "total": 3}
    assert feed_line(team_win, "en").startswith("Team 1 ")


@pytest.mark.parametrize("action", [
    PlayCard(2, "blue-5"), TakeCard(0, "yellow-12"), TakeLow(1, ["green-5", "purple-3"]), RecordMember(1, 3),
])
def test_actions_round_trip_as_data(action):
    assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action


def test_bad_action_data_is_refused():
    for bad in ({"type": "dance"}, {"type": "play", "seat": 0}, {"type": "play", "seat": 0, "card": "pink-1"}):
        with pytest.raises(InvalidInput):
            action_from_dict(bad)
    with pytest.raises(InvalidInput):
        TakeLow(0, "purple-3")  # one id, not a list


def test_take_low_ignores_card_order():
    assert TakeLow(1, ["purple-3", "green-5"]) == TakeLow(1, ["green-5", "purple-3"])


@pytest.mark.parametrize("players, teams", [(3, False), (4, False), (5, False), (4, True), (6, True)])
def test_random_playout_finishes_with_winners(players, teams):
    game = random_playout(random.Random(players * 10 + teams), players, teams)
    assert game.is_over() and game.winners()
    limit = game.team_count if teams else players
    assert all(0 <= w < limit for w in game.winners())
    if game.won_by == "points":
        assert len(game.round_scores) == 3
    else:
        assert max(game.pass_pass_totals().values()) >= 3 or teams


def test_random_playout_is_reproducible():
    a = random_playout(random.Random(42), 5)
    b = random_playout(random.Random(42), 5)
    assert a.to_dict() == b.to_dict()
    observed = random_playout(random.Random(42), 4, deal=False)
    assert observed.observed and observed.is_over()
