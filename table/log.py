"""The event log: an append-only SQLite file of observations, the truth of every game.

Each observation is written in its own transaction (WAL mode, ``synchronous=FULL``) before
the session acts on it, so an acknowledged observation survives a crash or a power cut:
:meth:`EventLog.append` returns only once SQLite has synced the WAL frame that holds it,
and nothing is batched across observations (see "Bytes written" below for what keeps the
writes small instead). State is never stored as truth: it is whatever replaying the log
gives; the snapshots kept here are a shortcut checked against that replay.

    >>> log = EventLog(":memory:")
    >>> seq = log.append(Observation.now("board", source="sim", position=3))
    >>> [o.data for o in log.read()]
    [{'position': 3}]
    >>> log.last_seq("game_start"), log.integrity
    (0, [])

Start-up stays bounded by the current game, not the history: partial indexes on
``(kind, seq)`` for the kinds a start looks up (``game_start``, ``undo``: only those rows
pay for an index entry) find the last game start without scanning, and the game is read
by ``seq`` range (the primary key).

Bytes written: a new log uses 1 KiB pages and no ``AUTOINCREMENT`` (which rewrote the
``sqlite_sequence`` page at every insert), so one observation is one ~1 KiB WAL frame
instead of two 4 KiB ones; seqs still never go back, because the newest row is never
pruned (see :mod:`table.archive`). Logs made by an older version keep their layout.

A write that fails (disk full, read-only file system, I/O error) raises
:class:`LogWriteError` with a message in both languages; nothing half-written counts
(SQLite rolls the transaction back), and the next append simply tries again.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from table.observations import Observation

SCHEMA_VERSION = 1
PAGE_SIZE = 1024  # new logs: one small WAL frame per observation (an SD card wears out by writes)
#: kinds a start-up looks up by kind: only these rows pay for an index entry
INDEXED_KINDS = ("game_start", "undo")
#: a bigger log is checked (``PRAGMA quick_check``) in the background, so start-up stays short
QUICK_CHECK_INLINE_BYTES = 4 * 2**20

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS observations (
    seq    INTEGER PRIMARY KEY,
    t      REAL    NOT NULL,
    source TEXT    NOT NULL,
    kind   TEXT    NOT NULL,
    data   TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS obs_game_start ON observations (kind, seq) WHERE kind = 'game_start';
CREATE INDEX IF NOT EXISTS obs_undo ON observations (kind, seq) WHERE kind = 'undo';
CREATE TABLE IF NOT EXISTS snapshots (
    game_seq INTEGER PRIMARY KEY,
    seq      INTEGER NOT NULL,
    code     TEXT    NOT NULL,
    blob     BLOB    NOT NULL
);
CREATE TABLE IF NOT EXISTS quarantine (
    seq    INTEGER PRIMARY KEY,
    kind   TEXT NOT NULL,
    reason TEXT NOT NULL,
    t      REAL NOT NULL
);
"""


class LogError(RuntimeError):
    """The log file cannot be used (wrong schema version, not a passetable log...)."""


class LogWriteError(LogError):
    """An observation could not be made durable (disk full, read-only, I/O error).
    ``en``/``fr``: what a person reads; ``reason``: SQLite's own words."""

    def __init__(self, reason: str):
        self.reason = reason
        low = reason.lower()
        if "full" in low:
            self.en, self.fr = "the storage is full", "le stockage est plein"
        elif "readonly" in low or "read-only" in low:
            self.en, self.fr = "the storage is read-only", "le stockage est en lecture seule"
        else:
            self.en, self.fr = "the storage fails to write", "le stockage n'arrive plus à écrire"
        super().__init__(f"cannot write the log: {reason}")


