"""Helpers shared by tests that wait on background threads (serial bridge, simavr)."""

from __future__ import annotations

import threading
import time


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
