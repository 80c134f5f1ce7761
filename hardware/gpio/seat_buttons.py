"""Per-seat buttons for what the players only say aloud: "Doublon !"/"Menteur !" and "OK".

Each seat has a **call** button (Doublon! or Menteur!: the moment of the turn says
which) and, optionally, an **ok** button ("OK", and the active player's colour: one
press blue, two green, three orange). Pins come from the ``[gpio]`` settings::

    [gpio]
    seats = [[5, 6], [13, 19], [26, 16]]   # [call, ok] per seat, seat 1 first; [call] alone works too

Every debounced press becomes one ``seat_button`` observation (source ``gpio``) stamped
with its **edge time**, so that when two seats press within a few milliseconds the
PtiPassPass adapter can let the earlier edge win even if its callback ran second.

    >>> from gpiozero.pins.mock import MockFactory
    >>> from table.timers import ManualClock
    >>> clock, factory = ManualClock(10.0), MockFactory()
    >>> pins = seat_pins({"seats": [[5, 6], [13, 19], [26, 16]]})
    >>> buttons = SeatButtons(pins, on_press=lambda s, b, t: print(s, b, t), clock=clock, pin_factory=factory)
    >>> factory.pin(13).drive_low()        # seat 2's call button (seats are 0-based)
    1 call 10.0
    >>> buttons.close()
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from table.observations import Observation
from table.ptipasspass.presses import BUTTON, ROLES

from .devices import Buttons, Clock
from .pins import PIN_RANGE, GpioConfigError

log = logging.getLogger(__name__)

SOURCE = "gpio"
# [call, ok] per seat: pins left free by I2C, UART and SPI0 (a cup table has no beams).
DEFAULT_SEAT_PINS: tuple[tuple[int, ...], ...] = ((5, 6), (13, 19), (26, 16), (20, 21), (12, 4), (25, 18))


def seat_pins(config_gpio: dict[str, Any] | None, players: int = 6) -> list[tuple[int, ...]]:
    """The ``[gpio] seats`` setting checked (defaults for the first ``players`` seats).

        >>> seat_pins({}, players=3)
        [(5, 6), (13, 19), (26, 16)]
        >>> seat_pins({"seats": [[5, 5]]})
        Traceback (most recent call last):
        ...
        hardware.gpio.pins.GpioConfigError: [gpio] seats: GPIO5 is used twice
    """
    raw = (config_gpio or {}).get("seats")
    if raw is None:
        return [tuple(p) for p in DEFAULT_SEAT_PINS[:players]]
    if not isinstance(raw, list) or not 1 <= len(raw) <= 6:
        raise GpioConfigError(f"[gpio] seats must list 1 to 6 seats, each [call] or [call, ok], not {raw!r}")
    out, used = [], set()
    for i, seat in enumerate(raw):
        if not isinstance(seat, list) or not 1 <= len(seat) <= len(ROLES):
            raise GpioConfigError(f"[gpio] seats[{i}] must be [call] or [call, ok], not {seat!r}")
        for pin in seat:
            if isinstance(pin, bool) or not isinstance(pin, int) or pin not in PIN_RANGE:
                raise GpioConfigError(f"[gpio] seats[{i}]: {pin!r} is not a BCM pin (GPIO 0..27)")
            if pin in used:
                raise GpioConfigError(f"[gpio] seats: GPIO{pin} is used twice")
            used.add(pin)
        out.append(tuple(seat))
    return out


class SeatButtons:
    """The seats' buttons; ``on_press(seat, role, edge_t)`` once per debounced press."""

    def __init__(self, pins: list[tuple[int, ...]], *, on_press: Callable[[int, str, float], None], clock: Clock,
                 pin_factory: Any = None):
        self.on_press = on_press
        named = {f"{seat}:{role}": pin for seat, seat_pins_ in enumerate(pins)
                 for role, pin in zip(ROLES, seat_pins_, strict=False)}
        self.buttons = Buttons(named, on_press=self._pressed, clock=clock, pin_factory=pin_factory)

    def _pressed(self, name: str, t: float) -> None:
        seat, role = name.split(":")
        self.on_press(int(seat), role, t)

    @property
    def presses(self) -> dict[str, int]:
        return dict(self.buttons.presses)

    def close(self) -> None:
        self.buttons.close()


class SeatButtonAttachment:
    """Seat buttons wired to a session: each press is submitted as a ``seat_button`` fact."""

    def __init__(self, session: Any, pins: list[tuple[int, ...]], *, pin_factory: Any = None,
                 clock: Clock | None = None):
        import time

        self.session = session
        self.refused = 0
        self.devices = SeatButtons(pins, on_press=self._pressed, clock=clock or time.time, pin_factory=pin_factory)
        session.health_sources["seat_buttons"] = lambda: {"presses": self.devices.presses}

    def _pressed(self, seat: int, role: str, t: float) -> None:
        # A fact always reaches the log: an impossible press becomes the adapter's alert.
        self.session.submit(Observation(kind=BUTTON, t=t, source=SOURCE, data={"seat": seat, "button": role}))

    def start(self) -> None:  # the pins report from the moment they are opened
        pass

    def stop(self) -> None:
        self.devices.close()


def recorded_presses(items: Any, seats: int = 6) -> list[Observation]:
    """Presses recorded elsewhere (``passetable watch --presses FILE``), as the facts the
    pins would have given, in edge-time order. Each item is ``{"t": seconds, "seat": 0-based,
    "button": "call" | "ok"}``; anything else raises ``ValueError(en, fr)`` naming the item.

        >>> [o.data["seat"] for o in recorded_presses([{"t": 2.5, "seat": 1, "button": "ok"},
        ...                                            {"t": 1, "seat": 0, "button": "call"}])]
        [0, 1]
    """
    if not isinstance(items, list):
        raise ValueError("the presses must be a JSON list", "les pressions doivent être une liste JSON")
    out = []
    for i, item in enumerate(items):
        ok = isinstance(item, dict) and set(item) == {"t", "seat", "button"} \
            and type(item["t"]) in (int, float) and 0 <= item["t"] < 1e9 \
            and type(item["seat"]) is int and 0 <= item["seat"] < seats and item["button"] in ROLES
        if not ok:
            shape = f'{{"t": s, "seat": 0-{seats - 1}, "button": "call"|"ok"}}: {str(item)[:80]}'
            raise ValueError(f"press {i + 1} is not {shape}", f"la pression {i + 1} n'est pas {shape}")
        out.append(Observation(kind=BUTTON, t=float(item["t"]), source=SOURCE,
                               data={"seat": item["seat"], "button": item["button"]}))
    return sorted(out, key=lambda o: o.t)


def attach_seat_buttons(session: Any, config_gpio: dict[str, Any] | None, *, players: int = 6,
                        pin_factory: Any = None, clock: Clock | None = None) -> SeatButtonAttachment:
    """The seat buttons of the ``[gpio] seats`` setting, attached to ``session``."""
    return SeatButtonAttachment(session, seat_pins(config_gpio, players), pin_factory=pin_factory, clock=clock)


def sensors(session: Any, settings: Any, options: dict[str, Any]) -> list[SeatButtonAttachment]:
    """What a real PtiPassPass table adds (``passetable run --config``): the seat buttons."""
    return [attach_seat_buttons(session, getattr(settings, "gpio", {}), players=int(options.get("players", 6)))]
