"""What every simulated table shares: its players play in one background thread.

A simulated table subclasses :class:`PlayerThread`, builds ``self._stop`` through
``super().__init__()``, and writes ``_run`` (its loop, which must return soon after
``self._stop`` is set); ``_before_start`` picks up or starts a game, ``_interrupt``
wakes anything else the loop may be waiting on.

    >>> class CountingTable(PlayerThread):
    ...     turns = 0
    ...     def _run(self):
    ...         while not self._stop.wait(0.01):      # a turn every 10 ms until stopped
    ...             self.turns += 1
    >>> table = CountingTable()
    >>> table.start()        # players play in the background
    >>> table._thread.name, table._thread.is_alive()
    ('sim-players', True)
    >>> table.stop()         # and stop within a moment
    >>> table._thread.is_alive()
    False
"""

from __future__ import annotations

import threading


class PlayerThread:
    thread_name = "sim-players"

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _before_start(self) -> None:
        """Resume or start a game before the thread runs (nothing by default)."""

    def _interrupt(self) -> None:
        """Wake the loop's other waits so that it sees ``_stop`` (nothing by default)."""

    def _run(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        self._before_start()
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._interrupt()
        if self._thread is not None:
            self._thread.join(timeout=10)