class EventLog:
    """Append-only log of observations in one SQLite file (``":memory:"`` for tests).

    ``integrity`` holds what ``PRAGMA quick_check`` said at opening (empty: all is well);
    on a log bigger than :data:`QUICK_CHECK_INLINE_BYTES` the check runs in a background
    thread on its own read-only connection (``integrity_checked`` is set when it is done,
    and :meth:`when_checked` calls back with its findings).
    """

    def __init__(self, path: str | Path, *, quick_check: bool = True):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # One connection shared by the service's threads, guarded by a lock: writes are
        # tiny and serialised anyway, and this keeps "append then act" strictly ordered.
        self._lock = threading.Lock()
        self.integrity: list[str] = []
        self.integrity_checked = threading.Event()
        self._check_lock = threading.Lock()
        self._integrity_listeners: list[Any] = []
        self.last_checkpoint = time.monotonic()
        background = False
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            if not self._db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone():
                self._db.execute(f"PRAGMA page_size={PAGE_SIZE}")  # only takes on a new, empty file
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            if quick_check and self.path != ":memory:" and Path(self.path).stat().st_size > QUICK_CHECK_INLINE_BYTES:
                background = True
            elif quick_check:
                self.integrity = _quick_check(self._db)
            self._db.executescript(_SCHEMA)
            self._check_schema()
        except sqlite3.DatabaseError as exc:
            raise LogError(f"{self.path} is not a usable passetable log: {exc}") from exc
        if background:
            threading.Thread(target=self._background_check, name="log-quick-check", daemon=True).start()
        else:
            self.integrity_checked.set()

    def _background_check(self) -> None:
        try:
            db = sqlite3.connect(f"file:{Path(self.path).resolve()}?mode=ro", uri=True)
            try:
                problems = _quick_check(db)
            finally:
                db.close()
        except sqlite3.DatabaseError as exc:
            problems = [str(exc)]
        with self._check_lock:
            self.integrity = problems
            self.integrity_checked.set()
            listeners, self._integrity_listeners = self._integrity_listeners, []
        for listener in listeners:
            listener(problems)

    def when_checked(self, listener: Any) -> None:
        """Call ``listener(problems)`` once ``quick_check`` is done (now if it is)."""
        with self._check_lock:
            if not self.integrity_checked.is_set():
                self._integrity_listeners.append(listener)
                return
        listener(self.integrity)

    def _check_schema(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) != SCHEMA_VERSION:
            raise LogError(
                f"{self.path} has log schema version {row[0]}, this passetable reads version {SCHEMA_VERSION}"
            )

    # ----------------------------------------------------------------- writing
    def append(self, obs: Observation) -> Observation:
        """Write one observation durably; return it with its ``seq`` set.
        Raises :class:`LogWriteError` when the storage refuses the write."""
        payload = json.dumps(obs.data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        with self._lock:
            try:
                cur = self._db.execute(
                    "INSERT INTO observations (t, source, kind, data) VALUES (?, ?, ?, ?)",
                    (obs.t, obs.source, obs.kind, payload),
                )
            except sqlite3.OperationalError as exc:
                raise LogWriteError(str(exc)) from exc
            seq = cur.lastrowid
        return Observation(kind=obs.kind, t=obs.t, source=obs.source, data=obs.data, seq=seq)

    def probe(self) -> None:
        """Try a durable write that needs a few new pages, as appends will (raises
        :class:`LogWriteError` while the storage still refuses); it leaves nothing behind."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    self._db.execute("INSERT OR REPLACE INTO meta VALUES ('probe', ?)", ("x" * 4 * PAGE_SIZE,))
                    self._db.execute("DELETE FROM meta WHERE key='probe'")
                    self._db.execute("COMMIT")
                except sqlite3.Error:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    raise
            except sqlite3.OperationalError as exc:
                raise LogWriteError(str(exc)) from exc

    def checkpoint(self) -> tuple[int, int]:
        """Move the WAL into the main file and truncate it (a lost ``-wal`` file then loses
        nothing older than this). Returns (WAL frames, frames checkpointed); (-1, -1) when
        another reader held it back."""
        with self._lock:
            try:
                _busy, frames, done = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            except sqlite3.OperationalError as exc:
                raise LogWriteError(str(exc)) from exc
            self.last_checkpoint = time.monotonic()
        return frames, done

    def execute(self, sql: str, params: tuple | list = ()) -> list[tuple]:
        """Run one statement on the log under its lock (storage modules: archive,
        snapshots, quarantine). Write failures raise :class:`LogWriteError`."""
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.OperationalError as exc:
                raise LogWriteError(str(exc)) from exc

    # ----------------------------------------------------------------- reading
    def read(self, after: int = 0, *, upto: int | None = None) -> Iterator[Observation]:
        """All observations with ``after < seq`` (``<= upto`` if given), oldest first."""
        with self._lock:
            if upto is None:
                rows = self._db.execute(
                    "SELECT seq, t, source, kind, data FROM observations WHERE seq > ? ORDER BY seq", (after,)
                ).fetchall()
            else:
                rows = self._db.execute(
                    "SELECT seq, t, source, kind, data FROM observations WHERE seq > ? AND seq <= ? ORDER BY seq",
                    (after, upto)).fetchall()
        for row in rows:
            yield _row(row)

    def read_raw(self, after: int = 0) -> Iterator[tuple[int, float, str, str, str]]:
        """Rows as stored (``data`` still JSON text): for replays that must survive a bad row."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, t, source, kind, data FROM observations WHERE seq > ? ORDER BY seq", (after,)
            ).fetchall()
        yield from rows

    def get(self, seq: int) -> Observation | None:
        """The observation with this ``seq``, or None."""
        with self._lock:
            row = self._db.execute("SELECT seq, t, source, kind, data FROM observations WHERE seq=?", (seq,)).fetchone()
        return None if row is None else _row(row)

    def last_seq(self, kind: str | None = None) -> int:
        """The newest ``seq`` (of one kind if given), 0 when there is none."""
        with self._lock:
            if kind is None:
                row = self._db.execute("SELECT MAX(seq) FROM observations").fetchone()
            elif kind in INDEXED_KINDS:  # a literal, so that the partial index serves it
                row = self._db.execute(f"SELECT MAX(seq) FROM observations WHERE kind='{kind}'").fetchone()
            else:
                row = self._db.execute("SELECT MAX(seq) FROM observations WHERE kind=?", (kind,)).fetchone()
        return row[0] or 0

    def seqs_of(self, kind: str, after: int = 0) -> list[int]:
        """The seqs of one indexed kind (``game_start``, ``undo``) after ``after``."""
        if kind not in INDEXED_KINDS:
            raise ValueError(f"{kind!r} is not an indexed kind")
        with self._lock:
            rows = self._db.execute(f"SELECT seq FROM observations WHERE kind='{kind}' AND seq > ? ORDER BY seq",
                                    (after,)).fetchall()
        return [r[0] for r in rows]

    def meta(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def stats(self) -> dict[str, Any]:
        """Sizes for health and benchmarks: rows, pages, bytes of the file and its WAL."""
        with self._lock:
            rows = self._db.execute("SELECT COUNT(*) FROM observations").fetchone()[0]
            page = self._db.execute("PRAGMA page_size").fetchone()[0]
            pages = self._db.execute("PRAGMA page_count").fetchone()[0]
        wal = Path(self.path + "-wal")
        return {"rows": rows, "page_size": page, "bytes": page * pages,
                "wal_bytes": wal.stat().st_size if self.path != ":memory:" and wal.exists() else 0}

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _quick_check(db: sqlite3.Connection) -> list[str]:
    return [r[0] for r in db.execute("PRAGMA quick_check").fetchall() if r[0] != "ok"]


def _row(row: tuple) -> Observation:
    seq, t, source, kind, data = row
    return Observation(kind=kind, t=t, source=source, data=json.loads(data), seq=seq)
