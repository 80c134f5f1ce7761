"""The event log: an append-only SQLite file of observations, the truth of every game.

Each observation is written in its own transaction (WAL mode, ``synchronous=FULL``) before
the session acts on it, so an acknowledged observation survives a crash or a power cut.
State is never stored: it is whatever replaying the log gives.

    >>> log = EventLog(":memory:")
    >>> seq = log.append(Observation.now("board", source="sim", position=3))
    >>> [o.data for o in log.read()]
    [{'position': 3}]
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

from table.observations import Observation

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS observations (
    seq    INTEGER PRIMARY KEY AUTOINCREMENT,
    t      REAL    NOT NULL,
    source TEXT    NOT NULL,
    kind   TEXT    NOT NULL,
    data   TEXT    NOT NULL
);
"""


class LogError(RuntimeError):
    """The log file cannot be used (wrong schema version, not a passetable log...)."""


class EventLog:
    """Append-only log of observations in one SQLite file (``":memory:"`` for tests)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # One connection shared by the service's threads, guarded by a lock: writes are
        # tiny and serialised anyway, and this keeps "append then act" strictly ordered.
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            self._check_schema()
        except sqlite3.DatabaseError as exc:
            raise LogError(f"{self.path} is not a usable passetable log: {exc}") from exc

    def _check_schema(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) != SCHEMA_VERSION:
            raise LogError(
                f"{self.path} has log schema version {row[0]}, this passetable reads version {SCHEMA_VERSION}"
            )

    def append(self, obs: Observation) -> Observation:
        """Write one observation durably; return it with its ``seq`` set."""
        payload = json.dumps(obs.data, ensure_ascii=False, sort_keys=True)
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO observations (t, source, kind, data) VALUES (?, ?, ?, ?)",
                (obs.t, obs.source, obs.kind, payload),
            )
            seq = cur.lastrowid
        return Observation(kind=obs.kind, t=obs.t, source=obs.source, data=obs.data, seq=seq)

    def read(self, after: int = 0) -> Iterator[Observation]:
        """All observations with ``seq > after``, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, t, source, kind, data FROM observations WHERE seq > ? ORDER BY seq", (after,)
            ).fetchall()
        for seq, t, source, kind, data in rows:
            yield Observation(kind=kind, t=t, source=source, data=json.loads(data), seq=seq)

    def get(self, seq: int) -> Observation | None:
        """The observation with this ``seq``, or None."""
        with self._lock:
            row = self._db.execute("SELECT seq, t, source, kind, data FROM observations WHERE seq=?", (seq,)).fetchone()
        if row is None:
            return None
        return Observation(kind=row[3], t=row[1], source=row[2], data=json.loads(row[4]), seq=row[0])

    def last_seq(self, kind: str | None = None) -> int:
        """The newest ``seq`` (of one kind if given), 0 when there is none."""
        with self._lock:
            if kind is None:
                row = self._db.execute("SELECT MAX(seq) FROM observations").fetchone()
            else:
                row = self._db.execute("SELECT MAX(seq) FROM observations WHERE kind=?", (kind,)).fetchone()
        return row[0] or 0

    def close(self) -> None:
        with self._lock:
            self._db.close()
