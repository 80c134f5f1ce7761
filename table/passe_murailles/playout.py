"""Random games, for the benchmark, the simulated players and property tests.

    >>> import random
    >>> g = random_playout(random.Random(7))
    >>> g.is_over(), g.scores()
    (True, {'red': 6, 'blue': 12})
"""

from __future__ import annotations

import random

from .game import Game
from .profile import Profile


def random_playout(
    rng: random.Random,
    profile: Profile | str | dict | None = None,
    max_actions: int = 5000,
    first: str = "red",
) -> Game:
    """Play uniformly random legal actions until the game ends or ``max_actions``."""
    if not isinstance(rng, random.Random):
        raise TypeError("random_playout needs a random.Random (seed it for repeatable games)")
    game = Game(profile, first)
    for _ in range(max_actions):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    return game
