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
restart resumes a game and how an ``undo`` observation is honoured. A restart does not
replay the history: it finds the last ``game_start`` by index and starts from the game's
latest snapshot (the adapter pickled every :data:`SNAPSHOT_EVERY` observations, kept
only while the code that made it is unchanged and no ``undo`` came after it), then
replays the few observations after it; ``tests/table/test_session_storage.py`` checks
that a snapshot and a full replay agree.

A bad day does not stop the table. A row the code cannot replay is *quarantined*: kept
in the log, left out of the game, recorded in the log's ``quarantine`` table and named
(seq and kind) in an alert. A game whose start this version refuses is closed with an
alert. A write the storage refuses (disk full, read-only, I/O error) is refused to the
caller with :class:`LogUnwritable` (nothing is applied that is not durable), raises an
alert and turns ``health()["log"]["ok"]`` false; the next write that works (or
:meth:`Session.retry_storage`) clears it.

    >>> from table.log import LogWriteError
    >>> session = Session(EventLog(":memory:"))
    >>> session._write_failed(LogWriteError("database or disk is full"))
    >>> session.health()["log"]["ok"], [a["kind"] for a in session.snapshot()["alerts"]]
    (False, ['log_unwritable'])
    >>> session.retry_storage()
    True
    >>> session.health()["log"]["ok"]
    True
