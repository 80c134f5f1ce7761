"""The simulated Passe-Murailles table: a physical frame and two simulated players.

The players know the rules (they keep their own :class:`~table.passe_murailles.Game`,
as people do in their heads) and play legal moves at a human pace. Each move is carried
out on the *physical* frame (a :class:`~table.passe_murailles.Frame`, pure physics), and
what the physics does is reported the way the real sensors would report it, through a
:class:`SensorOutputs`: "slide 3 is now at +1", "a peg went into top hole 4", "the beam
under column 2 broke". The session turns those into moves by whose turn it is; it never
looks at this object.

    >>> table = SimulatedTable(session, DirectSensors(session), pace=0.0, seed=1)
    >>> table.start()
    >>> table.stop()

Faults can be switched on to see the session catch them (``faults="miss=3,jam@0.1"``,
see :class:`Faults`): a beam that misses pegs, a beam that chatters, a peg that jams in
a slide and falls late. With a :class:`~table.timers.ManualClock` the table runs in
virtual time (``play_game()`` plays a whole game at once, as fast as the CPU goes).
"""

from __future__ import annotations

import copy
import logging
import random
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Any, Protocol

from table import observations as K
from table.observations import Observation
from table.passe_murailles import (
    DropPeg,
    Frame,
    Landed,
    MoveSlide,
    PushedOff,
    load_profile,
    new_game,
)
from table.passe_murailles.spec import SPEC
from table.session import Session
from table.simulation import PlayerThread
from table.timers import RealClock

log = logging.getLogger(__name__)

GAME = SPEC.id


class SensorOutputs(Protocol):
    """How the simulated frame's sensors report; real-protocol versions replace
    :class:`DirectSensors` as the transports come (serial board, GPIO beams)."""

    def slide(self, number: int, offset: int) -> None: ...
    def board(self, position: int) -> None: ...
    def peg_drop(self, column: int) -> None: ...
    def beam(self, column: int, *, bounces: int = 0) -> None: ...
    def side_spill(self, side: str) -> None: ...


class DirectSensors:
    """Sensor facts handed straight to the session (fast tests, and until a transport
    stands in): the same observations the transports produce. A beam's ``bounces``
    are ignored here (what the GPIO layer debounces away never reaches the session)."""

    def __init__(self, session: Session, source: str = "sim", clock: Any = None):
        self.session = session
        self.source = source
        self.clock = clock

    def _put(self, kind: str, **data: Any) -> None:
        t = self.clock() if self.clock is not None else None
        self.session.submit(Observation.now(kind, source=self.source, t=t, **data))

    def slide(self, number: int, offset: int) -> None:
        self._put(K.SLIDE, slide=number, offset=offset)

    def board(self, position: int) -> None:
        self._put(K.BOARD, position=position)

    def peg_drop(self, column: int) -> None:
        self._put(K.PEG_DROP, column=column)

    def beam(self, column: int, *, bounces: int = 0) -> None:
        self._put(K.BEAM, column=column)

    def side_spill(self, side: str) -> None:
        self._put(K.SIDE_SPILL, side=side)


FAULT_KINDS = ("miss", "chatter", "jam")


@dataclass(frozen=True)
class Fault:
    """One switched-on fault: ``kind`` over ``column`` (0-based; None: every column),
    happening to each peg passing there with ``probability``."""

    kind: str
    column: int | None
    probability: float


@dataclass(frozen=True)
class Faults:
    """The faults of a simulated table, parsed from a short text.

    ``"miss=3"``: the beam under column 3 (numbered from 1, as on the frame) misses every
    peg; ``"chatter=2@0.5"``: the beam under column 2 bounces on half its pegs, and after
    half of those it also flickers by itself a moment later (a dirty beam); ``"jam@0.1"``: one peg in ten, any column,
    jams in a slide and falls ``jam_delay`` seconds late. The probability defaults to 1
    with a column and 0.2 without.

        >>> Faults.parse("miss=3, jam@0.1").items[0]
        Fault(kind='miss', column=2, probability=1.0)
    """

    items: tuple[Fault, ...] = ()
    jam_delay: float = 2.0

    @classmethod
    def parse(cls, spec: Faults | str | None, jam_delay: float = 2.0) -> Faults:
        if isinstance(spec, Faults):
            return spec
        items = []
        for part in (spec or "").replace(";", ",").split(","):
            part = part.strip()
            if part:
                items.append(_parse_fault(part))
        return cls(tuple(items), jam_delay)

    def hits(self, kind: str, column: int, rng: random.Random) -> bool:
        """Whether fault ``kind`` strikes a peg passing over ``column`` (draws from ``rng``)."""
        return any(f.kind == kind and f.column in (None, column) and rng.random() < f.probability
                   for f in self.items)

    def describe(self) -> str:
        return ", ".join(f"{f.kind}{'' if f.column is None else f'={f.column + 1}'}@{f.probability:g}"
                         for f in self.items) or "none"


