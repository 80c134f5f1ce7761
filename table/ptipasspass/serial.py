"""A PtiPassPass game as plain JSON-ready data, and back (``Game.to_dict/from_dict``).

    >>> from table.ptipasspass import Game, new_game
    >>> game = new_game(4)
    >>> Game.from_dict(game.to_dict()).to_dict() == game.to_dict()
    True

The game module calls these functions (this one imports nothing of it: it is handed the
game's factory and phases), so the two never import each other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from table.ptipasspass.layout import load_layout
from table.ptipasspass.steps import Turn
from table.rules import IllegalAction

if TYPE_CHECKING:
    from table.ptipasspass.game import Game

FORMAT = 1


def _cells(value: Any) -> Any:
    return None if value is None else [list(c) for c in value]


def _tuple_cells(value: Any) -> Any:
    return None if value is None else tuple(tuple(c) for c in value)


def game_to_dict(game: Game) -> dict[str, Any]:
    t = game.turn
    return {
        "game": "ptipasspass", "format": FORMAT, "mode": game.mode, "players": game.players,
        "layout": game.layout.to_dict(), "round": game.round, "round_first": game.round_first,
        "active": game.active, "phase": game.phase, "victory_tokens": game.victory_tokens,
        "winners": game.winners(), "round_winner": game.round_winner, "next_first": game.next_first,
        "ledger": game.ledger.to_dict(),
        "turn": {
            "cup": None if t.cup is None else list(t.cup), "held": t.held, "announced": t.announced,
            "caller": t.caller, "swapped": _cells(t.swapped), "line": _cells(t.line),
            "picks": None if t.picks is None else list(t.picks), "awaiting": t.awaiting,
            "pending": _cells(t.pending), "shown": [[list(c), list(tok)] for c, tok in t.shown],
        },
    }


def game_from_dict(d: dict[str, Any], *, new_game: Callable[..., Game], phases: Sequence[str]) -> Game:
    if not isinstance(d, dict) or d.get("game") != "ptipasspass":
        raise IllegalAction("This is not a saved PtiPassPass game.",
                            "Ce n'est pas une partie de PtiPassPass enregistrée.", code="bad_state")
    try:
        game = new_game(d["players"], mode=d["mode"], first=d["round_first"], layout=load_layout(d["layout"]))
        if d["phase"] not in phases:
            raise ValueError(f"unknown phase {d['phase']!r}")
        game.round = int(d["round"])
        game._active, game._phase = int(d["active"]), d["phase"]
        game._victory = [int(v) for v in d["victory_tokens"]]
        game._winners = [int(w) for w in d["winners"]]
        game.round_winner, game.next_first = d["round_winner"], d["next_first"]
        game.ledger.load(d["ledger"])
        t = d["turn"]
        game.turn = Turn(
            cup=None if t["cup"] is None else tuple(t["cup"]), held=t["held"], announced=t["announced"],
            caller=t["caller"], swapped=_tuple_cells(t["swapped"]), line=_tuple_cells(t["line"]),
            picks=None if t["picks"] is None else tuple(t["picks"]), awaiting=t["awaiting"],
            pending=_tuple_cells(t["pending"]) or (),
            shown=tuple((tuple(c), tuple(tok)) for c, tok in t["shown"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise IllegalAction(f"The saved PtiPassPass game is damaged: {exc}.",
                            f"La partie de PtiPassPass enregistrée est abîmée : {exc}.", code="bad_state") from exc
    return game
