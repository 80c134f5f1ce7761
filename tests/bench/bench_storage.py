"""Storage figures for issue 18: start-up time over a long log, bytes written per
observation and per evening. Run it, it prints JSON; nothing here is a test.

    .venv/bin/python tests/bench/bench_storage.py startup --obs 1000000 --games 2000
    .venv/bin/python tests/bench/bench_storage.py writes --obs 2000
    .venv/bin/python tests/bench/bench_storage.py session --obs 2000

``startup`` builds the log fast (executemany into a real file: one ``game_start`` of
Passe-Murailles then slide facts, slides 1..6 toggling between 0 and +1, the last game
cut in the middle), then starts a :class:`~table.session.Session` on it in fresh
processes (5 runs, median), timed twice: inside the child (the constructor alone) and
from outside (the child's whole wall time minus an interpreter that only imports).

``writes`` appends observations one by one through :class:`~table.log.EventLog` (each
durable before it returns) and counts bytes two ways: the process's ``wchar`` from
``/proc/self/io`` (everything handed to write(2), WAL and checkpoints) and the growth of
the log's files on disk after a final checkpoint.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

EVENING_FACTS = 2 * 4 * 3600 // 2  # 2 tables, 4 hours, one sensor fact every 2 s per table


def build_log(path: Path, n_obs: int, n_games: int, last_game: int | None = None) -> None:
    """A log of ``n_obs`` observations over ``n_games`` games, written as today's schema
    (the EventLog creates it, so the figures hold for whichever version runs)."""
    from table import games
    from table.log import EventLog

    EventLog(path).close()
    options = games.get("passe-murailles").check_options({})
    start = json.dumps({"game": "passe-murailles", "options": options, "sensed": {"slides": {}, "board": None}},
                       sort_keys=True)
    per_game = n_obs // n_games
    db = sqlite3.connect(path)
    db.execute("PRAGMA synchronous=OFF")
    t = 1.7e9
    rows = []
    for g in range(n_games):
        rows.append((t, "bench", "game_start", start))
        offsets = [0] * 6
        moves = per_game - 1 if g < n_games - 1 else (last_game if last_game is not None else per_game // 2)
        for i in range(moves):
            slide = 1 + i % 6
            offsets[slide - 1] ^= 1
            t += 2.0
            rows.append((t, "bench", "slide", json.dumps({"offset": offsets[slide - 1], "slide": slide})))
        if len(rows) > 50_000:
            db.executemany("INSERT INTO observations (t, source, kind, data) VALUES (?, ?, ?, ?)", rows)
            rows.clear()
    db.executemany("INSERT INTO observations (t, source, kind, data) VALUES (?, ?, ?, ?)", rows)
    db.commit()
    db.close()


CHILD = """
import sys, time, json
sys.path.insert(0, {root!r})
t0 = time.perf_counter()
from table.log import EventLog
from table.session import Session
t1 = time.perf_counter()
s = Session(EventLog({path!r}))
t2 = time.perf_counter()
print(json.dumps({{"import_s": t1 - t0, "start_s": t2 - t1, "game_seq": s.game_seq, "version": s.version,
                   "moves": len(s._adapter.g.to_dict().get("history", [])) if s._adapter else None}}))
