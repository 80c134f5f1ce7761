"""The real firmware ELF, run in simavr by the C harness, as a board on a pseudo-terminal.

Same surface as :class:`hardware.sim_board.SimulatedBoard` (``.port``, ``start``,
``stop``, ``set_slide``, ``set_board``, ``drop_peg``, ``clear_hole``, ``reset``,
``unplug``/``plug``), plus the raw inputs the firmware really reads: ``set_voltage`` (a
slide's ladder, in millivolts), ``set_switches`` (the board's two switches) and
``set_hole``/``pulse_hole`` (a top-hole sensor's output pin).

    >>> board = SimavrBoard().start()   # builds firmware and harness  # doctest: +SKIP
    >>> bridge = Bridge(board.port, session.submit).start()        # doctest: +SKIP
    >>> board.set_voltage(3, 3333); board.drop_peg(4); board.stop()  # doctest: +SKIP

Like a USB-powered Arduino, ``unplug()`` removes the port and powers the MCU off,
``plug()`` brings a new pty at the same path and boots it, and the MCU resets a moment
after the host opens the port (DTR auto-reset; ``dtr_reset=False`` turns it off).
"""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from firmware_bridge.positions import NotchMap, check_board_position

log = logging.getLogger("hardware.sim.simavr")

HARDWARE = Path(__file__).resolve().parent.parent
FIRMWARE_DIR = HARDWARE / "firmware"
HARNESS_DIR = HARDWARE / "sim"
AVCC_MV = 5000
SWITCH_A, SWITCH_B = "D2", "D3"
# Top-hole sensors, columns 0..6: Arduino D4..D7 (PD4..PD7) and D8..D10 (PB0..PB2), low
# while the sensor sees a peg (WIRING.md). The harness names pins by AVR port and bit.
HOLE_PINS = ("D4", "D5", "D6", "D7", "B0", "B1", "B2")
PEG_SEEN_MS = 12.0  # a peg falling past a sensor
REPLY_TIMEOUT_S = 10.0


def notch_millivolts(notch: int, notches: int = 5) -> int:
    """The ladder voltage of a notch: (notch + 1) / (notches + 1) of AVCC (WIRING.md)."""
    return round(AVCC_MV * (notch + 1) / (notches + 1))


def tools_missing() -> str | None:
    """Why the firmware cannot be built and run here, or ``None`` when it can."""
    for tool, package in (("avr-gcc", "gcc-avr"), ("make", "make"), ("cc", "gcc")):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (Debian package {package})"
    if not Path("/usr/include/simavr/sim_avr.h").exists():
        return "simavr headers are missing (Debian package libsimavr-dev)"
    if not Path("/usr/lib/avr/include/avr/io.h").exists():
        return "avr-libc is not installed (Debian package avr-libc)"
    return None


