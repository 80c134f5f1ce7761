"""A pure-Python slide-frame board on a real pseudo-terminal, with switchable faults.

It speaks the firmware's protocol (``hardware.sim.board_model``) on a pty whose slave
the bridge opens at ``.port``, a stable symlink. Faults (``hardware.sim.faults``) apply
to what the board sends and can be changed while it runs.

    >>> board = SimulatedBoard(faults=Faults(drop_byte=0.01), seed=1).start()
    >>> bridge = Bridge(board.port, session.submit).start()   # doctest: +SKIP
    >>> board.set_slide(3, +1); board.drop_peg(4); board.unplug(); board.plug(); board.stop()

``drop_peg(column)`` is a peg going into the top hole over ``column`` (0-based): it
drives that hole's sensor input (``hardware.sim.top_holes``), and the drop the firmware
counts goes out as a ``DROP`` frame. ``hole_faults`` (:class:`HoleFaults`, switchable
while running) makes sensors miss pegs, chatter, or see a peg while the previous one is
still in view.

``unplug()`` imitates a USB cable being pulled from a USB-powered board: the port
disappears (the bridge's reads fail, the path vanishes) and the MCU loses power;
``plug()`` brings a new pty at the same path and boots the MCU (HELLO, full state).
Positions are offsets (−2…+2 by default) and board positions 1…3; everything starts
at offset 0 and board 2.
"""

from __future__ import annotations

import random
import select
import threading
import time

from firmware_bridge.positions import NotchMap, check_board_position
from firmware_bridge.protocol import PROTOCOL_VERSION
from hardware.sim.board_model import BoardModel
from hardware.sim.faults import FaultInjector, Faults
from hardware.sim.pty_port import PtyPort
from hardware.sim.top_holes import HoleFaults, TopHoles

__all__ = ["Faults", "HoleFaults", "SimulatedBoard"]


