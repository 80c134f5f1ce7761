"""Keeping the log safe on an SD card: WAL checkpoints, a daily copy, a high-water mark.

A :class:`Keeper` runs beside the service (one thread, mostly asleep):

* every ``checkpoint_every`` seconds (and the session does it at each game's end) the
  WAL is checkpointed into the main file, so a lost or cut ``-wal`` file loses minutes,
  not the evening;
* once a day it keeps a copy of the log in ``<data>/backups/`` made with SQLite's online
  backup API (a consistent copy while the table plays), the last :data:`KEEP_COPIES`
  days kept, and prunes the raw sensor facts of archived games (:mod:`table.archive`);
* every ``mark_every`` seconds it writes the log's newest seq in a small file beside it
  (``passetable.sqlite3.mark``): at the next start, a log that ends before the mark or
  before the last daily copy lost rows, and the session says which;
* while the log cannot be written it tries a small write every second, so play resumes
  by itself once space is freed.

    >>> import tempfile, pathlib
    >>> from table.log import EventLog
    >>> from table.observations import Observation
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> log = EventLog(folder / "passetable.sqlite3")
    >>> _ = log.append(Observation.now("board", source="sim", position=2))
    >>> copy = daily_copy(log.path, day="2026-11-26")
    >>> copy.name, last_seq_of(copy)
    ('passetable-2026-11-26.sqlite3', 1)
    >>> write_mark(log); read_mark(log.path)["seq"]
    1
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from table import archive
from table.log import EventLog, LogWriteError

log = logging.getLogger(__name__)

KEEP_COPIES = 7
CHECKPOINT_EVERY_S = 300.0
MARK_EVERY_S = 30.0


def backups_dir(log_path: str | Path) -> Path:
    return Path(log_path).parent / "backups"


def copies(log_path: str | Path) -> list[Path]:
    """The daily copies of this log, newest first."""
    folder = backups_dir(log_path)
    stem = Path(log_path).stem
    return sorted(folder.glob(f"{stem}-????-??-??.sqlite3"), reverse=True) if folder.is_dir() else []


def daily_copy(log_path: str | Path, *, day: str | None = None, keep: int = KEEP_COPIES) -> Path:
    """Copy the log (WAL included) with SQLite's online backup API into
    ``backups/<stem>-<day>.sqlite3``; older copies beyond ``keep`` are deleted."""
    day = day or dt.date.today().isoformat()
    folder = backups_dir(log_path)
    folder.mkdir(parents=True, exist_ok=True)
    dest = folder / f"{Path(log_path).stem}-{day}.sqlite3"
    part = dest.with_name(dest.name + ".part")
    part.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{Path(log_path).resolve()}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(part)
        try:
            src.backup(dst)  # all pages in one step: one consistent read transaction
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
    finally:
        src.close()
    with open(part, "rb+") as fh:
        os.fsync(fh.fileno())
    os.replace(part, dest)
    for old in copies(log_path)[keep:]:
        old.unlink(missing_ok=True)
    return dest


def last_seq_of(path: str | Path) -> int:
    """The newest seq in a log file (a copy), 0 if it cannot be read."""
    try:
        db = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
        try:
            return db.execute("SELECT MAX(seq) FROM observations").fetchone()[0] or 0
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def mark_path(log_path: str | Path) -> Path:
    return Path(str(log_path) + ".mark")


def write_mark(log_: EventLog, *, at_least: int = 0) -> None:
    """Note the log's newest seq beside it, or ``at_least`` if that is higher (atomically;
    not synced: a stale mark only under-reports)."""
    if log_.path == ":memory:":
        return
    path = mark_path(log_.path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps({"seq": max(log_.last_seq(), at_least), "t": time.time()}))
    os.replace(tmp, path)


def read_mark(log_path: str | Path) -> dict[str, Any] | None:
    try:
        mark = json.loads(mark_path(log_path).read_text())
        return mark if isinstance(mark, dict) and isinstance(mark.get("seq"), int) else None
    except (OSError, ValueError):
        return None


def lost_rows(log_: EventLog) -> tuple[int, int, str] | None:
    """``(have, had, where)`` when the log ends before what the mark or the newest daily
    copy saw; None when nothing is known to be lost."""
    if log_.path == ":memory:":
        return None
    have = log_.last_seq()
    worst: tuple[int, int, str] | None = None
    mark = read_mark(log_.path)
    if mark is not None and mark["seq"] > have:
        when = dt.datetime.fromtimestamp(mark.get("t", 0)).strftime("%Y-%m-%d %H:%M")
        worst = (have, mark["seq"], f"mark of {when} / repère de {when}")
    newest = copies(log_.path)
    if newest:
        seq = last_seq_of(newest[0])
        if seq > have and (worst is None or seq > worst[1]):
            worst = (have, seq, f"daily copy {newest[0].name} / copie du jour {newest[0].name}")
    return worst


class Keeper:
    """The storage chores of a running service (see the module docstring)."""

    def __init__(self, session: Any, *, checkpoint_every: float = CHECKPOINT_EVERY_S,
                 mark_every: float = MARK_EVERY_S, keep_days: float = archive.KEEP_DAYS,
                 daily: bool = True, tick: float = 1.0):
        self.session = session
        self.log: EventLog = session.log
        self.checkpoint_every = checkpoint_every
        self.mark_every = mark_every
        self.keep_days = keep_days
        self.daily = daily and self.log.path != ":memory:"
        self.tick = tick
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_mark_seq = -1
        self._last_mark = 0.0
        self._mark_floor = 0  # the seq the lost rows had reached: the mark keeps saying it
        self.copies_made = 0
        self.pruned = 0

    def start(self) -> None:
        """Check for lost rows now, then run the chores in a background thread."""
        if self.log.path != ":memory:":
            lost = lost_rows(self.log)
            if lost is not None:
                self.session.report_lost_rows(*lost)
                self._mark_floor = lost[1]
        self._thread = threading.Thread(target=self._run, name="log-keeper", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        try:  # a clean stop leaves the whole log in the main file
            if self.session.write_error is None:
                self.log.checkpoint()
                self._mark(force=True)
        except (LogWriteError, OSError, sqlite3.Error):
            pass

    def _run(self) -> None:
        while not self._stop.wait(self.tick):
            try:
                self.step()
            except Exception:  # a chore that fails must not end the keeper
                log.exception("log keeper")

    def step(self, now: float | None = None) -> None:
        """One round of chores (the thread calls it every ``tick``; tests call it)."""
        if self.session.write_error is not None:
            self.session.retry_storage()
            return
        mono = time.monotonic()
        if mono - self.log.last_checkpoint >= self.checkpoint_every:
            try:
                self.log.checkpoint()
            except LogWriteError as exc:
                self.session._write_failed(exc)
                return
        if mono - self._last_mark >= self.mark_every:
            self._mark()
        if self.daily:
            self.daily_chores(now)

    def _mark(self, force: bool = False) -> None:
        self._last_mark = time.monotonic()
        seq = self.log.last_seq()
        if force or seq != self._last_mark_seq:
            try:  # never below the lost rows: the next start and `log check` still name them
                write_mark(self.log, at_least=self._mark_floor)
                self._last_mark_seq = seq
            except OSError:
                pass

    def daily_chores(self, now: float | None = None) -> Path | None:
        """Today's copy if there is none yet, and the pruning of old raw facts."""
        when = time.time() if now is None else now
        day = dt.date.fromtimestamp(when).isoformat()
        newest = copies(self.log.path)
        if newest and newest[0].name.endswith(f"-{day}.sqlite3"):
            return None
        try:
            self.pruned += archive.prune(self.log, keep_days=self.keep_days, now=when)
        except LogWriteError as exc:
            self.session._write_failed(exc)
            return None
        try:
            made = daily_copy(self.log.path, day=day)
        except (OSError, sqlite3.Error) as exc:
            log.warning("no daily copy of the log: %s", exc)
            return None
        self.copies_made += 1
        return made
