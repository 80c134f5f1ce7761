"""What may come next in a PtiPassPass game (``Game.legal_actions``).

In observed mode the outcome of a lift is an input: while the game waits in
``reveal_outcome`` the list holds every ``CupShown``/``TokenShown`` input that agrees
with what is known (a cup's token count, the tokens certainly inside, colour totals).

    >>> from table.ptipasspass import new_game
    >>> actions = legal_actions(new_game(3))
    >>> {type(a).__name__ for a in actions}
    {'Place'}
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Any

from table.ptipasspass.actions import (
    AbandonRound,
    AnnounceColour,
    CallDoublon,
    CallMenteur,
    CupShown,
    NextRound,
    Pass,
    Place,
    Reveal,
    Swap,
    TokenShown,
)
from table.ptipasspass.tokens import COLOURS

if TYPE_CHECKING:
    from table.ptipasspass.game import Game


def legal_actions(game: Game) -> list[Any]:
    phase, seat = game.phase, game.active
    others = [s for s in range(game.players) if s != seat]
    if phase == "over":
        return []
    if phase == "round_over":
        return [NextRound()]
    if phase == "name_cup":
        hand = game.ledger.hands[seat]
        colours = [None] if game.mode == "observed" else [c for c in COLOURS if hand[c]]
        return [Place(seat, colour, cell) for colour in colours for cell in game.layout.cells]
    if phase == "doublon_window":
        return [Pass()] + [CallDoublon(s) for s in others]
    if phase == "announce":
        return [AnnounceColour(seat, c) for c in COLOURS]
    if phase == "menteur_window":
        return [Pass()] + [CallMenteur(s) for s in others]
    if phase == "swap_or_reveal":
        actions: list[Any] = []
        if game.turn.swapped is None:
            actions += [Swap(seat, a, b) for a, b in game.layout.contiguous_pairs()]
        actions += [Reveal(seat, line) for line in game.layout.lines]
        if not any(game.ledger.hand_size(s) for s in range(game.players)):
            actions.append(AbandonRound())
        return actions
    return _possible_inputs(game)


def _possible_inputs(game: Game) -> list[Any]:
    """Observed mode, ``reveal_outcome``: every input that agrees with what is known."""
    if game.turn.awaiting == "menteur":
        candidates: list[Any] = [TokenShown(c) for c in COLOURS]
    else:
        candidates = []
        for cell in game.turn.pending:
            count = game.ledger.cups[cell].count
            candidates += [CupShown(cell, tokens) for tokens in combinations_with_replacement(COLOURS, count)]
    return [a for a in candidates if game.accepts(a)]