"""

BASELINE = """
import sys
sys.path.insert(0, {root!r})
from table.log import EventLog
from table.session import Session
"""


def startup(n_obs: int, n_games: int, runs: int = 5, last_game: int | None = None) -> dict:
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as tmp:
        path = Path(tmp) / "passetable.sqlite3"
        t0 = time.perf_counter()
        build_log(path, n_obs, n_games, last_game)
        built = time.perf_counter() - t0
        snapshot_at = None
        from table.log import EventLog
        from table.session import Session

        first = Session(EventLog(path))  # as the running service would have: a snapshot of the game
        if hasattr(first, "save_snapshot") and first.save_snapshot():
            snapshot_at = first.log.last_seq()
        first.log.close()
        if snapshot_at is not None:  # the worst case: 199 facts after the last snapshot
            db = sqlite3.connect(path)
            db.executemany("INSERT INTO observations (t, source, kind, data) VALUES (?, ?, ?, ?)",
                           [(2e9 + i, "bench", "slide", json.dumps({"offset": i % 2, "slide": 1 + (i // 2) % 6}))
                            for i in range(199)])
            db.commit()
            db.close()
        inner, outer, base = [], [], []
        child = None
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", BASELINE.format(root=str(ROOT))], check=True)
            base.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT), path=str(path))],
                                 check=True, capture_output=True, text=True).stdout
            outer.append(time.perf_counter() - t0)
            child = json.loads(out.strip().splitlines()[-1])
            inner.append(child["start_s"])
        return {"observations": n_obs, "games": n_games, "last_game_facts": last_game, "snapshot_at": snapshot_at,
                "log_mb": round(path.stat().st_size / 2**20, 1),
                "build_s": round(built, 1), "runs": runs,
                "startup_median_s": round(statistics.median(inner), 3),
                "startup_outside_median_s": round(statistics.median(outer) - statistics.median(base), 3),
                "startup_all_s": [round(x, 3) for x in inner], "last_child": child}


def _wchar(key: str = "wchar") -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def writes_session(n_obs: int) -> dict:
    """Bytes written per observation through the whole session (snapshots, archive and
    checkpoints at game ends included), Passe-Murailles games played by random legal
    moves as the frame's sensors report them. Two counts: ``wchar`` (bytes handed to
    write(2)) and ``write_bytes`` (bytes the kernel accounted to storage for this process)."""
    import random

    from table.log import EventLog
    from table.observations import Observation
    from table.session import Session

    rng = random.Random(1)
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as tmp:
        path = Path(tmp) / "passetable.sqlite3"
        session = Session(EventLog(path))
        session.start_game("passe-murailles")
        w0, b0, games, done = _wchar(), _wchar("write_bytes"), 1, 0
        t0 = time.perf_counter()
        while done < n_obs:
            game = session.current_game().engine
            if game.is_over() or len(game.history) > 300:
                session.start_game("passe-murailles")
                games += 1
                done += 1
                continue
            action = rng.choice(game.legal_actions())
            name = type(action).__name__
            if name == "DropPeg":
                obs = Observation.now("peg_drop", source="serial", column=action.column)
            elif name == "MoveSlide":
                obs = Observation.now("slide", source="serial", slide=action.slide,
                                      offset=game.frame.offset(action.slide) + action.step)
            else:
                obs = Observation.now("board", source="serial", position=game.frame.board_position + action.step)
            session.submit(obs)
            done += 1
        elapsed = time.perf_counter() - t0
        os.sync()
        w1, b1 = _wchar(), _wchar("write_bytes")
        size = path.stat().st_size
        per_game = None
        try:
            from table import archive

            rows = archive.games(session.log)
            if rows:
                per_game = {"archived": len(rows), "archive_bytes_per_game": round(statistics.mean(
                    r["bytes"] for r in rows)),
                    "raw_facts_per_game": round(statistics.mean(r["raw_facts"] for r in rows))}
        except ImportError:  # a version without the archive
            pass
        session.log.close()
    return {"observations": n_obs, "games": games, "submit_ms_mean": round(elapsed / n_obs * 1000, 3),
            "wchar_per_obs": round((w1 - w0) / n_obs), "write_bytes_per_obs": round((b1 - b0) / n_obs),
            "log_bytes_per_obs": round(size / n_obs), "archive": per_game, "evening_facts": EVENING_FACTS,
            "evening_mb_wchar": round((w1 - w0) / n_obs * EVENING_FACTS / 2**20, 1),
            "evening_mb_write_bytes": round((b1 - b0) / n_obs * EVENING_FACTS / 2**20, 1)}


def _files_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def writes(n_obs: int) -> dict:
    from table.log import EventLog
    from table.observations import Observation

    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as tmp:
        path = Path(tmp) / "passetable.sqlite3"
        log = EventLog(path)
        for i in range(50):  # a warm log: the first pages exist
            log.append(Observation.now("slide", source="serial", slide=1 + i % 6, offset=i % 2))
        db = sqlite3.connect(path)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size0, w0, t0 = _files_size(path), _wchar(), time.perf_counter()
        for i in range(n_obs):
            log.append(Observation.now("slide", source="serial", slide=1 + i % 6, offset=i % 2))
        elapsed = time.perf_counter() - t0
        w1 = _wchar()
        wal = (Path(str(path) + "-wal").stat().st_size if Path(str(path) + "-wal").exists() else 0)
        busy, frames, done = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        w2 = _wchar()
        page = db.execute("PRAGMA page_size").fetchone()[0]
        db.close()
        log.close()
        per_obs = (w2 - w0) / n_obs
        return {"observations": n_obs, "page_size": page, "append_ms_mean": round(elapsed / n_obs * 1000, 3),
                "wchar_per_obs": round(per_obs), "wal_frames_per_obs": round(frames / n_obs, 2) if frames > 0 else None,
                "wal_bytes_before_checkpoint_per_obs": round(wal / n_obs),
                "checkpoint_wchar": w2 - w1,
                "file_growth_per_obs": round((_files_size(path) - size0) / n_obs, 1),
                "evening_facts": EVENING_FACTS,
                "evening_mb": round(per_obs * EVENING_FACTS / 2**20, 1)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["startup", "writes", "session"])
    parser.add_argument("--obs", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--last-game", type=int, default=None, help="facts in the current (last) game")
    args = parser.parse_args()
    from table.bench import machine

    if args.what == "startup":
        report = startup(args.obs, args.games, args.runs, args.last_game)
    else:
        report = writes(args.obs) if args.what == "writes" else writes_session(args.obs)
    report["machine"] = machine()
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
