"""One simulated table in its own process: session + Pass Pass simulation + publisher.

    python tests/room/table_runner.py --mqtt mqtt://127.0.0.1:PORT --table t1 --data DIR

Prints ``ready <pid>`` once running, then plays until SIGTERM (a clean stop: the table
says "offline" itself) or SIGKILL (the broker's last will says it). The SIGKILL test and
the benchmark use it; it is what ``passetable run --sim --game pass-pass --mqtt`` will be.
``--tables 20`` runs twenty such tables in this one process (``t1-01`` … ``t1-20``),
each with its own session, SQLite file, simulated players and publisher.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).absolute().parents[2]))  # run as a script from anywhere

from table.log import EventLog
from table.session import Session
from table.stopping import StopFlag
from tests.room.helpers import pass_pass_sim
from web.room.publisher import TablePublisher


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--mqtt", required=True)
    p.add_argument("--table", required=True)
    p.add_argument("--data", required=True)
    p.add_argument("--pace", type=float, default=0.2)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--keepalive", type=int, default=15)
    p.add_argument("--tables", type=int, default=1)
    args = p.parse_args(argv)
    Path(args.data).mkdir(parents=True, exist_ok=True)
    names = [args.table] if args.tables == 1 else [f"{args.table}-{i:02d}" for i in range(1, args.tables + 1)]
    parts = []
    for i, name in enumerate(names):
        session = Session(EventLog(Path(args.data) / f"{name}.sqlite3"))
        seed = None if args.seed is None else args.seed + i
        sim = pass_pass_sim(session, pace=args.pace, seed=seed, restart_after=1.0)
        publisher = TablePublisher(session, url=args.mqtt, table=name, keepalive=args.keepalive)
        session.health_sources["mqtt"] = publisher.health
        parts.append((session, sim, publisher))
    stopped = StopFlag()
    stopped.on_signals(signal.SIGTERM)
    for _, sim, publisher in parts:
        publisher.start()
        sim.start()
    print(f"ready {os.getpid()}", flush=True)
    stopped.wait()
    for session, sim, publisher in parts:
        sim.stop()
        publisher.stop()
        session.log.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