def _parse_fault(part: str) -> Fault:
    where, _, chance = part.partition("@")
    kind, _, column = where.partition("=")
    kind = kind.strip()
    if kind not in FAULT_KINDS:
        raise ValueError(f"unknown fault {kind!r} in {part!r} (faults: {', '.join(FAULT_KINDS)})")
    try:
        col = int(column) - 1 if column.strip() else None
        probability = float(chance) if chance.strip() else (1.0 if col is not None else 0.2)
    except ValueError:
        raise ValueError(f"fault {part!r}: write kind[=column][@probability], e.g. miss=3@0.5") from None
    if col is not None and col < 0:
        raise ValueError(f"fault {part!r}: columns are numbered from 1")
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"fault {part!r}: a probability is between 0 and 1")
    return Fault(kind, col, probability)


class SerialBoardSensors:
    """Slide and board positions go out through a simulated sensor board (the real
    protocol on a pseudo-terminal, read by the real bridge); the other facts (peg drops,
    beams) through ``rest``.

        >>> from hardware.sim_board import SimulatedBoard
        >>> board = SimulatedBoard().start()        # the firmware's protocol on a pty
        >>> sensors = SerialBoardSensors(board, DirectSensors(session))
        >>> sensors.slide(3, 1); sensors.board(3)   # to the board, which reports them on its port
        >>> board.positions()
        {'slides': {1: 0, 2: 0, 3: 1, 4: 0, 5: 0, 6: 0}, 'board': 3}
        >>> sensors.peg_drop(4)                     # straight to the session
        >>> [(obs.kind, obs.data) for obs in session.log.read()]
        [('peg_drop', {'column': 4})]
        >>> board.stop()
    """

    def __init__(self, board: Any, rest: SensorOutputs):
        self.serial_board = board
        self.rest = rest

    def slide(self, number: int, offset: int) -> None:
        self.serial_board.set_slide(number, offset)

    def board(self, position: int) -> None:
        self.serial_board.set_board(position)

    def peg_drop(self, column: int) -> None:
        self.rest.peg_drop(column)

    def beam(self, column: int, **kwargs: Any) -> None:
        self.rest.beam(column, **kwargs)

    def side_spill(self, side: str) -> None:
        self.rest.side_spill(side)


