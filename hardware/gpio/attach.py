"""Wiring the GPIO devices to a session: edges in as observations, lights and buzzer out.

    >>> gpio = attach_gpio(session, cfg.gpio, columns=7)         # real pins on the Pi
    >>> gpio.start()                                             # beams and buttons report
    >>> gpio.stop()                                              # pins released

* A debounced beam break under column ``c`` becomes a ``beam {column: c}`` observation,
  one at a side a ``side_spill {side}``, stamped with the edge's time.
* **confirm** accepts the physics of the oldest open alert that offers it (what a
  player does when the buzzer went off for a dirty beam); **undo** cancels the last
  resolution of this game (the alert opens again). Pressed with nothing to do, they
  are ignored (the health panel counts the presses).
* The turn lights follow the game's ``current_player``; the buzzer sounds twice for
  every new alert (an illegal move, a disagreement between beams and physics), once
  when the bot announces its move.
* A :class:`~table.timers.DeadlineTimer` submits the ``tick`` that turns "no beam in
  time" into a logged fact.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from table import observations as K
from table.errors import Refused
from table.observations import Observation
from table.passe_murailles.seat import BOT_MOVE
from table.timers import DeadlineTimer

from .devices import BeamArray, Buttons, Buzzer, TurnLights
from .pins import PinMap

log = logging.getLogger(__name__)

SOURCE = "gpio"
STUCK_AFTER = 2.0  # seconds a beam may stay broken before the health panel worries


class GpioAttachment:
    """The devices of one table, attached to one session (build it with :func:`attach_gpio`).

        >>> gpio = attach_gpio(session, {}, pin_factory=MockFactory(), columns=7)
        >>> gpio.start(); gpio.health()["buzzes"]
        0
        >>> gpio.stop()                 # the deadline timer's thread ends, the pins are released
    """

    def __init__(self, session: Any, pins: PinMap, *, pin_factory: Any, clock: Callable[[], float], timer: bool):
        self.session = session
        self.pins = pins
        self.clock = clock
        self._running = threading.Event()
        self._alerts_seen: set[str] = set()
        debounce = pins.debounce_ms / 1000
        self.beams = BeamArray(pins.beams, {"left": pins.side_left, "right": pins.side_right},
                               on_peg=self._peg_seen, clock=clock, debounce=debounce, pin_factory=pin_factory)
        try:
            self.buttons = Buttons({"confirm": pins.confirm, "undo": pins.undo}, on_press=self._pressed,
                                   clock=clock, pin_factory=pin_factory)
            self.lights = TurnLights({"red": pins.light_red, "blue": pins.light_blue}, pin_factory=pin_factory)
            self.buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise
        self.timer = DeadlineTimer(session, clock) if timer else None
        session.subscribe(self._on_observation)
        session.health_sources["gpio"] = self.health

    # ----------------------------------------------------------------- control
    def start(self) -> None:
        self._running.set()
        self._alerts_seen = {a["id"] for a in self.session.snapshot()["alerts"]}
        self._show_turn()
        if self.timer is not None:
            if getattr(self.clock, "virtual", False):
                self.clock.on_advance.append(self.timer.check)  # virtual time: check as it moves
            else:
                self.timer.start()

    def stop(self) -> None:
        self._running.clear()
        if self.timer is not None:
            self.timer.stop()
            hooks = getattr(self.clock, "on_advance", [])
            if self.timer.check in hooks:
                hooks.remove(self.timer.check)
        self.close()

    def close(self) -> None:
        """Release every pin (safe to call twice)."""
        for part in ("beams", "buttons", "lights", "buzzer"):
            device = getattr(self, part, None)
            if device is not None:
                device.close()

    # ----------------------------------------------------------------- inputs
    def _peg_seen(self, name: Any, t: float) -> None:
        if not self._running.is_set():
            return
        if isinstance(name, int):
            obs = Observation(kind=K.BEAM, t=t, source=SOURCE, data={"column": name})
        else:
            obs = Observation(kind=K.SIDE_SPILL, t=t, source=SOURCE, data={"side": name})
        try:
            self.session.submit(obs)
        except Refused as exc:  # the log cannot be written (disk full): the session raised an alert
            log.warning("beam %s not recorded: %s", name, exc.en)

    def _pressed(self, name: str, t: float) -> None:
        if not self._running.is_set():
            return
        try:
            if name == "confirm":
                alert = next((a for a in self.session.snapshot()["alerts"]
                              if any(c["id"] == "physics" for c in a["choices"])), None)
                if alert is not None:
                    self.session.resolve(alert["id"], "physics", source=SOURCE, t=t)
            elif name == "undo":
                self.session.undo(kinds={K.RESOLVE}, source=SOURCE, t=t)
        except Refused as exc:  # nothing to confirm or undo (or a page was faster): the press is counted only
            log.info("button %s: %s", name, exc.en)

    # ----------------------------------------------------------------- outputs
    def _on_observation(self, obs: Observation, session: Any) -> None:
        if not self._running.is_set():
            return
        snap = self._show_turn()
        if obs.kind == BOT_MOVE:
            self.buzzer.sound(1)  # the bot has spoken: its move is on the page and the TV
        open_ids = {a["id"] for a in snap["alerts"]}
        new = open_ids - self._alerts_seen
        self._alerts_seen |= open_ids
        if new:
            self.buzzer.sound(2)

    def _show_turn(self) -> dict[str, Any]:
        snap = self.session.snapshot()
        view = snap.get("view") or {}
        self.lights.show(view.get("current_player") if not view.get("over") else None)
        return snap

    def health(self) -> dict[str, Any]:
        beams = self.beams.health()
        warnings = []
        for name, b in beams.items():
            where_en = f"column {int(name) + 1}" if name.isdigit() else f"{name} side"
            side_fr = "gauche" if name == "left" else "droit"
            where_fr = f"colonne {int(name) + 1}" if name.isdigit() else f"côté {side_fr}"
            if b["broken_for"] > STUCK_AFTER:
                warnings.append({"en": f"The beam of the {where_en} has been blocked for {b['broken_for']:.0f} s.",
                                 "fr": f"Le faisceau de la {where_fr} est coupé depuis {b['broken_for']:.0f} s."})
            if b["edges"] > 6 * b["counted"] + 6:
                warnings.append({"en": f"The beam of the {where_en} chatters ({b['edges']} edges for "
                                       f"{b['counted']} pegs): clean or realign it.",
                                 "fr": f"Le faisceau de la {where_fr} clignote ({b['edges']} fronts pour "
                                       f"{b['counted']} pions) : nettoyez-le ou réalignez-le."})
        return {"pins": self.pins.to_dict(), "beams": beams, "buttons": dict(self.buttons.presses),
                "lit": self.lights.lit, "buzzes": self.buzzer.sounded, "warnings": warnings,
                "running": self._running.is_set()}


def attach_gpio(session: Any, config_gpio: dict[str, Any] | None, *, pin_factory: Any = None,
                clock: Callable[[], float] = time.time, columns: int | None = None,
                timer: bool = True) -> GpioAttachment:
    """Build the table's GPIO devices from the ``[gpio]`` settings and attach them.

    ``pin_factory``: gpiozero's (None: the default, real pins on a Pi; a ``MockFactory``
    in tests and the simulated table). ``clock``: stamps edges (a ``ManualClock`` for
    virtual time). ``columns``: the frame's width, to check the beam count.
    Raises :class:`~hardware.gpio.pins.GpioConfigError` for bad settings."""
    pins = PinMap.from_config(config_gpio, columns=columns)
    return GpioAttachment(session, pins, pin_factory=pin_factory, clock=clock, timer=timer)
