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



def machine(cpuinfo: str = "/proc/cpuinfo") -> str:
    """The machine a figure was measured on, in one line: the CPU's name as Linux gives it (a PC's "model name",
    a Raspberry Pi's board "Model"; the same code ran 2-3 times slower on one 2-core VM here than on another),
    the cores, Python and the system."""
    return f"{_cpu(cpuinfo)}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def _cpu(cpuinfo: str) -> str:
    try:
        for line in Path(cpuinfo).read_text(errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Model") and value.strip():
                return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


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


# --------------------------------------------------------------------------- soak
SOAK_FACT_EVERY_S = 2.0   # virtual seconds between two sensor facts (one table)
SOAK_SAMPLE_EVERY_S = 900.0


def _soak_facts(game: Any) -> tuple[Any, list[Any]]:
    """One random legal move of a Passe-Murailles game and what the frame's sensors
    report for it (a drop, a slide, the board), as the simulated table would."""
    from table.observations import Observation
    from table.passe_murailles import DropPeg, MoveSlide

    action = random.choice(game.legal_actions())
    if isinstance(action, DropPeg):
        return action, [Observation.now("peg_drop", source="soak", column=action.column)]
    if isinstance(action, MoveSlide):
        return action, [Observation.now("slide", source="soak", slide=action.slide,
                                        offset=game.frame.offset(action.slide) + action.step)]
    return action, [Observation.now("board", source="soak", position=game.frame.board_position + action.step)]


def _proc_status() -> dict[str, int]:
    out = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "Threads"):
            out[key] = int(value.split()[0])
    return out


def _sqlite_memory_mb() -> float | None:
    """What SQLite holds in this process (page caches, mostly), from the library itself;
    None when Python's sqlite3 is not the shared libsqlite3."""
    import ctypes

    try:
        lib = ctypes.CDLL("libsqlite3.so.0")
    except OSError:
        return None
    lib.sqlite3_memory_used.restype = ctypes.c_int64
    return round(lib.sqlite3_memory_used() / 2**20, 3)


