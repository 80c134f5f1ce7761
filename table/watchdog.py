"""Telling systemd the service is alive: ``sd_notify`` over ``NOTIFY_SOCKET``, no dependency.

systemd starts a ``Type=notify`` service with ``NOTIFY_SOCKET`` (a datagram socket's path,
or ``@name`` in the abstract namespace) and, with ``WatchdogSec=``, ``WATCHDOG_USEC``. The
service says ``READY=1`` once it serves, then ``WATCHDOG=1`` more often than every
``WatchdogSec``; when those stop, systemd kills the service and restarts it.

    >>> import socket, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "notify")
    >>> listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); listener.bind(path)
    >>> notifier = Notifier(path)
    >>> notifier.ready(status="serving on :8080")
    True
    >>> listener.recv(4096)
    b'READY=1\\nSTATUS=serving on :8080'
    >>> Notifier(None).ready()          # not started by systemd: nothing to tell
    False
    >>> listener.close()

:class:`Watchdog` feeds ``WATCHDOG=1`` from the service's own main loop, and only after
``alive()`` answered: a main loop that hangs (a deadlocked session, a stuck probe) stops
the pings, which is exactly what systemd must see.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger("passetable.watchdog")


class Notifier:
    """Sends ``sd_notify`` messages to ``address`` (see :meth:`from_environment`).

    Every method returns whether the message was sent; without a socket (a service not
    started by systemd, a test) nothing is sent and nothing fails."""

    def __init__(self, address: str | None):
        self.address = address or None
        self._sock: socket.socket | None = None

    @classmethod
    def from_environment(cls) -> Notifier:
        return cls(os.environ.get("NOTIFY_SOCKET"))

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def notify(self, *lines: str) -> bool:
        if self.address is None:
            return False
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto("\n".join(lines).encode(), target)
            return True
        except OSError as exc:  # systemd gone or the socket not there: never fatal
            log.debug("sd_notify to %s failed: %s", self.address, exc)
            return False

    def ready(self, status: str | None = None) -> bool:
        return self.notify("READY=1", *([f"STATUS={status}"] if status else []))

    def ping(self) -> bool:
        return self.notify("WATCHDOG=1")

    def status(self, text: str) -> bool:
        return self.notify(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def watchdog_interval(environ: Mapping[str, str] | None = None, pid: int | None = None) -> float | None:
    """Seconds between pings systemd asks for (half of ``WatchdogSec``), or None.

        >>> watchdog_interval({"WATCHDOG_USEC": "30000000"})
        15.0
        >>> watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, pid=2) is None
        True
        >>> watchdog_interval({}) is None
        True
    """
    env = os.environ if environ is None else environ
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    if usec <= 0:
        return None
    wanted_pid = env.get("WATCHDOG_PID")
    if wanted_pid and wanted_pid.isdigit() and int(wanted_pid) != (os.getpid() if pid is None else pid):
        return None  # meant for another process (e.g. a wrapper's child)
    return usec / 2e6


class Watchdog:
    """The service's main loop calls :meth:`tick` often; it pings every ``interval``
    seconds, after ``alive()`` returned true. ``alive`` runs in the caller's thread, so a
    hang there is a hang of the main loop, and the pings stop."""

    def __init__(self, notifier: Notifier, interval: float | None, alive: Callable[[], bool] = lambda: True,
                 clock: Callable[[], float] = time.monotonic):
        self.notifier = notifier
        self.interval = interval
        self.alive = alive
        self._clock = clock
        self._last: float | None = None
        self.pings = 0
        self.failures = 0

    @classmethod
    def from_environment(cls, alive: Callable[[], bool] = lambda: True) -> Watchdog:
        return cls(Notifier.from_environment(), watchdog_interval(), alive)

    @property
    def tick_every(self) -> float:
        """How long the main loop may wait between two ticks."""
        return 1.0 if self.interval is None else min(1.0, self.interval / 2)

    def tick(self) -> bool:
        """Ping if one is due and the service answers; returns whether it pinged."""
        if self.interval is None:
            return False
        now = self._clock()
        if self._last is not None and now - self._last < self.interval:
            return False
        try:
            ok = bool(self.alive())
        except Exception:  # a probe that fails is a service that is not well
            log.exception("the liveness probe failed")
            ok = False
        if not ok:
            self.failures += 1
            log.warning("the service does not answer its liveness probe: no watchdog ping")
            return False
        self._last = now
        self.pings += 1
        return self.notifier.ping()
