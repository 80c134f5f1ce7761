"""Whole random Passe Éclair games: conservation of cards and tokens (hypothesis), exact
JSON round trips, the feed lines, and the simulated players themselves."""

from __future__ import annotations

import doctest
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import table.passe_eclair as pe
from table.passe_eclair import (
    Game,
    PlayoutStyle,
    StartRound,
    action_from_dict,
    action_to_dict,
    arranged_game,
    describe,
    new_game,
    playout_steps,
    random_playout,
)
from table.passe_eclair.feed import EVENT_TYPES


def check_conservation(game: Game) -> None:
    deck = Counter(game.profile.deck)
    assert sum(game.hand_sizes()) + game.draw_size + len(game.pile) + game.box_size == len(game.profile.deck) == 60
    assert game.card_counts() == deck
    victory = Counter(game.victory_pool) + sum(map(Counter, game.victory_tokens), Counter())
    consolation = Counter(game.consolation_pool) + sum(
        map(Counter, game.consolation_tokens + game.spent_tokens), Counter())
    assert victory == Counter(game.profile.victory_tokens)
    assert consolation == Counter(game.profile.consolation_tokens)
    assert sum(map(len, game.victory_tokens)) == game.round - (game.phase != "game_over")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_cards_and_tokens_are_conserved_over_random_games(seed, players):
    game = None
    for action, outcome, game in playout_steps(random.Random(seed), players):
        check_conservation(game)
        assert all(size >= 0 for size in game.hand_sizes())
        if players == 2:
            assert "consolation" not in outcome.types()
    assert game is not None and game.is_over() and game.round == 9
    assert sum(map(len, game.victory_tokens)) == 9 and game.winners()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_random_playout_is_a_whole_game_and_repeats_with_the_seed(players):
    game = random_playout(random.Random(77), players=players)
    assert game.is_over() and game.round == 9 and game.players == players
    assert set(game.winners()) <= set(range(players))
    assert max(game.goal_points()) == game.goal_points()[game.winners()[0]]
    assert random_playout(random.Random(77), players=players).to_dict() == game.to_dict()
    assert random_playout(random.Random(78), players=players).to_dict() != game.to_dict()


def test_the_simulated_players_exercise_every_rule():
    seen, wrong, overtaken, spotted = Counter(), 0, 0, 0
    for seed in range(12):
        for _, outcome, _ in playout_steps(random.Random(seed), 3 + seed % 2):
            seen.update(outcome.types())
            wrong += sum(1 for e in outcome.events if e["type"] == "placed" and e["wrong"])
            overtaken += sum(1 for e in outcome.events if e["type"] == "placed" and e["overtaken"])
            spotted += sum(1 for e in outcome.events if e.get("reason") == "spotted")
    for kind in ("placed", "returned_to_hand", "penalty_draw", "pile_to_box", "start_card", "michi_swap",
                 "reshuffle", "round_won", "consolation", "no_consolation", "consolation_spent", "blocked",
                 "deal", "round_started", "hands_to_box", "game_over"):
        assert seen[kind] > 0, kind
    assert wrong > 0 and overtaken > 0 and spotted > 0


def test_a_calm_table_never_places_a_wrong_card():
    calm = PlayoutStyle(together_rate=0.0, late_rate=0.0, wrong_rate=0.0)
    for _, outcome, _ in playout_steps(random.Random(4), 3, style=calm):
        assert all(not e.get("wrong") for e in outcome.events)
        assert "penalty_draw" not in outcome.types()


def test_to_dict_is_an_exact_json_round_trip_at_every_step():
    steps = 0
    for _, _, live in playout_steps(random.Random(9), 4):
        d = live.to_dict()
        text = json.dumps(d)
        restored = Game.from_dict(json.loads(text))
        assert restored.to_dict() == d and json.dumps(restored.to_dict()) == text
        steps += 1
    assert steps > 50


def test_a_restored_game_plays_on_exactly_like_the_original():
    original = new_game(3, seed=21, strict=False)
    list(zip(range(60), playout_steps(random.Random(1), game=original)))  # part of round 1 or 2
    copy = Game.from_dict(json.loads(json.dumps(original.to_dict())))
    assert copy is not original and not original.is_over()
    a = [(action_to_dict(act), out.events) for act, out, _ in playout_steps(random.Random(2), game=original, now=99.0)]
    b = [(action_to_dict(act), out.events) for act, out, _ in playout_steps(random.Random(2), game=copy, now=99.0)]
    assert a == b and original.to_dict() == copy.to_dict() and copy.is_over()
    assert all(action_from_dict(json.loads(json.dumps(act))).to_dict() == act for act, _ in a)


@pytest.mark.parametrize("tamper", [
    lambda d: d["hands"][0].append("dog"),
    lambda d: d["draw_pile"].pop(),
    lambda d: d["victory_pool"].append(3),
    lambda d: d["consolation_tokens"][1].append("leon"),
    lambda d: d.update(players=5),
    lambda d: d.update(phase="sleeping"),
    lambda d: d.update(format="pass-pass"),
    lambda d: d["pile"][0].update(card="leon-leon"),
    lambda d: d.pop("rng"),
    lambda d: d.update(round=4),
])
def test_from_dict_refuses_an_inconsistent_dict(tamper):
    game = new_game(3, seed=3)
    game.apply(StartRound(t=0.0))
    d = json.loads(json.dumps(game.to_dict()))
    tamper(d)
    with pytest.raises(ValueError):
        Game.from_dict(d)


def test_every_event_type_has_a_line_in_both_languages():
    lines = {}
    for seed in range(6):
        for _, outcome, _ in playout_steps(random.Random(seed), 3):
            for e in outcome.events:
                fr, en = describe(e, "fr"), describe(e, "en")
                assert fr and en and fr != en
                lines.setdefault(e["type"], (fr, en))
    assert set(lines) <= set(EVENT_TYPES)
    with pytest.raises(ValueError):
        describe({"type": "teleport"})


def test_the_package_doctests_pass():
    from table.passe_eclair import actions, arrange, cards, feed, game, placement, playout, profile, state
    for module in (pe, actions, arrange, cards, feed, game, placement, playout, profile, state):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__


def test_arranged_game_refuses_cards_that_are_not_in_the_deck():
    with pytest.raises(ValueError):
        arranged_game(2, hands=[["michi"] * 9, []])
