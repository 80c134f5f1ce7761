"""The PtiPassPass turn as a small state machine, in full-knowledge or observed mode.

Phases: ``name_cup`` → ``doublon_window`` → ``announce`` → ``menteur_window`` for a
player with tokens in hand; ``swap_or_reveal`` for an empty-handed one; ``reveal_outcome``
while an observed game waits for what a lift or a shown token revealed; ``round_over``
after a round; ``over`` at the end. Each :meth:`Game.apply` is one step a person can
enter; a refused step raises :class:`IllegalAction` and changes nothing.

    >>> game = new_game(4)                          # full knowledge, seat 0 starts
    >>> game.apply(Place(0, "blue", (0, 0))).phase
    'doublon_window'

Rule decisions on the open points are listed in the package docstring
(:mod:`table.ptipasspass`).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from table.ptipasspass import legal
from table.ptipasspass.actions import (
    AbandonRound,
    AnnounceColour,
    CallDoublon,
    CallMenteur,
    CupShown,
    NextRound,
    Outcome,
    Pass,
    Place,
    Reveal,
    Swap,
    TokenShown,
)
from table.ptipasspass.knowledge import CupKnowledge, TokenLedger
from table.ptipasspass.layout import Cell, Layout, default_layout, load_layout
from table.ptipasspass.serial import game_from_dict, game_to_dict
from table.ptipasspass.steps import Turn, TurnSteps
from table.rules import IllegalAction

PHASES = ("name_cup", "doublon_window", "announce", "menteur_window", "swap_or_reveal",
          "reveal_outcome", "round_over", "over")
MODES = ("full", "observed")

# What each phase waits for, to explain a step entered at the wrong moment.
_WAITING_FOR = {
    "name_cup": ("the active player to hold a token and name a cup",
                 "que le joueur actif prenne un jeton et désigne un gobelet"),
    "doublon_window": ("a Doublon! call, or no call", "un « Doublon ! », ou aucun appel"),
    "announce": ("the active player to announce a colour", "que le joueur actif annonce une couleur"),
    "menteur_window": ("a Menteur! call, or no call", "un « Menteur ! », ou aucun appel"),
    "swap_or_reveal": ("the active player to swap two cups or lift three",
                       "que le joueur actif intervertisse deux gobelets ou en soulève trois"),
    "reveal_outcome": ("what the lifted cups or the shown token show",
                       "ce que montrent les gobelets soulevés ou le jeton montré"),
    "round_over": ("the next round to be set up", "la mise en place de la manche suivante"),
}
_PHASES_OF = {Place: ("name_cup",), CallDoublon: ("doublon_window",), AnnounceColour: ("announce",),
              CallMenteur: ("menteur_window",), Pass: ("doublon_window", "menteur_window"),
              Swap: ("swap_or_reveal",), Reveal: ("swap_or_reveal",), AbandonRound: ("swap_or_reveal",),
              CupShown: ("reveal_outcome",), TokenShown: ("reveal_outcome",), NextRound: ("round_over",)}


class Game(TurnSteps):
    """One PtiPassPass game. Build it with :func:`new_game`.

        >>> game = new_game(3, mode="observed", first=2)
        >>> game.active, game.phase, game.hands[2]
        (2, 'name_cup', {'blue': 1, 'green': 1, 'orange': 1, 'unknown': 0})
    """

    def __init__(self, players: int, layout: Layout, mode: str, first: int):
        self.players = players
        self.layout = layout
        self.mode = mode
        self.round = 1
        self.round_first = first
        self._active = first
        self._phase = "name_cup"
        self._victory = [0] * players
        self._winners: list[int] = []
        self.round_winner: int | None = None
        self.next_first: int | None = None   # who starts the next round, once known
        self.ledger = TokenLedger(players, layout.cells)
        self.turn = Turn()

    # ------------------------------------------------------------------ state views
    phase = property(lambda self: self._phase, doc="One of :data:`PHASES`.")
    active = property(lambda self: self._active, doc="The seat whose turn it is.")

    @property
    def hands(self) -> list[dict[str, int]]:
        """Per seat ``{"blue", "green", "orange", "unknown"}`` counts (unknown is 0 in full mode)."""
        return [dict(h) for h in self.ledger.hands]

    @property
    def cups(self) -> dict[Cell, Any]:
        """Full mode: cell → tokens. Observed mode: cell → :class:`CupKnowledge`."""
        if self.mode == "full":
            return {cell: cup.known for cell, cup in self.ledger.cups.items()}
        return dict(self.ledger.cups)

    @property
    def cup_knowledge(self) -> dict[Cell, CupKnowledge]:
        """Cell → :class:`CupKnowledge` (count, known, claimed, seen, taken), both modes."""
        return dict(self.ledger.cups)

    @property
    def victory_tokens(self) -> list[int]:
        return list(self._victory)

    @property
    def victory_pool(self) -> int:
        """Victory tokens still beside the table (one per player plus one at the start)."""
        return self.players + 1 - sum(self._victory)

    @property
    def awaiting(self) -> dict[str, Any] | None:
        """While ``reveal_outcome``: what to enter (``kind`` and the ``cups`` still hidden)."""
        if self._phase != "reveal_outcome":
            return None
        return {"kind": self.turn.awaiting, "cups": list(self.turn.pending), "seat": self._active}

    def is_over(self) -> bool:
        return self._phase == "over"

    def winners(self) -> list[int]:
        return list(self._winners)

    def scores(self) -> list[int]:
        """Victory tokens per seat."""
        return list(self._victory)

    def legal_actions(self) -> list[Any]:
        """The steps that may come next (in observed mode, the possible inputs too)."""
        return legal.legal_actions(self)

    # ------------------------------------------------------------------ applying
    def apply(self, action: Any) -> Outcome:
        """Apply one step; :class:`IllegalAction` (nothing changed) if the rules refuse it."""
        trial = self.copy()  # work on a twin so that a refusal half-way changes nothing
        events = trial._dispatch(action)
        self.__dict__.update(trial.__dict__)
        return Outcome(tuple(events), self._phase)

    def accepts(self, action: Any) -> bool:
        """Whether :meth:`apply` would take ``action`` (without applying it)."""
        try:
            self.copy()._dispatch(action)
        except IllegalAction:
            return False
        return True

    def copy(self) -> Game:
        twin = Game.__new__(Game)
        twin.__dict__.update(self.__dict__)
        twin._victory = list(self._victory)
        twin._winners = list(self._winners)
        twin.ledger = self.ledger.copy()
        return twin

    def _dispatch(self, action: Any) -> list[dict[str, Any]]:
        if self._phase == "over":
            raise IllegalAction("The game is over.", "La partie est terminée.", code="game_over")
        phases = _PHASES_OF.get(type(action))
        if phases is None:
            raise IllegalAction(f"{action!r} is not a PtiPassPass action.",
                                f"{action!r} n'est pas une action de PtiPassPass.", code="bad_action")
        if self._phase not in phases:
            en, fr = _WAITING_FOR[self._phase]
            raise IllegalAction(f"Not now: the table is waiting for {en}.",
                                f"Pas maintenant : on attend {fr}.", code="wrong_phase")
        return getattr(self, "_on_" + type(action).__name__)(action)

    # ------------------------------------------------------------------ plain data
    def to_dict(self) -> dict[str, Any]:
        return game_to_dict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        return game_from_dict(d, new_game=new_game, phases=PHASES)

    def __repr__(self) -> str:
        return (f"<PtiPassPass {self.players}p {self.mode} round {self.round} phase {self._phase} "
                f"active {self._active} victory {self._victory}>")


def new_game(players: int, *, first: int | None = 0, mode: str = "full",
             layout: Layout | dict[str, Any] | str | Path | None = None, seed: int | None = None) -> Game:
    """A new game for 3–6 players; ``first=None`` draws the first player with ``seed``."""
    if isinstance(players, bool) or not isinstance(players, int) or not 3 <= players <= 6:
        raise IllegalAction(f"PtiPassPass is for 3 to 6 players, not {players!r}.",
                            f"PtiPassPass se joue de 3 à 6 joueurs, pas {players!r}.", code="players")
    if mode not in MODES:
        raise IllegalAction(f"Unknown mode {mode!r}: 'full' or 'observed'.",
                            f"Mode inconnu {mode!r} : 'full' (complet) ou 'observed' (observé).", code="mode")
    if first is None:
        first = random.Random(seed).randrange(players)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
        raise IllegalAction(f"The first player must be a seat from 0 to {players - 1}.",
                            f"Le premier joueur doit être une place de 0 à {players - 1}.", code="bad_seat")
    if layout is None:
        layout = default_layout(players)
    elif not isinstance(layout, Layout):
        layout = load_layout(layout)
    if len(layout.cells) != 3 * players:
        raise IllegalAction(f"This layout has {len(layout.cells)} cups; {players} players need {3 * players}.",
                            f"Cette disposition a {len(layout.cells)} gobelets ; {players} joueurs en "
                            f"demandent {3 * players}.", code="layout")
    return Game(players, layout, mode, first)
