"""PtiPassPass (3–6 players): the pure rules engine, in full-knowledge or observed mode.

Specification: ``rules/ptipasspass.fr.txt`` and RULINGS §2 (the ruling wins).

    >>> game = new_game(4, mode="observed")
    >>> game.apply(Place(0, None, (1, 1))).phase
    'doublon_window'

Modules: :mod:`.tokens` (colours, :func:`is_winning_reveal`), :mod:`.layout` (cups,
neighbours, lines, profiles), :mod:`.knowledge` (hands and cups, what is certain),
:mod:`.actions` (the steps), :mod:`.game` (the turn state machine), :mod:`.steps`
(what each step does), :mod:`.legal`,
:mod:`.serial`, :mod:`.feed` (bilingual feed lines), :mod:`.playout` (random games).

Decisions on points the rules leave open (decided as a player would):

* A challenge window takes one call: the first ``CallDoublon``/``CallMenteur`` entered
  counts, later callers are simply not heard. Doublon! is only possible before the
  colour is announced, Menteur! only after; a Doublon! ends the turn.
* Anyone but the active player may call, whatever their hand (an empty hand too).
* The active player may name any cup, and announce any colour, including one they no
  longer hold: that is simply a lie.
* The held token stays counted in the active player's hand until it goes somewhere.
* Doublon! on a cup holding tokens: the active player takes them all AND keeps the held
  token. Doublon! on an empty cup: the accuser takes the held token (its colour stays
  secret in observed mode: only the accuser saw it).
* A turn is a reveal turn iff the hand is empty when it starts; tokens won by calling
  are placed on later turns before any reveal.
* At most one swap per turn, only of two cups sharing a side; the swap stays done
  whatever the reveal gives. A line may be named in either direction.
* Picks: the player picks what suits them best, so the reveal wins whenever some choice
  makes a set; ``Reveal.picks`` that make a set are reported, otherwise the engine's.
  In full mode, picks naming a colour absent from its cup are refused.
* After a round won, ``round_over`` waits for ``NextRound()``; the next round starts
  with the player left of the winner (seat + 1). The second victory token ends the game.
* Blocked round: when every hand is empty and fewer than three cups hold tokens, no
  reveal can ever win: the round ends without a winner and is replayed, started by the
  player whose turn it was. When the table agrees a round is stuck for another reason
  (e.g. the tokens left cannot make a set), ``AbandonRound()`` (legal once every hand is
  empty) does the same.
* Observed mode: ``reveal_outcome`` is the one phase for every outcome input: a Doublon!
  lift (one ``CupShown``), a reveal (three ``CupShown``, in any order) or a Menteur! show
  (``TokenShown``); ``Game.awaiting`` says which and lists the cups still to enter.
  Cup token counts are always known (people see which cup a token goes
  into); a lift must show exactly that many tokens, including those known to be there,
  and no colour may become certain in more places than it has tokens; such
  contradictory inputs are refused with code ``"contradiction"``. Hands hold certain
  counts per colour plus ``unknown`` (lower bounds: a later lift does not go back to
  refine an earlier secret move).
"""

from table.ptipasspass.actions import (
    AbandonRound,
    AnnounceColour,
    CallDoublon,
    CallMenteur,
    CupShown,
    NextRound,
    NoCall,
    Outcome,
    Pass,
    Place,
    Reveal,
    Swap,
    TokenShown,
    action_from_dict,
    action_to_dict,
)
from table.ptipasspass.feed import describe
from table.ptipasspass.game import MODES, PHASES, Game, new_game
from table.ptipasspass.knowledge import CupKnowledge
from table.ptipasspass.layout import Layout, default_layout, load_layout
from table.ptipasspass.playout import observed_inputs, random_playout
from table.ptipasspass.tokens import COLOURS, is_winning_reveal, winning_picks
from table.rules import IllegalAction, ProfileError

__all__ = [
    "AbandonRound", "AnnounceColour", "CallDoublon", "CallMenteur", "COLOURS", "CupKnowledge",
    "CupShown", "Game", "IllegalAction", "Layout", "MODES", "NextRound", "NoCall", "Outcome",
    "PHASES", "Pass", "Place", "ProfileError", "Reveal", "Swap", "TokenShown",
    "action_from_dict", "action_to_dict", "default_layout", "describe", "is_winning_reveal",
    "load_layout", "new_game", "observed_inputs", "random_playout", "winning_picks",
]
