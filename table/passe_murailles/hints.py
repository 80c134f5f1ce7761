"""Threats and hints for the player to move: what each move scores now, and what it opens.

    >>> from table.passe_murailles import new_game
    >>> game = new_game()
    >>> found = hint(game, max_depth=2)
    >>> len(found.threats) == len(game.legal_actions()), game.history
    (True, [])
    >>> found.say["en"].startswith("Hint: ")
    True

For every legal action, :func:`threats` gives the points it scores at once for each side
and the best reply it leaves the next player (the reply scoring them most, then giving the
other side least): "moving slide 3 to the left gives blue 5 next turn". After a drop that
falls on, the opponent plays twice, and their first move is the reply shown; after the
opponent's own lost turn the mover plays again and there is no reply to fear yet.
:func:`hint` adds the best move of a depth-limited search. The game is only read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import phrases
from .actions import Action
from .frame import COLOURS
from .position import OVER, Position, action_of
from .search import Searcher

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class Threat:
    """One legal action of the player to move and what follows from it."""

    action: Action
    gains: dict[str, int]               # points this action scores at once, per colour
    ends_game: bool
    next_player: str | None             # who plays after it (the mover again after a lost turn)
    reply: Action | None                # the next player's best-scoring reply, when it is the opponent
    reply_gains: dict[str, int]         # what that reply scores, per colour (zeros without a reply)
    say: dict[str, str]

    @property
    def danger(self) -> int:
        """Points the opponent's best reply scores for them (what a danger marker shows)."""
        if self.next_player is None or self.reply is None:
            return 0
        return self.reply_gains[self.next_player]

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action.to_dict(), "gains": dict(self.gains), "ends_game": self.ends_game,
                "next_player": self.next_player, "reply": self.reply.to_dict() if self.reply else None,
                "reply_gains": dict(self.reply_gains), "danger": self.danger, "say": dict(self.say)}


@dataclass(frozen=True)
class Hint:
    """The search's best move with every threat, for a "hint" button."""

    player: str
    best: Action
    value: float
    depth: int
    threats: list[Threat]
    say: dict[str, str]

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "best": self.best.to_dict(), "value": self.value, "depth": self.depth,
                "threats": [t.to_dict() for t in self.threats], "say": dict(self.say)}


def threats(game: Game) -> list[Threat]:
    """Every legal action of the player to move, in ``legal_actions`` order, with its
    immediate points and the best reply it opens; ``game`` is left as it was."""
    if game.is_over():
        return []
    return position_threats(Position.from_game(game))


def position_threats(pos: Position) -> list[Threat]:
    me, board = pos.cur, pos.board
    found = []
    for move in pos.legal_moves():
        before = pos.score
        pos.push(move)
        gains = _gained(before, pos.score)
        nxt = pos.cur
        reply, reply_gains = None, (0, 0)
        if nxt not in (OVER, me):
            reply, reply_gains = _best_reply(pos)
        reply_board = pos.board
        pos.pop()
        action = action_of(move)
        found.append(_threat(action, me, nxt, gains, reply, reply_gains, board, reply_board))
    return found


def hint(game: Game, max_depth: int = 64, budget_s: float | None = 0.2, searcher: Searcher | None = None) -> Hint:
    """The best move for the player to move (the same as ``Searcher().search`` on this
    position with these limits) and every threat; ``game`` is left as it was."""
    if game.is_over():
        raise ValueError("the game is over: no hint to give / la partie est terminée : pas de conseil à donner")
    pos = Position.from_game(game)
    listed = position_threats(pos)
    result = (searcher or Searcher()).search(pos, max_depth=max_depth, budget_s=budget_s)
    best = action_of(result.move)
    words = phrases.ask(best, colour=game.current_player, board=pos.board)
    say = {"en": f"Hint: {words['en']}", "fr": f"Conseil : {words['fr']}"}
    return Hint(game.current_player, best, result.value, result.depth, listed, say)


def _best_reply(pos: Position) -> tuple[int | None, tuple[int, int]]:
    """The next player's reply scoring them most, then giving the other side least, then first."""
    them = pos.cur
    best, best_gains, best_rank = None, (0, 0), None
    for move in pos.legal_moves():
        before = pos.score
        pos.push(move)
        gains = _gained(before, pos.score)
        pos.pop()
        rank = (gains[them], -gains[1 - them])
        if best_rank is None or rank > best_rank:
            best, best_gains, best_rank = move, gains, rank
    return best, best_gains


def _gained(before: tuple[int, int], after: tuple[int, int]) -> tuple[int, int]:
    return after[0] - before[0], after[1] - before[1]


def _threat(action: Action, me: int, nxt: int, gains: tuple[int, int], reply: int | None,
            reply_gains: tuple[int, int], board: int, reply_board: int) -> Threat:
    mover = COLOURS[me]
    next_player = None if nxt == OVER else COLOURS[nxt]
    reply_action = None if reply is None else action_of(reply)
    threat = Threat(
        action=action, gains=dict(zip(COLOURS, gains, strict=True)), ends_game=nxt == OVER,
        next_player=next_player, reply=reply_action, reply_gains=dict(zip(COLOURS, reply_gains, strict=True)),
        say={},
    )
    return Threat(**{**threat.__dict__, "say": _sentence(threat, mover, board, reply_board)})


def _sentence(t: Threat, mover: str, board: int, reply_board: int) -> dict[str, str]:
    what = phrases.doing(t.action, board=board)
    en, fr = [what["en"][0].upper() + what["en"][1:]], [what["fr"][0].upper() + what["fr"][1:]]
    scored = [(c, p) for c, p in t.gains.items() if p]
    for colour, points in scored:
        name = phrases.colour_name(colour)
        en.append(f"scores {points} for {name['en']}")
        fr.append(f"rapporte {points} à {name['fr']}")
    if t.ends_game:
        en.append("ends the game")
        fr.append("termine la partie")
    elif t.next_player == mover:
        en.append("lets you play again")
        fr.append("vous fait rejouer")
    elif t.danger:
        name = phrases.colour_name(t.next_player)
        reply = phrases.doing(t.reply, board=reply_board)
        en.append(f"gives {name['en']} {t.danger} next turn ({reply['en']})")
        fr.append(f"donne {t.danger} à {name['fr']} au tour suivant ({reply['fr']})")
    else:
        en.append("opens nothing for the reply")
        fr.append("n'ouvre rien à l'adversaire")
    return {"en": _join(en, "and"), "fr": _join(fr, "et")}


def _join(parts: list[str], conj: str) -> str:
    return f"{parts[0]} " + f" {conj} ".join(parts[1:])
