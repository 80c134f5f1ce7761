"""The machine's seat: pick a move for the player to move, at a level from 1 to 5.

    >>> from table.passe_murailles import new_game
    >>> game = new_game()
    >>> action = choose(game, level=5, budget_s=0.05)
    >>> game.refusal(action) is None, game.history
    (True, [])
    >>> turn = bot_turn(game, level=3)
    >>> turn.say["en"].startswith("Bot: "), turn.say["fr"].startswith("Bot : ")
    (True, True)

Levels (each beats the one below it; ``tests/bench/bot_strength.py`` measures by how much):

1. a beginner: a random move among those that neither lose the game on the spot nor give
   the opponent points right away;
2. greedy: the best move for points one move ahead;
3. looks two moves ahead (its move and the reply);
4. looks up to four moves ahead, within a quarter of the time budget;
5. searches as deep as the time budget allows (iterative deepening).

The game is only read (a compact :class:`~table.passe_murailles.position.Position` is
searched), so ``choose`` leaves it exactly as it found it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import phrases
from .actions import Action
from .position import OVER, Position, action_of
from .search import Searcher, terminal_value

if TYPE_CHECKING:
    from .game import Game

LEVELS = (1, 2, 3, 4, 5)
DEPTHS = {2: 1, 3: 2, 4: 4, 5: 64}  # plies searched per level (level 5: until the budget runs out)
SHARE = {2: 1.0, 3: 1.0, 4: 0.25, 5: 1.0}  # of the time (and node) budget each level may spend
MARGIN_S, MARGIN_SHARE = 0.003, 0.05  # kept back for the last clock check and the answer on a busy machine


@dataclass(frozen=True)
class BotTurn:
    """What the bot asks a person to do on the real frame, and why (for logs and tests)."""

    player: str
    action: Action
    say: dict[str, str]       # "Bot: move slide 4 to the right" / "Bot : déplacez la coulisse 4 vers la droite"
    level: int
    depth: int                # plies searched (0 for level 1)
    value: float              # the search's estimate for the bot, in points (0 for level 1)

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "action": self.action.to_dict(), "say": dict(self.say), "level": self.level,
                "depth": self.depth, "value": self.value}


def choose(game: Game, level: int = 5, budget_s: float = 0.2, rng: random.Random | None = None) -> Action:
    """A legal action for ``game.current_player`` at ``level`` (1..5) within about ``budget_s``
    seconds; ``game`` is left as it was. ``rng`` only matters at level 1 (default: seeded from
    the position, so the same position gives the same move)."""
    return bot_turn(game, level, budget_s, rng).action


def bot_turn(game: Game, level: int = 5, budget_s: float = 0.2, rng: random.Random | None = None,
             searcher: Searcher | None = None, max_nodes: int | None = None) -> BotTurn:
    """:func:`choose` with the sentence to show on the page and on ``/tv``. Pass the same
    ``searcher`` for every move of a game to keep its transposition table; ``max_nodes``
    bounds the search by positions instead of (as well as) time, for repeatable matches."""
    started = time.perf_counter()
    if level not in LEVELS:
        raise ValueError(f"the bot's level is 1 to 5, not {level!r} / le niveau du robot va de 1 à 5, pas {level!r}")
    if game.is_over():
        raise ValueError("the game is over: the bot has no move to make / la partie est terminée : "
                         "le robot n'a plus de coup à jouer")
    # The game is read here only, never during the search: a caller whose game another
    # thread may change meanwhile passes a copy (``copy.deepcopy(game)``).
    pos = Position.from_game(game)
    player, board = pos.player, pos.board
    if level == 1:
        move, depth, value = beginner_move(pos, rng or random.Random(hash(pos.key()))), 0, 0.0
    else:
        # The budget counts from the call: reading the game and the clock checks come out of it.
        spend = budget_s * SHARE[level] * (1 - MARGIN_SHARE) - MARGIN_S
        left = max(0.0, spend - (time.perf_counter() - started))
        nodes = None if max_nodes is None else max(1, int(max_nodes * SHARE[level]))
        result = (searcher or Searcher()).search(pos, max_depth=DEPTHS[level], budget_s=left, max_nodes=nodes)
        move, depth, value = result.move, result.depth, result.value
    action = action_of(move)
    words = phrases.ask(action, colour=player, board=board)
    say = {"en": f"Bot: {words['en']}", "fr": f"Bot : {words['fr']}"}
    return BotTurn(player, action, say, level, depth, value)


def beginner_move(pos: Position, rng: random.Random) -> int:
    """Level 1: random among the moves that do not lose at once nor hand the opponent
    points; any move when every one does."""
    me = pos.cur
    safe = []
    for move in pos.legal_moves():
        before = pos.score[1 - me]
        pos.push(move)
        ok = pos.score[1 - me] == before and not (pos.cur == OVER and terminal_value(pos, me) < 0)
        pos.pop()
        if ok:
            safe.append(move)
    return rng.choice(safe or pos.legal_moves())


def asked_otherwise(turn: BotTurn, done: Action, board: int | None = None) -> dict[str, str] | None:
    """The alert text when the move sensed on the frame is not the one the bot asked for
    (``board``: the board position before the move), or None when it is the same.

        >>> from table.passe_murailles import MoveSlide, new_game
        >>> turn = bot_turn(new_game(), level=1)
        >>> asked_otherwise(turn, turn.action) is None
        True
    """
    if done == turn.action:
        return None
    asked = phrases.ask(turn.action, colour=turn.player, board=board)
    seen = phrases.doing(done, board=board)
    return {"en": f"The bot asked you to {asked['en']}, but the frame shows {seen['en']}.",
            "fr": f"Le robot a demandé : {asked['fr']} ; le cadre montre plutôt : {seen['fr']}."}

