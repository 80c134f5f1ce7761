"""Room benchmark: 20 simulated tables, one hub, a real Mosquitto, a real chromium page.

    .venv/bin/python tests/bench/bench_hub.py                 # 20 tables, 60 s measured
    .venv/bin/python tests/bench/bench_hub.py --quick         # 5 tables, 15 s
    .venv/bin/python tests/bench/bench_hub.py --tables 20 --seconds 120 --pace 0.5 --json

Three processes besides the broker, as in a café: the tables (``tests/room/table_runner.py
--tables N``: N sessions on their own SQLite files, each with its Pass Pass simulated
players and its publisher), the hub (``python -m web.room.cli hub``) and the hub's page in
Debian's chromium. Figures:

* latency from an observation (its time in the table's event log) to the hub's page
  showing it: the first render of that table's card whose state includes it (the page
  notes the time of each render in ``window.hubRenders``; both clocks are this machine's);
  median, p90, p99, max over every observation of the measured window;
* the hub's CPU (user + system, % of one core) and memory (RSS now and peak), and the
  same for the tables' process and for mosquitto, from /proc over the window;
* ``--table-cost``: what publishing costs the table itself: the time of each simulated
  entry (its check, durable log write and application) with no publisher, with a
  publisher and the broker up, down, and stalled (SIGSTOP), in this process.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).absolute().parents[2]))

from table.bench import machine
from table.log import EventLog
from table.session import Session
from tests.browser import chromium
from tests.room.helpers import Broker, TableProcess, pass_pass_sim
from web.room.publisher import TablePublisher

TICK = os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def memory_mb(pid: int) -> tuple[float, float]:
    status = Path(f"/proc/{pid}/status").read_text()
    rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024
    peak = int(re.search(r"VmHWM:\s+(\d+)", status).group(1)) / 1024
    return rss, peak


def start_hub(broker: Broker) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "web.room.cli", "hub", "--mqtt", broker.url, "--port", "0"],
                            stdout=subprocess.PIPE, text=True, cwd=Path(__file__).absolute().parents[2])
    url = re.search(r"(http://\S+/)", proc.stdout.readline()).group(1)
    return proc, url


def latencies(data: Path, renders: dict[str, list[list[float]]], since: float,
              until: float) -> tuple[list[float], list[float]]:
    """For every observation logged in [since, until): seconds until its table's card first
    showed a state at least that new, and of those, seconds until the table published
    that state (durable log write, the publisher's wake-up, the snapshot)."""
    total, table_side = [], []
    for table, shown in renders.items():
        log = EventLog(data / f"{table}.sqlite3")
        try:
            for obs in log.read():
                if not since <= obs.t < until:
                    continue
                first = next((r for r in shown if r[0] >= obs.seq), None)
                if first is not None:
                    total.append(first[1] / 1000 - obs.t)
                    if len(first) > 2 and first[2]:
                        table_side.append(first[2] - obs.t)
        finally:
            log.close()
    return total, table_side


def run(tables: int, seconds: float, pace: float, warmup: float) -> dict:
    work = Path(tempfile.mkdtemp(prefix="bench-hub-"))
    broker = Broker(work).start()
    hub, url = start_hub(broker)
    room = TableProcess(broker, "t", work / "data", "--tables", str(tables), "--pace", str(pace), "--seed", "1")
    try:
        with chromium() as browser:
            page = browser.new_page()
            page.goto(url + "?lang=en")
            page.wait_for_function(f"document.querySelectorAll('article.card').length === {tables}", timeout=60_000)
            time.sleep(warmup)
            pids = {"hub": hub.pid, "tables": room.proc.pid, "mosquitto": broker.proc.pid}
            cpu0 = {k: cpu_seconds(p) for k, p in pids.items()}
            t0 = time.time()
            time.sleep(seconds)
            t1 = time.time()
            cpu = {k: 100 * (cpu_seconds(p) - cpu0[k]) / (t1 - t0) for k, p in pids.items()}
            mem = {k: memory_mb(p) for k, p in pids.items()}
            time.sleep(2)  # let the last observations of the window reach the page
            renders = page.evaluate("window.hubRenders")
    finally:
        room.stop()
        hub.terminate()
        hub.wait(timeout=10)
        broker.stop()
    lat, table_side = latencies(work / "data", renders, t0, t1)
    ms = [x * 1000 for x in lat]
    side = [x * 1000 for x in table_side]
    return {
        "machine": f"{platform.node()}: {machine()}",
        "tables": tables, "pace_s": pace, "seconds": round(t1 - t0, 1), "observations": len(ms),
        "observations_per_s": round(len(ms) / (t1 - t0), 1),
        "latency_ms": {"median": round(statistics.median(ms), 1), "p90": round(pct(ms, 90), 1),
                       "p99": round(pct(ms, 99), 1), "max": round(max(ms), 1)} if ms else None,
        "of_which_table_side_ms": {"median": round(statistics.median(side), 1), "p99": round(pct(side, 99), 1)}
        if side else None,
        "cpu_percent_of_one_core": {k: round(v, 1) for k, v in cpu.items()},
        "rss_mb": {k: {"now": round(r, 1), "peak": round(p, 1)} for k, (r, p) in mem.items()},
    }


def entry_times(work: Path, name: str, entries: int, broker: Broker | None) -> list[float]:
    """Milliseconds per simulated entry on a fresh table, publishing to ``broker`` if given."""
    session = Session(EventLog(work / f"{name}.sqlite3"))
    sim = pass_pass_sim(session, pace=0.0, seed=3, restart_after=None)
    pub = None
    if broker is not None:
        pub = TablePublisher(session, url=broker.url, table=name)
        pub.start()
        time.sleep(1.5)  # connected (or given up for now)
    times = []
    try:
        sim.new_game()
        while len(times) < entries:
            t = time.perf_counter()
            if not sim.step():
                sim.new_game()
                continue
            times.append((time.perf_counter() - t) * 1000)
    finally:
        if pub is not None:
            pub.stop()
        session.log.close()
    return times


def listener_cost(calls: int = 200_000) -> float:
    """Microseconds the publisher takes on the table's own thread per observation (its
    session listener: a bounded append), the broker down."""
    from table.observations import Observation

    work = Path(tempfile.mkdtemp(prefix="bench-listener-"))
    session = Session(EventLog(work / "l.sqlite3"))
    pub = TablePublisher(session, url=Broker(work).url, table="l", queue_limit=1000)
    pub._running = True  # the listener alone, without the worker and paho's thread
    obs = Observation(kind="pass_pass.play", t=0.0, source="sim", data={"seat": 0, "card": "blue-1"}, seq=1)
    t = time.perf_counter()
    for _ in range(calls):
        pub._on_observation(obs, session)
    elapsed = time.perf_counter() - t
    session.log.close()
    return elapsed / calls * 1e6


def table_cost(entries: int) -> dict:
    work = Path(tempfile.mkdtemp(prefix="bench-table-"))
    broker = Broker(work).start()
    down = Broker(work)  # never started: nobody listens on its port
    out = {}
    try:
        for label, target in (("no publisher", None), ("broker up", broker), ("broker down", down)):
            times = entry_times(work, label.replace(" ", "-"), entries, target)
            out[label] = {"median_ms": round(statistics.median(times), 2), "p99_ms": round(pct(times, 99), 2)}
        broker.proc.send_signal(signal.SIGSTOP)  # stalled: the socket stays open, nothing is read
        try:
            times = entry_times(work, "stalled", entries, broker)
        finally:
            broker.proc.send_signal(signal.SIGCONT)
        out["broker stalled"] = {"median_ms": round(statistics.median(times), 2), "p99_ms": round(pct(times, 99), 2)}
    finally:
        broker.stop()
    out["listener_us_per_observation"] = round(listener_cost(), 3)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--pace", type=float, default=0.5, help="seconds between a table's simulated entries")
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--quick", action="store_true", help="5 tables, 15 s")
    p.add_argument("--json", action="store_true")
    p.add_argument("--table-cost", type=int, metavar="ENTRIES", default=0,
                   help="also time ENTRIES simulated entries without and with a publisher")
    args = p.parse_args(argv)
    if args.quick:
        args.tables, args.seconds = 5, 15.0
    result = run(args.tables, args.seconds, args.pace, args.warmup)
    if args.table_cost:
        result["entry_cost"] = table_cost(args.table_cost)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"machine: {result['machine']}")
    print(f"{result['tables']} tables, one entry every {result['pace_s']} s each, {result['seconds']} s measured: "
          f"{result['observations']} observations ({result['observations_per_s']}/s)")
    lat = result["latency_ms"]
    if lat:
        print(f"observation -> hub page (chromium): median {lat['median']} ms, p90 {lat['p90']} ms, "
              f"p99 {lat['p99']} ms, max {lat['max']} ms")
    side = result["of_which_table_side_ms"]
    if side:
        print(f"  of which on the table's side (log write, publisher wake-up, snapshot): median {side['median']} ms, "
              f"p99 {side['p99']} ms")
    for name in ("hub", "tables", "mosquitto"):
        m = result["rss_mb"][name]
        print(f"{name:>9}: CPU {result['cpu_percent_of_one_core'][name]} % of one core, "
              f"RSS {m['now']} MB (peak {m['peak']} MB)")
    cost = dict(result.get("entry_cost", {}))
    listener = cost.pop("listener_us_per_observation", None)
    for label, figures in cost.items():
        print(f"one simulated entry on a table, {label}: median {figures['median_ms']} ms, p99 {figures['p99_ms']} ms")
    if listener is not None:
        print(f"the publisher on the table's thread: {listener} µs per observation (a bounded append)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
