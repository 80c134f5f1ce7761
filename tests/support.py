"""Helpers shared by tests: waiting on background threads (serial bridge, simavr), and the
service started as a person starts it (browser tests, the attack script)."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from pathlib import Path


def wait_until(predicate, timeout: float = 5.0) -> bool:
    """Liveness, not speed: give the threads up to ``timeout`` to get there."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()


class Recorder:
    """An ``on_observation`` callback that keeps what it was given, thread-safely."""

    def __init__(self):
        self.items = []
        self.lock = threading.Lock()

    def __call__(self, obs):
        with self.lock:
            self.items.append(obs)

    def data(self):
        with self.lock:
            return [(o.kind, dict(o.data)) for o in self.items]

    def moves(self):
        return [(k, d.get("slide"), d.get("offset", d.get("position"))) for k, d in self.data()]


class RunningService:
    """``passetable run`` in a child process, as a person starts it."""

    def __init__(self, args: list[str], data_dir: Path):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "table.cli", "run", "--port", "0", "--data", str(data_dir), *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        first = self.proc.stdout.readline()
        match = re.search(r"(http://\S+/)", first)
        if not match:
            self.stop()
            raise RuntimeError(f"service did not print its address: {first!r} {self.proc.stderr.read()}")
        self.first_line = first
        self.url = match.group(1)

    def stop(self) -> None:
        stop_process(self.proc)


def stop_process(proc: subprocess.Popen) -> None:
    """SIGTERM, as a person's Ctrl-C or systemd would; SIGKILL if it has not gone in 10 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
