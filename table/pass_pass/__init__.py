"""Pass Pass, the trick-taking game of Alexandre Droit and David Paput: a pure rules
engine, individual (3-5 players) and in teams (4 or 6), as ruled in RULINGS.md §1.

    >>> from table.pass_pass import new_game, PlayCard
    >>> game = new_game(4, seed=7)
    >>> game.apply(PlayCard(0, game.hand(0)[0])).types()
    ('card_played',)

Modules: ``cards`` (Card, deck profile), ``trick`` (pure trick rules), ``actions``
(actions and Outcome), ``game`` (the engine: queries and checks), ``flow`` (the
changes a legal action makes), ``state`` (its data and JSON form),
``teams``, ``scoring``, ``events`` (feed lines), ``messages`` (bilingual refusals),
``playout`` (random games), ``staging`` (a game set at a chosen point).

Open points decided as players would (see also ``game``'s docstring):

* A forced second take (no tie on the cut; always at 3 players) is applied by the engine
  (``card_taken`` with ``auto: True``); ``TakeLow`` is asked for only when tied cards
  leave a real choice, and ``legal_actions()`` then lists every choice.
* Pass Pass are ticked as cards are taken, first winner first; a player's total
  counts the current round's ticks immediately. An instant win ends the game before
  the second winner takes, and the interrupted round is not scored.
* After round 3's last trick nobody leads again: ``leader`` keeps the last second winner.
* Team mode: the suggested member on a full tie (points and Pass Pass) is the lower
  seat; teams may record in any order; ``to_act`` names the first team still to record.
* Observed mode (``deal=False``): hands unknown; any card not yet seen this round may be
  played, in seat order (so at most 8 per seat per round).
* Seats and teams are 0-based in the API and 1-based in sentences.
"""

from table.pass_pass.actions import Action, Outcome, PlayCard, RecordMember, TakeCard, TakeLow, action_from_dict
from table.pass_pass.cards import (
    COLOUR_NAMES,
    COLOURS,
    Card,
    DeckProfile,
    DeckProfileError,
    InvalidInput,
    load_deck_profile,
    shipped_deck,
)
from table.pass_pass.events import feed_line
from table.pass_pass.game import Game, new_game
from table.pass_pass.playout import random_playout
from table.pass_pass.scoring import PassPassMarks, RoundScore
from table.pass_pass.staging import staged_game
from table.pass_pass.state import TrickSummary
from table.pass_pass.trick import (
    TrickResult,
    analyse_trick,
    pass_pass_count,
    resolve_trick,
    round_points,
    second_take_options,
)
from table.rules import IllegalAction

__all__ = [
    "COLOURS", "COLOUR_NAMES", "Action", "Card", "DeckProfile", "DeckProfileError", "Game",
    "IllegalAction", "InvalidInput", "Outcome", "PassPassMarks", "PlayCard", "RecordMember",
    "RoundScore", "TakeCard", "TakeLow", "TrickResult", "TrickSummary", "action_from_dict",
    "analyse_trick", "feed_line", "load_deck_profile", "new_game", "pass_pass_count",
    "random_playout", "resolve_trick", "round_points", "second_take_options", "shipped_deck", "staged_game",
]