"""

from __future__ import annotations

import hashlib
import json
import logging
import pickle
import sqlite3
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from table import archive, games
from table import observations as K
from table.errors import Refused, UnknownGame
from table.log import EventLog, LogWriteError
from table.observations import Observation

if TYPE_CHECKING:  # adapters are made by the game's spec; the session only talks to them
    from table.adapter import GameAdapter

__all__ = ["GameRecord", "LogUnwritable", "Refused", "Session", "UnknownGame"]

log = logging.getLogger(__name__)

Listener = Callable[[Observation, "Session"], None]
PERSON_SOURCES = frozenset({"dashboard"})
#: observations applied between two snapshots of the current game
SNAPSHOT_EVERY = 200


class LogUnwritable(Refused):
    """The log cannot be written now: nothing was recorded nor applied (HTTP 503)."""

    def __init__(self, exc: LogWriteError):
        super().__init__(
            "log_unwritable",
            f"Not recorded: {exc.en}. Nothing changed; play resumes by itself as soon as the table can write "
            "again (free some space or check the SD card).",
            f"Non enregistré : {exc.fr}. Rien n'a changé ; le jeu reprend de lui-même dès que la table peut "
            "de nouveau écrire (libérez de la place ou vérifiez la carte SD).",
            status=503)


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

    def __init__(self, log_: EventLog, *, clock: Callable[[], float] = time.time, snapshots: bool = True,
                 snapshot_every: int = SNAPSHOT_EVERY):
        self.log = log_
        self.clock = clock
        self.snapshots = snapshots
        self.snapshot_every = snapshot_every
        self.storage_alerts: dict[str, dict[str, Any]] = {}  # alerts of the log itself, by id
        self.write_error: LogWriteError | None = None
        self.resumed_from: int | None = None  # seq of the snapshot the last start resumed from
        self.quarantined: dict[int, str] = {}  # seq -> reason, found in this run
        self._replaying = False
        self._since_snapshot = 0
        self._last_applied = 0
        self._was_over = False
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._listeners: list[Listener] = []
        self.health_sources: dict[str, Callable[[], dict[str, Any]]] = {}
        self.version = 0
        self._adapter: GameAdapter | None = None
        self.game_seq = 0  # seq of the game_start observation of the current game
        self.sensed: dict[str, Any] = {"slides": {}, "board": None}
        self.health_sources["log"] = self._log_health
        self._replay()
        when_checked = getattr(self.log, "when_checked", None)
        if when_checked is not None:  # a big log is checked in the background
            when_checked(self._report_integrity)

    # ----------------------------------------------------------------- commands
    def start_game(self, game: str, options: dict[str, Any] | None = None, *, source: str = "dashboard",
                   t: float | None = None) -> Observation:
        """Start a game of ``game``; options are checked against the game's schema and by
        its adapter first. The sensors' last readings travel in the observation so that
        a replay knows where the physical parts stood."""
        with self._lock:
            sensed = {**self.sensed, "slides": dict(self.sensed["slides"])}
            if "drops" in sensed:
                sensed["drops"] = dict(sensed["drops"])
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
            try:
                obs = self.log.append(obs)
            except LogWriteError as exc:
                self._write_failed(exc)
                raise LogUnwritable(exc) from None
            if self.write_error is not None:
                self._write_ok()
            self._apply(obs)
            self._after_apply()
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
                snap.update(game=None, summary=None, view=None, feed=[], alerts=[])
            else:
                view = adapter.view()  # drawn once: the summary reads it too
                snap.update(
                    game=adapter.game,
                    summary=adapter.summary(view),
                    view=view,
                    feed=list(adapter.feed[-60:]),
                    alerts=[a.to_dict() for a in adapter.open_alerts()],
                )
            snap["alerts"] = list(self.storage_alerts.values()) + snap["alerts"]
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
                          f"Cette partie ne peut pas commencer : {fr}", status=422) from None
        problem = adapter.start_problem()
        if problem:
            raise Refused("bad_options", f"This game cannot start: {problem['en']}",
                          f"Cette partie ne peut pas commencer : {problem['fr']}", status=422)

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
        if obs.kind == K.GAME_START:
            previous, previous_seq = self._adapter, self.game_seq
            self._remember_sensors(obs)
            self._start(obs)
            if previous is not None and not self._replaying:
                self._game_ended(previous, previous_seq, obs.seq or 0)
        elif obs.kind == K.UNDO:
            self._rebuild()
        else:
            self._observe(obs)
        self._last_applied = obs.seq or self._last_applied

    def _observe(self, obs: Observation) -> None:
        """One observation into the sensor memory and the game; one that raises is
        quarantined (kept in the log, left out, named in an alert) instead of stopping
        the table."""
        try:
            self._remember_sensors(obs)
            if self._adapter is not None:
                self._adapter.observe(obs)
        except Exception as exc:
            self._quarantine(obs.seq or 0, obs.kind, f"{type(exc).__name__}: {exc}")

    def _remember_sensors(self, obs: Observation) -> None:
        if obs.kind == K.SLIDE:
            self.sensed["slides"][str(obs.data["slide"])] = obs.data["offset"]
        elif obs.kind == K.BOARD:
            self.sensed["board"] = obs.data["position"]
        elif obs.kind == K.PEG_DROP and obs.source == "serial" and isinstance(obs.data.get("count"), int):
            # The board's count per top hole: after a restart the bridge asks the board for
            # the drops made while the service was away (firmware_bridge ``known_positions``).
            self.sensed.setdefault("drops", {})[str(obs.data["column"])] = obs.data["count"]
        if obs.source == "serial" and isinstance(obs.data.get("mcu_ms"), int) and obs.kind in (
                K.SLIDE, K.BOARD, K.PEG_DROP):
            self.sensed["mcu_ms"] = obs.data["mcu_ms"]  # the board's clock: going back means it restarted

    def _start(self, obs: Observation) -> None:
        self.game_seq = obs.seq or 0
        self._since_snapshot = 0
        self._was_over = False
        if not self._replaying:  # a new game: the last one's quarantined rows are history
            self.storage_alerts = {k: a for k, a in self.storage_alerts.items()
                                   if a["kind"] not in ("quarantined", "game_closed")}
        try:
            self._adapter = games.get(obs.data["game"]).adapter_class()(obs)
        except Exception as exc:  # a start an older version logged and this one refuses
            log.warning("game_start %s cannot be replayed (%s); the game is closed", obs.seq, exc)
            self._adapter = None
            game = obs.data.get("game") if isinstance(obs.data, dict) else None
            reason = getattr(exc, "en", None) or f"{type(exc).__name__}: {exc}"
            self._storage_alert(
                f"game-closed-{obs.seq}", "game_closed",
                f"The game started at row {obs.seq} of the log ({game!r}) cannot be played by this version "
                f"({reason}); it is closed. Start a new game.",
                f"La partie commencée à la ligne {obs.seq} du journal ({game!r}) ne peut pas être jouée par cette "
                f"version ({getattr(exc, 'fr', None) or reason}) ; elle est close. Commencez une nouvelle partie.",
                seen={"seq": obs.seq, "game": game})

    # ----------------------------------------------------------------- replay
    def _replay(self) -> None:
        """Rebuild from the log: the game from its last start (found by index), from its
        latest snapshot when one is usable; sensor memory from the start's own record."""
        self._replaying = True
        try:
            start = self.log.last_seq(K.GAME_START)
            if not start:  # no game ever started: sensor memory from the (short) log
                for obs in self._parsed(self.log.read_raw()):
                    self._observe(obs)
                return
            try:
                resumed = self.snapshots and self._resume_from_snapshot(start)
            except sqlite3.DatabaseError as exc:  # a damaged snapshot page: the replay is the truth anyway
                log.warning("snapshot of game %s unreadable: %s", start, exc)
                resumed = False
            if not resumed:
                self._rebuild(start)
            for seq, kind, reason in self.log.execute(
                    "SELECT seq, kind, reason FROM quarantine WHERE seq >= ? ORDER BY seq", (start,)):
                if seq not in self.quarantined:  # found by an earlier run, before the snapshot
                    self._quarantine(seq, kind, reason, record=False)
        except sqlite3.DatabaseError as exc:  # damaged storage: start, and say so
            log.error("the log cannot be read in full: %s", exc)
            self._report_integrity([f"reading the log failed: {exc}"])
        finally:
            self._replaying = False

    def _rebuild(self, start: int | None = None) -> None:
        """Replay the current game from its start, leaving out undone observations."""
        start = start or self.game_seq
        game_obs = list(self._parsed(self.log.read_raw(after=start - 1)))
        undone = {o.data.get("seq") for o in game_obs if o.kind == K.UNDO}
        for obs in game_obs:
            if obs.seq in undone:
                continue
            if obs.kind == K.GAME_START:
                self._restore_sensed(obs)
                self._start(obs)
            elif obs.kind != K.UNDO:
                self._observe(obs)
            self._last_applied = obs.seq or self._last_applied

    def _restore_sensed(self, start: Observation) -> None:
        """Where the parts stood when the game started (recorded in its start), or, for a
        start without that record, the sensor facts before it (read once)."""
        sensed = start.data.get("sensed")
        if isinstance(sensed, dict) and isinstance(sensed.get("slides"), dict):
            self.sensed = {"slides": dict(sensed["slides"]), "board": sensed.get("board")}
            if isinstance(sensed.get("drops"), dict):
                self.sensed["drops"] = dict(sensed["drops"])
            if isinstance(sensed.get("mcu_ms"), int):
                self.sensed["mcu_ms"] = sensed["mcu_ms"]
            return
        if start.seq is not None and not self._replaying:
            return  # an undo's rebuild keeps what it remembers
        for obs in self._parsed(self.log.read_raw()):
            if obs.seq is not None and start.seq is not None and obs.seq >= start.seq:
                break
            self._observe(obs)

    def _parsed(self, rows: Iterable[tuple]) -> Iterable[Observation]:
        for seq, t, source, kind, data in rows:
            try:
                parsed = json.loads(data)
                if not isinstance(parsed, dict):
                    raise ValueError("data is not an object")
            except ValueError as exc:
                self._quarantine(seq, kind, f"unreadable data: {exc}")
                continue
            yield Observation(kind=kind, t=t, source=source, data=parsed, seq=seq)

    # ----------------------------------------------------------------- snapshots
    def _after_apply(self) -> None:
        """After a live observation: a snapshot every so often, a checkpoint when the game ends."""
        adapter = self._adapter
        if adapter is None:
            return
        over = _is_over(adapter)
        if over and not self._was_over:
            self._checkpoint()
        self._was_over = over
        self._since_snapshot += 1
        if self.snapshots and self._since_snapshot >= self.snapshot_every:
            self.save_snapshot()

    def save_snapshot(self) -> bool:
        """Keep the current game's state in the log (one row per log, replaced): what a
        restart resumes from. False when it could not be taken (nothing is lost: the
        restart replays the game instead)."""
        with self._lock:
            self._since_snapshot = 0
            adapter = self._adapter
            if adapter is None or not self.game_seq:
                return False
            try:
                blob = zlib.compress(pickle.dumps({"adapter": adapter, "sensed": self.sensed}, protocol=5), 6)
            except Exception as exc:  # an adapter holding something that cannot be pickled
                log.warning("no snapshot of %s: %s", adapter.game, exc)
                return False
            try:
                self.log.execute("INSERT OR REPLACE INTO snapshots (game_seq, seq, code, blob) VALUES (?, ?, ?, ?)",
                                 (self.game_seq, self._last_applied, _code_fingerprint(adapter), blob))
                self.log.execute("DELETE FROM snapshots WHERE game_seq != ?", (self.game_seq,))
            except LogWriteError as exc:
                self._write_failed(exc)
                return False
            return True

    def _resume_from_snapshot(self, start: int) -> bool:
        rows = self.log.execute("SELECT seq, code, blob FROM snapshots WHERE game_seq=?", (start,))
        if not rows:
            return False
        seq, code, blob = rows[0]
        if self.log.seqs_of(K.UNDO, after=start):  # an undo may reach behind the snapshot: replay instead
            return False
        try:
            state = pickle.loads(zlib.decompress(blob))
            adapter, sensed = state["adapter"], state["sensed"]
            if code != _code_fingerprint(adapter):
                return False
        except Exception as exc:  # a snapshot from other code: the replay is the truth
            log.info("snapshot of game %s not used: %s", start, exc)
            return False
        self.game_seq, self._adapter, self.sensed = start, adapter, sensed
        self._last_applied = seq
        for obs in self._parsed(self.log.read_raw(after=seq)):
            self._observe(obs)
            self._last_applied = obs.seq or seq
        self._was_over = _is_over(adapter)
        self.resumed_from = seq
        return True

    # ----------------------------------------------------------------- a bad day
    def _game_ended(self, adapter: GameAdapter, game_seq: int, end_seq: int) -> None:
        """A game ended (another started): compact it into the archive and checkpoint."""
        try:
            archive.record_game(self.log, adapter, game_seq, end_seq)
        except LogWriteError as exc:
            self._write_failed(exc)
        except Exception:  # the archive is a summary; the log still has the game
            log.exception("game %s could not be archived", game_seq)
        self._checkpoint()

    def _checkpoint(self) -> None:
        try:
            self.log.checkpoint()
        except LogWriteError as exc:
            self._write_failed(exc)

    def _quarantine(self, seq: int, kind: str, reason: str, *, record: bool = True) -> None:
        log.warning("log row %s (%s) cannot be replayed: %s", seq, kind, reason)
        self.quarantined[seq] = reason
        if record:
            try:
                self.log.execute("INSERT OR IGNORE INTO quarantine (seq, kind, reason, t) VALUES (?, ?, ?, ?)",
                                 (seq, kind, reason[:500], self.clock()))
            except LogWriteError:
                pass  # named in the alert all the same
        self._storage_alert(
            f"quarantined-{seq}", "quarantined",
            f"Row {seq} of the log ({kind}) cannot be replayed by this version; it is kept aside and left out of "
            f"the game ({reason}).",
            f"La ligne {seq} du journal ({kind}) ne peut pas être rejouée par cette version ; elle est mise de "
            f"côté et laissée hors de la partie ({reason}).", seen={"seq": seq, "kind": kind})

    def _report_integrity(self, problems: list[str]) -> None:
        if not problems:
            return
        with self._lock:  # may come from the background check's thread
            shown = "; ".join(problems[:3])
            self._storage_alert(
                "log-damaged", "log_damaged",
                f"The log file is damaged ({shown}). The table plays on with what it could read; "
                "'passetable log check' says more and 'passetable log restore' brings back the last daily copy.",
                f"Le fichier journal est abîmé ({shown}). La table continue avec ce qu'elle a pu lire ; "
                "« passetable log check » en dit plus et « passetable log restore » ramène la dernière copie du jour.",
                seen=problems[:10])
            self._bump()

    def report_lost_rows(self, have: int, had: int, where: str) -> None:
        """The log ends at ``have`` but ``had`` was written before (a mark or a daily copy says so)."""
        with self._lock:
            self._storage_alert(
                "log-lost-rows", "log_lost_rows",
                f"The log ends at row {have}, but row {had} had been written ({where}): rows {have + 1} to {had} are "
                "lost (damaged storage?). 'passetable log restore' brings back the last daily copy.",
                f"Le journal s'arrête à la ligne {have}, mais la ligne {had} avait été écrite ({where}) : les lignes "
                f"{have + 1} à {had} sont perdues (stockage abîmé ?). « passetable log restore » ramène la dernière "
                "copie du jour.", seen={"have": have, "had": had})
            self._bump()

    def _storage_alert(self, alert_id: str, kind: str, en: str, fr: str, *, seen: Any = None) -> None:
        if alert_id not in self.storage_alerts:
            self.storage_alerts[alert_id] = {"id": alert_id, "kind": kind, "message": {"en": en, "fr": fr},
                                             "since": self.clock(), "expected": None, "seen": seen, "choices": []}

    def _write_failed(self, exc: LogWriteError) -> None:
        with self._lock:
            first = self.write_error is None
            self.write_error = exc
            if first:
                log.error("the log cannot be written: %s", exc.reason)
                self._storage_alert(
                    "log-unwritable", "log_unwritable",
                    f"The table cannot write its log: {exc.en}. Entries are refused until it can; play resumes by "
                    "itself then. Free some space or check the SD card.",
                    f"La table ne peut pas écrire son journal : {exc.fr}. Les saisies sont refusées en attendant ; "
                    "le jeu reprendra de lui-même. Libérez de la place ou vérifiez la carte SD.",
                    seen=exc.reason)
                self._bump()

    def _write_ok(self) -> None:
        with self._lock:
            if self.write_error is not None:
                log.warning("the log can be written again")
                self.write_error = None
                self.storage_alerts.pop("log-unwritable", None)
                self._bump()

    def retry_storage(self) -> bool:
        """Try a small write if the last one failed; True when the log is writable."""
        if self.write_error is None:
            return True
        try:
            self.log.probe()
        except LogWriteError as exc:
            self._write_failed(exc)
            return False
        self._write_ok()
        return True

    def _log_health(self) -> dict[str, Any]:
        """``health()["log"]``: ``ok`` false (the health panel's red "log cannot be written")
        while writes fail, with ``error`` in both languages; a damaged file or quarantined
        rows are ``warnings`` (the panel lists them) and keep ``ok`` true: the table writes."""
        exc = self.write_error
        out: dict[str, Any] = {"ok": exc is None, "writable": exc is None}
        if exc is not None:
            out["error"] = {"en": f"The log cannot be written: {exc.en}", "fr": f"Le journal ne peut pas être écrit : "
                            f"{exc.fr}", "reason": exc.reason}
        warnings = []
        damaged = getattr(self.log, "integrity", [])
        if damaged:
            out["damaged"] = len(damaged)
            warnings.append({"en": f"The log file is damaged: {damaged[0]} (see 'passetable log check').",
                             "fr": f"Le fichier journal est abîmé : {damaged[0]} (voir « passetable log check »)."})
        if self.quarantined:
            out["quarantined"] = len(self.quarantined)
            rows = ", ".join(str(seq) for seq in sorted(self.quarantined)[:10])
            warnings.append({"en": f"Log rows set aside (cannot be replayed): {rows}.",
                             "fr": f"Lignes du journal mises de côté (impossibles à rejouer) : {rows}."})
        if warnings:
            out["warnings"] = warnings
        return out

def _is_over(adapter: Any) -> bool:
    engine = getattr(adapter, "g", None)
    try:
        return bool(engine is not None and engine.is_over())
    except Exception:
        return False


_FINGERPRINTS: dict[str, str] = {}


def _code_fingerprint(adapter: Any) -> str:
    """A digest of the code a snapshot depends on: the game's package and the shared
    adapter and observation modules. Another version's snapshot is never used."""
    module = sys.modules.get(type(adapter).__module__)
    folder = str(Path(module.__file__).parent) if module is not None and module.__file__ else ""
    if folder not in _FINGERPRINTS:
        digest = hashlib.sha256()
        files = sorted(Path(folder).glob("*.py")) if folder else []
        here = Path(__file__).parent
        for path in [*files, here / "adapter.py", here / "observations.py"]:
            try:
                digest.update(path.name.encode() + b"\0" + path.read_bytes())
            except OSError:
                digest.update(path.name.encode())
        _FINGERPRINTS[folder] = digest.hexdigest()[:16]
    return _FINGERPRINTS[folder]