class SimulatedBoard:
    """The board's MCU as a thread behind a pty; all methods are thread-safe."""

    def __init__(self, *, faults: Faults | None = None, seed: int = 0,
                 slides_start: tuple[int, ...] = (0,) * 6, board_start: int = 2,
                 link_path: str | None = None, notch_offset: int = -2, notches: int = 5,
                 heartbeat_s: float = 0.5, holes: int = 7, hole_faults: HoleFaults | None = None,
                 clock=time.monotonic, protocol: int = PROTOCOL_VERSION):
        self.notch_map = NotchMap(notch_offset=notch_offset, notches=notches)
        if len(slides_start) != 6:
            raise ValueError(f"slides_start needs 6 offsets, got {len(slides_start)}")
        self.faults = faults if faults is not None else Faults()
        self._rng = random.Random(seed)
        self._line = FaultInjector(self.faults, self._rng)
        self._clock = clock
        self.hole_faults = hole_faults if hole_faults is not None else HoleFaults()
        self._holes = TopHoles(holes, faults=self.hole_faults, rng=random.Random(seed * 7919 + 1))
        self._model = BoardModel(notches=tuple(self.notch_map.to_notch(o) for o in slides_start),
                                 board=check_board_position(board_start), holes=holes,
                                 notch_count=notches, heartbeat_ms=round(heartbeat_s * 1000))
        self._model.protocol = protocol  # 1: a board flashed before the top holes (tests)
        self._port = PtyPort(link_path)
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._boot_at = self._made_at = clock()
        self._stalled_until = 0.0
        self._replug_at: float | None = None
        self.frames_sent = 0
        self.frames_lost = 0  # generated while stalled or unplugged

    # ---- public API -----------------------------------------------------------------

    @property
    def port(self) -> str:
        return self._port.path

    def start(self) -> SimulatedBoard:
        with self._lock:
            self._port.open()
            self._boot("p")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="simulated board", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
            self._thread = None
        with self._lock:
            self._port.cleanup()

    def set_slide(self, slide: int, offset: int) -> None:
        """Bring a slide to rest at ``offset``; moving the top slide (1) carries the pegs
        resting in its holes into other sensors' view, which the firmware does not count."""
        notch = self.notch_map.to_notch(offset)
        with self._lock:
            if slide == 1 and self._model.notches[0] is not None:
                self._count(self._holes.carry(notch - self._model.notches[0], self._sensor_ms()))
            self._emit(self._model.set_slide(slide, notch, self._ms()))

    def drop_peg(self, column: int, *, rests: bool = False) -> None:
        """A peg goes into the top hole over ``column`` (0-based, as in ``peg_drop``);
        ``rests``: it stays in the hole (on slide 2 or on a peg) until :meth:`clear_hole`
        or a move of the top slide takes it out of the sensor's view."""
        with self._lock:
            self._count(self._holes.drop(column, self._sensor_ms(), rests=rests))

    def clear_hole(self, column: int) -> None:
        """The peg resting in the top hole over ``column`` fell out of the sensor's view."""
        with self._lock:
            self._count(self._holes.clear(column, self._sensor_ms()))

    def drop_counts(self) -> tuple[int, ...]:
        """Drops the firmware counted per top hole since boot (what it reports)."""
        with self._lock:
            return tuple(self._model.drops)

    @property
    def hole_stats(self) -> dict[str, int]:
        """Drops asked for and the top-hole faults that struck."""
        with self._lock:
            return dict(self._holes.stats)

    def set_board(self, position: int) -> None:
        with self._lock:
            self._emit(self._model.set_board(check_board_position(position), self._ms()))

    def positions(self) -> dict[str, object]:
        """The true positions: ``{"slides": {1: offset, ...}, "board": position}``."""
        with self._lock:
            notches, board = self._model.state()
        return {"slides": {i: self.notch_map.to_offset(n) for i, n in enumerate(notches, 1)},
                "board": board}

    def reset(self) -> None:
        """The reset button: the MCU restarts (HELLO why=boot, then a full state)."""
        with self._lock:
            self._boot("e")

    def unplug(self) -> None:
        with self._lock:
            self._replug_at = None
            self._port.close()
            self._line.discard_held()

    def plug(self) -> None:
        with self._lock:
            self._replug_at = None
            self._port.open()
            self._boot("p")

    @property
    def thresholds(self) -> dict[str, int]:
        with self._lock:
            return dict(self._model.thresholds)

    # ---- inside ---------------------------------------------------------------------

    def _ms(self) -> int:
        return int((self._clock() - self._boot_at) * 1000)

    def _sensor_ms(self) -> int:
        """What the top-hole sensors see runs on, whatever the MCU does (never resets)."""
        return int((self._clock() - self._made_at) * 1000)

    def _count(self, columns: list[int]) -> None:
        for column in columns:
            self._emit(self._model.drop(column, self._ms()))

    def _boot(self, cause: str) -> None:
        self._boot_at = self._clock()
        self._holes.reboot(self._sensor_ms())
        self._stalled_until = 0.0
        self._line.discard_held()
        self._emit(self._model.boot(0, cause))

    def _emit(self, frames: list[bytes]) -> None:
        now = self._clock()
        for frame in frames:
            if not self._port.is_open or now < self._stalled_until:
                self.frames_lost += 1
                continue
            if self._line.roll(self.faults.disconnect):
                self.unplug()
                self._replug_at = now + self.faults.disconnect_s
                self.frames_lost += 1
                continue
            if self._line.roll(self.faults.stall):
                self._stalled_until = now + self.faults.stall_s
                self.frames_lost += 1
                continue
            self.frames_sent += 1
            self._port.write(self._line.transmit([frame]))

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                fd = self._port.fileno() if self._port.is_open else None
            try:
                if fd is None:
                    self._stop.wait(0.01)
                else:
                    poller = select.poll()
                    poller.register(fd, select.POLLIN)
                    poller.poll(10)
            except (OSError, ValueError):
                pass  # the port was closed under our feet: next turn sees it
            with self._lock:
                now = self._clock()
                if self._replug_at is not None and now >= self._replug_at:
                    self.plug()
                if not self._port.is_open:
                    continue
                data = self._port.read()
                if data:
                    self._emit(self._model.receive(data, self._ms()))
                self._count(self._holes.tick(self._sensor_ms()))
                self._emit(self._model.tick(self._ms()))
                if now >= self._stalled_until:
                    self._port.write(self._line.flush())
