"""The simulated table's beams as pulses on gpiozero ``MockFactory`` pins.

:class:`GpioSensors` is the simulated table's sensor output: a peg passing a beam
becomes real edges on the beam's mock pin, with a peg's timing, so that
:mod:`hardware.gpio.attach` debounces and reports it exactly as on the Pi; the slide,
board and top-hole facts go to a simulated sensor board (the real protocol and bridge
logic): the one given, or an ``InlineBoard`` in the caller's thread on the same clock.

    >>> from hardware.gpio import attach_gpio
    >>> from hardware.sim_table import SimulatedTable
    >>> from table.timers import ManualClock
    >>> session = Session(EventLog(":memory:"))      # a log in memory: a whole game's facts, fast
    >>> clock, factory = ManualClock(), MockFactory()
    >>> gpio = attach_gpio(session, {}, pin_factory=factory, clock=clock, columns=7); gpio.start()
    >>> table = SimulatedTable(session, GpioSensors(session, factory, gpio.pins, clock), clock=clock, seed=1)
    >>> table.play_game(max_moves=12)     # virtual time: each fall is a pulse on a mock pin
    >>> table.stats["landings"], session.snapshot()["health"]["beams"]["confirmed"]
    (2, 2)
    >>> {name: b["counted"] for name, b in gpio.health()["beams"].items() if b["counted"]}
    {'1': 1, '4': 1, 'left': 1}
    >>> sorted({o.source for o in session.log.read() if o.kind in ("slide", "board", "peg_drop", "beam")})
    ['gpio', 'serial']
    >>> gpio.stop()
"""

from __future__ import annotations

from typing import Any

from hardware.sim.inline_board import InlineBoard
from hardware.sim.top_holes import HoleFaults
from hardware.sim_table import SerialBoardSensors

from .pins import PinMap

BREAK_TIME = 0.008    # a 15 mm peg falling at ~2 m/s hides the beam for ~8 ms
BOUNCE_TIME = 0.0005  # a chattering receiver: edges half a millisecond apart
AFTER_PEG = 0.03      # two pegs falling one after the other leave light between them


class GpioSensors(SerialBoardSensors):
    """Beams and side beams as pin pulses; slides, board and top-hole drops to the
    sensor board ``board`` (default: an ``InlineBoard`` on ``session.submit`` and
    ``clock``, started where the session last sensed the frame, with ``hole_faults``,
    brought up to date whenever a ``ManualClock`` moves).

    ``clock.sleep`` spaces the edges (a ``ManualClock`` makes that virtual time).

        >>> from hardware.gpio import attach_gpio
        >>> from table.timers import ManualClock
        >>> clock, factory = ManualClock(0.0), MockFactory()
        >>> gpio = attach_gpio(session, {}, pin_factory=factory, clock=clock, columns=7); gpio.start()
        >>> sensors = GpioSensors(session, factory, PinMap.from_config({}, 7), clock)
        >>> sensors.beam(3, bounces=2)     # low, 2 quick bounces, high again
        >>> gpio.health()["beams"]["3"], clock()
        ({'pin': 'GPIO19', 'edges': 6, 'counted': 1, 'broken_for': 0.0}, 0.04)
        >>> [(obs.kind, obs.source, obs.data) for obs in session.log.read() if obs.kind == "beam"]   # one peg
        [('beam', 'gpio', {'column': 3})]
        >>> gpio.stop()
    """

    def __init__(self, session: Any, factory: Any, pins: PinMap, clock: Any, *, board: Any = None,
                 hole_faults: HoleFaults | None = None, seed: int = 0):
        if board is None:
            board = _inline_board(session, clock, hole_faults, seed, len(pins.beams))
        super().__init__(board)
        self.factory = factory
        self.pins = pins
        self.clock = clock
        self.pulses = 0

    def beam(self, column: int, *, bounces: int = 0) -> None:
        self._pulse(self.pins.beams[column], bounces)

    def side_spill(self, side: str) -> None:
        self._pulse(self.pins.side_left if side == "left" else self.pins.side_right, 0)

    def _pulse(self, number: int, bounces: int) -> None:
        pin = self.factory.pin(number)
        sleep = self.clock.sleep
        self.pulses += 1
        pin.drive_low()             # the peg enters the beam
        for _ in range(bounces):
            sleep(BOUNCE_TIME)
            pin.drive_high()
            sleep(BOUNCE_TIME)
            pin.drive_low()
        sleep(BREAK_TIME)
        pin.drive_high()            # and leaves it
        sleep(AFTER_PEG)


def _inline_board(session: Any, clock: Any, hole_faults: HoleFaults | None, seed: int, holes: int) -> InlineBoard:
    sensed = session.sensed
    slides = {int(k): v for k, v in (sensed.get("slides") or {}).items()}
    start = tuple(slides.get(n) or 0 for n in range(1, 7))
    board_at = sensed.get("board") or 2
    board = InlineBoard(session.submit, clock=clock, hole_faults=hole_faults, seed=seed, slides_start=start,
                        board_start=board_at, holes=holes,
                        known_positions={"slides": dict(enumerate(start, 1)), "board": board_at})
    hooks = getattr(clock, "on_advance", None)
    if hooks is not None:
        hooks.insert(0, board.advance)  # before the deadline timer looks at the time
    return board