def build(firmware_build: Path | None = None, harness_build: Path | None = None) -> tuple[Path, Path]:
    """Build (if needed) the firmware ELF and the harness with their Makefiles; returns
    their paths. Safe to call from several processes at once (a file lock serialises)."""
    fw_dir = Path(firmware_build or FIRMWARE_DIR / "build")
    sim_dir = Path(harness_build or HARNESS_DIR / "build")
    fw_dir.mkdir(parents=True, exist_ok=True)
    with open(fw_dir / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for folder, out in ((FIRMWARE_DIR, fw_dir), (HARNESS_DIR, sim_dir)):
            done = subprocess.run(["make", "-s", "-C", str(folder), f"BUILD={out}"],
                                  check=False, capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"make -C {folder} failed:\n{done.stdout}{done.stderr}")
    return fw_dir / "passeframe.elf", sim_dir / "passeframe_sim"


class SimavrBoard:
    """The harness process driving one simulated ATmega328P (thread-safe)."""

    def __init__(self, *, slides_start: tuple[int, ...] = (0,) * 6, board_start: int = 2,
                 link_path: str | None = None, speed: float = 1.0, dtr_reset: bool = True,
                 notch_offset: int = -2, notches: int = 5,
                 elf: Path | None = None, harness: Path | None = None):
        if len(slides_start) != 6:
            raise ValueError(f"slides_start needs 6 offsets, got {len(slides_start)}")
        self.notch_map = NotchMap(notch_offset=notch_offset, notches=notches)
        self._voltages = [notch_millivolts(self.notch_map.to_notch(o), notches) for o in slides_start]
        self._board = check_board_position(board_start)
        self._tmpdir = None
        if link_path is None:
            self._tmpdir = tempfile.mkdtemp(prefix="passe-avr-")
            link_path = os.path.join(self._tmpdir, "ttyPASSE0")
        self.port = link_path
        self.speed = speed
        self.dtr_reset = dtr_reset
        self._elf, self._harness = elf, harness
        self._proc: subprocess.Popen | None = None
        self._reader: threading.Thread | None = None
        self._replies: list[str] = []
        self._cond = threading.Condition()
        self._command_lock = threading.Lock()
        self.resets = 0          # MCU resets seen (button, DTR, plug)
        self.pty_name: str | None = None

    # ---- lifecycle ------------------------------------------------------------------

    def start(self) -> SimavrBoard:
        if self._elf is None or self._harness is None:
            self._elf, self._harness = build()
        args = [str(self._harness), str(self._elf), self.port, "--speed", str(self.speed)]
        if not self.dtr_reset:
            args.append("--no-dtr-reset")
        self._proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self._reader = threading.Thread(target=self._read_replies, name="simavr replies", daemon=True)
        self._reader.start()
        self._wait_for("ready")
        for slide, mv in enumerate(self._voltages, 1):
            self.set_voltage(slide, mv)
        self._apply_board(self._board)
        for column in range(len(HOLE_PINS)):
            self.set_hole(column, False)   # declared so that a reset re-applies them
        self._command("run")
        return self

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            try:
                proc.stdin.write("quit\n")
                proc.stdin.flush()
                proc.wait(3)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait(3)
        if self._reader is not None:
            self._reader.join(2)
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None

    # ---- inputs ---------------------------------------------------------------------

    def set_slide(self, slide: int, offset: int) -> None:
        """Bring a slide to rest at an offset: its ladder shows that notch's voltage."""
        self.set_voltage(slide, notch_millivolts(self.notch_map.to_notch(offset), self.notch_map.notches))

    def set_voltage(self, slide: int, millivolts: int) -> None:
        """The raw ladder voltage of a slide (0 mV: between notches, no reed closed)."""
        if not 1 <= slide <= 6:
            raise ValueError(f"slide {slide} is not one of 1..6")
        if not 0 <= millivolts <= AVCC_MV:
            raise ValueError(f"{millivolts} mV is outside 0..{AVCC_MV}")
        self._voltages[slide - 1] = millivolts
        self._command(f"adc {slide - 1} {millivolts}")

    def set_board(self, position: int) -> None:
        self._board = check_board_position(position)
        self._apply_board(position)

    def set_switches(self, a_closed: bool, b_closed: bool) -> None:
        """The raw board switches (A on D2, B on D3; closed pulls the pin low)."""
        self._command(f"pin {SWITCH_A} {0 if a_closed else 1}")
        self._command(f"pin {SWITCH_B} {0 if b_closed else 1}")

    def drop_peg(self, column: int, *, rests: bool = False, seen_ms: float = PEG_SEEN_MS) -> None:
        """A peg goes into the top hole over ``column``: its sensor sees it for ``seen_ms``
        of simulated time (falls through), or until :meth:`clear_hole` (``rests``)."""
        if rests:
            self.set_hole(column, True)
        else:
            self.pulse_hole(column, seen_ms)

    def clear_hole(self, column: int) -> None:
        """The peg resting in the top hole over ``column`` leaves the sensor's view."""
        self.set_hole(column, False)

    def set_hole(self, column: int, seen: bool) -> None:
        """The raw top-hole sensor output: low while it sees something."""
        self._command(f"pin {self._hole_pin(column)} {0 if seen else 1}")

    def pulse_hole(self, column: int, seen_ms: float) -> None:
        """The sensor sees something for ``seen_ms`` of simulated time (timed by the harness,
        so even a pulse shorter than the firmware's millisecond loop is exact)."""
        micros = round(seen_ms * 1000)
        if micros < 1:
            raise ValueError(f"a pulse of {seen_ms} ms is too short")
        self._command(f"pulse {self._hole_pin(column)} 0 {micros}")

    @staticmethod
    def _hole_pin(column: int) -> str:
        if not 0 <= column < len(HOLE_PINS):
            raise ValueError(f"top hole {column} is not one of 0..{len(HOLE_PINS) - 1}")
        return HOLE_PINS[column]

    def _apply_board(self, position: int) -> None:
        # Position 1 = A closed, 2 = A and B, 3 = B (WIRING.md). Close before opening, so
        # a move between neighbours never shows "no switch" on the way.
        a, b = position in (1, 2), position in (2, 3)
        first, second = ((SWITCH_A, a), (SWITCH_B, b)) if a else ((SWITCH_B, b), (SWITCH_A, a))
        self._command(f"pin {first[0]} {0 if first[1] else 1}")
        self._command(f"pin {second[0]} {0 if second[1] else 1}")

    # ---- power and port -------------------------------------------------------------

    def reset(self) -> None:
        self._command("reset")

    def unplug(self) -> None:
        self._command("unplug")

    def plug(self) -> None:
        self._command("plug")

    def mcu_ms(self) -> int:
        """The simulated time since the harness started, in ms."""
        return int(self._command("time", reply_prefix="time ").split()[1])

    # ---- talking to the harness -----------------------------------------------------

    def _command(self, line: str, reply_prefix: str | None = None) -> str:
        name = line.split()[0]
        with self._command_lock:
            proc = self._proc
            if proc is None or proc.poll() is not None:
                raise RuntimeError("the simavr harness is not running")
            with self._cond:
                self._replies.clear()
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            answer = self._wait_for(f"ok {name}", "err")
            if answer.startswith("err"):
                raise RuntimeError(f"simavr harness: {answer[4:]} (command {line!r})")
            if reply_prefix:
                with self._cond:
                    return next((r for r in self._replies if r.startswith(reply_prefix)), "")
            return answer

    def _wait_for(self, *prefixes: str) -> str:
        with self._cond:
            found = self._cond.wait_for(
                lambda: next((r for r in self._replies if r.startswith(prefixes)), None)
                or self._proc is None or self._proc.poll() is not None, REPLY_TIMEOUT_S)
            if isinstance(found, str):
                return found
            raise RuntimeError(f"no {prefixes[0]!r} from the simavr harness")

    def _read_replies(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        for raw in proc.stdout:
            line = raw.rstrip("\n")
            if not line.startswith("@"):
                log.debug("simavr: %s", line)
                continue
            reply = line[1:]
            if reply == "reset":
                self.resets += 1
            elif reply.startswith("pty "):
                self.pty_name = reply[4:]
            with self._cond:
                self._replies.append(reply)
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()
