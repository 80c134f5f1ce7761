"""The soak benchmark's quick mode, run as the owner runs it: the service restarted as a
new process (SIGKILL and SIGTERM) over one growing log. Its figures are not asserted
(speed and memory belong to benchmarks); what it reports and checks is."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_quick_soak_restarts_processes_and_loses_nothing_acknowledged():
    run = subprocess.run([sys.executable, "-m", "table.cli", "bench", "--soak", "0.25", "--quick", "--json"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads(run.stdout)
    lives = report["lives"]
    # restarts of both kinds, each a new process with its own pid
    assert report["restarts"] >= 2 and report["killed_9"] >= 1 and report["terminated"] >= 1
    assert [life["exit"] for life in lives if life["stopped_by"] == "SIGKILL"] == [-9] * report["killed_9"]
    assert all(life["exit"] == 0 for life in lives if life["stopped_by"] == "SIGTERM")
    # samples over the lives, one of each at the same phase, and a fitted slope
    assert {s["life"] for s in report["samples"]} >= {0, 1}
    assert report["phase_samples"] >= 3 and isinstance(report["rss_slope_mb_per_h"], float)
    assert all(s["rss_mb"] > 0 and s["threads"] > 0 and s["open_files"] > 0 for s in report["samples"])
    # the log grew across the restarts: every life acknowledged more than the one before
    acked = [life["acked"] for life in lives]
    assert acked == sorted(acked) and acked[0] > 0 and acked[-1] > acked[0]
    # after every restart: nothing acknowledged missing, the state shown = a full replay
    assert report["replay_checks"] == report["restarts"]
    assert report["lost"] == [] and report["replay_mismatches"] == []
    # the facts came through the frame's transports, never straight into the session
    sources = report["sources"]
    assert sources["serial"] > 0 and sources["gpio"] > 0
    assert set(sources) <= {"serial", "gpio", "sim-table", "timer", "dashboard"}
