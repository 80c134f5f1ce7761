"""One small class per GPIO device: break-beams, buttons, turn lights, buzzer.

Each wraps a gpiozero device (real pins on the Pi, ``MockFactory`` pins in tests and
in the simulated table) and adds what gpiozero does not do reliably: debouncing from
edge times. gpiozero's ``bounce_time`` is ignored by mock pins and is reported to drop
events on real ones, so every edge is stamped with the injected clock and
:class:`EdgeDebouncer` decides from those times.

    >>> from table.timers import ManualClock
    >>> clock, factory = ManualClock(), MockFactory()
    >>> beam = Beam(17, name=3, on_peg=lambda name, t: print(name, t), clock=clock, pin_factory=factory)
    >>> factory.pin(17).drive_low()        # the beam breaks (receiver pulls low)
    3 1700000000.0
    >>> beam.close()
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from gpiozero import LED, Button, DigitalInputDevice
from gpiozero import Buzzer as GpioBuzzer

Clock = Callable[[], float]


class EdgeDebouncer:
    """Counts passages from raw edges: a break counts only after ``quiet`` seconds clear.

    A peg bouncing through, or a chattering receiver, makes several edges a millisecond
    apart: the beam never stays clear for ``quiet``, so it is one passage.

        >>> d = EdgeDebouncer(quiet=0.01)
        >>> d.edge(True, 0.0), d.edge(False, 0.001), d.edge(True, 0.002)
        (True, False, False)
    """

    def __init__(self, quiet: float):
        self.quiet = quiet
        self.broken = False
        self.last_clear = float("-inf")
        self.broken_since: float | None = None
        self.edges = 0
        self.counted = 0

    def edge(self, broken: bool, t: float) -> bool:
        """Feed one edge (``broken``: the beam is interrupted); True for a new passage."""
        self.edges += 1
        if broken == self.broken:
            return False  # a repeated level is no edge
        self.broken = broken
        if not broken:
            self.last_clear = t
            self.broken_since = None
            return False
        self.broken_since = t
        if t - self.last_clear < self.quiet:
            return False  # the beam came back for a moment only: the same passage
        self.counted += 1
        return True


class Beam:
    """An infrared break-beam receiver on one pin (pulled up; low = interrupted).

    ``on_peg(name, t)`` is called once per debounced passage with the edge's time.

        >>> from table.timers import ManualClock
        >>> clock, factory = ManualClock(100.0), MockFactory()
        >>> report = lambda name, t: print("beam", name, "broken at", t)
        >>> beam = Beam(5, name=0, on_peg=report, clock=clock, pin_factory=factory)
        >>> beam.health()["counted"]
        0
        >>> pin = factory.pin(5)
        >>> pin.drive_low(); clock.advance(0.001); pin.drive_high(); pin.drive_low()   # a peg bouncing through
        beam 0 broken at 100.0
        >>> clock.advance(0.05); beam.health()
        {'pin': 'GPIO5', 'edges': 3, 'counted': 1, 'broken_for': 0.05}
        >>> pin.drive_high(); beam.close()
    """

    def __init__(self, pin: int, *, name: Any, on_peg: Callable[[Any, float], None], clock: Clock,
                 debounce: float = 0.01, pin_factory: Any = None):
        self.name = name
        self.on_peg = on_peg
        self.clock = clock
        self.debouncer = EdgeDebouncer(debounce)
        self._lock = threading.Lock()
        self.device = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
        self.device.when_activated = lambda: self._edge(True)
        self.device.when_deactivated = lambda: self._edge(False)

    def _edge(self, broken: bool) -> None:
        t = self.clock()
        with self._lock:
            counted = self.debouncer.edge(broken, t)
        if counted:
            self.on_peg(self.name, t)

    def health(self) -> dict[str, Any]:
        d = self.debouncer
        now = self.clock()
        return {"pin": self.device.pin.info.name, "edges": d.edges, "counted": d.counted,
                "broken_for": round(now - d.broken_since, 3) if d.broken_since is not None else 0.0}

    def close(self) -> None:
        self.device.close()


class BeamArray:
    """The beams under the frame's columns (names 0..W-1) and at its sides ("left", "right").

        >>> from table.timers import ManualClock
        >>> report = lambda name, t: print("beam", name, "broken at", t)
        >>> factory = MockFactory()
        >>> beams = BeamArray([5, 6, 13], {"left": 21, "right": 12}, on_peg=report, clock=ManualClock(7.0),
        ...                   pin_factory=factory)
        >>> sorted(beams.health())
        ['0', '1', '2', 'left', 'right']
        >>> factory.pin(13).drive_low(); factory.pin(21).drive_low()
        beam 2 broken at 7.0
        beam left broken at 7.0
        >>> beams.close()
    """

    def __init__(self, column_pins: list[int] | tuple[int, ...], side_pins: dict[str, int], *,
                 on_peg: Callable[[Any, float], None], clock: Clock, debounce: float = 0.01, pin_factory: Any = None):
        self.beams: list[Beam] = []
        try:
            for column, pin in enumerate(column_pins):
                self.beams.append(Beam(pin, name=column, on_peg=on_peg, clock=clock, debounce=debounce,
                                       pin_factory=pin_factory))
            for side, pin in side_pins.items():
                self.beams.append(Beam(pin, name=side, on_peg=on_peg, clock=clock, debounce=debounce,
                                       pin_factory=pin_factory))
        except Exception:
            self.close()  # do not leave half the pins claimed
            raise

    def health(self) -> dict[str, Any]:
        return {str(b.name): b.health() for b in self.beams}

    def close(self) -> None:
        for beam in self.beams:
            beam.close()


class Buttons:
    """Push buttons to ground (pulled up), each debounced; ``on_press(name, t)``.

        >>> from table.timers import ManualClock
        >>> handle = lambda name, t: print(name, "pressed at", t)
        >>> clock, factory = ManualClock(50.0), MockFactory()
        >>> buttons = Buttons({"confirm": 23, "undo": 24}, on_press=handle, clock=clock, pin_factory=factory)
        >>> buttons.presses
        {'confirm': 0, 'undo': 0}
        >>> factory.pin(23).drive_low(); clock.advance(0.2); factory.pin(23).drive_high()
        confirm pressed at 50.0
        >>> buttons.presses
        {'confirm': 1, 'undo': 0}
        >>> buttons.close()
    """

    def __init__(self, pins: dict[str, int], *, on_press: Callable[[str, float], None], clock: Clock,
                 debounce: float = 0.05, pin_factory: Any = None):
        self.on_press = on_press
        self.clock = clock
        self.presses = {name: 0 for name in pins}
        self._debouncers = {name: EdgeDebouncer(debounce) for name in pins}
        self._lock = threading.Lock()
        self.devices: dict[str, Button] = {}
        try:
            for name, pin in pins.items():
                button = Button(pin, pull_up=True, pin_factory=pin_factory)
                button.when_pressed = lambda name=name: self._edge(name, True)
                button.when_released = lambda name=name: self._edge(name, False)
                self.devices[name] = button
        except Exception:
            self.close()
            raise

    def _edge(self, name: str, pressed: bool) -> None:
        t = self.clock()
        with self._lock:
            counted = self._debouncers[name].edge(pressed, t)
            if counted:
                self.presses[name] += 1
        if counted:
            self.on_press(name, t)

    def close(self) -> None:
        for button in self.devices.values():
            button.close()


class TurnLights:
    """One light per seat; ``show(seat)`` lights that seat's only (None: all off).

        >>> lights = TurnLights({"red": 17, "blue": 27})
        >>> lights.show("red"); lights.lit
        'red'
        >>> lights.leds["red"].is_lit, lights.leds["blue"].is_lit
        (True, False)
        >>> lights.close()
    """

    def __init__(self, pins: dict[str, int], *, pin_factory: Any = None):
        self.leds: dict[str, LED] = {}
        self.lit: str | None = None
        try:
            for seat, pin in pins.items():
                self.leds[seat] = LED(pin, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    def show(self, seat: str | None) -> None:
        self.lit = seat if seat in self.leds else None
        for name, led in self.leds.items():
            if name == self.lit:
                led.on()
            else:
                led.off()

    def close(self) -> None:
        for led in self.leds.values():
            led.close()


class Buzzer:
    """The table's buzzer: ``sound(times)`` beeps in the background (an alert, an
    illegal move) without blocking the caller.

        >>> buzzer = Buzzer(22)
        >>> buzzer.sound(2); buzzer.sounded
        1
        >>> buzzer.close()          # stops the beeps' thread too
    """

    def __init__(self, pin: int, *, on_time: float = 0.15, off_time: float = 0.1, pin_factory: Any = None):
        self.on_time = on_time
        self.off_time = off_time
        self.sounded = 0
        self.device = GpioBuzzer(pin, pin_factory=pin_factory)
        # gpiozero's beep stops the previous beeps' thread; from two threads at once one could
        # stop a thread the other had made but not started yet ("cannot join thread before it is started")
        self._lock = threading.Lock()

    def sound(self, times: int = 1) -> None:
        with self._lock:
            self.sounded += 1
            self.device.beep(on_time=self.on_time, off_time=self.off_time, n=times, background=True)

    def close(self) -> None:
        self.device.close()
