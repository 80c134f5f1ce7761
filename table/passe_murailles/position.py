"""A compact Passe-Murailles position for search: bit masks, integer moves, O(1) push/pop.

:class:`~table.passe_murailles.game.Game` is the reference (events, peg names, saving);
a :class:`Position` keeps only what decides the rest of the game, so a search can try
hundreds of thousands of moves a second. Each slide's pegs are two bit masks over the
window's columns (red, blue); a move is a small int (see :func:`move_of`); ``push`` keeps
the previous state (a tuple of immutable values) on a stack and ``pop`` puts it back.

    >>> from table.passe_murailles import new_game, MoveSlide
    >>> pos = Position.from_game(new_game())
    >>> key = pos.key()
    >>> pos.push(move_of(MoveSlide(3, +1)))
    >>> pos.key() == key, pos.player
    (False, 'blue')
    >>> pos.pop(); pos.key() == key
    True

The physics is the frame's (RULINGS.md section 4), computed a whole slide at a time:
columns are independent, and settling slides from the lowest up lets each falling set of
pegs drop as far as it can, as :class:`~table.passe_murailles.frame.Frame` does peg by peg.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from .actions import Action, DropPeg, MoveBoard, MoveSlide
from .frame import COLOURS, FRAME
from .profile import BOARD_POSITIONS, SLIDE_COUNT, Profile

if TYPE_CHECKING:
    from .game import Game

OVER = -1          # ``Position.cur`` once the game has ended (else 0 = red, 1 = blue)
SLIDE_BASE, BOARD_BASE, LAST_BOARD = 100, 200, 10


def move_of(action: Action) -> int:
    """The int for an action: a drop is its column, a slide ``100 + 2*slide + (step > 0)``,
    the board ``200 + (step > 0)``.

        >>> move_of(DropPeg(3)), move_of(MoveSlide(4, +1)), move_of(MoveBoard(-1))
        (3, 109, 200)
    """
    if isinstance(action, DropPeg):
        return action.column
    if isinstance(action, MoveSlide):
        return SLIDE_BASE + 2 * action.slide + (action.step > 0)
    return BOARD_BASE + (action.step > 0)


def action_of(move: int) -> Action:
    """The :class:`Action` for a move int (inverse of :func:`move_of`).

        >>> action_of(109)
        MoveSlide(slide=4, step=1)
    """
    if move < SLIDE_BASE:
        return DropPeg(move)
    if move < BOARD_BASE:
        return MoveSlide((move - SLIDE_BASE) // 2, 1 if move & 1 else -1)
    return MoveBoard(1 if move & 1 else -1)


class Geometry:
    """Per-profile tables: hole masks for every slide offset, points for every column mask."""

    def __init__(self, profile: Profile):
        self.profile = profile
        self.columns = w = profile.columns
        self.window = (1 << w) - 1
        self.pegs = profile.pegs_per_player
        self.low = [0] + [s.low for s in profile.slides]
        self.stops = [0] + [s.high - s.low for s in profile.slides]  # highest offset index
        # holes[s][i]: columns (as a mask) where slide s has a hole at offset low + i.
        self.holes = [[0]] + [
            [_mask(h + off for h in s.holes if 0 <= h + off < w) for off in s.offsets()] for s in profile.slides
        ]
        scores = [v for b in BOARD_POSITIONS for v in profile.board_scores[b]]
        self.mean_points = sum(scores) / len(scores)  # an average landing, for the search's estimate
        self.drop_columns = _Table(lambda m: [c for c in range(w) if m >> c & 1], w)
        self.points = {b: _Table(lambda m, row=profile.board_scores[b]: _points(row, m), w) for b in BOARD_POSITIONS}


@lru_cache(maxsize=64)
def geometry(profile: Profile) -> Geometry:
    return Geometry(profile)


class Position:
    """The state that decides the rest of a game, with ``push``/``pop`` and a hashable ``key``.

    Fields (all immutable values, so a state is a cheap tuple): ``cur`` (0 red, 1 blue,
    :data:`OVER`), ``board``, ``offs`` (per slide, offset minus its lowest), ``red`` and
    ``blue`` (per slide, a mask of the columns holding that colour's pegs), and per colour
    ``hand``, ``infr`` (pegs in the frame), ``owes`` (a lost turn), ``last`` (the last action:
    0, a slide number, or 10 + where the board came from) and ``score``.
    """

    __slots__ = ("_stack", "blue", "board", "cur", "geo", "hand", "infr", "last", "offs", "owes", "red", "score")

    def __init__(self, profile: Profile, first: str = "red"):
        geo = self.geo = geometry(profile)
        self.cur = COLOURS.index(first)
        self.board = profile.board_start
        self.offs = (0,) + tuple(s.start - s.low for s in profile.slides)
        self.red = self.blue = (0,) * (SLIDE_COUNT + 1)
        self.hand = (geo.pegs, geo.pegs)
        self.infr = self.owes = self.last = self.score = (0, 0)
        self._stack: list[tuple] = []

    @classmethod
    def from_game(cls, game: Game) -> Position:
        """The position of ``game`` now (``game`` is only read)."""
        pos = cls(game.profile, game.first)
        frame, geo = game.frame, pos.geo
        pos.cur = OVER if game.is_over() else COLOURS.index(game.current_player)
        pos.board = frame.board_position
        pos.offs = (0,) + tuple(frame.offset(s) - geo.low[s] for s in range(1, SLIDE_COUNT + 1))
        masks = {c: [0] * (SLIDE_COUNT + 1) for c in COLOURS}
        for view in frame.pegs(where=FRAME):
            masks[view.colour][view.slide] |= 1 << view.column
        pos.red, pos.blue = tuple(masks["red"]), tuple(masks["blue"])
        hand, owes, scores = game.in_hand(), game.owes_lost_turn(), game.scores()
        pos.hand = tuple(hand[c] for c in COLOURS)
        pos.infr = tuple(frame.count(c, FRAME) for c in COLOURS)
        pos.owes = tuple(int(owes[c]) for c in COLOURS)
        pos.last = tuple(_last_code(game.last_turn(c)) for c in COLOURS)
        pos.score = tuple(scores[c] for c in COLOURS)
        return pos

    # ----------------------------------------------------------------- reading
    @property
    def player(self) -> str | None:
        return None if self.cur == OVER else COLOURS[self.cur]

    def is_over(self) -> bool:
        return self.cur == OVER

    def key(self) -> tuple:
        """Everything the rest of the game depends on (scores only as their difference)."""
        return (self.cur, self.board, self.offs, self.red, self.blue, self.hand, self.owes, self.last,
                self.score[0] - self.score[1])

    def ply(self) -> int:
        """How many moves have been pushed (and not popped)."""
        return len(self._stack)

    def legal_moves(self) -> list[int]:
        """The current player's moves, in ``Game.legal_actions`` order."""
        cur = self.cur
        if cur == OVER:
            return []
        geo, offs = self.geo, self.offs
        banned = self.last[1 - cur]
        moves = []
        if self.hand[cur]:
            free = geo.holes[1][offs[1]] & ~(self.red[1] | self.blue[1])
            moves.extend(geo.drop_columns[free])
        stops = geo.stops
        for s in range(1, SLIDE_COUNT + 1):
            if s != banned:
                if offs[s] > 0:
                    moves.append(SLIDE_BASE + 2 * s)
                if offs[s] < stops[s]:
                    moves.append(SLIDE_BASE + 2 * s + 1)
        board = self.board
        if board > 1 and banned != LAST_BOARD + board - 1:
            moves.append(BOARD_BASE)
        if board < 3 and banned != LAST_BOARD + board + 1:
            moves.append(BOARD_BASE + 1)
        return moves

    # ----------------------------------------------------------------- moving
    def push(self, move: int) -> None:
        """Play ``move`` (it must be legal: search code does not check) for ``cur``."""
        self._stack.append((self.cur, self.board, self.offs, self.red, self.blue, self.hand, self.infr,
                            self.owes, self.last, self.score))
        p = self.cur
        lost = False
        last = list(self.last)
        if move < SLIDE_BASE:
            lost = self._drop(p, move)
            last[p] = 0
        elif move < BOARD_BASE:
            slide = (move - SLIDE_BASE) >> 1
            self._slide(slide, 1 if move & 1 else -1)
            last[p] = slide
        else:
            last[p] = LAST_BOARD + self.board
            self.board += 1 if move & 1 else -1
        self.last = (last[0], last[1])
        hand, infr = self.hand, self.infr
        if hand[0] + infr[0] == 0 or hand[1] + infr[1] == 0:
            self.cur, self.owes = OVER, (0, 0)
            return
        owes = [self.owes[0], self.owes[1]]
        if lost:
            owes[p] = 1
        nxt = 1 - p
        while owes[nxt]:  # each pass pays one debt: at most twice
            owes[nxt] = 0
            nxt = 1 - nxt
        self.cur, self.owes = nxt, (owes[0], owes[1])

    def pop(self) -> None:
        """Undo the last ``push``."""
        (self.cur, self.board, self.offs, self.red, self.blue, self.hand, self.infr,
         self.owes, self.last, self.score) = self._stack.pop()

    def _drop(self, p: int, column: int) -> bool:
        """Drop ``p``'s peg over ``column``; True if it did not stay in slide 1 (lost turn)."""
        geo, offs, red, blue = self.geo, self.offs, self.red, self.blue
        bit = 1 << column
        level = 1
        while True:
            below = level + 1
            if not geo.holes[below][offs[below]] & bit:
                break
            if below == SLIDE_COUNT:
                level = below  # through slide 6 onto the board: played, no points for it
                break
            if (red[below] | blue[below]) & bit:
                break
            level = below
        hand = list(self.hand)
        hand[p] -= 1
        self.hand = (hand[0], hand[1])
        if level < SLIDE_COUNT:
            masks = list(blue if p else red)
            masks[level] |= bit
            if p:
                self.blue = tuple(masks)
            else:
                self.red = tuple(masks)
            infr = list(self.infr)
            infr[p] += 1
            self.infr = (infr[0], infr[1])
        return level > 1

    def _slide(self, slide: int, step: int) -> None:
        geo = self.geo
        offs = list(self.offs)
        offs[slide] += step
        self.offs = tuple(offs)
        red, blue = list(self.red), list(self.blue)
        lost_r = lost_b = 0
        if slide < SLIDE_COUNT:
            r, b, window = red[slide], blue[slide], geo.window
            if r | b:
                if step > 0:
                    r, b = r << 1, b << 1
                    lost_r, lost_b = (r & ~window).bit_count(), (b & ~window).bit_count()
                    r, b = r & window, b & window
                else:
                    lost_r, lost_b = r & 1, b & 1
                    r, b = r >> 1, b >> 1
                red[slide], blue[slide] = r, b
        gained_r, gained_b, landed_r, landed_b = _settle(geo, offs, red, blue, self.board, min(slide, SLIDE_COUNT - 1))
        self.red, self.blue = tuple(red), tuple(blue)
        lost_r += landed_r
        lost_b += landed_b
        if lost_r or lost_b:
            self.infr = (self.infr[0] - lost_r, self.infr[1] - lost_b)
        if gained_r or gained_b:
            self.score = (self.score[0] + gained_r, self.score[1] + gained_b)


def _settle(geo: Geometry, offs: list[int], red: list[int], blue: list[int], board: int,
            start: int) -> tuple[int, int, int, int]:
    """Let pegs fall, slides ``start`` up to 1 (lower slides are still); changes ``red``/``blue``
    in place and returns (red points, blue points, red pegs landed, blue pegs landed)."""
    holes, points = geo.holes, geo.points[board]
    bottom = holes[SLIDE_COUNT][offs[SLIDE_COUNT]]
    gained_r = gained_b = landed_r = landed_b = 0
    for level in range(start, 0, -1):
        r, b = red[level], blue[level]
        if not r | b:
            continue
        below = level + 1
        free = bottom if below == SLIDE_COUNT else holes[below][offs[below]] & ~(red[below] | blue[below])
        falling = (r | b) & free
        if not falling:
            continue
        red[level], blue[level] = r & ~falling, b & ~falling
        mr, mb = r & falling, b & falling
        while True:  # the falling pegs are in the holes of slide ``below``
            if below == SLIDE_COUNT:
                gained_r += points[mr]
                gained_b += points[mb]
                landed_r += mr.bit_count()
                landed_b += mb.bit_count()
                break
            nxt = below + 1
            go = bottom if nxt == SLIDE_COUNT else holes[nxt][offs[nxt]] & ~(red[nxt] | blue[nxt])
            red[below] |= mr & ~go
            blue[below] |= mb & ~go
            mr, mb = mr & go, mb & go
            if not mr | mb:
                break
            below = nxt
    return gained_r, gained_b, landed_r, landed_b


class _Table(dict):
    """``f(mask)`` for every column mask: filled up front for a usual frame, on demand for a wide one."""

    def __init__(self, f, columns: int):
        super().__init__((m, f(m)) for m in range(1 << columns) if columns <= 12)
        self._f = f

    def __missing__(self, mask: int):
        value = self[mask] = self._f(mask)
        return value


def _last_code(last) -> int:
    if last is None:
        return 0
    if isinstance(last.action, MoveSlide):
        return last.action.slide
    if isinstance(last.action, MoveBoard):
        return LAST_BOARD + last.board_from
    return 0


def _mask(columns) -> int:
    m = 0
    for c in columns:
        m |= 1 << c
    return m


def _points(row: tuple[int, ...], mask: int) -> int:
    return sum(p for c, p in enumerate(row) if mask >> c & 1)
