"""The simulated Pass Pass table: simulated players, a real deal, and a scorekeeper who
types what they see.

The players' cards come from a full-knowledge engine (``deal=True``, dealt with a seeded
RNG): it is the table itself, knowing every hand. The players pick random legal plays
and takes; each is submitted as the observed-mode entry a person would type on the
dashboard (``pass_pass.play`` and so on, source ``"sim"``), through the session's
``enter`` command exactly as the web layer does. It reads the game only through
``session.current_game()`` (a private copy); the session never looks at this object.

    >>> sim = make_simulation(session, pace=0.0, seed=1, restart_after=None)
    >>> sim.start()
    >>> sim.stop()

When someone else changes the game (an entry undone on the dashboard, a new game started
with other players, a restart of the service), the table deals again from the game's
``deal_seed`` and replays the entries the scorekeeper holds; if a person entered a card
the simulated hands do not hold, the simulated players stop and wait for a new game.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from table.errors import Refused
from table.pass_pass import Action, IllegalAction, new_game
from table.pass_pass.adapter import entry_of
from table.pass_pass.game import Game
from table.session import GameRecord, Session
from table.simulation import PlayerThread

log = logging.getLogger(__name__)

GAME = "pass-pass"
SOURCE = "sim"
SETUPS = ((3, False), (4, False), (5, False), (4, True), (6, True))
NAMES = ("Ana", "Bruno", "Chloé", "David", "Emma", "Farid")


def make_simulation(session: Session, *, pace: float = 2.0, seed: int | None = None,
                    restart_after: float | None = 20.0, **_: Any) -> SimulatedPassPassTable:
    """What ``passetable run --sim --game pass-pass`` starts (the settings, game options
    and faults the CLI also passes are for sensed games)."""
    return SimulatedPassPassTable(session, pace=pace, seed=seed, restart_after=restart_after)


class SimulatedPassPassTable(PlayerThread):
    """Random legal Pass Pass games entered into ``session`` at ``pace`` seconds per
    entry, in a background thread; ``restart_after`` seconds after a game ends a new one
    starts (None: never).

        >>> session = Session(EventLog(":memory:"))    # a whole game's entries: a log in memory is faster
        >>> table = SimulatedPassPassTable(session, pace=0.0, seed=3, restart_after=None)
        >>> table.play_game()          # a whole game, in the calling thread
        >>> session.current_game().engine.is_over()
        True
    """

    def __init__(self, session: Session, *, pace: float = 2.0, seed: int | None = None,
                 restart_after: float | None = 20.0):
        super().__init__()
        self.session = session
        self.pace = pace
        self.restart_after = restart_after
        self.rng = random.Random(seed)
        self.entries = 0
        self.mind: Game | None = None       # the table with every hand known
        self._mind_for: tuple[int, int] = (-1, -1)  # (game_seq, entries) the mind matches
        self._deals: dict[int, int] = {}  # game_seq -> deal seed, for games a person started

    # ---------------------------------------------------------------- control
    thread_name = "sim-pass-pass"

    def _before_start(self) -> None:
        """Carry on the game the log holds if the simulated deal explains it (a restart),
        else start a new one."""
        record = self._record()
        if record is None or record.engine.is_over() or self._mind_matching(record) is None:
            self.new_game()

    def new_game(self) -> None:
        """Start a game with a random setup, as the table's players would choose it."""
        players, teams = self.rng.choice(SETUPS)
        self.session.start_game(GAME, {
            "players": players, "teams": teams, "names": list(NAMES[:players]),
            "first": self.rng.randrange(players), "deal_seed": self.rng.randrange(2**31)}, source=SOURCE)

    def play_game(self) -> None:
        """Enter a whole game at once (tests, benchmarks); starts one if none is running."""
        record = self._record()
        if record is None or record.engine.is_over():
            self.new_game()
        while self.step():
            pass

    # ---------------------------------------------------------------- play
    def _run(self) -> None:
        over_since_waiting = False
        while not self._stop.is_set():
            if self.pace:
                self._stop.wait(self.pace)
            if self._stop.is_set():
                break
            try:
                if self.step():
                    over_since_waiting = False
                    continue
                record = self._record()
                if record is not None and record.engine.is_over() and not over_since_waiting:
                    over_since_waiting = True
                    if self.restart_after is not None and not self._wait_for_other_game(self.restart_after):
                        self.new_game()
                else:
                    self._stop.wait(0.5)  # waiting for a game it can play
            except Exception:  # a simulated player must never take the service down
                log.exception("simulated Pass Pass player failed")
                self._stop.wait(1.0)

    def _wait_for_other_game(self, seconds: float) -> bool:
        """Wait ``seconds``; True if someone started another game meanwhile."""
        seq = self.session.game_seq
        waited = 0.0
        while waited < seconds and not self._stop.is_set():
            self._stop.wait(min(0.5, seconds - waited))
            waited += 0.5
            if self.session.game_seq != seq:
                return True
        return self._stop.is_set()

    def step(self) -> bool:
        """Enter the next entry of the game; False when there is nothing to enter (game
        over, not a Pass Pass game, or entries the simulated hands cannot explain)."""
        record = self._record()
        if record is None or record.engine.is_over():
            return False
        mind = self._mind_matching(record)
        if mind is None:
            return False
        action = self.rng.choice(mind.legal_actions())
        kind, data = entry_of(action)
        try:
            self.session.enter(kind, data, source=SOURCE)
        except Refused as exc:  # the scorekeeper disagrees: resync on the next step
            log.warning("simulated entry refused: %s", exc.en)
            self._mind_for = (-1, -1)
            return False
        self.entries += 1
        after = self._record()
        if after is not None and after.seq == record.seq and len(after.extra["actions"]) == self._mind_for[1] + 1:
            mind.apply(action)
            self._mind_for = (after.seq, len(after.extra["actions"]))
        return True

    def _record(self) -> GameRecord | None:
        record = self.session.current_game()
        return record if record is not None and record.game == GAME else None

    def _mind_matching(self, record: GameRecord) -> Game | None:
        """The full-knowledge game in step with the scorekeeper: kept while only this
        table enters; otherwise dealt again and replayed from the scorekeeper's actions."""
        here = (record.seq, len(record.extra["actions"]))
        if self.mind is not None and here == self._mind_for:
            return self.mind
        self.mind = self._replayed(record, list(record.extra["actions"]))
        self._mind_for = here if self.mind is not None else (-1, -1)
        return self.mind

    def _replayed(self, record: GameRecord, actions: list[Action]) -> Game | None:
        setup = record.extra["setup"]
        seed = record.options.get("deal_seed")
        if seed is None:  # a game a person started: this table deals it, the same on every replay
            seed = self._deals.setdefault(record.seq, self.rng.randrange(2**31))
        mind = new_game(setup["players"], teams=setup["teams"], first=setup["first"], seed=seed, deal=True)
        try:
            for action in actions:
                mind.apply(action)
        except IllegalAction:
            log.info("the entries do not fit the simulated deal; waiting for a new game")
            return None
        return mind
