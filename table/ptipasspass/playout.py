"""Random full-knowledge games (for the simulated table and benchmarks), and the inputs
an observer of such a game would enter.

    >>> game = random_playout(random.Random(7), players=4)
    >>> game.is_over(), len(game.winners())
    (True, 1)

The random players are "sensible": they usually tell the truth and drop into cups they
believe empty, call Doublon!/Menteur! now and then, and when revealing take a winning
line when they see one (they remember the drops), else try a swap that makes one.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

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
from table.ptipasspass.game import Game, new_game
from table.ptipasspass.layout import Cell, Line
from table.ptipasspass.tokens import COLOURS, is_winning_reveal

DOUBLON_RATE = 0.12      # chance that someone calls Doublon! on a drop
MENTEUR_RATE = 0.15      # chance that someone calls Menteur! on an announcement
LIE_RATE = 0.25          # chance that the active player announces a wrong colour
SEES_WIN_RATE = 0.6      # chance that a revealer spots a winning line (or swap) that exists
MAX_ACTIONS = 200_000    # a safety net: a game takes a few hundred steps


def random_playout(rng: random.Random, players: int = 4) -> Game:
    """Play a whole random legal full-knowledge game and return it (over)."""
    game = new_game(players, first=rng.randrange(players))
    for _ in range(MAX_ACTIONS):
        if game.is_over():
            return game
        game.apply(choose_action(game, rng))
    raise RuntimeError("random_playout did not finish: the random players are stuck")


def choose_action(game: Game, rng: random.Random) -> Any:
    """One sensible random step for a full-knowledge ``game``."""
    phase, seat = game.phase, game.active
    others = [s for s in range(game.players) if s != seat]
    if phase == "round_over":
        return NextRound()
    if phase == "name_cup":
        hand = game.ledger.hands[seat]
        colour = rng.choice([c for c in COLOURS for _ in range(hand[c])])
        empty = [c for c, tokens in game.cups.items() if not tokens]
        cells = empty if empty and rng.random() < 0.8 else list(game.layout.cells)
        return Place(seat, colour, rng.choice(cells))
    if phase == "doublon_window":
        return CallDoublon(rng.choice(others)) if rng.random() < DOUBLON_RATE else Pass()
    if phase == "announce":
        held = game.turn.held
        lie = rng.random() < LIE_RATE
        return AnnounceColour(seat, rng.choice([c for c in COLOURS if c != held]) if lie else held)
    if phase == "menteur_window":
        return CallMenteur(rng.choice(others)) if rng.random() < MENTEUR_RATE else Pass()
    if phase == "swap_or_reveal":
        return _reveal_step(game, rng)
    raise RuntimeError(f"no random step for phase {phase!r}")


def _reveal_step(game: Game, rng: random.Random) -> Any:
    seat, cups = game.active, game.cups
    if not any(game.ledger.hand_size(s) for s in range(game.players)) and not round_can_be_won(game):
        return AbandonRound()
    winning = winning_lines(cups, game.layout.lines)
    if winning and rng.random() < SEES_WIN_RATE:
        return Reveal(seat, rng.choice(winning))
    if game.turn.swapped is None:
        pairs = list(game.layout.contiguous_pairs())
        helpful = [p for p in pairs if winning_lines(_swapped(cups, *p), game.layout.lines)]
        if helpful and rng.random() < SEES_WIN_RATE:
            return Swap(seat, *rng.choice(helpful))
        if rng.random() < 0.3:
            return Swap(seat, *rng.choice(pairs))
    return Reveal(seat, rng.choice(game.layout.lines))


def winning_lines(cups: dict[Cell, tuple[str, ...]], lines: tuple[Line, ...]) -> list[Line]:
    """The lines whose cups, lifted now, would win."""
    return [line for line in lines if is_winning_reveal([cups[c] for c in line])]


def round_can_be_won(game: Game) -> bool:
    """Full mode: can some three cups (brought into a line by swaps) still make a set?"""
    full = [tokens for tokens in game.cups.values() if tokens]
    return any(is_winning_reveal(list(trio)) for trio in combinations(full, 3))


def _swapped(cups: dict[Cell, tuple[str, ...]], a: Cell, b: Cell) -> dict[Cell, tuple[str, ...]]:
    moved = dict(cups)
    moved[a], moved[b] = cups[b], cups[a]
    return moved


def observed_inputs(game: Game, action: Any) -> list[Any]:
    """The steps an observer enters for ``action`` of the full-knowledge ``game`` (call
    before applying it): secret colours dropped, lift and show outcomes added."""
    if isinstance(action, Place):
        return [Place(action.seat, None, action.cup)]
    if isinstance(action, CallDoublon):
        cup = game.turn.cup
        return [action, CupShown(cup, game.cups[cup])]  # type: ignore[index]
    if isinstance(action, CallMenteur):
        return [action, TokenShown(game.turn.held)]  # type: ignore[arg-type]
    if isinstance(action, Reveal):
        line = game.layout.find_line(action.line) or action.line
        return [Reveal(action.seat, line)] + [CupShown(c, game.cups[c]) for c in line]
    return [action]
