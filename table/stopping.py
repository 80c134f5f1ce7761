"""A stop request that a signal handler can make: ``threading.Event`` without its lock.

A Python signal handler runs in the main thread, between any two of its lines. One that
calls ``threading.Event.set()`` while that thread is inside ``Event.wait()``, holding the
event's lock, waits for that lock forever (CPython issue 126434): the service never stops.
:class:`StopFlag` wakes its waiter through a socket pair instead, and takes no lock.

    >>> stop = StopFlag()
    >>> stop.wait(0.01), stop.set(), stop.wait(0.01), stop.is_set()
    (False, None, True, True)

``stop.on_signals(signal.SIGINT, signal.SIGTERM)`` (from the main thread) makes those
signals set it.
"""

from __future__ import annotations

import select
import signal
import socket


class StopFlag:
    """Set once, from any thread or a signal handler; waited on by one loop."""

    def __init__(self) -> None:
        self._set = False
        self._wake, self._waker = socket.socketpair()
        self._waker.setblocking(False)

    def set(self) -> None:
        self._set = True
        try:
            self._waker.send(b"s")
        except OSError:  # its buffer full of earlier requests: the waiter is woken already
            pass

    def is_set(self) -> bool:
        return self._set

    def wait(self, timeout: float | None = None) -> bool:
        """Whether it was set within ``timeout`` seconds (None: wait until it is)."""
        if not self._set:
            select.select([self._wake], [], [], timeout)
        return self._set

    def on_signals(self, *signals: signal.Signals) -> None:
        for sig in signals:
            signal.signal(sig, lambda *_: self.set())
