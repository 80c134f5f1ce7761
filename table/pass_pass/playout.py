"""Random legal Pass Pass games, for the benchmark and the simulated table.

    >>> import random
    >>> game = random_playout(random.Random(1), players=5)
    >>> game.is_over(), len(game.winners()) >= 1
    (True, True)
"""

from __future__ import annotations

import random

from table.pass_pass.game import Game, new_game


def random_playout(rng: random.Random, players: int = 4, teams: bool = False, *, deal: bool = True) -> Game:
    """Play a whole game choosing uniformly among the legal actions with ``rng`` (which
    also deals). ``deal=False`` plays an observed-mode game (any unseen card)."""
    game = new_game(players, teams=teams, rng=rng, first=rng.randrange(players), deal=deal)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    return game
