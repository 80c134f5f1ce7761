"""Properties that hold in every game: random playouts driven by hypothesis seeds."""

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.passe_murailles import (
    COLOURS,
    DropPeg,
    Game,
    IllegalAction,
    Landed,
    MoveBoard,
    MoveSlide,
    load_profile,
    profile_dict,
    random_playout,
)

SHIPPED = load_profile(None)
# Dense and small: pegs fall, stack, spill and land often, and games end fast.
SMALL = load_profile(profile_dict(
    4, [[0, 1, 3], [0, 2], [1, 3], [0, 3], [2], [-1, 1, 4]],
    ranges=(-1, 2), board_start=1, pegs_per_player=3,
))
PROFILES = st.sampled_from([SHIPPED, SMALL])
PLACES = ("hand", "frame", "board", "table")


def check_invariants(game: Game, scored_by_outcomes: dict) -> None:
    frame, profile = game.frame, game.profile
    views = game.pegs()
    # Pegs are conserved: every peg is in exactly one place.
    for colour in COLOURS:
        mine = [v for v in views if v.colour == colour]
        assert len(mine) == profile.pegs_per_player
        assert all(v.where in PLACES for v in mine)
        assert game.in_hand()[colour] == sum(v.where == "hand" for v in mine)
    # Pegs rest only in slides 1-5, inside the window, one per hole, never over a free hole.
    in_frame = [v for v in views if v.where == "frame"]
    assert len({(v.slide, v.column) for v in in_frame}) == len(in_frame)
    for v in in_frame:
        assert 1 <= v.slide <= 5 and 0 <= v.column < profile.columns
        assert frame.has_hole(v.slide, v.column) and frame.peg_at(v.slide, v.column) == v.id
        below_is_free_hole = frame.has_hole(v.slide + 1, v.column) and frame.peg_at(v.slide + 1, v.column) is None
        assert not below_is_free_hole, f"{v.id} at slide {v.slide} column {v.column} should have fallen"
    # Scores are the sum of the landings that count; a board peg keeps its first section.
    assert game.scores() == scored_by_outcomes
    landed = {l.peg: (l.column, l.points) for l in game.landings}
    assert landed == {v.id: (v.column, v.points) for v in views if v.where == "board"}
    # The game is over exactly when one player has no peg left in hand or frame.
    finished = any(all(v.where in ("board", "table") for v in views if v.colour == c) for c in COLOURS)
    assert game.is_over() == finished
    assert (game.current_player is None) == finished
    assert bool(game.legal_actions()) != finished


def every_candidate(game: Game):
    w = game.profile.columns
    yield from (DropPeg(c) for c in range(-1, w + 1))
    yield from (MoveSlide(s, step) for s in range(0, 8) for step in (-2, -1, 1, 2))
    yield from (MoveBoard(step) for step in (-2, -1, 1, 2))


def check_legal_actions_are_exactly_what_apply_accepts(game: Game) -> None:
    legal = game.legal_actions()
    assert len(legal) == len(set(legal))
    for action in every_candidate(game):
        trial = copy.deepcopy(game)
        try:
            trial.apply(action)
            accepted = True
        except IllegalAction as err:
            accepted = False
            assert err.code and err.en and err.fr
        assert accepted == (action in legal), action


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), profile=PROFILES, first=st.sampled_from(COLOURS))
def test_random_games_keep_every_invariant_and_replay_identically(seed, profile, first):
    rng = random.Random(seed)
    game = Game(profile, first)
    scored = {c: 0 for c in COLOURS}
    expected_player = first
    while not game.is_over() and len(game.history) < 2000:
        assert game.current_player == expected_player
        if len(game.history) % 25 == 0:
            check_legal_actions_are_exactly_what_apply_accepts(game)
        out = game.apply(rng.choice(game.legal_actions()))
        assert out.player == expected_player
        for event in out.events:
            if isinstance(event, Landed) and event.scored:
                scored[event.colour] += event.points
        assert [l.peg for l in out.landings] == [e.peg for e in out.events if isinstance(e, Landed)]
        expected_player = out.next_player
        check_invariants(game, scored)
    assert game.is_over()
    replayed = Game(profile, first)
    for action in game.history:
        replayed.apply(action)
    assert replayed.to_dict() == game.to_dict()
    assert Game.from_dict(game.to_dict()).to_dict() == game.to_dict()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playout_is_repeatable_for_a_seed_and_stops_at_max_actions(seed):
    a = random_playout(random.Random(seed), SMALL)
    b = random_playout(random.Random(seed), SMALL)
    assert a.to_dict() == b.to_dict() and a.is_over()
    short = random_playout(random.Random(seed), SHIPPED, max_actions=5)
    assert len(short.history) == 5 and not short.is_over()
