"""``passetable bench --soak HOURS``: the service restarted as a real restart does.

The parent (:func:`run`) starts the service as a child process over one data folder (a
fresh temporary one: the soak never writes into a real table's log), keeps a live page
(Server-Sent Events) and a polling client on it, and stops it at random moments of its
virtual time, half of the times with ``SIGKILL`` (a power cut), half with ``SIGTERM``
(``systemctl restart``), then starts a new process over the same, growing folder. It
samples the child's RSS, threads and open files from ``/proc/<pid>``, the log's size and
each start-up, and after every restart checks that nothing acknowledged was lost and
that the restarted service shows what a full replay of the log shows.

The child (:func:`serve`, ``python -m table.soak serve``) is the service on the simulated
frame in virtual time: the log, the session, waitress with the log's keeper, and two
simulated players playing games back to back on every sensor of the frame through the
transports ``run --sim`` uses on virtual time (the sensor board's protocol read by the
bridge's logic, source ``serial``; beams and side beams as pulses on gpiozero
MockFactory pins, source ``gpio``), a move every 2 virtual seconds. ``run --sim`` itself
runs on the wall clock (about 11 facts a second at ``--pace 0``, with alerts a human
pace never raises), which would take over an hour for 24 hours of facts.
"""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

PACE_S = 2.0             # virtual seconds between two moves: a human pace
NEXT_GAME_S = 20.0       # virtual seconds between a game's end and the next one
DOWNTIME_S = 5.0         # virtual seconds a restart takes
CHECKPOINT_EVERY_S = 300.0
T0 = 1.8e9               # the first child's virtual clock (2027)
MEMORY_KEYS = ("sqlite_mb", "heap_used_mb", "heap_free_mb", "py_blocks")


# --------------------------------------------------------------------------- child
def serve(data: Path, seed: int) -> int:
    """The service on the simulated frame in virtual time until SIGTERM; one JSON line
    on stdout when ready (then it waits for ``go`` on stdin), one after every move
    (``seq``: everything up to it is acknowledged)."""

    from hardware.gpio import attach_gpio
    from hardware.gpio.mock_pins import simulated_pins
    from hardware.gpio.sim_pins import GpioSensors
    from hardware.sim_table import GAME, SimulatedTable
    from table.backup import Keeper
    from table.log import EventLog
    from table.session import Session
    from table.stopping import StopFlag
    from table.timers import ManualClock
    from web.app import create_app
    from web.server import DashboardServer

    started = time.perf_counter()
    log = EventLog(data / "passetable.sqlite3")
    last_t = log.execute("SELECT max(t) FROM observations")[0][0]
    clock = ManualClock((last_t or T0) + DOWNTIME_S)
    session = Session(log, clock=clock)
    startup_ms = (time.perf_counter() - started) * 1000
    # chores on virtual time below, not on the wall clock
    keeper = Keeper(session, checkpoint_every=1e12, mark_every=1e12, daily=False)
    server = DashboardServer(create_app(session), port=0, keeper=keeper)
    server.start()
    factory = simulated_pins()  # pins that forget old edges, as run --sim's do
    gpio = attach_gpio(session, {}, pin_factory=factory, clock=clock, columns=7)
    gpio.start()
    sensors = GpioSensors(session, factory, gpio.pins, clock, seed=seed)
    table = SimulatedTable(session, sensors, pace=PACE_S, seed=seed, clock=clock, restart_after=NEXT_GAME_S)
    clock.sleep(0.3)  # the top holes are blind for 200 ms after the board boots
    stopping = StopFlag()
    stopping.on_signals(signal.SIGTERM)
    _say(ready=server.url, pid=os.getpid(), startup_ms=round(startup_ms, 2), last_seq=log.last_seq(), t=clock())
    if sys.stdin.readline().strip() != "go":
        stopping.set()
    cleared: dict[str, int] = {}  # alert kind -> games restarted over it
    table._resume_or_start()
    next_chores = clock() + CHECKPOINT_EVERY_S
    moves = 0
    while not stopping.is_set():
        alerts = session.snapshot()["alerts"] if moves % 10 == 0 else []
        if alerts:
            # e.g. a move cut in half by a power cut: the staff press "new game" rather
            # than answer the alert (the soak has no one to look at the frame)
            for alert in alerts:
                cleared[alert["kind"]] = cleared.get(alert["kind"], 0) + 1
            session.start_game(GAME, table._options(), source="dashboard")
            table._reset_frame()
        if table.mind.is_over():
            table.wait(NEXT_GAME_S)
            session.start_game(GAME, table._options(), source="sim-table")
            table._reset_frame()
        table.wait(PACE_S)
        table.play_one()
        moves += 1
        if clock() >= next_chores:
            log.checkpoint()
            keeper.daily_chores(clock())
            next_chores += CHECKPOINT_EVERY_S
        _say(t=clock(), seq=log.last_seq(), cleared=cleared, **memory())
    gpio.stop()
    server.stop()  # the keeper checkpoints and marks the log on the way out
    log.close()
    _say(stopped=True)
    return 0


