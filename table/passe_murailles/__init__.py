"""Passe-Murailles: the pure rules engine (no I/O, no clock).

    >>> from table.passe_murailles import new_game, DropPeg, MoveSlide, MoveBoard
    >>> g = new_game(first="red")
    >>> g.apply(MoveSlide(slide=3, step=+1)).next_player
    'blue'

Modules: ``profile`` (geometry, loading, checks), ``frame`` (pure physics),
``actions``, ``events``, ``legality`` (refusals in both languages), ``game`` (turns,
scores, end), ``playout`` (random games).
"""

from table.rules import IllegalAction, ProfileError

from .actions import Action, DropPeg, MoveBoard, MoveSlide, action_from_dict
from .events import (
    BoardMoved,
    Dropped,
    Event,
    Fell,
    GameOver,
    Landed,
    Landing,
    LostTurn,
    PushedOff,
    Skipped,
    SlideMoved,
    event_from_dict,
)
from .frame import COLOURS, Frame, PegView, PhysicsError
from .game import Game, LastTurn, Outcome, new_game
from .playout import random_playout
from .profile import Profile, SlideSpec, load_profile, profile_dict

__all__ = [
    "Action", "BoardMoved", "COLOURS", "DropPeg", "Dropped", "Event", "Fell", "Frame",
    "Game", "GameOver", "IllegalAction", "Landed", "Landing", "LastTurn", "LostTurn",
    "MoveBoard", "MoveSlide", "Outcome", "PegView", "PhysicsError", "Profile",
    "ProfileError", "PushedOff", "Skipped", "SlideMoved", "SlideSpec", "action_from_dict",
    "event_from_dict", "load_profile", "new_game", "profile_dict", "random_playout",
]
