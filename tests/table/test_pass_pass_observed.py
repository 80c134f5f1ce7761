"""Observed mode (``deal=False``): the scorekeeper of a real table, hands unknown."""

from __future__ import annotations

import json
import random

import pytest

from table.pass_pass import Card, Game, IllegalAction, PlayCard, TakeCard, new_game


def refused(game: Game, action, code: str) -> IllegalAction:
    before = game.to_dict()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.code == code and info.value.fr != info.value.en
    assert game.to_dict() == before
    return info.value


def test_observed_game_knows_no_hands():
    game = new_game(4, deal=False)
    assert game.observed and game.hand(0) is None and game.set_aside() is None
    actions = game.legal_actions()
    assert len(actions) == 48 and {a.seat for a in actions} == {0}


def test_any_unseen_card_may_be_played_but_not_twice_in_a_round():
    game = new_game(4, deal=False)
    game.apply(PlayCard(0, "purple-10"))
    exc = refused(game, PlayCard(1, "purple-10"), "card_seen")
    assert "10 violet" in exc.fr and "purple 10" in exc.en
    assert PlayCard(1, "purple-10") not in game.legal_actions()
    for card_id in ("blue-11", "green-4", "purple-6"):
        game.apply(PlayCard(game.to_act, card_id))
    game.apply(TakeCard(0, "green-4"))
    # Later tricks: cards in front and cards out are seen too.
    refused(game, PlayCard(game.to_act, "purple-10"), "card_seen")  # in front of seat 3
    refused(game, PlayCard(game.to_act, "blue-11"), "card_seen")  # out
    refused(game, PlayCard(game.to_act, "green-4"), "card_seen")  # in front of seat 0
    assert len(game.legal_actions()) == 44
    refused(game, PlayCard((game.to_act + 1) % 4, "yellow-1"), "not_your_turn")


def play_until(game: Game, rng: random.Random, event_type: str) -> list[dict]:
    events: list[dict] = []
    while not any(e["type"] == event_type for e in events):
        events += game.apply(rng.choice(game.legal_actions())).events
    return events


def test_each_seat_plays_eight_cards_a_round_and_cards_are_reshuffled():
    for seed in range(20):  # find a game that reaches round 2 (no instant win in round 1)
        game = new_game(4, deal=False, first=1)
        events = play_until(game, random.Random(seed), "round_over")
        if not game.is_over():
            break
    played = [e for e in events if e["type"] == "card_played"]
    assert [sum(e["seat"] == s for e in played) for s in range(4)] == [8, 8, 8, 8]
    assert len({e["card"] for e in played}) == 32
    assert game.round == 2 and game.trick == 1 and game.seen_this_round() == frozenset()
    # A card played in round 1 is back in play in round 2.
    again = Card.from_id(played[0]["card"])
    assert PlayCard(game.to_act, again) in game.legal_actions()
    game.apply(PlayCard(game.to_act, again))
    assert game.current_trick[0][1] == again


def test_observed_round_trip():
    game = new_game(5, deal=False)
    for card_id in ("yellow-3", "yellow-4", "blue-8", "green-2", "yellow-1"):
        game.apply(PlayCard(game.to_act, card_id))
    copy = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert copy.to_dict() == game.to_dict() and copy.observed and copy.phase == "first_take"
