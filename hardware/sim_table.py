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
"""

from __future__ import annotations

import copy
import logging
import random
import threading
import time
from typing import Any, Protocol

from table import observations as K
from table.observations import Observation
from table.passe_murailles import DropPeg, Frame, Landed, MoveSlide, PushedOff, load_profile, new_game
from table.session import Session

log = logging.getLogger(__name__)

GAME = "passe-murailles"


class SensorOutputs(Protocol):
    """How the simulated frame's sensors report; real-protocol versions replace
    :class:`DirectSensors` as the transports come (serial board, GPIO beams)."""

    def slide(self, number: int, offset: int) -> None: ...
    def board(self, position: int) -> None: ...
    def peg_drop(self, column: int) -> None: ...
    def beam(self, column: int) -> None: ...
    def side_spill(self, side: str) -> None: ...


class DirectSensors:
    """Sensor facts handed straight to the session (fast tests, and until a transport
    stands in): the same observations the transports produce."""

    def __init__(self, session: Session, source: str = "sim"):
        self.session = session
        self.source = source

    def _put(self, kind: str, **data: Any) -> None:
        self.session.submit(Observation.now(kind, source=self.source, **data))

    def slide(self, number: int, offset: int) -> None:
        self._put(K.SLIDE, slide=number, offset=offset)

    def board(self, position: int) -> None:
        self._put(K.BOARD, position=position)

    def peg_drop(self, column: int) -> None:
        self._put(K.PEG_DROP, column=column)

    def beam(self, column: int) -> None:
        self._put(K.BEAM, column=column)

    def side_spill(self, side: str) -> None:
        self._put(K.SIDE_SPILL, side=side)


class SimulatedTable:
    """Two simulated players on a simulated frame, in a background thread.

    ``pace`` is the pause between moves in seconds (0: as fast as possible);
    ``restart_after`` the pause before a finished game is followed by a new one
    (None: never). The players prefer moves that score for them and avoid gifts to the
    opponent, with some randomness, so games look like games."""

    def __init__(self, session: Session, sensors: SensorOutputs, *, pace: float = 2.0, seed: int | None = None,
                 profile: Any = None, restart_after: float | None = 20.0, fall_time: float = 0.05):
        self.session = session
        self.sensors = sensors
        self.pace = pace
        self.restart_after = restart_after
        self.fall_time = fall_time if pace > 0 else 0.0
        self.rng = random.Random(seed)
        self.profile = load_profile(profile)
        self.frame = Frame(self.profile)       # the truth: where every part physically is
        self.mind = new_game(profile=self.profile)  # what the players know of the game
        self.moves = 0
        self._stop = threading.Event()
        self._new_game = threading.Event()
        self._thread: threading.Thread | None = None
        session.subscribe(self._on_observation)

    # ---------------------------------------------------------------- control
    def start(self) -> None:
        self._resume_or_start()
        self._thread = threading.Thread(target=self._run, name="sim-table", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._new_game.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _on_observation(self, obs: Observation, session: Session) -> None:
        if obs.kind == K.GAME_START and obs.source != "sim-table":
            self._new_game.set()  # someone pressed "new game": set the frame up again

    # ---------------------------------------------------------------- play
    def _resume_or_start(self) -> None:
        """Pick up the game the log holds (the frame is where the game left it), or
        start one."""
        adapter = self.session.adapter
        if adapter is not None and adapter.game == GAME and not adapter.g.is_over():
            self.mind = copy.deepcopy(adapter.g)
            self.frame = adapter.g.frame.copy()
        else:
            self.session.new_game(GAME, {"profile": self.profile.to_dict()}, source="sim-table")
            self._reset_frame()

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
                    self.session.new_game(GAME, {"profile": self.profile.to_dict()}, source="sim-table")
                    self._new_game.set()
                continue
            if self.pace:
                self._stop.wait(self.pace)
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
                    time.sleep(self.fall_time)
                self.sensors.beam(event.column)
