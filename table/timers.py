"""Clocks and the deadline timer: how "nothing happened in time" becomes a logged fact.

Adapters never read the wall clock (replay must give the same state). An adapter that
waits for something ("a beam within 500 ms") exposes ``next_deadline()``; a
:class:`DeadlineTimer`, started by whoever owns the session, submits a ``tick``
observation once the clock has passed that deadline. The tick is logged like any fact,
so a replay sees the timeout at the same place.

    >>> clock = ManualClock(1000.0)
    >>> timer = DeadlineTimer(session, clock)
    >>> _ = session.start_game("passe-murailles", t=clock())
    >>> _ = session.submit(Observation("beam", t=clock(), source="gpio", data={"column": 4}))
    >>> session.next_deadline()           # the beam waits 500 ms for a landing to explain it
    1000.5
    >>> timer.check()                     # not yet
    False
    >>> clock.sleep(0.6); timer.check()   # a tick is submitted: the deadline has passed
    True
    >>> [a["kind"] for a in session.snapshot()["alerts"]], session.next_deadline()
    (['unexpected_beam'], None)

:class:`ManualClock` is virtual time for tests and the bench: ``sleep`` advances it at
once and runs the ``on_advance`` hooks (a timer's ``check``), so nothing really waits.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from table.errors import Refused
from table.observations import Observation

log = logging.getLogger(__name__)

TICK = "tick"  # data: {} — "the clock passed a deadline"; only its ``t`` matters


class RealClock:
    """Wall-clock time; ``sleep`` really waits.

        >>> clock = RealClock()
        >>> t0 = clock(); clock.sleep(0.01)
        >>> clock() >= t0 + 0.01
        True
    """

    virtual = False

    def __call__(self) -> float:
        return time.time()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class ManualClock:
    """Virtual time: ``sleep``/``advance`` move it forward at once, then call the hooks.

        >>> clock = ManualClock(0.0)
        >>> clock.sleep(1.5)
        >>> clock()
        1.5
    """

    virtual = True

    def __init__(self, start: float = 1_700_000_000.0):
        self._now = float(start)
        self._lock = threading.Lock()
        self.on_advance: list[Callable[[], None]] = []

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError(f"time does not go backwards (advance by {seconds})")
        with self._lock:
            self._now += seconds
        for hook in list(self.on_advance):
            hook()

    sleep = advance


class DeadlineTimer:
    """Submits a ``tick`` when the session's adapter has a deadline the clock has passed.

    ``check()`` does one look (virtual time calls it from ``ManualClock.on_advance``);
    ``start()`` runs it every ``poll`` seconds in a thread for real time.

        >>> timer = DeadlineTimer(session, RealClock(), poll=0.05)
        >>> timer.start(); timer._thread.name
        'deadline-timer'
        >>> timer.stop(); timer._thread is None
        True
        >>> timer.ticks     # no game was running: no deadline, no tick
        0
    """

    def __init__(self, session: Any, clock: Callable[[], float], *, poll: float = 0.05):
        self.session = session
        self.clock = clock
        self.poll = poll
        self.ticks = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def due(self) -> float | None:
        """The deadline that has passed, if any."""
        deadline = self.session.next_deadline()
        if deadline is not None and self.clock() > deadline:
            return deadline
        return None

    def check(self) -> bool:
        """Submit one tick if a deadline has passed; True if it did."""
        if self.due() is None:
            return False
        try:
            self.session.submit(Observation(kind=TICK, t=self.clock(), source="timer"))
        except Refused as exc:  # the log cannot be written now: the session says so; try again next poll
            log.warning("tick not recorded: %s", exc.en)
            return False
        self.ticks += 1
        return True

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="deadline-timer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.wait(self.poll):
            try:
                self.check()
            except Exception:  # the timer must outlive one bad tick
                log.exception("deadline timer failed")
