"""``passetable bench``: engine speed and the sensor-to-browser latency, measured.

Figures are medians over repeated runs, printed with the machine they ran on. Nothing
here is asserted by the test suite: speed belongs to benchmarks, not to tests.
"""

from __future__ import annotations

import importlib
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from table import games as registry

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync", "--disable-quic"]



def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def bench_engine(name: str, *, seconds: float) -> dict[str, Any] | None:
    spec = registry.get(name)
    if spec.playout is None:
        return None
    playout, kwargs = spec.load("playout"), spec.playout_options
    # the game's package: its Game class is what every playout applies actions through
    module = importlib.import_module(spec.playout.partition(":")[0].rpartition(".")[0])
    rng = random.Random(1)
    games, durations = 0, []
    # Count actions by wrapping Game.apply: every engine's playout goes through it.
    counter = {"n": 0}
    original = module.Game.apply

    def counting_apply(self, action, _original=original):
        counter["n"] += 1
        return _original(self, action)

    module.Game.apply = counting_apply
    try:
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline or games < 5:
            t0 = time.perf_counter()
            playout(rng, **kwargs)
            durations.append(time.perf_counter() - t0)
            games += 1
    finally:
        module.Game.apply = original
    actions = counter["n"]
    total = sum(durations)
    return {
        "games": games,
        "games_per_s": round(games / total, 1),
        "actions_per_s": round(actions / total) if actions else None,
        "median_game_ms": round(statistics.median(durations) * 1000, 3),
        "mean_actions_per_game": round(actions / games, 1) if actions else None,
    }


def bench_latency(samples: int) -> dict[str, Any] | None:
    """Time from a sensor observation entering the session to the page having drawn it,
    through the real server (waitress), Server-Sent Events and Debian's chromium."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if not Path(CHROMIUM).exists():
        return None
    from table.log import EventLog
    from table.observations import Observation
    from table.session import Session
    from web.app import create_app
    from web.server import DashboardServer

    with tempfile.TemporaryDirectory() as tmp:
        session = Session(EventLog(Path(tmp) / "bench.sqlite3"))
        session.new_game("passe-murailles")
        server = DashboardServer(create_app(session), port=0)
        server.start()
        sent: dict[int, float] = {}
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(bypass_csp=True)  # wait_for_function evaluates strings
                page.goto(server.url)
                page.wait_for_function("window.__renders && window.__renders.length > 0")
                offsets = [0] * 6
                for i in range(samples):
                    # slides 1..6 in turn, each toggling between 0 and +1: always a legal move
                    slide = 1 + i % 6
                    offsets[slide - 1] ^= 1
                    t = time.time()
                    session.submit(Observation.now("slide", source="bench", slide=slide, offset=offsets[slide - 1]))
                    sent[session.version] = t
                    page.wait_for_function(f"Number(document.body.dataset.version) >= {session.version}")
                renders = page.evaluate("window.__renders")
                browser.close()
        finally:
            server.stop()
    seen = {v: ms / 1000.0 for v, ms in renders}
    lat = sorted((seen[v] - t) * 1000 for v, t in sent.items() if v in seen)
    if not lat:
        return None
    return {"samples": len(lat), "median_ms": round(statistics.median(lat), 2),
            "p99_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))], 2), "max_ms": round(lat[-1], 2)}


def run_benchmarks(*, quick: bool = False, as_json: bool = False) -> int:
    seconds = 0.5 if quick else 3.0
    report: dict[str, Any] = {"machine": machine(), "engines": {}}
    for name in registry.games():
        figures = bench_engine(name, seconds=seconds)
        if figures is not None:
            report["engines"][name] = figures
            if not as_json:
                print(f"{name:16s} {figures}", flush=True)
    report["sensor_to_page"] = bench_latency(40 if quick else 300)
    if as_json:
        print(json.dumps(report, indent=1))
    else:
        print(f"sensor → page    {report['sensor_to_page']}")
        print(f"machine          {report['machine']}")
    return 0


if __name__ == "__main__":
    sys.exit(run_benchmarks(quick="--quick" in sys.argv, as_json="--json" in sys.argv))