def memory() -> dict[str, float]:
    """Where this process' memory is, in MB: SQLite's own (page caches), glibc's heap in
    use and free but kept (all arenas, ``mallinfo2``), and Python's allocated blocks."""
    import ctypes

    out: dict[str, float] = {"py_blocks": sys.getallocatedblocks()}
    try:
        sqlite = ctypes.CDLL("libsqlite3.so.0")
        sqlite.sqlite3_memory_used.restype = ctypes.c_int64
        out["sqlite_mb"] = round(sqlite.sqlite3_memory_used() / 2**20, 3)
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _MallInfo2
        info = libc.mallinfo2()
        out["heap_used_mb"] = round((info.uordblks + info.hblkhd) / 2**20, 3)
        out["heap_free_mb"] = round(info.fordblks / 2**20, 3)
    except (OSError, AttributeError):  # not glibc, or a sqlite3 built in
        pass
    return out


def _mallinfo2() -> type:
    import ctypes

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]

    return MallInfo2


_MallInfo2 = _mallinfo2()


def _say(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


# --------------------------------------------------------------------------- parent
class Child:
    """One service process: started, watched through /proc, stopped by a signal."""

    def __init__(self, data: Path, seed: int):
        t0 = time.perf_counter()
        self.proc = subprocess.Popen([sys.executable, "-m", "table.soak", "serve", str(data), str(seed)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
                                     cwd=Path(__file__).resolve().parents[1])
        self.ready = json.loads(self._line() or "{}")
        if "ready" not in self.ready:
            self.proc.kill()
            raise RuntimeError(f"the soak's service did not start (exit {self.proc.wait()})")
        self.process_startup_ms = (time.perf_counter() - t0) * 1000
        self.url: str = self.ready["ready"]
        self.born_t: float = self.ready["t"]
        self.acked: int = self.ready["last_seq"]
        self.cleared: dict[str, int] = {}
        self.memory: dict[str, float] = {}  # the child's own view of its memory (see memory())
        self.t: float = self.born_t
        self._page_stop = threading.Event()

    def _line(self) -> str | None:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline() or None

    def go(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        threading.Thread(target=self._live_page, daemon=True).start()

    def _live_page(self) -> None:
        try:
            with urllib.request.urlopen(self.url + "api/stream", timeout=60) as resp:
                while not self._page_stop.is_set() and resp.readline():
                    pass
        except OSError:
            pass

    def progress(self) -> dict[str, Any] | None:
        """The child's next line (None once it has exited)."""
        line = self._line()
        if line is None:
            return None
        fields = json.loads(line)
        self.t = fields.get("t", self.t)
        self.acked = max(self.acked, fields.get("seq", 0))
        self.cleared = fields.get("cleared", self.cleared)
        self.memory = {k: fields[k] for k in MEMORY_KEYS if k in fields} or self.memory
        return fields

    def stop(self, sig: int) -> int:
        """Signal it, then read what it said until it is gone: every ``seq`` it printed
        was acknowledged before it died."""
        self.proc.send_signal(sig)
        while self.progress() is not None:
            pass
        self._page_stop.set()
        return self.proc.wait(timeout=60)

    def status(self) -> dict[str, int]:
        out = {}
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "Threads"):
                out[key] = int(value.split()[0])
        out["fds"] = len(os.listdir(f"/proc/{self.proc.pid}/fd"))
        return out


def same_as_replay(url: str, data: Path) -> list[str]:
    """Where the state the restarted service shows differs from a full replay of its log
    (no snapshot used); ``[]`` when they agree."""
    from table.log import EventLog
    from table.logtools import _comparable
    from table.session import Session

    with urllib.request.urlopen(url + "api/state", timeout=10) as resp:
        shown = _comparable(json.loads(resp.read()))
    log = EventLog(data / "passetable.sqlite3", quick_check=False)
    try:
        replayed = _comparable(json.loads(json.dumps(Session(log, snapshots=False).snapshot(), default=str)))
    finally:
        log.close()
    # the session's own keys (the web adds what belongs to the process: open streams)
    return [key for key in sorted(replayed) if shown.get(key) != replayed[key]]


def slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of (x, y) points, None with fewer than 3.

    >>> slope([(0, 1.0), (1, 3.0), (2, 5.0)])
    2.0
    """
    if len(points) < 3:
        return None
    mx, my = statistics.fmean(p[0] for p in points), statistics.fmean(p[1] for p in points)
    den = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / den if den else None


def _mb(folder: Path, pattern: str) -> float:
    return round(sum(p.stat().st_size for p in folder.glob(pattern) if p.is_file()) / 2**20, 3)


def run(hours: float, *, as_json: bool = False, quick: bool = False, seed: int = 1,
        lifespan_h: tuple[float, float] | None = None) -> int:
    """The soak (see the module docstring); prints a sample line as it goes, then the
    figures (``--json``: one JSON document on stdout, the lines on stderr).
    ``lifespan_h``: the range a process' life is drawn from (virtual hours)."""
    from table.bench import machine

    rng = random.Random(seed)
    sample_every = 120.0 if quick else 900.0               # virtual seconds
    lifespan = lifespan_h or ((0.03, 0.1) if quick else (0.5, 3.0))
    phase_h = 0.02 if quick else 0.25                      # the same moment of each life
    out = sys.stderr if as_json else sys.stdout
    samples: list[dict[str, Any]] = []
    lives: list[dict[str, Any]] = []
    lost: list[str] = []
    mismatches: list[str] = []
    wall0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="passetable-soak-") as tmp:
        data = Path(tmp)
        kills = _kill_order(rng)
        child = Child(data, seed)
        first_t = next_sample = child.born_t
        end_t = first_t + hours * 3600
        while True:
            if lives and child.ready["last_seq"] < lives[-1]["acked"]:
                lost.append(f"restart {len(lives)}: acknowledged up to {lives[-1]['acked']}, "
                            f"log holds {child.ready['last_seq']}")
            if lives:
                mismatches += [f"restart {len(lives)}: {k}" for k in same_as_replay(child.url, data)]
            stop_at, how = min(child.born_t + rng.uniform(*lifespan) * 3600, end_t), next(kills)
            life = {"n": len(lives), "born_h": round((child.born_t - first_t) / 3600, 3),
                    "process_startup_ms": round(child.process_startup_ms, 1),
                    "session_startup_ms": child.ready["startup_ms"], "stopped_by": None}
            child.go()
            polls = 0
            while child.progress() is not None and child.t < stop_at:
                polls += 1
                if polls % 50 == 0:  # a phone polling the state
                    urllib.request.urlopen(child.url + "api/state", timeout=10).read()
                if child.t >= next_sample:
                    samples.append(_sample(child, data, first_t, len(lives), phase_h))
                    print(json.dumps(samples[-1]) if as_json else _row(samples[-1], header=len(samples) == 1),
                          file=out, flush=True)
                    next_sample += sample_every
            last = child.t >= end_t
            if last:
                how = "SIGTERM"
            else:
                time.sleep(rng.uniform(0, 0.03))  # lands inside a move, a transaction, a request...
            code = child.stop(signal.SIGKILL if how == "SIGKILL" else signal.SIGTERM)
            life.update(stopped_by=how, exit=code, acked=child.acked, alerts_cleared=child.cleared,
                        died_h=round((child.t - first_t) / 3600, 3))
            lives.append(life)
            if last:
                break
            child = Child(data, seed + len(lives))
        sources = _sources(data)
        log_files = _mb(data, "passetable.sqlite3*")
        backups = _mb(data / "backups", "*") if (data / "backups").exists() else 0.0
    report = _report(samples, lives, hours=hours, wall_s=time.perf_counter() - wall0, phase_h=phase_h)
    report.update(machine=machine(), replay_checks=len(lives) - 1, lost=lost, replay_mismatches=mismatches,
                  log_mb_end=log_files, backups_mb_end=backups, sources=sources)
    if as_json:
        report["samples"], report["lives"] = samples, lives
        print(json.dumps(report, indent=1))
    else:
        _print_table(report, lives)
    return 0 if not lost and not mismatches else 1


def _sources(data: Path) -> dict[str, int]:
    """How many rows of the log each source wrote (the soak's facts come from the
    frame's sensors, the simulated players' game starts and people)."""
    from table.log import EventLog

    log = EventLog(data / "passetable.sqlite3", quick_check=False)
    try:
        return dict(log.execute("SELECT source, count(*) FROM observations GROUP BY source ORDER BY source"))
    finally:
        log.close()


def _kill_order(rng: random.Random):
    """SIGKILL and SIGTERM in random order, each one in every pair."""
    while True:
        pair = ["SIGKILL", "SIGTERM"]
        rng.shuffle(pair)
        yield from pair


def _sample(child: Child, data: Path, first_t: float, life: int, phase_h: float) -> dict[str, Any]:
    status = child.status()
    return {"virtual_h": round((child.t - first_t) / 3600, 3), "life": life,
            "age_h": round((child.t - child.born_t) / 3600, 3), "rss_mb": round(status["VmRSS"] / 1024, 2),
            "threads": status["Threads"], "open_files": status["fds"], "log_mb": _mb(data, "passetable.sqlite3*"),
            "facts": child.acked, **child.memory}


def _report(samples: list[dict[str, Any]], lives: list[dict[str, Any]], *, hours: float, wall_s: float,
            phase_h: float) -> dict[str, Any]:
    # one sample per process, the first at least ``phase_h`` into its life: the same phase
    phased: dict[int, dict[str, Any]] = {}
    for s in samples:
        if s["age_h"] >= phase_h and s["life"] not in phased:
            phased[s["life"]] = s
    at_phase = list(phased.values())
    within = {key: _within(samples, key, phase_h) for key in ("rss_mb", *MEMORY_KEYS)}
    ups = lives[1:]  # the restarts (the first start has an empty log)
    return {
        "virtual_hours": hours, "wall_s": round(wall_s, 1), "facts": samples[-1]["facts"] if samples else 0,
        "processes": len(lives), "restarts": len(lives) - 1,
        "killed_9": sum(1 for life in lives if life["stopped_by"] == "SIGKILL"),
        "terminated": sum(1 for life in lives[:-1] if life["stopped_by"] == "SIGTERM"),
        "samples": len(samples), "phase_h": phase_h, "phase_samples": len(at_phase),
        "rss_mb_at_phase_first_last": [at_phase[0]["rss_mb"], at_phase[-1]["rss_mb"]] if at_phase else None,
        "rss_slope_mb_per_h": _round(slope([(s["virtual_h"], s["rss_mb"]) for s in at_phase])),
        "rss_slope_within_process_mb_per_h_median": within["rss_mb"],
        # the same inside each process, by where the memory is (see memory())
        "within_process_per_h_median": {key: within[key] for key in MEMORY_KEYS},
        "threads_min_max": _span(samples, "threads"), "open_files_min_max": _span(samples, "open_files"),
        "log_mb_per_h": _round(slope([(s["virtual_h"], s["log_mb"]) for s in samples])),
        "process_startup_ms_median": _median(ups, "process_startup_ms"),
        "session_startup_ms_median": _median(ups, "session_startup_ms"),
        "session_startup_ms_per_h": _round(slope([(life["born_h"], life["session_startup_ms"]) for life in ups])),
    }


def _within(samples: list[dict[str, Any]], key: str, phase_h: float) -> float | None:
    """Median over the processes of ``key``'s slope inside each one (from ``phase_h`` on)."""
    per_life: dict[int, list[tuple[float, float]]] = {}
    for s in samples:
        if s["age_h"] >= phase_h and key in s:
            per_life.setdefault(s["life"], []).append((s["virtual_h"], s[key]))
    slopes = [x for points in per_life.values() if (x := slope(points)) is not None]
    return _round(statistics.median(slopes)) if slopes else None


def _span(samples: list[dict[str, Any]], key: str) -> list[int] | None:
    return [min(s[key] for s in samples), max(s[key] for s in samples)] if samples else None


def _median(lives: list[dict[str, Any]], key: str) -> float | None:
    return round(statistics.median(life[key] for life in lives), 1) if lives else None


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


SAMPLE_COLUMNS = (("virtual_h", "virtual h", 9), ("life", "life", 4), ("age_h", "age h", 6), ("rss_mb", "RSS MB", 7),
                  ("threads", "threads", 7), ("open_files", "files", 5), ("log_mb", "log MB", 7), ("facts", "facts", 7),
                  ("sqlite_mb", "sqlite MB", 9), ("heap_used_mb", "heap MB", 7), ("heap_free_mb", "free MB", 7))


def _row(sample: dict[str, Any], *, header: bool = False) -> str:
    """One sample as a line of the table (with the table's header above the first)."""
    line = " ".join(f"{sample.get(key, '-')!s:>{width}}" for key, _, width in SAMPLE_COLUMNS)
    if not header:
        return line
    return " ".join(f"{title:>{width}}" for _, title, width in SAMPLE_COLUMNS) + "\n" + line


def _print_table(report: dict[str, Any], lives: list[dict[str, Any]]) -> None:
    print(f"{'life':>4} {'born h':>7} {'died h':>7} {'stopped by':>10} {'exit':>5} {'start ms':>9} "
          f"{'session ms':>10} {'acked seq':>9}")
    for life in lives:
        print(f"{life['n']:>4} {life['born_h']:>7} {life['died_h']:>7} {life['stopped_by']:>10} {life['exit']:>5} "
              f"{life['process_startup_ms']:>9} {life['session_startup_ms']:>10} {life['acked']:>9}")
    for key, value in report.items():
        print(f"{key:42s} {value}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        sys.exit(serve(Path(sys.argv[2]), int(sys.argv[3])))
    sys.exit(run(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0, quick="--quick" in sys.argv,
                 as_json="--json" in sys.argv))
