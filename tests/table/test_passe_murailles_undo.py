"""Constant-time undo: ``Game.pop`` restores snapshots; it must agree with a replay."""

import random

from table.passe_murailles import Game, load_profile, profile_dict

SHIPPED = load_profile(None)
SMALL = load_profile(profile_dict(
    4, [[0, 1, 3], [0, 2], [1, 3], [0, 3], [2], [-1, 1, 4]],
    ranges=(-1, 2), board_start=1, pegs_per_player=3,
))


def replayed(game: Game) -> dict:
    """What the old pop gave: the saved history and corrections rebuilt from scratch."""
    return Game.from_dict(game.to_dict()).to_dict()


def test_pop_after_every_action_of_random_games_equals_the_replayed_state():
    for seed in range(30):
        rng = random.Random(seed)
        game = Game(SHIPPED if seed % 2 else SMALL, rng.choice(["red", "blue"]))
        states = [game.to_dict()]
        while not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
            states.append(game.to_dict())
        for _ in range(len(states) - 1):
            states.pop()
            game.pop()
            assert game.to_dict() == states[-1] == replayed(game)
        assert game.history == [] and game.current_player == game.first


def test_pop_drops_corrections_made_after_the_undone_action_and_keeps_earlier_ones():
    rng = random.Random(5)
    game = Game(SHIPPED)
    while len(game.frame.pegs(where="frame")) < 2:
        game.apply(rng.choice(game.legal_actions()))
    first, second = game.frame.pegs(where="frame")[:2]
    game.correct(first.id, None)                       # before the next action: kept
    before = game.to_dict()
    game.apply(game.legal_actions()[0])
    if not game.is_over():
        game.correct(second.id, 3, points=4)           # after it: undone with it
    game.pop()
    assert game.to_dict() == before == replayed(game)
    assert [c["peg"] for c in game.corrections] == [first.id]
    assert game.frame.peg(first.id).where == "table"


def test_push_is_apply_and_pairs_with_pop():
    game = Game(SHIPPED)
    start = game.to_dict()
    action = game.legal_actions()[0]
    out = game.push(action)
    assert out.player == "red" and game.history == [action]
    assert game.pop() == action and game.to_dict() == start
