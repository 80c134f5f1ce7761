"""Threats and hints: checked against brute force on the reference Game, and read-only."""

import random

from table.passe_murailles import COLOURS, DropPeg, Game, MoveBoard, MoveSlide, load_profile, profile_dict
from table.passe_murailles.hints import hint, threats
from table.passe_murailles.position import Position, action_of
from table.passe_murailles.profile import random_profile
from table.passe_murailles.search import Searcher

SHIPPED = load_profile(None)
SMALL = load_profile(profile_dict(
    4, [[0, 1, 3], [0, 2], [1, 3], [0, 3], [2], [-1, 1, 4]],
    ranges=(-1, 2), board_start=1, pegs_per_player=3,
))


def positions(count, seed):
    """``count`` positions met along random games on the shipped, small and random profiles."""
    rng = random.Random(seed)
    while count > 0:
        pick = rng.randrange(3)
        profile = SHIPPED if pick == 0 else SMALL if pick == 1 else load_profile(random_profile(rng))
        game = Game(profile, rng.choice(COLOURS))
        stop = rng.randrange(1, 120)
        while not game.is_over() and count > 0:
            if len(game.history) % 7 == 0 or len(game.history) == stop:
                yield game
                count -= 1
            if len(game.history) == stop:
                break
            game.apply(rng.choice(game.legal_actions()))


def brute_force(game):
    """Each action applied to the Game itself, each reply tried and undone: (action, gains,
    ends, next, reply, reply gains) in ``legal_actions`` order."""
    rows = []
    mover = game.current_player
    for action in game.legal_actions():
        before = game.scores()
        game.apply(action)
        after = game.scores()
        gains = {c: after[c] - before[c] for c in COLOURS}
        nxt = game.current_player
        reply, reply_gains, rank = None, {c: 0 for c in COLOURS}, None
        if nxt is not None and nxt != mover:
            for answer in game.legal_actions():
                game.apply(answer)
                got = {c: game.scores()[c] - after[c] for c in COLOURS}
                game.pop()
                mine = (got[nxt], -got[mover])
                if rank is None or mine > rank:
                    reply, reply_gains, rank = answer, got, mine
        game.pop()
        rows.append((action, gains, nxt is None, nxt, reply, reply_gains))
    return rows


def test_threats_match_brute_force_on_a_thousand_random_positions_and_change_nothing():
    checked = dangerous = 0
    for game in positions(1000, seed=1):
        before = game.to_dict()
        found = threats(game)
        assert game.to_dict() == before
        assert [(t.action, t.gains, t.ends_game, t.next_player, t.reply, t.reply_gains) for t in found] == \
            brute_force(game)
        assert game.to_dict() == before
        checked += 1
        dangerous += any(t.danger for t in found)
        for t in found:
            assert t.say["en"] and t.say["fr"] and t.say["en"] != t.say["fr"]
    assert checked == 1000 and dangerous > 100


def test_the_hint_is_the_search_result_and_changes_nothing():
    for game in positions(40, seed=2):
        before = game.to_dict()
        for depth in (1, 2, 3):
            found = hint(game, max_depth=depth, budget_s=None)
            expected = Searcher().search(Position.from_game(game), max_depth=depth)
            assert (found.best, found.value, found.depth) == (action_of(expected.move), expected.value, expected.depth)
            assert game.to_dict() == before
            assert found.say["en"].startswith("Hint: ") and found.say["fr"].startswith("Conseil : ")


def test_a_threat_reads_as_a_sentence_in_both_languages():
    # Red's peg rests on slide 2 over column 1; whoever moves slide 2 right drops it on the 20.
    game = Game(profile_dict(5, [[1, 3], [0], [1], [1], [1], [1]], board_start=3, ranges=(-1, 1)))
    game.apply(DropPeg(1))
    found = {t.action: t for t in threats(game)}
    slide_right = found[MoveSlide(2, 1)]
    assert slide_right.gains == {"red": 20, "blue": 0}
    assert slide_right.say["en"] == "Moving slide 2 to the right scores 20 for red and opens nothing for the reply"
    assert slide_right.say["fr"].startswith("Déplacer la coulisse 2 vers la droite rapporte 20 à rouge")
    board_down = found[MoveBoard(-1)]
    assert board_down.gains == {"red": 0, "blue": 0} and board_down.danger == 0
    assert board_down.to_dict()["say"]["en"] == "Moving the board to position 2 opens nothing for the reply"
