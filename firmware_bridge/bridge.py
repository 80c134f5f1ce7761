"""The serial bridge: a background thread between the board's port and the session.

It opens the port (a device path such as ``/dev/ttyACM0`` or any pyserial URL), feeds
what it reads to a :class:`~firmware_bridge.link.LinkState`, writes the commands the
link asks for, and hands observations to ``on_observation`` — called from the bridge's
thread, one at a time, in order. When the port fails or disappears (cable pulled, board
reset, pty closed) it closes it and tries again every ``retry_interval_s`` until it comes
back, then resyncs from a full state; a board silent for ``reopen_after_s`` is reopened
too (on an Arduino that also resets the MCU through DTR).

    >>> bridge = Bridge("/dev/ttyACM0", session_queue.put)   # doctest: +SKIP
    >>> bridge.start(); ...; print(bridge.health()["frames"])  # doctest: +SKIP
    >>> bridge.stop()                                          # doctest: +SKIP
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import serial

from firmware_bridge import messages as msg
from firmware_bridge.link import LinkState
from firmware_bridge.positions import NotchMap
from table.observations import Observation

log = logging.getLogger("firmware_bridge")


class Bridge:
    """Serial link to the slide-frame board, turning frames into observations."""

    def __init__(self, port: str, on_observation: Callable[[Observation], None], *,
                 baudrate: int = 115200, clock: Callable[[], float] = time.time,
                 notch_offset: int = -2, notches: int = msg.NOTCHES, slides: int = msg.SLIDES,
                 holes: int = msg.HOLES,
                 known_positions: dict[str, object] | None = None,
                 retry_interval_s: float = 0.25, read_timeout_s: float = 0.02,
                 silence_timeout_s: float = 1.5, reopen_after_s: float = 4.0,
                 snapshot_retry_s: float = 0.05,
                 serial_factory: Callable[..., serial.SerialBase] = serial.serial_for_url):
        if not port:
            raise ValueError("the bridge needs a serial port (a device path or a pyserial URL)")
        self.port = port
        self.baudrate = baudrate
        self._on_observation = on_observation
        self._clock = clock
        self._retry_interval_s = retry_interval_s
        self._read_timeout_s = read_timeout_s
        self._reopen_after_s = reopen_after_s
        self._serial_factory = serial_factory
        self._link = LinkState(notch_map=NotchMap(notch_offset=notch_offset, notches=notches),
                               slides=slides, holes=holes, snapshot_retry_s=snapshot_retry_s,
                               silence_timeout_s=silence_timeout_s, known_positions=known_positions)
        self._link.health.port = port
        self._lock = threading.Lock()         # guards self._link
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: serial.SerialBase | None = None
        self._pending: list[Callable[[float], None]] = []

    # ---- public API -----------------------------------------------------------------

    def start(self) -> Bridge:
        if self._thread is not None:
            raise RuntimeError("the bridge is already started")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"bridge {self.port}", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._close(None)

    def health(self) -> dict[str, object]:
        with self._lock:
            return self._link.health.to_dict(time.monotonic(), self._link.parser.counters())

    def positions(self) -> dict[str, object]:
        """Last known positions: ``{"slides": {1: offset|None, ...}, "board": 1..3|None}``."""
        with self._lock:
            return self._link.positions()

    def drop_counts(self) -> list[int] | None:
        """Each top hole's drop count as last reported (``known_positions["drops"]``)."""
        with self._lock:
            return self._link.drop_counts()

    @property
    def refused(self) -> str | None:
        """Why the board is refused (another protocol version...), English / French."""
        with self._lock:
            return self._link.refused

    def request_snapshot(self) -> None:
        """Ask the board for a full state now (positions that differ will be reported)."""
        self._queue(self._link.request_snapshot)

    def set_thresholds(self, **changes: int) -> None:
        """Send ``SET`` (band, hold, settle, debounce); the board's ACK shows in
        ``health()["thresholds"]``. Raises ``MessageError`` for values out of range."""
        msg.encode_set_thresholds(0, **changes)  # validate now, in the caller's thread
        self._queue(lambda now: self._link.send_command(
            lambda seq: msg.encode_set_thresholds(seq, **changes)))

    def ping(self, token: int) -> None:
        self._queue(lambda now: self._link.send_command(lambda seq: msg.encode_ping(seq, token)))

    @property
    def link(self) -> LinkState:
        """The protocol state (for tests and benchmarks; hold no reference across calls)."""
        return self._link

    # ---- the thread -----------------------------------------------------------------

    def _queue(self, action: Callable[[float], None]) -> None:
        with self._lock:
            self._pending.append(action)

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._serial is None and not self._open():
                self._stop.wait(self._retry_interval_s)
                continue
            try:
                self._step()
            except (serial.SerialException, OSError) as exc:
                self._close(f"port lost: {exc}")

    def _open(self) -> bool:
        try:
            ser = self._serial_factory(self.port, baudrate=self.baudrate, timeout=self._read_timeout_s,
                                       write_timeout=0.5)
        except (serial.SerialException, OSError, ValueError) as exc:
            with self._lock:
                self._link.health.last_error = f"cannot open {self.port}: {exc}"
            return False
        self._serial = ser
        with self._lock:
            self._link.on_connect(time.monotonic())
            log.info("connected to %s", self.port)
        return True

    def _close(self, reason: str | None) -> None:
        ser, self._serial = self._serial, None
        if ser is not None:
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass
            with self._lock:
                self._link.on_disconnect(time.monotonic(), reason)
            if reason:
                log.warning("%s: %s", self.port, reason)

    def _step(self) -> None:
        ser = self._serial
        assert ser is not None
        data = ser.read(max(1, ser.in_waiting))
        now, wall = time.monotonic(), self._clock()
        with self._lock:
            observations = self._link.feed(data, now, wall) if data else []
            for action in self._pending:
                action(now)
            self._pending.clear()
            self._link.tick(now)
            out = self._link.take_outgoing()
            h = self._link.health
            last = max(h.last_frame_at or h.connected_at, h.connected_at)
            reopen = now - last > self._reopen_after_s
        if out:
            ser.write(out)
        for obs in observations:
            try:
                self._on_observation(obs)
            except Exception:  # the session's problem must not kill the link
                log.exception("on_observation failed for %s", obs)
        if reopen:
            self._close(f"board silent for more than {self._reopen_after_s:.1f} s, reopening")
