"""Which Raspberry Pi pin does what: the ``[gpio]`` settings, with defaults and checks.

Pins are BCM numbers, as gpiozero names them (``GPIO17`` is 17). Every key is optional::

    [gpio]
    beams = [5, 6, 13, 19, 26, 16, 20]   # one break-beam per frame column, left to right
    side_left = 21                       # beams at each side, for pegs pushed off
    side_right = 12
    confirm = 23                         # buttons (to ground, internal pull-ups)
    undo = 24
    light_red = 17                       # turn lights and buzzer (outputs)
    light_blue = 27
    buzzer = 22
    debounce_ms = 10                     # a beam must stay clear this long between pegs
    window_ms = 500                      # a predicted landing's beam must come this soon

    >>> pins = PinMap.from_config({"buzzer": 18}, columns=7)
    >>> pins.buzzer, len(pins.beams)
    (18, 7)

A pin used twice, a pin outside the header's GPIO 0..27, an unknown key or a wrong type
raises :class:`GpioConfigError` naming the key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from table.config import ConfigError

# BCM numbers of the 40-pin header's GPIO lines.
PIN_RANGE = range(0, 28)
# Defaults avoid I2C (2, 3), UART (14, 15) and SPI0 (7-11): those are often taken.
DEFAULT_BEAM_PINS = (5, 6, 13, 19, 26, 16, 20, 4, 25)
DEFAULTS: dict[str, Any] = {
    "side_left": 21, "side_right": 12, "confirm": 23, "undo": 24,
    "light_red": 17, "light_blue": 27, "buzzer": 22,
}
SINGLE_PINS = tuple(DEFAULTS)


class GpioConfigError(ConfigError):
    """A ``[gpio]`` setting that cannot be used; the message names the key."""


@dataclass(frozen=True)
class PinMap:
    """The validated pin of each device, and the beam timing settings.

        >>> pins = PinMap.from_config({}, columns=7)
        >>> pins.role(23)
        'confirm'
    """

    beams: tuple[int, ...] = DEFAULT_BEAM_PINS[:7]
    side_left: int = DEFAULTS["side_left"]
    side_right: int = DEFAULTS["side_right"]
    confirm: int = DEFAULTS["confirm"]
    undo: int = DEFAULTS["undo"]
    light_red: int = DEFAULTS["light_red"]
    light_blue: int = DEFAULTS["light_blue"]
    buzzer: int = DEFAULTS["buzzer"]
    debounce_ms: float = 10.0
    window_ms: float = 500.0
    roles: dict[int, str] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_config(cls, raw: dict[str, Any] | None, columns: int | None = None) -> PinMap:
        """Defaults, then ``raw`` (the ``[gpio]`` table); ``columns`` checks the beam count."""
        raw = dict(raw or {})
        known = {"beams", *SINGLE_PINS, "debounce_ms", "window_ms", "seats"}   # seats: seat_buttons.py
        unknown = sorted(set(raw) - known)
        if unknown:
            raise GpioConfigError(f"[gpio]: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        if "beams" in raw:
            beams = raw["beams"]
            if not isinstance(beams, (list, tuple)) or not beams:
                raise GpioConfigError(f"[gpio] beams must be a list of pin numbers, one per column, not {beams!r}")
            beams = tuple(_pin("beams", b) for b in beams)
        else:
            n = columns or 7
            if n > len(DEFAULT_BEAM_PINS):
                raise GpioConfigError(f"[gpio] beams: the frame has {n} columns; list the {n} beam pins yourself")
            beams = DEFAULT_BEAM_PINS[:n]
        if columns is not None and len(beams) != columns:
            raise GpioConfigError(f"[gpio] beams lists {len(beams)} pins but the frame has {columns} columns")
        singles = {key: _pin(key, raw.get(key, DEFAULTS[key])) for key in SINGLE_PINS}
        timing = {key: _positive(key, raw.get(key, getattr(cls, key))) for key in ("debounce_ms", "window_ms")}
        roles: dict[int, str] = {}
        named = [(f"beams[{i}] (column {i + 1})", p) for i, p in enumerate(beams)] + list(singles.items())
        for role, pin in named:
            if pin in roles:
                raise GpioConfigError(f"[gpio]: GPIO{pin} is used twice, by {roles[pin]} and by {role}")
            roles[pin] = role
        return cls(beams=beams, roles=roles, **singles, **timing)

    def role(self, pin: int) -> str | None:
        return self.roles.get(pin)

    def game_options(self) -> dict[str, Any]:
        """What the Passe-Murailles game needs from here (it is logged with the game)."""
        return {"beam_window_ms": self.window_ms}

    def to_dict(self) -> dict[str, Any]:
        return {"beams": list(self.beams), **{k: getattr(self, k) for k in SINGLE_PINS},
                "debounce_ms": self.debounce_ms, "window_ms": self.window_ms}


def _pin(key: str, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise GpioConfigError(f"[gpio] {key}: a pin is a BCM number such as 17, not {value!r}")
    if value not in PIN_RANGE:
        raise GpioConfigError(f"[gpio] {key}: GPIO{value} is out of range (the header has GPIO 0..27)")
    return value


def _positive(key: str, value: Any) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not value > 0:
        raise GpioConfigError(f"[gpio] {key} must be a positive number of milliseconds, not {value!r}")
    return float(value)
