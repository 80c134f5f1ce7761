"""Build a Passe Éclair game in a chosen position (tests, replays, an operator setting up
the table by hand). Whatever cards are not placed explicitly go to the draw pile, or to
the box with ``rest_to="box"``; the result passes the same checks as ``Game.from_dict``.

    >>> g = arranged_game(3, hands=[["marlon-fabi"], ["dog"], ["fabi-leon"]], pile=[("leon-marlon", None)])
    >>> g.top, g.legal_actions()[0]
    ('leon-marlon', ['marlon-fabi'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from .game import Game, new_game
from .profile import Profile


def arranged_game(players: int, *, hands: Sequence[Sequence[str]],
                  pile: Sequence[tuple[str, int | None] | tuple[str, int | None, float]] = (),
                  draw: Sequence[str] | None = None, box: Sequence[str] | None = None, rest_to: str = "draw",
                  phase: str = "playing", round: int = 1, coach: int = 0, strict: bool = True,
                  together_window: float = 0.15, seed: int = 0, profile: Profile | None = None,
                  **tokens: Any) -> Game:
    """A game with these hands, centre pile (``(card, by[, t])`` bottom first; t defaults to
    the entry's index), draw pile (top last) and box. ``tokens`` may set ``victory_pool``,
    ``consolation_pool``, ``victory_tokens``, ``consolation_tokens``, ``spent_tokens``."""
    d = new_game(players, seed=seed, coach=coach, strict=strict, together_window=together_window,
                 profile=profile).to_dict()
    deck = Counter(d["profile"]["cards"])
    entries = [{"serial": i, "card": e[0], "by": e[1], "t": float(e[2]) if len(e) > 2 else float(i),
                "wrong": None} for i, e in enumerate(pile)]
    used = Counter(c for h in hands for c in h) + Counter(e["card"] for e in entries)
    used += Counter(draw or []) + Counter(box or [])
    rest = list((deck - used).elements())
    if draw is None and rest_to == "draw":
        draw, rest = rest, []
    if box is None:
        box, rest = rest, []
    d.update(hands=[list(h) for h in hands], pile=entries, draw_pile=list(draw or []) + rest, box=list(box),
             next_serial=len(entries), phase=phase, round=round, coach=coach)
    d.update({k: [list(v) for v in value] if k.endswith("_tokens") else list(value) for k, value in tokens.items()})
    return Game.from_dict(d)
