"""The simulated PtiPassPass table: random players, and an observer typing in what they see.

The players know every token (a full-knowledge :class:`~table.ptipasspass.Game`, the
truth of the table). Each of their steps is turned by
:func:`~table.ptipasspass.observed_inputs` into what a person watching the table would
enter on the dashboard (the named cup without the secret colour, then what a lifted cup
or a shown token showed), and each of those is submitted as the same
``"ptipasspass.action"`` observation the dashboard sends, source ``"sim"``, one every
``pace`` seconds. The session never looks at this object.

    >>> sim = make_simulation(session, pace=0.0, seed=1, restart_after=None)
    >>> sim.start()
    >>> sim.stop()

Decisions: the hidden colours of a game are not in the log, so on start the simulation
always begins a new game (it cannot resume one). When a person starts a new PtiPassPass
game from the dashboard, the simulated players play it from its start (same players and
first seat). When a person enters or undoes something in a game the simulation is
playing, the table's truth and the log no longer agree: the simulation hands the game
over to the people and waits for the next new game.
"""

from __future__ import annotations

import logging
import random
import threading
from typing import Any

from table import observations as K
from table.errors import Refused
from table.observations import Observation
from table.ptipasspass import Game, action_to_dict, new_game, observed_inputs
from table.ptipasspass.adapter import ACTION, OptionsError, parse_options
from table.ptipasspass.playout import choose_action
from table.session import Session
from table.simulation import PlayerThread

log = logging.getLogger(__name__)

GAME = "ptipasspass"
SOURCE = "sim"
DEFAULT_PLAYERS = 4


class PtiPassPassSimulation(PlayerThread):
    """Random legal PtiPassPass games played into a session, in a background thread.

        >>> sim = PtiPassPassSimulation(session, pace=0.0, seed=3, restart_after=None)
        >>> sim.begin_game(); sim.step()      # one entry, without the thread
        True
    """

    def __init__(self, session: Session, *, pace: float = 2.0, seed: int | None = None,
                 restart_after: float | None = 20.0, players: int = DEFAULT_PLAYERS):
        super().__init__()
        self.session = session
        self.pace = pace
        self.restart_after = restart_after
        self.players = players
        self.rng = random.Random(seed)
        self.truth: Game | None = None        # the full-knowledge game; None while idle
        self.pending: list[Any] = []          # observed inputs of the step under way
        self.game_seq = 0                     # the game_start the truth belongs to
        self.submitted = 0                    # entries submitted into that game
        self._started_by_person: Observation | None = None
        self._wake = threading.Event()
        self._lock = threading.Lock()
        session.subscribe(self._on_observation)

    # ---------------------------------------------------------------- control
    thread_name = "sim-ptipasspass"

    def _before_start(self) -> None:
        self.begin_game()

    def _interrupt(self) -> None:
        self._wake.set()

    def _on_observation(self, obs: Observation, session: Session) -> None:
        if obs.kind == K.GAME_START and obs.source != SOURCE:
            with self._lock:
                self._started_by_person = obs
            self._wake.set()

    # ---------------------------------------------------------------- games
    def begin_game(self) -> None:
        """Start a new game in the session and play it."""
        first = self.rng.randrange(self.players)
        obs = self.session.start_game(GAME, {"players": self.players, "first": first}, source=SOURCE)
        self._follow(obs.seq or 0, self.players, first)

    def _follow(self, game_seq: int, players: int, first: int) -> None:
        self.truth = new_game(players, first=first)
        self.pending = []
        self.game_seq, self.submitted = game_seq, 0

    def _take_over_person_game(self) -> None:
        """A person pressed "new game": play that game if it is a PtiPassPass one."""
        with self._lock:
            obs, self._started_by_person = self._started_by_person, None
        if obs is None:
            return
        self.truth = None
        if obs.data.get("game") != GAME:
            return
        try:
            players, _, first = parse_options(dict(obs.data.get("options") or {}))
        except OptionsError:
            return
        self._follow(obs.seq or 0, players, first)

    def still_ours(self) -> bool:
        """True while the session's game is still the one the simulated players play."""
        record = self.session.current_game()
        return (self.truth is not None and record is not None and record.game == GAME
                and record.seq == self.game_seq and record.extra.get("entries") == self.submitted)

    # ---------------------------------------------------------------- play
    def step(self) -> bool:
        """Submit the next entry; False (and nothing submitted) when there is nothing to play."""
        if self.truth is None or (self.truth.is_over() and not self.pending):
            return False
        if not self.still_ours():
            log.info("a person changed the simulated game: the simulation leaves it to the table")
            self.truth = None
            return False
        if not self.pending:
            action = choose_action(self.truth, self.rng)
            self.pending = observed_inputs(self.truth, action)
            self.truth.apply(action)
        entry = {"action": action_to_dict(self.pending.pop(0))}
        try:
            self.session.enter(ACTION, entry, source=SOURCE)
        except Refused as exc:  # would mean the engine's observed mode disagrees with its full mode
            log.error("the scorekeeper refused a simulated entry %s: %s", entry, exc.en)
            self.truth = None
            return False
        self.submitted += 1
        return True

    def over(self) -> bool:
        return self.truth is not None and self.truth.is_over() and not self.pending

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._started_by_person is not None:
                self._wake.clear()
                self._take_over_person_game()
                continue
            if self.truth is None or self.over():
                self._wait_then_restart()
                continue
            if self.pace:
                self._wake.wait(self.pace)
            if self._stop.is_set() or self._started_by_person is not None:
                continue
            try:
                self.step()
            except Exception:  # a simulated player must never take the service down
                log.exception("simulated PtiPassPass player failed")
                self._stop.wait(1.0)

    def _wait_then_restart(self) -> None:
        if self.truth is None or self.restart_after is None:  # idle until a person starts a game
            self._wake.wait(0.5)
            self._wake.clear()
            return
        if not self._wake.wait(self.restart_after) and not self._stop.is_set():
            self.begin_game()
        self._wake.clear()


def make_simulation(session: Session, *, pace: float = 2.0, seed: int | None = None,
                    restart_after: float | None = 20.0, players: int = DEFAULT_PLAYERS,
                    **_: Any) -> PtiPassPassSimulation:
    """The object ``passetable run --sim --game ptipasspass`` starts and stops."""
    return PtiPassPassSimulation(session, pace=pace, seed=seed, restart_after=restart_after, players=players)
