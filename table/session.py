"""The session: the one front door to a table's game.

Everything that changes a game goes through a :class:`Session`: a sensor fact
(:meth:`Session.submit`), a person's entry (:meth:`~Session.enter`), an alert's
resolution (:meth:`~Session.resolve`), an undo (:meth:`~Session.undo`), a new game
(:meth:`~Session.start_game`). Each is checked and applied under the session's lock in
one step; a command the rules or the table refuse raises
:class:`~table.errors.Refused` (``code``, ``en``, ``fr``) and is never logged. What
passes is first made durable in the event log, then handed to the game's adapter.

    >>> session = Session(EventLog(":memory:"))
    >>> session.start_game("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    table.errors.UnknownGame: Unknown game 'chess'; the games are: ...
    >>> session.enter("anything", {})
    Traceback (most recent call last):
    ...
    table.errors.Refused: No game is running; start one first.
    >>> session.log.last_seq()   # nothing refused was logged
    0

Readers (the web pages, MQTT) take :meth:`Session.snapshot` and wait on
:meth:`Session.wait_for_change`; a simulated table that needs the rules' view takes
:meth:`Session.current_game` (a private copy). Nobody outside holds the adapter.

Replaying the log from the last ``game_start`` gives the same state, which is how a
restart resumes a game and how an ``undo`` observation is honoured.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from table import games
from table import observations as K
from table.errors import Refused, UnknownGame
from table.log import EventLog
from table.observations import Observation

if TYPE_CHECKING:  # adapters are made by the game's spec; the session only talks to them
    from table.adapter import GameAdapter

__all__ = ["GameRecord", "Refused", "Session", "UnknownGame"]

log = logging.getLogger(__name__)

Listener = Callable[[Observation, "Session"], None]
PERSON_SOURCES = frozenset({"dashboard"})


@dataclass(frozen=True)
class GameRecord:
    """What a reader may know of the current game: its id, the seq of its start, its
    options, a private copy of the rules engine (playing on it changes nothing) and the
    adapter's public progress (``extra``: e.g. the entries it applied)."""

    game: str
    seq: int
    options: dict[str, Any]
    engine: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


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
        self._adapter: GameAdapter | None = None
        self.game_seq = 0  # seq of the game_start observation of the current game
        self.sensed: dict[str, Any] = {"slides": {}, "board": None}
        self._replay()

    # ----------------------------------------------------------------- commands
    def start_game(self, game: str, options: dict[str, Any] | None = None, *, source: str = "dashboard",
                   t: float | None = None) -> Observation:
        """Start a game of ``game``; options are checked against the game's schema and by
        its adapter first. The sensors' last readings travel in the observation so that
        a replay knows where the physical parts stood."""
        with self._lock:
            sensed = {"slides": dict(self.sensed["slides"]), "board": self.sensed["board"]}
        return self.submit(Observation(kind=K.GAME_START, t=self._t(t), source=source,
                                       data={"game": game, "options": options or {}, "sensed": sensed}))

    new_game = start_game  # the name the first callers used

    def enter(self, kind: str, data: dict[str, Any] | None = None, *, source: str = "dashboard",
              t: float | None = None) -> Observation:
        """A person's entry on a scorekeeper page (the game says which kinds it takes)."""
        if not isinstance(data if data is not None else {}, dict):
            raise Refused("bad_entry", "'data' must be an object.", "« data » doit être un objet.", status=400)
        with self._lock:
            adapter = self._require_game()
            if kind not in adapter.dashboard_kinds:
                raise Refused("not_an_entry", f"This game does not take {kind!r} from the dashboard.",
                              f"Ce jeu n'accepte pas {kind!r} depuis le tableau de bord.", status=400)
            return self.submit(Observation(kind=kind, t=self._t(t), source=source, data=dict(data or {})))

    def resolve(self, alert_id: str, choice: str, details: dict[str, Any] | None = None, *,
                source: str = "dashboard", t: float | None = None) -> Observation:
        """Settle an open alert with one of the choices it offers (``details``: what the
        person entered, e.g. the column a peg went to)."""
        extra = details if isinstance(details, dict) else {}
        return self.submit(Observation(kind=K.RESOLVE, t=self._t(t), source=source,
                                       data={**extra, "alert": alert_id, "choice": choice}))

    def undo(self, seq: int | None = None, *, kinds: Iterable[str] | None = None, source: str = "dashboard",
             t: float | None = None) -> Observation:
        """Cancel the observation ``seq`` of this game, or, without ``seq``, the last one
        not yet undone whose kind is in ``kinds`` (default: every kind the game lets a
        person undo)."""
        with self._lock:
            if seq is None:
                seq = self._last_undoable(kinds)
                if seq is None:
                    raise Refused("nothing_to_undo", "There is nothing to undo.", "Il n'y a rien à annuler.",
                                  status=409)
            return self.submit(Observation(kind=K.UNDO, t=self._t(t), source=source, data={"seq": seq}))

    def submit(self, obs: Observation) -> Observation:
        """Check ``obs``, log it durably, apply it, wake readers; returns it with its
        ``seq``. Sensor facts always pass (a fact is a fact: the adapter raises an alert
        if the rules disagree); commands are checked and may raise :class:`Refused`."""
        with self._lock:
            self._check(obs)
            obs = self.log.append(obs)
            self._apply(obs)
            self._bump()
        for listener in list(self._listeners):
            try:
                listener(obs, self)
            except Exception:  # a broken listener must not stop the table
                log.exception("session listener %r failed on %s", listener, obs.kind)
        return obs

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(obs, session)`` after each applied observation (outside the lock)."""
        self._listeners.append(listener)

    # ----------------------------------------------------------------- output
    @property
    def game(self) -> str | None:
        """The id of the game being played (None before the first game)."""
        adapter = self._adapter
        return adapter.game if adapter is not None else None

    def current_game(self) -> GameRecord | None:
        """A private copy of the current game for readers that need the rules' view
        (simulated tables): changing it changes nothing here."""
        with self._lock:
            adapter = self._adapter
            if adapter is None:
                return None
            replica = adapter.replica()
            return GameRecord(game=adapter.game, seq=self.game_seq, options=dict(adapter.options),
                              engine=replica.pop("engine", None), extra=replica)

    def snapshot(self) -> dict[str, Any]:
        """Everything a page needs, JSON-serialisable and bilingual where it speaks."""
        with self._lock:
            snap: dict[str, Any] = {"version": self.version, "game_seq": self.game_seq, "sensed": self.sensed}
            adapter = self._adapter
            if adapter is None:
                snap.update(game=None, view=None, feed=[], alerts=[])
            else:
                snap.update(
                    game=adapter.game,
                    view=adapter.view(),
                    feed=list(adapter.feed[-60:]),
                    alerts=[a.to_dict() for a in adapter.open_alerts()],
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
        adapter = self._adapter
        if adapter is not None:
            out.update(adapter.health())
        return out

    def next_deadline(self) -> float | None:
        """When the game next needs a ``tick`` (a landing waiting for its beam), if ever."""
        with self._lock:
            adapter = self._adapter
            deadline = getattr(adapter, "next_deadline", None)
            return deadline() if deadline is not None else None

    def wait_for_change(self, seen_version: int, timeout: float) -> int:
        """Block until the state is newer than ``seen_version`` or ``timeout`` passes."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != seen_version, timeout=timeout)
            return self.version

    def touch(self) -> None:
        """Wake readers when something outside the log changed (link health, a timer)."""
        with self._lock:
            self._bump()

    # ----------------------------------------------------------------- checks
    def _t(self, t: float | None) -> float:
        return self.clock() if t is None else t

    def _require_game(self) -> GameAdapter:
        if self._adapter is None:
            raise Refused("no_game", "No game is running; start one first.",
                          "Aucune partie en cours ; commencez-en une.", status=409)
        return self._adapter

    def _check(self, obs: Observation) -> None:
        """Refuse, before anything is logged, a command the game cannot take now."""
        if obs.kind == K.GAME_START:
            self._check_start(obs)
        elif obs.kind == K.RESOLVE:
            self._check_resolve(obs)
        elif obs.kind == K.UNDO:
            self._check_undo(obs)
        elif self._adapter is not None and obs.kind in self._adapter.dashboard_kinds:
            problem = self._adapter.check_entry(obs.kind, obs.data)
            if problem:
                raise Refused("illegal", problem["en"], problem["fr"])
        elif obs.source in PERSON_SOURCES:
            raise Refused("not_an_entry", f"A person cannot enter {obs.kind!r} here.",
                          f"Une personne ne peut pas saisir {obs.kind!r} ici.", status=400)

    def _check_start(self, obs: Observation) -> None:
        spec = games.get(obs.data.get("game"))
        options = spec.check_options(obs.data.get("options") or {})
        obs.data["options"] = options  # as the schema read them (the observation is not logged yet)
        try:
            adapter = spec.adapter_class()(obs)
        except Refused:
            raise
        except Exception as exc:  # the adapter's own cross-checks (player count and teams...)
            en, fr = getattr(exc, "en", str(exc)), getattr(exc, "fr", str(exc))
            raise Refused("bad_options", f"This game cannot start: {en}",
                          f"Cette partie ne peut pas commencer : {fr}", status=400) from None
        problem = adapter.start_problem()
        if problem:
            raise Refused("bad_options", f"This game cannot start: {problem['en']}",
                          f"Cette partie ne peut pas commencer : {problem['fr']}", status=400)

    def _check_resolve(self, obs: Observation) -> None:
        alert_id = obs.data.get("alert")
        adapter = self._adapter
        alert = adapter.find_alert(str(alert_id)) if adapter is not None and isinstance(alert_id, str) else None
        if alert is None:
            raise Refused("no_alert", "No open alert with this id (already resolved?).",
                          "Aucune alerte ouverte avec cet identifiant (déjà résolue ?).", status=404)
        ids = [c["id"] for c in alert.choices]
        if obs.data.get("choice") not in ids:
            raise Refused("bad_choice", f"Choose one of: {', '.join(ids) or '(none: put the parts back)'}.",
                          f"Choisissez parmi : {', '.join(ids) or '(aucun : remettez les pièces)'}.", status=400)

    def _check_undo(self, obs: Observation) -> None:
        seq = obs.data.get("seq")
        adapter = self._adapter
        target = self.log.get(seq) if isinstance(seq, int) and not isinstance(seq, bool) and 0 < seq < 2**62 else None
        if (adapter is None or target is None or seq < self.game_seq or target.kind not in adapter.undoable_kinds
                or seq in self._undone()):
            raise Refused("cannot_undo", "That entry cannot be undone.", "Cette entrée ne peut pas être annulée.",
                          status=409)

    def _undone(self) -> set[int]:
        if not self.game_seq:
            return set()
        return {o.data.get("seq") for o in self.log.read(after=self.game_seq - 1) if o.kind == K.UNDO}

    def _last_undoable(self, kinds: Iterable[str] | None) -> int | None:
        adapter = self._adapter
        if adapter is None or not self.game_seq:
            return None
        wanted = set(kinds) if kinds is not None else set(adapter.undoable_kinds)
        wanted &= set(adapter.undoable_kinds)
        game = list(self.log.read(after=self.game_seq - 1))
        undone = {o.data.get("seq") for o in game if o.kind == K.UNDO}
        seqs = [o.seq for o in game if o.kind in wanted and o.seq not in undone]
        return seqs[-1] if seqs else None

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
        elif self._adapter is not None:
            self._adapter.observe(obs)

    def _remember_sensors(self, obs: Observation) -> None:
        if obs.kind == K.SLIDE:
            self.sensed["slides"][str(obs.data["slide"])] = obs.data["offset"]
        elif obs.kind == K.BOARD:
            self.sensed["board"] = obs.data["position"]

    def _start(self, obs: Observation) -> None:
        self.game_seq = obs.seq or 0
        try:
            self._adapter = games.get(obs.data["game"]).adapter_class()(obs)
        except Exception:  # a start an older version logged and this one refuses
            log.exception("game_start %s cannot be replayed; no game is running", obs.seq)
            self._adapter = None

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
                if self._adapter is not None:
                    self._adapter.observe(obs)
