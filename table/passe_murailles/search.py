"""Depth-limited search for Passe-Murailles: negamax with alpha-beta, iterative deepening,
a transposition table and a time budget (the game has no chance, so no expectimax).

    >>> from table.passe_murailles import new_game
    >>> result = Searcher().search(Position.from_game(new_game()), max_depth=2)
    >>> result.depth, result.move in Position.from_game(new_game()).legal_moves()
    (2, True)

Values are points from the side of the player to move: the score difference, a share of
what that player's pegs still in the frame may bring, and :data:`WIN` for a won game. A
lost turn means the same player moves twice, so a child's value is negated only when the
turn really passes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .position import OVER, Position

WIN = 1000.0
INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2
# A peg in slide s is worth FRAME_SHARE * s / 5 of an average landing: deeper pegs fall sooner.
FRAME_SHARE = 0.5
CHECK_EVERY = 64  # nodes between clock checks (0.2 ms idle here, a few ms on a busy Pi)


class _OutOfTime(Exception):
    pass


@dataclass(frozen=True)
class SearchResult:
    """The best move found, its value for the player to move, the deepest depth completed
    and how many positions were visited."""

    move: int
    value: float
    depth: int
    nodes: int
    values: dict[int, float]  # every root move's value at ``depth`` (exact for the best)


class Searcher:
    """A search with its own transposition table (reuse one across moves of a game to keep it)."""

    def __init__(self, table_limit: int = 200_000):
        self.table: dict[int, tuple] = {}
        self.table_limit = table_limit
        self.nodes = 0
        self._deadline = INF
        self._node_limit = INF
        self._geo = None

    def search(self, pos: Position, max_depth: int = 64, budget_s: float | None = None,
               max_nodes: int | None = None) -> SearchResult:
        """Deepen 1, 2, ... up to ``max_depth`` plies or until ``budget_s`` seconds or
        ``max_nodes`` positions are spent (the last finished depth decides; a node budget
        gives the same move on any machine, whatever else runs). ``pos`` is left as found."""
        moves = pos.legal_moves()
        if not moves:
            raise ValueError("the game is over: there is no move to search")
        start = time.perf_counter()
        self._deadline = INF if budget_s is None else start + budget_s
        self._node_limit = INF if max_nodes is None else max_nodes
        self.nodes = 0
        if len(self.table) > self.table_limit or pos.geo is not self._geo:
            self.table.clear()  # keys leave the geometry out: a table serves one profile
            self._geo = pos.geo
        ply = pos.ply()
        best: SearchResult | None = None
        for depth in range(1, max_depth + 1):
            try:
                values = self._root(pos, moves, depth)
            except _OutOfTime:
                while pos.ply() > ply:
                    pos.pop()
                break
            move = max(moves, key=lambda m: values[m])  # first of the best, in move order
            best = SearchResult(move, values[move], depth, self.nodes, values)
            if abs(best.value) >= WIN / 2:
                break  # the end is in reach: deeper search cannot change a forced result
            moves = sorted(moves, key=lambda m: -values[m])  # best first next time: more cut-offs
        if best is None:  # not even depth 1 finished: take the first move rather than nothing
            best = SearchResult(moves[0], 0.0, 0, self.nodes, {})
        return best

    def _root(self, pos: Position, moves: list[int], depth: int) -> dict[int, float]:
        me = pos.cur
        alpha, values = -INF, {}
        for m in moves:
            # Full window for the first move, then a null-window-free but narrowed search:
            # the values of worse moves are bounds, enough to order them next time.
            values[m] = v = self._child(pos, m, me, depth - 1, alpha, INF)
            alpha = max(alpha, v)
        return values

    def _child(self, pos: Position, move: int, me: int, depth: int, alpha: float, beta: float) -> float:
        pos.push(move)
        try:
            if pos.cur == OVER:
                return terminal_value(pos, me)
            if pos.cur == me:
                return self._negamax(pos, depth, alpha, beta)
            return -self._negamax(pos, depth, -beta, -alpha)
        finally:
            pos.pop()

    def _negamax(self, pos: Position, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and (time.perf_counter() > self._deadline or self.nodes > self._node_limit):
            raise _OutOfTime
        if depth <= 0:
            return evaluate(pos, pos.cur)
        # The key's 64-bit hash stands for it (a fifth of the memory); a clash is as rare
        # as in any chess engine, and a move from the table is used only if legal here.
        key = hash(pos.key())
        entry = self.table.get(key)
        first = None
        if entry is not None:
            d, v, flag, first = entry
            if d >= depth and (flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha)):
                return v
        me, start_alpha = pos.cur, alpha
        moves = pos.legal_moves()
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        best, best_move = -INF, moves[0]
        for m in moves:
            v = self._child(pos, m, me, depth - 1, alpha, beta)
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, best, flag, best_move)
        return best


def terminal_value(pos: Position, me: int) -> float:
    """A finished game from ``me``'s side: a win or loss outweighs any points."""
    diff = pos.score[me] - pos.score[1 - me]
    return diff + (WIN if diff > 0 else -WIN if diff < 0 else 0.0)


def evaluate(pos: Position, me: int) -> float:
    """A position still in play, from ``me``'s side: points so far plus a share of what the
    pegs in the frame may still bring (they score for their owner whoever makes them fall)."""
    geo = pos.geo
    potential = 0.0
    for level in range(1, 6):
        potential += level * ((pos.red[level].bit_count()) - (pos.blue[level].bit_count()))
    potential *= FRAME_SHARE * geo.mean_points / 5
    diff = pos.score[0] - pos.score[1] + potential
    return diff if me == 0 else -diff
