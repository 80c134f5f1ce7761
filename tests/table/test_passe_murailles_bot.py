"""The search, the bot's levels and its requests in words."""

import random

import pytest

from table.passe_murailles import DropPeg, Game, MoveBoard, MoveSlide, load_profile, profile_dict, random_playout
from table.passe_murailles.bot import LEVELS, beginner_move, bot_turn, choose
from table.passe_murailles.position import OVER, Position
from table.passe_murailles.profile import random_profile
from table.passe_murailles.search import CHECK_EVERY, INF, Searcher, evaluate, terminal_value

SHIPPED = load_profile(None)
SMALL = load_profile(profile_dict(
    4, [[0, 1, 3], [0, 2], [1, 3], [0, 3], [2], [-1, 1, 4]],
    ranges=(-1, 2), board_start=1, pegs_per_player=3,
))


def random_positions(count, seed=0):
    """Mid-game positions of random games on the shipped, small and random profiles."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        choice = rng.randrange(3)
        profile = SHIPPED if choice == 0 else SMALL if choice == 1 else load_profile(random_profile(rng))
        game = random_playout(random.Random(rng.random()), profile, max_actions=rng.randrange(0, 80),
                              first=rng.choice(["red", "blue"]))
        if not game.is_over():
            found.append(game)
    return found


def minimax(pos, depth):
    """Plain negamax, no pruning, no table: what the search must agree with."""
    if depth == 0:
        return evaluate(pos, pos.cur)
    me, best = pos.cur, -INF
    for move in pos.legal_moves():
        pos.push(move)
        if pos.cur == OVER:
            v = terminal_value(pos, me)
        else:
            v = minimax(pos, depth - 1)
            v = v if pos.cur == me else -v
        pos.pop()
        best = max(best, v)
    return best


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_alpha_beta_with_the_table_finds_the_minimax_value(depth):
    searcher = Searcher()  # one table across positions, as a game would use it
    for game in random_positions(25, seed=depth):
        pos = Position.from_game(game)
        key = pos.key()
        result = searcher.search(pos, max_depth=depth)
        assert result.value == pytest.approx(minimax(pos, depth))
        assert result.values[result.move] == pytest.approx(result.value)
        assert result.depth == depth and pos.key() == key and pos.ply() == 0


def test_a_search_out_of_time_still_returns_a_legal_move_and_leaves_the_position():
    pos = Position.from_game(random_positions(1, seed=9)[0])
    key = pos.key()
    result = Searcher().search(pos, budget_s=0.0)
    assert result.move in pos.legal_moves() and pos.key() == key and pos.ply() == 0


@pytest.mark.parametrize("level", LEVELS)
def test_choose_returns_a_legal_action_for_the_player_to_move_and_leaves_the_game(level):
    for game in random_positions(12, seed=100 + level):
        before = game.to_dict()
        action = choose(game, level=level, budget_s=0.02)
        assert game.refusal(action) is None
        assert game.to_dict() == before


def test_level_1_never_hands_points_over_when_it_can_avoid_it():
    mixed = 0
    for game in random_positions(60, seed=7):
        pos = Position.from_game(game)
        me = pos.cur
        safe = []
        for move in pos.legal_moves():
            before = pos.score[1 - me]
            pos.push(move)
            if pos.score[1 - me] == before and not (pos.cur == OVER and terminal_value(pos, me) < 0):
                safe.append(move)
            pos.pop()
        picks = {beginner_move(pos, random.Random(seed)) for seed in range(8)}
        assert picks <= set(safe or pos.legal_moves())
        mixed += 0 < len(safe) < len(pos.legal_moves())
    assert mixed, "some positions must have moves that give points away"


def test_levels_2_and_up_take_points_waiting_under_a_slide():
    # Red's peg rests on slide 2 over column 1; slide 2 right opens column 1 to the board's 20.
    game = Game(profile_dict(5, [[1, 3], [0], [1], [1], [1], [1]], board_start=3, ranges=(-1, 1)))
    game.apply(DropPeg(1))
    game.apply(DropPeg(3))
    assert game.frame.peg("red-1").slide == 1 and game.current_player == "red"
    for level in (2, 3, 4, 5):
        game.apply(choose(game, level=level, budget_s=0.1))
        assert game.scores() == {"red": 20, "blue": 0}, level
        game.pop()


def test_the_bot_asks_in_both_languages():
    game = Game(SHIPPED)
    turn = bot_turn(game, level=5, budget_s=0.05)
    assert turn.player == "red" and turn.say["en"].startswith("Bot: ") and turn.say["fr"].startswith("Bot : ")
    assert turn.to_dict()["action"] == turn.action.to_dict()
    from table.passe_murailles.phrases import ask
    assert ask(MoveSlide(4, 1)) == {"en": "move slide 4 to the right", "fr": "déplacez la coulisse 4 vers la droite"}
    assert ask(MoveBoard(-1), board=2)["fr"] == "déplacez le plateau en position 1"
    assert ask(DropPeg(2), colour="blue")["fr"] == "posez un pion bleu dans la colonne 3"


def test_the_bot_refuses_a_bad_level_and_a_finished_game():
    with pytest.raises(ValueError, match="niveau"):
        choose(Game(SHIPPED), level=6)
    game = Game(profile_dict(3, [[0, 2], [1], [0], [0], [0], [0]], pegs_per_player=1))
    game.apply(DropPeg(0))
    game.apply(MoveSlide(1, -1))
    with pytest.raises(ValueError, match="over"):
        choose(game)


def test_a_node_budget_gives_the_same_move_every_time_and_stops_near_it():
    pos = Position.from_game(random_positions(1, seed=4)[0])
    first = Searcher().search(pos, max_nodes=2000)
    again = Searcher().search(pos, max_nodes=2000)
    assert (first.move, first.value, first.depth) == (again.move, again.value, again.depth)
    assert first.nodes <= 2000 + CHECK_EVERY and first.depth >= 2


def test_one_searcher_serves_games_on_different_profiles_without_mixing_them_up():
    searcher = Searcher()
    for game in random_positions(30, seed=12):
        pos = Position.from_game(game)
        shared = searcher.search(pos, max_depth=3)
        assert shared.value == pytest.approx(Searcher().search(pos, max_depth=3).value)


def test_a_different_move_on_the_frame_is_named_in_the_alert_text():
    from table.passe_murailles.bot import asked_otherwise

    game = Game(SHIPPED)
    turn = bot_turn(game, level=3)
    other = next(a for a in game.legal_actions() if a != turn.action and isinstance(a, MoveSlide))
    text = asked_otherwise(turn, other, board=game.frame.board_position)
    assert text["en"].startswith("The bot asked you to ") and f"slide {other.slide}" in text["en"]
    assert text["fr"].startswith("Le robot a demandé : ") and f"coulisse {other.slide}" in text["fr"]
    assert asked_otherwise(turn, turn.action) is None


def test_level_4_thinks_for_a_quarter_of_the_budget_and_level_5_for_all_of_it():
    pos_game = random_positions(1, seed=21)[0]
    four = bot_turn(pos_game, level=4, max_nodes=4000, budget_s=10)
    five = bot_turn(pos_game, level=5, max_nodes=4000, budget_s=10)
    assert four.depth <= 4 and five.depth >= four.depth
