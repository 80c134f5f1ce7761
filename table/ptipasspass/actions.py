"""The steps of a PtiPassPass turn, one frozen dataclass each, and what applying one gives.

A dashboard enters a turn one step at a time; ``Game.legal_actions()`` lists the next
possible steps. Seats are 0-based; cups are layout cells ``(row, col)``.

    >>> from table.ptipasspass import new_game
    >>> game = new_game(4)
    >>> _ = game.apply(Place(0, "blue", (1, 2)))     # seat 0 holds blue, names cup (1, 2)
    >>> _ = game.apply(Pass())                       # nobody calls Doublon!
    >>> game.apply(AnnounceColour(0, "green")).phase  # ... a lie
    'menteur_window'

``CupShown`` and ``TokenShown`` are the observed-mode inputs: what a lifted cup showed
(for a Doublon! or a reveal) and which token the accused showed on Menteur!.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from table.rules import IllegalAction

Cell = tuple[int, int]


@dataclass(frozen=True)
class Place:
    """The active player holds a token (full mode: its colour; observed: None) over ``cup``."""
    seat: int
    colour: str | None
    cup: Cell


@dataclass(frozen=True)
class CallDoublon:
    """``seat`` (not the active player) says the named cup already holds a token."""
    seat: int


@dataclass(frozen=True)
class AnnounceColour:
    """The active player says which colour they hold (true or not)."""
    seat: int
    colour: str


@dataclass(frozen=True)
class CallMenteur:
    """``seat`` (not the active player) says the announced colour is a lie."""
    seat: int


@dataclass(frozen=True)
class Pass:
    """Nobody calls: everyone said "OK" in the open Doublon!/Menteur! window."""


NoCall = Pass


@dataclass(frozen=True)
class Swap:
    """An empty-handed active player swaps two contiguous cups, without lifting them."""
    seat: int
    a: Cell
    b: Cell


@dataclass(frozen=True)
class Reveal:
    """An empty-handed active player lifts three aligned cups; ``picks`` one colour per cup."""
    seat: int
    line: tuple[Cell, Cell, Cell]
    picks: tuple[str, str, str] | None = None


@dataclass(frozen=True)
class CupShown:
    """Observed mode: a lifted cup showed these tokens (an empty tuple for none)."""
    cup: Cell
    tokens: tuple[str, ...]


@dataclass(frozen=True)
class TokenShown:
    """Observed mode: on Menteur!, the active player showed a token of this colour."""
    colour: str


@dataclass(frozen=True)
class NextRound:
    """Set up the next round (every hand full again, cups empty) after a round ended."""


@dataclass(frozen=True)
class AbandonRound:
    """Every hand is empty and the table agrees no reveal can ever win: replay the round."""


ACTION_TYPES: dict[str, type] = {cls.__name__: cls for cls in (
    Place, CallDoublon, AnnounceColour, CallMenteur, Pass, Swap, Reveal, CupShown,
    TokenShown, NextRound, AbandonRound)}


@dataclass(frozen=True)
class Outcome:
    """What one applied action caused: ``events`` in order, and the phase it left."""
    events: tuple[dict[str, Any], ...]
    phase: str


# ----------------------------------------------------------------------- plain data
def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def action_to_dict(action: Any) -> dict[str, Any]:
    """``{"action": "Place", "seat": 0, "colour": "blue", "cup": [1, 2]}`` (JSON-ready)."""
    return {"action": type(action).__name__, **{f.name: _plain(getattr(action, f.name)) for f in fields(action)}}


def _cell(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def action_from_dict(d: dict[str, Any]) -> Any:
    """The inverse of :func:`action_to_dict`; a clear refusal for an unknown action."""
    name = d.get("action")
    cls = ACTION_TYPES.get(name)  # type: ignore[arg-type]
    if cls is None:
        raise IllegalAction(f"Unknown PtiPassPass action {name!r}.",
                            f"Action PtiPassPass inconnue {name!r}.", code="bad_action")
    args = {k: v for k, v in d.items() if k != "action"}
    for key in ("cup", "a", "b"):
        if key in args:
            args[key] = _cell(args[key])
    if "line" in args and isinstance(args["line"], list):
        args["line"] = tuple(_cell(c) for c in args["line"])
    for key in ("tokens", "picks"):
        if isinstance(args.get(key), list):
            args[key] = tuple(args[key])
    try:
        return cls(**args)
    except TypeError as exc:
        raise IllegalAction(f"Bad fields for {name}: {exc}.", f"Champs invalides pour {name} : {exc}.",
                            code="bad_action") from exc