def _slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of (x, y) points, None with fewer than 3."""
    if len(points) < 3:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in points) / den if den else None


def run_soak(hours: float, *, as_json: bool = False, quick: bool = False, seed: int = 1) -> int:
    """Simulated games back to back for ``hours`` of virtual time (a sensor fact every
    2 virtual seconds, as fast as the log takes them), the whole service in this process
    (session, real waitress server, a live page and a polling client, the log keeper),
    restarted at random moments; RSS, open files, threads, log size and start-up time
    are sampled every virtual 15 minutes and their slopes reported."""
    import gc
    import threading
    import urllib.request

    from table.backup import Keeper
    from table.log import EventLog
    from table.session import Session
    from web.app import create_app
    from web.server import DashboardServer

    rng = random.Random(seed)
    random.seed(seed)
    game_id = "passe-murailles"
    samples: list[dict[str, Any]] = []
    restarts: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "passetable.sqlite3"
        clock = {"t": 1.8e9}

        def vclock() -> float:
            return clock["t"]

        def up() -> tuple[Session, DashboardServer, Keeper]:
            t0 = time.perf_counter()
            session = Session(EventLog(path), clock=vclock)
            restarts.append(time.perf_counter() - t0)
            keeper = Keeper(session, checkpoint_every=1e9, mark_every=1e9, daily=True)
            server = DashboardServer(create_app(session), port=0, keeper=keeper)
            server.start()
            return session, server, keeper

        def reader(url: str, stop: threading.Event) -> None:
            try:
                with urllib.request.urlopen(url + "api/stream", timeout=30) as resp:
                    while not stop.is_set() and resp.readline():
                        pass
            except OSError:
                pass

        session, server, keeper = up()
        stop = threading.Event()
        page = threading.Thread(target=reader, args=(server.url, stop), daemon=True)
        page.start()
        start_t, end_t = clock["t"], clock["t"] + hours * 3600
        next_sample, next_checkpoint = start_t, start_t + 300
        next_restart = start_t + rng.uniform(0.5, 3.0) * 3600
        facts = 0
        wall0 = time.perf_counter()
        engine = None  # the players' own copy of the game (the session's copy is asked for now and then)
        while clock["t"] < end_t:
            if engine is None or facts % 100 == 0:
                record = session.current_game()
                engine = record.engine if record is not None else None
            if engine is None or engine.is_over() or len(engine.history) > 400:
                session.start_game(game_id, t=clock["t"])
                engine = session.current_game().engine
            action, observed = _soak_facts(engine)
            for obs in observed:
                session.submit(obs.__class__(kind=obs.kind, t=clock["t"], source=obs.source, data=obs.data))
                facts += 1
            engine.apply(action)
            clock["t"] += SOAK_FACT_EVERY_S
            if clock["t"] >= next_checkpoint:
                session.log.checkpoint()
                next_checkpoint += 300
            if facts % 50 == 0:  # a polling client
                urllib.request.urlopen(server.url + "api/state", timeout=10).read()
            if clock["t"] >= next_restart:  # the service restarts at a random moment
                stop.set()
                server.stop()
                session.log.close()
                page.join(timeout=5)
                session, server, keeper = up()
                stop = threading.Event()
                page = threading.Thread(target=reader, args=(server.url, stop), daemon=True)
                page.start()
                next_restart = clock["t"] + rng.uniform(0.5, 3.0) * 3600
            if clock["t"] >= next_sample:
                keeper.daily_chores(clock["t"])
                gc.collect()
                status = _proc_status()
                files = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
                samples.append({"virtual_h": round((clock["t"] - start_t) / 3600, 2), "rss_mb": status["VmRSS"] / 1024,
                                "threads": status["Threads"], "open_files": len(os.listdir("/proc/self/fd")),
                                "log_mb": round(files / 2**20, 2), "facts": facts, "sqlite_mb": _sqlite_memory_mb(),
                                "last_startup_ms": round(restarts[-1] * 1000, 1), "restarts": len(restarts) - 1})
                print(json.dumps(samples[-1]), file=sys.stderr if as_json else sys.stdout, flush=True)
                next_sample += SOAK_SAMPLE_EVERY_S
        stop.set()
        server.stop()
        session.log.close()
    warm = [s for s in samples if s["virtual_h"] >= 1.0] or samples
    report = {
        "machine": machine(), "virtual_hours": hours, "wall_s": round(time.perf_counter() - wall0, 1),
        "facts": facts, "restarts": len(restarts) - 1,
        "startup_ms_median": round(statistics.median(restarts) * 1000, 1),
        "startup_ms_max": round(max(restarts) * 1000, 1),
        "rss_mb_first_last": [round(warm[0]["rss_mb"], 1), round(warm[-1]["rss_mb"], 1)] if warm else None,
        "rss_slope_mb_per_h": _round(_slope([(s["virtual_h"], s["rss_mb"]) for s in warm])),
        "sqlite_mb_first_last": [warm[0]["sqlite_mb"], warm[-1]["sqlite_mb"]] if warm else None,
        "rss_without_sqlite_slope_mb_per_h": _round(_slope([(s["virtual_h"], s["rss_mb"] - (s["sqlite_mb"] or 0))
                                                            for s in warm])),
        "threads_slope_per_h": _round(_slope([(s["virtual_h"], s["threads"]) for s in warm])),
        "open_files_slope_per_h": _round(_slope([(s["virtual_h"], s["open_files"]) for s in warm])),
        "log_mb_per_h": _round(_slope([(s["virtual_h"], s["log_mb"]) for s in warm])),
        "samples": samples if as_json else len(samples),
    }
    print(json.dumps(report, indent=1))
    return 0


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


if __name__ == "__main__":
    sys.exit(run_benchmarks(quick="--quick" in sys.argv, as_json="--json" in sys.argv))
