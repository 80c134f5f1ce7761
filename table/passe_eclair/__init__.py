"""Passe Éclair (Blitzpass): the real-time rules engine (RULINGS.md §3).

    >>> from table.passe_eclair import new_game, Place, StartRound
    >>> game = new_game(3, seed=42, coach=0)
    >>> outcome = game.apply(StartRound(t=0.0))

Modules: ``cards`` (ids), ``profile`` (deck and tokens), ``placement`` (the pure
``can_place``), ``actions`` (what the engine takes), ``state`` + ``game`` (the engine and
its decisions on open points, see ``game``'s docstring), ``feed`` (bilingual event lines),
``playout`` (random whole games).
"""

from table.rules import IllegalAction, ProfileError

from .actions import (
                      Action,
                      Blocked,
                      MichiSwap,
                      Outcome,
                      Place,
                      Simultaneous,
                      SpendConsolation,
                      SpotWrong,
                      StartRound,
                      action_from_dict,
                      action_to_dict,
)
from .arrange import arranged_game
from .cards import (
                      ALL_CARD_IDS,
                      DOG,
                      FOOTBALLER_CARDS,
                      FOOTBALLERS,
                      MICHI,
                      BadInput,
                      Card,
                      card_label,
                      footballer_card,
                      is_card_id,
                      parse_card,
                      validate_card,
)
from .feed import describe
from .game import DEFAULT_TOGETHER_WINDOW, Game, new_game
from .placement import can_place, placement_problem
from .playout import PlayoutStyle, playout_steps, random_playout
from .profile import Profile, default_profile, load_profile, parse_profile, token_points
from .state import PileCard

__all__ = [
    "ALL_CARD_IDS", "Action", "BadInput", "Blocked", "Card", "DEFAULT_TOGETHER_WINDOW", "DOG", "FOOTBALLERS",
    "FOOTBALLER_CARDS", "Game", "IllegalAction", "MICHI", "MichiSwap", "Outcome", "PileCard", "Place",
    "PlayoutStyle", "Profile", "ProfileError", "Simultaneous", "SpendConsolation", "SpotWrong", "StartRound",
    "action_from_dict", "action_to_dict", "arranged_game", "can_place", "card_label", "default_profile", "describe",
    "footballer_card", "is_card_id", "load_profile", "new_game", "parse_card", "parse_profile",
    "placement_problem", "playout_steps", "random_playout", "token_points", "validate_card",
]