class SimulatedTable(PlayerThread):
    """Two simulated players on a simulated frame, in a background thread.

    ``pace`` is the pause between moves in seconds (0: as fast as possible);
    ``restart_after`` the pause before a finished game is followed by a new one
    (None: never). The players prefer moves that score for them and avoid gifts to the
    opponent, with some randomness, so games look like games.

    ``faults``: see :class:`Faults`; ``clock``: a ``ManualClock`` runs the table in
    virtual time (pauses and falls take no real time); ``game_options`` are merged into
    the games it starts (e.g. ``{"beam_window_ms": 500}``). ``stats`` counts landings and
    the faults that struck."""

    def __init__(self, session: Session, sensors: SensorOutputs, *, pace: float = 2.0, seed: int | None = None,
                 profile: Any = None, restart_after: float | None = 20.0, fall_time: float = 0.05,
                 faults: Faults | str | None = None, clock: Any = None, game_options: dict[str, Any] | None = None):
        super().__init__()
        self.session = session
        self.sensors = sensors
        self.pace = pace
        self.restart_after = restart_after
        self.clock = clock if clock is not None else RealClock()
        self.virtual = bool(getattr(self.clock, "virtual", False))
        self.fall_time = fall_time if (pace > 0 or self.virtual) else 0.0
        self.faults = Faults.parse(faults)
        self.game_options = dict(game_options or {})
        self.stats: Counter[str] = Counter()
        self._later: list[tuple[float, str, int]] = []  # (due, "late" | "flicker", column)
        self.rng = random.Random(seed)
        self.fault_rng = random.Random(None if seed is None else seed + 1)  # faults do not change the play
        self.profile = load_profile(profile)
        self.frame = Frame(self.profile)       # the truth: where every part physically is
        self.mind = new_game(profile=self.profile)  # what the players know of the game
        self.moves = 0
        self._new_game = threading.Event()
        session.subscribe(self._on_observation)

    # ---------------------------------------------------------------- control
    thread_name = "sim-table"

    def _before_start(self) -> None:
        self._resume_or_start()

    def _interrupt(self) -> None:
        self._new_game.set()

    def _on_observation(self, obs: Observation, session: Session) -> None:
        if obs.kind == K.GAME_START and obs.source != "sim-table":
            self._new_game.set()  # someone pressed "new game": set the frame up again

    # ---------------------------------------------------------------- play
    def _resume_or_start(self) -> None:
        """Pick up the game the log holds (the frame is where the game left it), or
        start one."""
        record = self.session.current_game()
        if record is not None and record.game == GAME and not record.engine.is_over():
            self.mind = record.engine  # a private copy: the players' memory of the game
            self.frame = record.engine.frame.copy()
        else:
            self.session.start_game(GAME, self._options(), source="sim-table")
            self._reset_frame()

    def _options(self) -> dict[str, Any]:
        return {"profile": self.profile.to_dict(), **self.game_options}

    def play_game(self, max_moves: int = 5000) -> None:
        """Start a game and play it to the end in the calling thread (tests, the bench),
        then wait until late pegs have fallen and the beam windows have closed."""
        self.session.start_game(GAME, self._options(), source="sim-table")
        self._reset_frame()
        for _ in range(max_moves):
            if self.mind.is_over():
                break
            self.wait(self.pace)
            self.play_one()
        self.wait(self.faults.jam_delay + 1.0)

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` pass (virtual or real), letting late pegs and flickers happen."""
        end = self.clock() + seconds
        while True:
            self._emit_due()
            left = end - self.clock()
            if left <= 0 or self._stop.is_set():
                return
            step = min(left, 0.25)
            if self.virtual:
                self.clock.sleep(step)
            else:
                self._stop.wait(step)

    def _reset_frame(self) -> None:
        """Put every part back to its start position, as players do before a game."""
        self.mind = new_game(profile=self.profile)
        start = Frame(self.profile)
        for n in range(1, 7):
            # one notch at a time, as a hand does (the pegs were gathered up first)
            position = self.frame.offset(n)
            while position != start.offset(n):
                position += 1 if position < start.offset(n) else -1
                self.sensors.slide(n, position)
        position = self.frame.board_position
        while position != start.board_position:
            position += 1 if position < start.board_position else -1
            self.sensors.board(position)
        self.frame = start  # pegs back in the players' hands
        self._later.clear()  # a jammed peg was freed when the frame was gathered up

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._new_game.is_set():
                self._new_game.clear()
                self._reset_frame()
            if self.mind.is_over():
                if self.restart_after is None:
                    self._new_game.wait(timeout=0.5)
                    continue
                if not self._new_game.wait(timeout=self.restart_after):
                    self.session.new_game(GAME, self._options(), source="sim-table")
                    self._new_game.set()
                continue
            if self.pace:
                self.wait(self.pace)
            if self._stop.is_set() or self._new_game.is_set():
                continue
            try:
                self.play_one()
            except Exception:  # a simulated player must never take the service down
                log.exception("simulated player failed")
                self._stop.wait(1.0)

    def choose(self) -> Any:
        """A legal move, weighted towards scoring and away from gifts."""
        me = self.mind.current_player
        other = "blue" if me == "red" else "red"
        best, best_value = None, None
        for action in self.mind.legal_actions():
            trial = copy.deepcopy(self.mind)
            before = trial.scores()
            trial.apply(action)
            after = trial.scores()
            value = (after[me] - before[me]) - 1.2 * (after[other] - before[other]) + self.rng.random() * 2.5
            if isinstance(action, DropPeg):
                value += 0.8  # get pegs into play
            if best_value is None or value > best_value:
                best, best_value = action, value
        return best

    def play_one(self) -> None:
        """One move: decide, do it physically, let the sensors report it."""
        player = self.mind.current_player
        action = self.choose()
        self.mind.apply(action)
        self.moves += 1
        if isinstance(action, DropPeg):
            self.sensors.peg_drop(action.column)
            events = self.frame.drop(self.frame.next_in_hand(player), action.column)
        elif isinstance(action, MoveSlide):
            events = self.frame.move_slide(action.slide, action.step)
            self.sensors.slide(action.slide, self.frame.offset(action.slide))
        else:
            events = self.frame.move_board(action.step)
            self.sensors.board(self.frame.board_position)
        self._report_falls(events)

    def _report_falls(self, events: list[Any]) -> None:
        for event in events:
            if isinstance(event, PushedOff):
                self.sensors.side_spill(event.side)
            elif isinstance(event, Landed):
                if self.fall_time:
                    self.clock.sleep(self.fall_time)
                self._landed(event.column)

    def _landed(self, column: int) -> None:
        """One peg passes the beam over ``column``, as the switched-on faults let it."""
        self.stats["landings"] += 1
        if self.faults.hits("miss", column, self.fault_rng):
            self.stats["missed"] += 1
            return
        if self.faults.hits("jam", column, self.fault_rng):
            self.stats["jammed"] += 1
            self._later.append((self.clock() + self.faults.jam_delay, "late", column))
            return
        bounces = 0
        if self.faults.hits("chatter", column, self.fault_rng):
            bounces = 3
            self.stats["chattered"] += 1
            if self.fault_rng.random() < 0.5:
                # between this move and the next, well away from both windows
                self._later.append((self.clock() + max(self.pace / 2, 0.6), "flicker", column))
        self.sensors.beam(column, bounces=bounces)

    def _emit_due(self) -> None:
        now = self.clock()
        due = sorted(x for x in self._later if x[0] <= now)
        for item in due:
            self._later.remove(item)
            _, what, column = item
            self.stats["late_falls" if what == "late" else "flickers"] += 1
            self.sensors.beam(column, bounces=2 if what == "flicker" else 0)
