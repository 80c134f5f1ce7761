"""``passetable log check`` and ``passetable log restore``: the owner's tools for the log.

``check`` opens the log read-only in spirit (it writes nothing but SQLite's own WAL
recovery), runs ``PRAGMA quick_check``, counts rows, games and archived games, lists
the quarantined rows and the daily copies, says whether rows are known to be lost, and
checks that the current game's snapshot agrees with a full replay.

``restore`` puts the newest daily copy (or a given file) back in place of the log; the
damaged files are moved aside (never deleted) into ``backups/damaged-<time>/``, and every
row of the damaged log newer than the copy that can still be read is added back, so a
restore loses only what the damage itself destroyed. Stop the service first.

    >>> import tempfile, pathlib
    >>> from table.log import EventLog
    >>> from table.observations import Observation
    >>> from table.backup import daily_copy
    >>> folder = pathlib.Path(tempfile.mkdtemp()); path = folder / "passetable.sqlite3"
    >>> log = EventLog(path); _ = log.append(Observation.now("board", source="sim", position=2))
    >>> _ = daily_copy(path, day="2026-11-25"); _ = log.append(Observation.now("board", source="sim", position=3))
    >>> log.close()
    >>> report = restore(path)
    >>> report["from_copy"], report["salvaged"], EventLog(path).last_seq()
    (1, 1, 2)
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

from table import archive, backup
from table.log import EventLog, LogError


def verify_snapshot(log: EventLog) -> list[str]:
    """Differences between the current game resumed from its snapshot and the same game
    replayed from its start; ``[]`` when they agree (or there is no snapshot to check).
    A disagreement is a bug: the replay is the truth."""
    from table.session import Session

    resumed = Session(log)
    if resumed.resumed_from is None:
        return []
    replayed = Session(log, snapshots=False)
    problems = []
    a, b = _comparable(resumed.snapshot()), _comparable(replayed.snapshot())
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            problems.append(f"{key}: snapshot {_short(a.get(key))} != replay {_short(b.get(key))}")
    ea, eb = resumed.current_game(), replayed.current_game()
    da = ea.engine.to_dict() if ea is not None and hasattr(ea.engine, "to_dict") else None
    db = eb.engine.to_dict() if eb is not None and hasattr(eb.engine, "to_dict") else None
    if da != db:
        problems.append("engine: the snapshot's rules state differs from the replay's")
    return problems


STORAGE_ALERTS = ("quarantined", "game_closed", "log_unwritable", "log_damaged", "log_lost_rows")


def _comparable(snap: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in snap.items() if k not in ("version", "health")}
    # the log's own alerts carry the time this process found them, not a game time
    out["alerts"] = [{k: v for k, v in a.items() if k != "since"} if a.get("kind") in STORAGE_ALERTS else a
                     for a in out.get("alerts", [])]
    return out


def _short(value: Any) -> str:
    text = json.dumps(value, default=str, sort_keys=True)
    return text if len(text) < 120 else text[:117] + "..."


def check(path: str | Path) -> dict[str, Any]:
    """What the owner needs to know about the log at ``path`` (see the module docstring)."""
    path = Path(path)
    report: dict[str, Any] = {"path": str(path), "exists": path.exists()}
    if not path.exists():
        report["problems"] = [("there is no log file here", "il n'y a pas de fichier journal ici")]
        return report
    problems: list[tuple[str, str]] = []
    try:
        log = EventLog(path)
    except LogError as exc:
        report["problems"] = [(f"the log cannot be opened: {exc}", f"le journal ne peut pas être ouvert : {exc}")]
        report["copies"] = [{"file": c.name, "last_seq": backup.last_seq_of(c)} for c in backup.copies(path)]
        return report
    try:
        report["quick_check"] = log.integrity or ["ok"]
        if log.integrity:
            problems.append((f"quick_check: {'; '.join(log.integrity[:3])}",
                             f"quick_check : {'; '.join(log.integrity[:3])}"))
        report.update(log.stats())
        report["last_seq"] = log.last_seq()
        report["games"] = len(log.seqs_of("game_start"))
        report["current_game_seq"] = log.last_seq("game_start")
        arch = archive.games(log)
        report["archived_games"] = len(arch)
        report["archive_bytes"] = sum(g["bytes"] for g in arch)
        quarantined = log.execute("SELECT seq, kind, reason FROM quarantine ORDER BY seq")
        report["quarantined"] = [{"seq": s, "kind": k, "reason": r} for s, k, r in quarantined]
        if quarantined:
            problems.append((f"{len(quarantined)} row(s) quarantined (cannot be replayed)",
                             f"{len(quarantined)} ligne(s) mise(s) de côté (impossibles à rejouer)"))
        report["copies"] = [{"file": c.name, "last_seq": backup.last_seq_of(c)} for c in backup.copies(path)]
        lost = backup.lost_rows(log)
        if lost is not None:
            have, had, where = lost
            report["lost"] = {"have": have, "had": had, "where": where}
            problems.append((f"rows {have + 1} to {had} are lost ({where})",
                             f"les lignes {have + 1} à {had} sont perdues ({where})"))
        try:
            differences = verify_snapshot(log)
        except Exception as exc:  # a replay that fails is reported, not raised
            differences = [f"replay failed: {type(exc).__name__}: {exc}"]
        report["snapshot_agrees"] = not differences
        if differences:
            report["snapshot_differences"] = differences
            problems.append(("the snapshot disagrees with the replay (a bug; the replay is used)",
                             "l'instantané ne correspond pas au rejeu (un bogue ; le rejeu fait foi)"))
    finally:
        log.close()
    report["problems"] = problems
    return report


def restore(path: str | Path, source: str | Path | None = None) -> dict[str, Any]:
    """Put a daily copy back in place of the log (see the module docstring)."""
    path = Path(path)
    copies = backup.copies(path)
    src = Path(source) if source is not None else (copies[0] if copies else None)
    if src is None or not src.exists():
        raise LogError(f"no daily copy to restore in {backup.backups_dir(path)}")
    from_copy = backup.last_seq_of(src)
    aside = backup.backups_dir(path) / f"damaged-{time.strftime('%Y%m%d-%H%M%S')}"
    moved = []
    for suffix in ("", "-wal", "-shm", ".mark"):
        f = Path(str(path) + suffix)
        if f.exists():
            aside.mkdir(parents=True, exist_ok=True)
            shutil.move(str(f), aside / f.name)
            moved.append(f.name)
    # the copy is copied with the backup API too: the result is a consistent database
    s = sqlite3.connect(f"file:{src.resolve()}?mode=ro", uri=True)
    d = sqlite3.connect(path)
    try:
        s.backup(d)
    finally:
        s.close()
        d.close()
    salvaged = 0
    old = aside / path.name
    if old.exists():
        salvaged = _salvage(old, path, after=from_copy)
    log = EventLog(path)
    try:
        log.checkpoint()
        backup.write_mark(log)
        last = log.last_seq()
    finally:
        log.close()
    return {"restored": str(path), "copy": str(src), "from_copy": from_copy, "salvaged": salvaged,
            "last_seq": last, "damaged_kept_in": str(aside) if moved else None}


def _salvage(damaged: Path, path: Path, *, after: int) -> int:
    """Add the rows newer than ``after`` that the damaged log still gives, seq by seq."""
    rows: list[tuple] = []
    try:
        db = sqlite3.connect(f"file:{damaged.resolve()}?mode=ro", uri=True)
        try:
            cur = db.execute("SELECT seq, t, source, kind, data FROM observations WHERE seq > ? ORDER BY seq",
                             (after,))
            while True:
                try:
                    row = cur.fetchone()
                except sqlite3.DatabaseError:
                    break  # the damage starts here
                if row is None:
                    break
                rows.append(row)
        finally:
            db.close()
    except sqlite3.Error:
        return 0
    if not rows:
        return 0
    target = sqlite3.connect(path)
    try:
        with target:
            target.executemany("INSERT OR IGNORE INTO observations (seq, t, source, kind, data) VALUES (?,?,?,?,?)",
                               rows)
    finally:
        target.close()
    return len(rows)


def _print(report: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(report, indent=1, default=str))
        return
    for key, value in report.items():
        if key != "problems":
            print(f"{key:18s} {value}")
    for en, fr in report.get("problems", []):
        print(f"PROBLEM: {en}\nPROBLÈME : {fr}")
    if not report.get("problems"):
        print("The log is sound. / Le journal est sain.")


def main_check(path: str | Path, *, as_json: bool = False) -> int:
    report = check(path)
    _print(report, as_json)
    return 1 if report.get("problems") else 0


def main_restore(path: str | Path, source: str | None = None, *, as_json: bool = False) -> int:
    try:
        report = restore(path, source)
    except (LogError, OSError, sqlite3.Error) as exc:
        print(f"passetable: cannot restore: {exc}\npassetable : restauration impossible : {exc}")
        return 2
    if as_json:
        print(json.dumps(report, indent=1))
    else:
        print(f"Restored {report['copy']} (rows up to {report['from_copy']}), {report['salvaged']} newer row(s) "
              f"recovered from the damaged log; the log now ends at row {report['last_seq']}.")
        print(f"Restauré {report['copy']} (lignes jusqu'à {report['from_copy']}), {report['salvaged']} ligne(s) plus "
              f"récente(s) récupérée(s) du journal abîmé ; le journal s'arrête à la ligne {report['last_seq']}.")
        if report["damaged_kept_in"]:
            print(f"The damaged files are kept in {report['damaged_kept_in']} / Les fichiers abîmés sont gardés "
                  f"dans {report['damaged_kept_in']}")
    return 0


__all__ = ["check", "main_check", "main_restore", "restore", "verify_snapshot"]
