"""One simulated table in its own process: session + Pass Pass simulation + publisher.

    python tests/room/table_runner.py --mqtt mqtt://127.0.0.1:PORT --table t1 --data DIR

Prints ``ready <pid>`` once running, then plays until SIGTERM (a clean stop: the table
says "offline" itself) or SIGKILL (the broker's last will says it). The SIGKILL test and
the benchmark use it; it is what ``passetable run --sim --game pass-pass --mqtt`` will be.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).absolute().parents[2]))  # run as a script from anywhere

from table.log import EventLog
from table.session import Session
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
    args = p.parse_args(argv)
    Path(args.data).mkdir(parents=True, exist_ok=True)
    session = Session(EventLog(Path(args.data) / f"{args.table}.sqlite3"))
    sim = pass_pass_sim(session, pace=args.pace, seed=args.seed, restart_after=1.0)
    publisher = TablePublisher(session, url=args.mqtt, table=args.table, keepalive=args.keepalive)
    session.health_sources["mqtt"] = publisher.health
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    publisher.start()
    sim.start()
    print(f"ready {os.getpid()}", flush=True)
    stopped.wait()
    sim.stop()
    publisher.stop()
    session.log.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
