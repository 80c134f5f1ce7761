"""The Passe-Murailles frame's hardware, real or simulated, attached to a session.

The game's spec names these two factories (``sensors`` and ``simulator``); the CLI calls
them without knowing which game it runs:

    >>> game_options = {}
    >>> attach(session, settings, game_options)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    table.config.ConfigError: no hardware configured for the frame: use --sim, or give a --config with a [serial]...
    >>> parts = attach(session, pi_settings, game_options)        # the real frame on a Pi  # doctest: +SKIP
    >>> parts = simulate(session, settings=settings, game_options=game_options, pace=2.0,
    ...                  seed=1, restart_after=20.0, faults="miss@0.1")
    >>> [type(part).__name__ for part in parts], game_options
    (['GpioAttachment', '_Stopper', 'Bridge', 'SimulatedTable'], {'beam_window_ms': 500.0})
    >>> for part in parts: _ = part.start()      # (a bridge returns itself)
    >>> session.game        # the simulated players started a game
    'passe-murailles'
    >>> for part in reversed(parts): part.stop()

Real: the sensor board on the serial port, read by the bridge; beams, buttons, lights
and buzzer on the Pi's GPIO. Simulated: the same bridge reading the pure-Python sensor
board (slides, board, top-hole drops) over a pseudo-terminal, the same GPIO code on
gpiozero's ``MockFactory`` pins, with ``--camera`` rendered camera frames through the real
vision code (the colour in the top holes), and two simulated players moving the frame.
Each part has ``start()``/``stop()``.
"""

from __future__ import annotations

import logging
from typing import Any

from table.config import ConfigError

log = logging.getLogger(__name__)


def attach(session: Any, settings: Any, game_options: dict[str, Any]) -> list[Any]:
    """The real frame's sensors. ``game_options`` receives what the game must log with
    its start (the beam window from the GPIO settings)."""
    from firmware_bridge import Bridge
    from hardware.gpio import attach_gpio
    from table.passe_murailles import load_profile

    if not settings.serial.port:
        raise ConfigError("no hardware configured for the frame: use --sim, or give a --config with a [serial] port"
                          " | aucun matériel configuré pour le cadre : utilisez --sim, ou un --config avec un port"
                          " [serial]")
    profile = load_profile(game_options.get("profile"))
    gpio = attach_gpio(session, settings.gpio, columns=profile.columns)
    game_options.update(gpio.pins.game_options())
    bridge = Bridge(settings.serial.port, session.submit, baudrate=settings.serial.baudrate, holes=profile.columns,
                    known_positions=known_counts(session.sensed, profile.columns))
    session.health_sources["serial"] = bridge.health
    return [gpio, bridge]


def known_counts(sensed: dict[str, Any], holes: int) -> dict[str, Any] | None:
    """The board's drop counts the session last logged, for the bridge after a restart
    (the drops made while the service was away are then reported, as ``recovered``),
    with the board time they were right at; None before any drop was logged.

        >>> known_counts({"slides": {}, "board": 2, "drops": {"3": 5}, "mcu_ms": 91000}, 7)
        {'drops': [None, None, None, 5, None, None, None], 'drops_mcu_ms': 91000}
        >>> known_counts({"slides": {}, "board": 2}, 7) is None
        True
    """
    counts = sensed.get("drops")
    if not counts:
        return None
    return {"drops": [counts.get(str(c)) for c in range(holes)], "drops_mcu_ms": sensed.get("mcu_ms")}


def simulate(session: Any, *, settings: Any, game_options: dict[str, Any], pace: float, seed: int | None,
             restart_after: float | None, faults: str = "", camera: bool = False, **_: Any) -> list[Any]:
    """The simulated frame: players, the sensor board behind a pseudo-terminal read by
    the real bridge, and the beams and buttons on gpiozero's MockFactory pins; with
    ``camera``, the top holes are also filmed (rendered frames, the real vision code:
    about 40 MB more and a little CPU at every change, so ``run --sim`` asks ``--camera``)."""
    from hardware.gpio import attach_gpio
    from hardware.gpio.mock_pins import simulated_pins
    from hardware.gpio.sim_pins import GpioSensors
    from hardware.sim_table import Faults, SimulatedTable
    from table.passe_murailles import load_profile
    from table.timers import RealClock

    profile = load_profile(game_options.get("profile"))
    clock = RealClock()
    factory = simulated_pins()  # running for days, its pins must not keep every edge
    gpio = attach_gpio(session, settings.gpio, pin_factory=factory, clock=clock, columns=profile.columns)
    game_options.update(gpio.pins.game_options())
    parsed = Faults.parse(faults or None)
    board, bridge = _serial_stand_in(session, parsed.hole_faults(), profile.columns, seed)
    sensors = GpioSensors(session, factory, gpio.pins, clock, board=board)
    table = SimulatedTable(session, sensors, pace=pace, seed=seed, profile=profile, restart_after=restart_after,
                           clock=clock, faults=parsed, game_options=game_options,
                           camera=_rendered_camera(session, clock, seed, profile.columns) if camera else None)
    return [gpio, _Stopper(board), bridge, table]


def _rendered_camera(session: Any, clock: Any, seed: int | None, columns: int) -> Any:
    """The camera witness on rendered frames through the real vision code, or None
    (logged) when it cannot be set up here: the table still plays without it."""
    from hardware.sim_table import RenderedCamera

    try:
        camera = RenderedCamera(session, clock, seed=seed or 1)
    except Exception as exc:  # no OpenCV, a calibration that does not fit: play on without the witness
        log.warning("simulated camera unavailable (%s); playing without it / caméra simulée indisponible (%s) ; "
                    "la partie continue sans elle", exc, exc)
        return None
    if camera.profile.frame_holes != columns:
        log.warning("simulated camera: the vision profile has %d top holes, the frame %d columns; no camera / "
                    "caméra simulée : le profil de vision a %d trous, le cadre %d colonnes ; pas de caméra",
                    camera.profile.frame_holes, columns, camera.profile.frame_holes, columns)
        return None
    return camera


def _serial_stand_in(session: Any, hole_faults: Any, holes: int, seed: int | None) -> tuple[Any, Any]:
    """The simulated slide and board positions and top-hole drops travel as the real
    ones do: the pure-Python sensor board speaks the real protocol on a
    pseudo-terminal, and the real bridge reads it. Both start where the sensors last saw
    the frame (a restart)."""
    from firmware_bridge import Bridge
    from hardware.sim_board import SimulatedBoard

    slides = {int(k): v for k, v in session.sensed["slides"].items()}
    board_position = session.sensed["board"] or 2
    board = SimulatedBoard(slides_start=tuple(slides.get(n) or 0 for n in range(1, 7)), board_start=board_position,
                           holes=holes, hole_faults=hole_faults, seed=seed or 0)
    board.start()  # the pseudo-terminal must exist before the bridge opens it
    known = {"slides": {n: slides.get(n) or 0 for n in range(1, 7)}, "board": board_position}
    bridge = Bridge(board.port, session.submit, known_positions=known, holes=holes)
    session.health_sources["serial"] = bridge.health
    return board, bridge


class _Stopper:
    """A part already started when built: the service only stops it."""

    def __init__(self, part: Any):
        self.part = part

    def start(self) -> None:
        pass

    def stop(self) -> None:
        self.part.stop()
