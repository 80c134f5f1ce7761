"""The table's GPIO devices (gpiozero): peg-drop break-beams, buttons, turn lights, buzzer.

    >>> from hardware.gpio import attach_gpio
    >>> gpio = attach_gpio(session, cfg.gpio, columns=7)   # real pins; pin_factory=MockFactory() in tests
    >>> gpio.start()
    >>> sorted(gpio.health()["beams"])
    ['0', '1', '2', '3', '4', '5', '6', 'left', 'right']
    >>> gpio.stop()

Modules: ``pins`` (the ``[gpio]`` settings, defaults and checks), ``devices`` (one
class per device, debounced from edge times), ``attach`` (edges → observations,
session → lights and buzzer), ``sim_pins`` (the simulated table driving mock pins).
"""

from .attach import GpioAttachment, attach_gpio
from .devices import Beam, BeamArray, Buttons, Buzzer, EdgeDebouncer, TurnLights
from .pins import DEFAULT_BEAM_PINS, GpioConfigError, PinMap

__all__ = [
    "Beam", "BeamArray", "Buttons", "Buzzer", "DEFAULT_BEAM_PINS", "EdgeDebouncer", "GpioAttachment",
    "GpioConfigError", "PinMap", "TurnLights", "attach_gpio",
]
