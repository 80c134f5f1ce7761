"""Memory of the whole service under load (issue 18): ``passetable run --sim`` in its own
process, a real waitress server on loopback, 64 live pages (Server-Sent Events read
continuously) and 20 clients polling ``/api/state`` for 30 s. Prints JSON; not a test.

    .venv/bin/python tests/bench/bench_memory.py            # this tree
    .venv/bin/python tests/bench/bench_memory.py --tree DIR # another checkout (the "before")
    .venv/bin/python tests/bench/bench_memory.py --mode app # the web service alone, no simulated table

RSS is read two ways: ``VmRSS`` from ``/proc/PID/status`` sampled every 0.25 s (median
and max), and the kernel's own high-water mark ``VmHWM`` at the end. Also: the time a
closed page takes to free its slot (the 65th page gets 503 until then).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def _status(pid: int) -> dict[str, int]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "Threads"):
            out[key] = int(value.split()[0])
    return out


def _get(port: int, path: str, timeout: float = 10) -> tuple[int, bytes]:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    c.request("GET", path)
    r = c.getresponse()
    return r.status, r.read()


def _stream(port: int, stop: threading.Event, opened: list) -> None:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        c.request("GET", "/api/stream")
        sock = c.sock
        r = c.getresponse()
        opened.append((sock, r.status))
        while not stop.is_set():
            if not r.fp.readline():
                break
    except OSError:
        pass


def _poll(port: int, stop: threading.Event, counts: list) -> None:
    n = 0
    while not stop.is_set():
        try:
            _get(port, "/api/state")
            n += 1
        except OSError:
            pass
    counts.append(n)


# ``--mode app``: the web service alone (session, log, app, waitress), a sensor fact every
# 2 s, without the simulated table's camera and players (their memory is theirs).
APP_ONLY = """
import sys, time, random
from table.log import EventLog
from table.observations import Observation
from table.session import Session
from web.app import create_app
from web.server import DashboardServer
session = Session(EventLog(sys.argv[2] + "/passetable.sqlite3"))
session.start_game(sys.argv[3])
server = DashboardServer(create_app(session), port=int(sys.argv[1]))
server.start()
offsets = [0] * 6
i = 0
while True:
    time.sleep(2)
    slide = 1 + i % 6
    offsets[slide - 1] ^= 1
    session.submit(Observation.now("slide", source="bench", slide=slide, offset=offsets[slide - 1]))
    i += 1
"""


def measure(tree: Path, pages: int = 64, pollers: int = 20, seconds: float = 30.0, mode: str = "run") -> dict:
    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        if mode == "app":
            cmd = [sys.executable, "-c", APP_ONLY, str(port), data, "passe-murailles"]
        else:
            cmd = [sys.executable, "-m", "table.cli", "run", "--sim", "--port", str(port), "--data", data]
        proc = subprocess.Popen(cmd, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                env={**os.environ, "PYTHONPATH": str(tree)})
        try:
            for _ in range(200):
                try:
                    if _get(port, "/healthz", timeout=1)[0] in (200, 503):
                        break
                except OSError:
                    time.sleep(0.1)
            time.sleep(3)
            idle = _status(proc.pid)["VmRSS"]
            stop = threading.Event()
            opened: list = []
            streams = [threading.Thread(target=_stream, args=(port, stop, opened), daemon=True) for _ in range(pages)]
            for t in streams:
                t.start()
            time.sleep(5)
            with_pages = _status(proc.pid)
            counts: list = []
            polling = threading.Event()
            polls = [threading.Thread(target=_poll, args=(port, polling, counts), daemon=True) for _ in range(pollers)]
            for t in polls:
                t.start()
            samples = []
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                samples.append(_status(proc.pid)["VmRSS"])
                time.sleep(0.25)
            stop_polls = _status(proc.pid)
            polling.set()  # the pollers stop; the pages stay open
            for t in polls:
                t.join(timeout=15)
            # a closed page: how long until its slot takes a new page (the 65th gets 503 until then)
            free_s = None
            ok = [c for c, st in opened if st == 200]
            if len(ok) >= pages:
                assert _get(port, "/api/stream", timeout=5)[0] == 503
                ok[0].shutdown(socket.SHUT_RDWR)  # the page is closed (its reader thread still waits)
                t0 = time.monotonic()
                while time.monotonic() - t0 < 60:
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    c.request("GET", "/api/stream")
                    status = c.getresponse().status
                    c.close()
                    if status == 200:
                        free_s = round(time.monotonic() - t0, 2)
                        break
                    time.sleep(0.1)
            stop.set()
            return {"tree": str(tree), "mode": mode, "idle_rss_mb": round(idle / 1024, 1),
                    "pages_open": sum(1 for _, st in opened if st == 200),
                    "rss_with_pages_mb": round(with_pages["VmRSS"] / 1024, 1), "threads": with_pages["Threads"],
                    "rss_polling_median_mb": round(statistics.median(samples) / 1024, 1),
                    "rss_polling_max_mb": round(max(samples) / 1024, 1),
                    "vm_hwm_mb": round(stop_polls["VmHWM"] / 1024, 1),
                    "polls": sum(counts), "polls_per_s": round(sum(counts) / seconds),
                    "closed_page_slot_freed_s": free_s}
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tree", default=str(ROOT))
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--mode", choices=["run", "app"], default="run",
                        help="run: passetable run --sim; app: the web service alone (no simulated table)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from table.bench import machine

    report = measure(Path(args.tree), seconds=args.seconds, mode=args.mode)
    report["machine"] = machine()
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
