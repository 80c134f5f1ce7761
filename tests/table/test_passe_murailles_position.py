"""The search core's compact Position must play exactly like the reference Game."""

import random

import pytest

from table.passe_murailles import DropPeg, Game, MoveBoard, MoveSlide, load_profile, profile_dict
from table.passe_murailles.position import OVER, Position, action_of, move_of
from table.passe_murailles.profile import random_profile

SHIPPED = load_profile(None)
SMALL = load_profile(profile_dict(
    4, [[0, 1, 3], [0, 2], [1, 3], [0, 3], [2], [-1, 1, 4]],
    ranges=(-1, 2), board_start=1, pegs_per_player=3,
))
FIELDS = ("cur", "board", "offs", "red", "blue", "hand", "infr", "owes", "last", "score")


def state(pos: Position) -> tuple:
    return tuple(getattr(pos, f) for f in FIELDS)


def profiles():
    yield SHIPPED
    yield SMALL
    for seed in range(8):
        yield load_profile(random_profile(random.Random(seed)))


@pytest.mark.parametrize("profile", list(profiles()), ids=lambda p: p.name or f"{p.columns} columns")
def test_pushing_random_games_tracks_the_game_move_for_move_and_pops_back(profile):
    for seed in range(12):
        rng = random.Random(seed)
        game = Game(profile, rng.choice(["red", "blue"]))
        pos = Position.from_game(game)
        states = [state(pos)]
        while not game.is_over() and len(game.history) < 600:
            legal = game.legal_actions()
            assert [move_of(a) for a in legal] == pos.legal_moves()
            action = rng.choice(legal)
            game.apply(action)
            pos.push(move_of(action))
            assert state(pos) == state(Position.from_game(game)), (seed, len(game.history), action)
            states.append(state(pos))
        assert pos.is_over() == game.is_over()
        assert pos.ply() == len(game.history)
        while pos.ply():
            states.pop()
            pos.pop()
            assert state(pos) == states[-1]


def test_the_key_ignores_how_a_position_was_reached_and_scores_only_as_a_difference():
    game = Game(SHIPPED)
    a = Position.from_game(game)
    b = Position.from_game(game)
    for move in (move_of(MoveBoard(1)), move_of(MoveSlide(2, 1))):
        a.push(move)
    for move in (move_of(MoveSlide(2, 1)), move_of(MoveBoard(1))):
        b.push(move)
    # Same frame, but whose turn it is and what each may not undo differ.
    assert a.offs == b.offs and a.board == b.board and a.key() != b.key()
    c = Position.from_game(game)
    c.score = (5, 3)
    d = Position.from_game(game)
    d.score = (2, 0)
    assert c.key() == d.key() and {c.key(): 1}[d.key()] == 1


def test_a_drop_that_falls_through_costs_a_turn_and_scores_nothing():
    # One column open from top to bottom: the peg lands on the 10-point section unscored.
    game = Game(profile_dict(3, [[0], [0], [0], [0], [0], [0]], board_start=3))
    pos = Position.from_game(game)
    pos.push(move_of(DropPeg(0)))
    assert pos.score == (0, 0) and pos.hand == (7, 8) and pos.infr == (0, 0)
    assert pos.player == "blue" and pos.owes == (1, 0)   # red lost its next turn
    pos.push(move_of(MoveBoard(-1)))
    assert pos.player == "blue" and pos.owes == (0, 0)   # ... so blue plays twice running
    pos.pop()
    game.apply(DropPeg(0))
    assert Position.from_game(game).key() == pos.key()


def test_the_game_over_state_has_no_moves():
    game = Game(profile_dict(3, [[0, 2], [1], [0], [0], [0], [0]], pegs_per_player=1))
    pos = Position.from_game(game)
    pos.push(move_of(DropPeg(0)))
    pos.push(move_of(MoveSlide(1, -1)))  # red-1 pushed off: red is done
    assert pos.cur == OVER and pos.legal_moves() == [] and pos.player is None


@pytest.mark.parametrize("action", [DropPeg(0), DropPeg(6), MoveSlide(1, -1), MoveSlide(6, 1), MoveBoard(-1),
                                    MoveBoard(1)])
def test_moves_and_actions_convert_both_ways(action):
    assert action_of(move_of(action)) == action


def test_random_profiles_are_valid_varied_and_playable():
    seen = set()
    for seed in range(40):
        d = random_profile(random.Random(seed))
        profile = load_profile(d)        # raises ProfileError if invalid
        assert d == random_profile(random.Random(seed))
        assert not Game(profile).frame.open_columns(), "no column open at the start"
        seen.add((profile.columns, profile.pegs_per_player))
        assert all(v == 0 for v in profile.board_scores[2])
    assert len(seen) > 5
