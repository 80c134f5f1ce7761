"""PtiPassPass properties over many random games: tokens are conserved, victory tokens
never exceed the pool, legal actions are accepted, saves and feed lines hold up."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.ptipasspass import COLOURS, Game, action_from_dict, action_to_dict, describe, new_game, random_playout
from table.ptipasspass.playout import choose_action

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(game: Game) -> None:
    players = game.players
    sizes = sum(sum(h.values()) for h in game.hands) + sum(c.count for c in game.cup_knowledge.values())
    assert sizes == 3 * players  # hands + cups = 3 tokens per player
    if game.mode == "full":
        per_colour = Counter()
        for hand in game.hands:
            assert hand["unknown"] == 0
            per_colour.update({c: hand[c] for c in COLOURS})
        for tokens in game.cups.values():
            per_colour.update(tokens)
        assert per_colour == Counter({c: players for c in COLOURS})  # N tokens of each colour
    else:
        for colour in COLOURS:
            certain = sum(h[colour] for h in game.hands)
            certain += sum(c.known.count(colour) for c in game.cup_knowledge.values())
            assert certain <= players
    assert sum(game.victory_tokens) <= players + 1 and game.victory_pool >= 0
    assert all(0 <= v <= 2 for v in game.victory_tokens)
    assert len(game.winners()) == (1 if game.is_over() else 0)


@FAST
@given(seed=st.integers(0, 2 ** 32 - 1), players=st.integers(3, 6))
def test_sensible_random_games_conserve_tokens_and_respect_the_pool(seed, players):
    rng = random.Random(seed)
    game = new_game(players, first=rng.randrange(players))
    for _ in range(5000):
        if game.is_over():
            break
        action = choose_action(game, rng)
        assert action in game.legal_actions()
        game.apply(action)
        check_invariants(game)
    assert game.is_over()
    assert game.victory_tokens[game.winners()[0]] == 2


@FAST
@given(data=st.data(), players=st.integers(3, 6), mode=st.sampled_from(["full", "observed"]))
def test_any_listed_action_is_accepted_and_keeps_the_invariants(data, players, mode):
    game = new_game(players, mode=mode, first=data.draw(st.integers(0, players - 1)))
    for _ in range(120):
        actions = game.legal_actions()
        if not actions:
            assert game.is_over()
            break
        action = data.draw(st.sampled_from(actions))
        game.apply(action)
        check_invariants(game)


@FAST
@given(seed=st.integers(0, 2 ** 32 - 1), players=st.integers(3, 6), cut=st.integers(0, 400))
def test_a_saved_game_plays_on_exactly_like_the_original(seed, players, cut):
    rng = random.Random(seed)
    game = new_game(players, first=0)
    for _ in range(cut):
        if game.is_over():
            break
        game.apply(choose_action(game, rng))
    restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored.to_dict() == game.to_dict()
    twin_rng = random.Random(seed + 1)
    rng = random.Random(seed + 1)
    for _ in range(60):
        if game.is_over():
            break
        action = choose_action(game, rng)
        assert choose_action(restored, twin_rng) == action
        assert game.apply(action) == restored.apply(action)
    assert restored.to_dict() == game.to_dict()


def test_random_playouts_finish_with_one_winner_at_every_table_size():
    for seed in range(40):
        players = 3 + seed % 4
        game = random_playout(random.Random(seed), players=players)
        assert game.is_over() and game.players == players
        (winner,) = game.winners()
        assert game.scores()[winner] == 2
        assert all(v < 2 for s, v in enumerate(game.scores()) if s != winner)
        assert sum(game.scores()) <= players + 1


def test_random_playouts_are_reproducible_from_the_rng():
    first = random_playout(random.Random(99), players=5).to_dict()
    assert random_playout(random.Random(99), players=5).to_dict() == first
    assert random_playout(random.Random(100), players=5).to_dict() != first


def test_every_event_has_a_feed_line_in_both_languages_and_actions_survive_plain_data():
    seen_types = set()
    for seed in range(12):
        rng = random.Random(seed)
        for mode in ("full", "observed"):
            game = new_game(3 + seed % 4, mode=mode)
            for _ in range(400):
                if game.is_over():
                    break
                actions = game.legal_actions()
                action = choose_action(game, rng) if mode == "full" else rng.choice(actions)
                assert action_from_dict(json.loads(json.dumps(action_to_dict(action)))) == action
                for event in game.apply(action).events:
                    seen_types.add(event["type"])
                    fr, en = describe(event, "fr"), describe(event, "en")
                    assert fr and en and fr != en and fr != event["type"], event
    assert {"cup_named", "doublon_resolved", "menteur_resolved", "token_placed", "reveal",
            "victory_token", "round_started", "awaiting_lift", "awaiting_token"} <= seen_types
    named = describe({"type": "round_won", "seat": 1, "round": 2, "next_first": 2}, "fr", names=["Ana", "Bo"])
    assert named == "Bo remporte la manche 2."
