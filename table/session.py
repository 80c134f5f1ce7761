"""The session: observations in, game state out.

A :class:`Session` owns the event log and one *game adapter* (see
:mod:`table.adapters`): every observation is first made durable in the log, then handed
to the adapter, which turns it into rule-checked game actions, feed lines and alerts.
Readers (the web pages, MQTT) take :meth:`Session.snapshot` and wait on
:meth:`Session.wait_for_change`; they never reach into an engine.

    >>> session = Session(EventLog(":memory:"))
    >>> _ = session.new_game("passe-murailles")
    >>> session.snapshot()["game"]
    'passe-murailles'

Replaying the log from the last ``game_start`` gives the same state, which is how a
restart resumes a game and how an ``undo`` observation is honoured.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from table import observations as K
from table.adapters import ADAPTERS, GameAdapter, UnknownGame
from table.log import EventLog
from table.observations import Observation

log = logging.getLogger(__name__)

Listener = Callable[[Observation, "Session"], None]


class Session:
    """One table's game, rebuilt from and kept in step with its event log."""

    def __init__(self, log_: EventLog, *, clock: Callable[[], float] = time.time):
        self.log = log_
        self.clock = clock
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._listeners: list[Listener] = []
        self.health_sources: dict[str, Callable[[], dict[str, Any]]] = {}
        self.version = 0
        self.adapter: GameAdapter | None = None
        self.game_seq = 0  # seq of the game_start observation of the current game
        self.sensed: dict[str, Any] = {"slides": {}, "board": None}
        self._replay()

    # ----------------------------------------------------------------- input
    def submit(self, obs: Observation) -> Observation:
        """Log ``obs`` durably, apply it, wake readers; returns it with its ``seq``."""
        with self._lock:
            obs = self.log.append(obs)
            self._apply(obs)
            self._bump()
        for listener in list(self._listeners):
            try:
                listener(obs, self)
            except Exception:  # a broken listener must not stop the table
                log.exception("session listener %r failed on %s", listener, obs.kind)
        return obs

    def new_game(self, game: str, options: dict[str, Any] | None = None, *, source: str = "dashboard") -> Observation:
        """Start a game; the sensors' last readings travel in the observation so that a
        replay knows where the physical parts stood."""
        if game not in ADAPTERS:
            raise UnknownGame(game)
        with self._lock:
            sensed = {"slides": dict(self.sensed["slides"]), "board": self.sensed["board"]}
        obs = Observation.now(K.GAME_START, source=source, t=self.clock(), game=game, options=options or {},
                              sensed=sensed)
        ADAPTERS[game](obs)  # options the game refuses raise here, before anything is logged
        return self.submit(obs)

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(obs, session)`` after each applied observation (outside the lock)."""
        self._listeners.append(listener)

    # ----------------------------------------------------------------- output
    def snapshot(self) -> dict[str, Any]:
        """Everything a page needs, JSON-serialisable and bilingual where it speaks."""
        with self._lock:
            snap: dict[str, Any] = {"version": self.version, "game_seq": self.game_seq, "sensed": self.sensed}
            if self.adapter is None:
                snap.update(game=None, view=None, feed=[], alerts=[])
            else:
                snap.update(
                    game=self.adapter.game,
                    view=self.adapter.view(),
                    feed=list(self.adapter.feed[-60:]),
                    alerts=[a.to_dict() for a in self.adapter.open_alerts()],
                )
        snap["health"] = self.health()
        return snap

    def health(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, source in list(self.health_sources.items()):
            try:
                out[name] = source()
            except Exception as exc:  # the panel shows the failure instead of hiding it
                out[name] = {"error": str(exc)}
        if self.adapter is not None:
            out.update(self.adapter.health())
        return out

    def wait_for_change(self, seen_version: int, timeout: float) -> int:
        """Block until the state is newer than ``seen_version`` or ``timeout`` passes."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != seen_version, timeout=timeout)
            return self.version

    def touch(self) -> None:
        """Wake readers when something outside the log changed (link health, a timer)."""
        with self._lock:
            self._bump()

    # ----------------------------------------------------------------- inside
    def _bump(self) -> None:
        self.version += 1
        self._changed.notify_all()

    def _apply(self, obs: Observation) -> None:
        self._remember_sensors(obs)
        if obs.kind == K.GAME_START:
            self._start(obs)
        elif obs.kind == K.UNDO:
            self._rebuild()
        elif self.adapter is not None:
            self.adapter.observe(obs)

    def _remember_sensors(self, obs: Observation) -> None:
        if obs.kind == K.SLIDE:
            self.sensed["slides"][str(obs.data["slide"])] = obs.data["offset"]
        elif obs.kind == K.BOARD:
            self.sensed["board"] = obs.data["position"]

    def _start(self, obs: Observation) -> None:
        self.game_seq = obs.seq or 0
        try:
            self.adapter = ADAPTERS[obs.data["game"]](obs)
        except Exception:  # a start an older version logged and this one refuses
            log.exception("game_start %s cannot be replayed; no game is running", obs.seq)
            self.adapter = None

    def _replay(self) -> None:
        """Rebuild from the log: sensor memory from everything, the game from its start."""
        start = self.log.last_seq(K.GAME_START)
        for obs in self.log.read():
            if obs.seq < start:
                self._remember_sensors(obs)
        if start:
            self._rebuild(start)

    def _rebuild(self, start: int | None = None) -> None:
        """Replay the current game from its start, leaving out undone observations."""
        start = start or self.game_seq
        game_obs = list(self.log.read(after=start - 1))
        undone = {o.data.get("seq") for o in game_obs if o.kind == K.UNDO}
        for obs in game_obs:
            if obs.seq in undone:
                continue
            if obs.kind == K.GAME_START:
                self._remember_sensors(obs)
                self._start(obs)
            elif obs.kind != K.UNDO:
                self._remember_sensors(obs)
                self.adapter.observe(obs)
