"""``passetable``: the command line, and the one place where the parts are put together.

    passetable run --sim                  # the whole service on the simulated table
    passetable run --config table.toml    # against the real frame
    passetable bench                      # engine and live-update figures

This module is the composition root: it is the only module of ``table`` that imports
the other packages (web, hardware, firmware_bridge, vision), and only inside the
commands that need them, so that ``table`` itself stays free of I/O.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import Any

from table.config import ConfigError, load_config

EXIT_USAGE = 2


def _die(en: str, fr: str) -> int:
    print(f"passetable: {en}\npassetable : {fr}", file=sys.stderr)
    return EXIT_USAGE


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="passetable", description="Keeps score beside a Passe family game table.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser("run", help="start the service (dashboard, sensors, session)")
    run.add_argument("--sim", action="store_true", help="play on the simulated table (no hardware needed)")
    run.add_argument("--config", help="TOML settings file (see README)")
    run.add_argument("--game", help="game to start: passe-murailles (default), pass-pass, ptipasspass, passe-eclair")
    run.add_argument("--profile", help="your own Passe-Murailles geometry (TOML)")
    run.add_argument("--host", help="address to serve the dashboard on (default 127.0.0.1)")
    run.add_argument("--port", type=int, help="port of the dashboard (default 8080; 0 picks a free one)")
    run.add_argument("--data", help="folder for the event log (default ./data)")
    run.add_argument("--pace", type=float, help="seconds between simulated moves (default 2)")
    run.add_argument("--seed", type=int, help="seed of the simulated players")
    run.add_argument("--faults", default="", help="simulated sensor faults, e.g. 'miss@0.1,chatter=3@0.2,jam@0.1'")
    run.set_defaults(func=cmd_run)

    bench = sub.add_parser("bench", help="measure engine speed and live-update latency")
    bench.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench.set_defaults(func=cmd_bench)

    try:
        from vision import cli as vision_cli
    except ImportError:  # vision is optional at run time on a frame-only table
        vision_cli = None
    if vision_cli is not None and hasattr(vision_cli, "add_subcommands"):
        vision_cli.add_subcommands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130


# --------------------------------------------------------------------------- run
def cmd_run(args: argparse.Namespace) -> int:
    from table.rules import ProfileError

    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        return _die(f"broken settings: {exc}", f"réglages invalides : {exc}")
    for key, section, name in (("host", "service", "host"), ("port", "service", "port"),
                               ("data", "service", "data_dir"), ("game", "game", "name"),
                               ("profile", "game", "profile"), ("pace", "sim", "pace"), ("seed", "sim", "seed")):
        value = getattr(args, key)
        if value is not None:
            setattr(getattr(cfg, section), name, value)
    if cfg.sim.pace < 0:
        return _die("--pace must be 0 or more seconds", "--pace doit valoir 0 seconde ou plus")
    if not args.sim and cfg.game.name == "passe-murailles" and not cfg.serial.port:
        # the card and cup games can be kept on the dashboard alone; the frame needs its sensors
        return _die("no hardware configured for the frame: use --sim, or give a --config with a [serial] port",
                    "aucun matériel configuré pour le cadre : utilisez --sim, ou un --config avec un port [serial]")
    try:
        service = _build_service(cfg, sim=args.sim, args_faults=args.faults)
    except ProfileError as exc:
        return _die(f"broken profile: {exc}", f"profil invalide : {exc}")
    except ConfigError as exc:  # e.g. a GPIO pin used twice
        return _die(f"broken settings: {exc}", f"réglages invalides : {exc}")
    except OSError as exc:
        return _die(f"cannot start: {exc}", f"démarrage impossible : {exc}")
    except Exception as exc:  # an unusable log file, a game that cannot start...
        return _die(f"cannot start: {exc}", f"démarrage impossible : {exc}")
    return service.run_until_stopped()


class Service:
    """The running parts, started and stopped together."""

    def __init__(self, server: Any, parts: list[Any]):
        self.server = server
        self.parts = parts
        self._stopped = threading.Event()

    def run_until_stopped(self) -> int:
        print(f"passetable: open {self.server.url}  —  ouvrez {self.server.url}", flush=True)
        self.server.start()
        for part in self.parts:
            part.start()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: self._stopped.set())
        self._stopped.wait()
        for part in reversed(self.parts):
            part.stop()
        self.server.stop()
        print("passetable: stopped / arrêté", flush=True)
        return 0


def _build_service(cfg: Any, *, sim: bool, args_faults: str = "") -> Service:
    from table.adapters import ADAPTERS, UnknownGame
    from table.log import EventLog
    from table.passe_murailles import load_profile
    from table.session import Session
    from web.app import create_app
    from web.server import DashboardServer

    if cfg.game.name not in ADAPTERS:
        raise UnknownGame(cfg.game.name)
    profile = load_profile(cfg.game.profile)  # fail early on a broken profile file
    session = Session(EventLog(cfg.log_path))
    defaults: dict[str, dict[str, Any]] = {"passe-murailles": {"profile": profile.to_dict()}}
    parts: list[Any] = []
    if sim:
        parts += _simulation(cfg, session, profile, defaults, faults=args_faults)
    else:
        parts += _real_frame(cfg, session, profile, defaults)
        if session.adapter is None and cfg.game.name == "passe-murailles":
            session.new_game(cfg.game.name, defaults[cfg.game.name])
        # a card or cup game starts from the dashboard's form (players, names...)
    app = create_app(session, max_streams=cfg.service.max_streams, game_defaults=defaults, default_game=cfg.game.name,
                     desk=_enrolment_desk(cfg, sim=sim))
    server = DashboardServer(app, host=cfg.service.host, port=cfg.service.port, max_streams=cfg.service.max_streams)
    return Service(server, parts)


def _enrolment_desk(cfg: Any, *, sim: bool) -> Any:
    """The camera and deck models behind the dashboard's enrolment page: the simulated
    table's camera with --sim, the configured camera otherwise (None: no page)."""
    import time
    from pathlib import Path

    models = Path(cfg.service.data_dir) / "models"
    if sim:
        from vision.desk import simulated_desk

        return simulated_desk(models, time.time)
    if not cfg.camera.source:
        return None
    from vision.desk import EnrolmentDesk
    from vision.sources import open_source

    return EnrolmentDesk(open_source(cfg.camera.source), models)


def _real_frame(cfg: Any, session: Any, profile: Any, defaults: dict[str, dict[str, Any]]) -> list[Any]:
    """The Passe-Murailles frame's real sensors: the serial board and the Pi's GPIO."""
    from firmware_bridge import Bridge
    from hardware.gpio import attach_gpio

    parts: list[Any] = []
    if cfg.game.name == "passe-murailles":
        gpio = attach_gpio(session, cfg.gpio, columns=profile.columns)
        defaults["passe-murailles"].update(gpio.pins.game_options())
        parts.append(gpio)
    if cfg.serial.port:
        bridge = Bridge(cfg.serial.port, session.submit, baudrate=cfg.serial.baudrate)
        session.health_sources["serial"] = bridge.health
        parts.append(bridge)
    return parts


def _simulation(cfg: Any, session: Any, profile: Any, defaults: dict[str, dict[str, Any]], *,
                faults: str = "") -> list[Any]:
    """The simulated table of the chosen game. For the frame: the simulated players, the
    sensor board behind a pseudo-terminal read by the real bridge, and the beams and
    buttons on gpiozero's MockFactory pins. For the card and cup games:
    ``hardware.sim_<game>.make_simulation``."""
    import importlib

    if cfg.game.name != "passe-murailles":
        module = importlib.import_module("hardware.sim_" + cfg.game.name.replace("-", "_"))
        return [module.make_simulation(session, pace=cfg.sim.pace, seed=cfg.sim.seed,
                                       restart_after=cfg.sim.restart_after)]
    from gpiozero.pins.mock import MockFactory

    from hardware.gpio import attach_gpio
    from hardware.gpio.sim_pins import GpioSensors
    from hardware.sim_table import SimulatedTable
    from table.timers import RealClock

    clock = RealClock()
    factory = MockFactory()
    gpio = attach_gpio(session, cfg.gpio, pin_factory=factory, clock=clock, columns=profile.columns)
    defaults["passe-murailles"].update(gpio.pins.game_options())
    parts: list[Any] = [gpio]
    serial_parts, sensors = _serial_stand_in(session, GpioSensors(session, factory, gpio.pins, clock))
    parts += serial_parts
    table = SimulatedTable(session, sensors, pace=cfg.sim.pace, seed=cfg.sim.seed, profile=profile,
                           restart_after=cfg.sim.restart_after, clock=clock, faults=faults or None,
                           game_options=defaults["passe-murailles"])
    return [*parts, table]


def _serial_stand_in(session: Any, sensors: Any) -> tuple[list[Any], Any]:
    """The simulated slide and board positions travel as the real ones do: the
    pure-Python sensor board speaks the real protocol on a pseudo-terminal, and the real
    bridge reads it. Both start where the sensors last saw the frame (a restart)."""
    from firmware_bridge import Bridge
    from hardware.sim_board import SimulatedBoard
    from hardware.sim_table import SerialBoardSensors

    slides = {int(k): v for k, v in session.sensed["slides"].items()}
    board_position = session.sensed["board"] or 2
    board = SimulatedBoard(slides_start=tuple(slides.get(n, 0) for n in range(1, 7)), board_start=board_position)
    board.start()  # the pseudo-terminal must exist before the bridge opens it
    known = {"slides": {n: slides.get(n, 0) for n in range(1, 7)}, "board": board_position}
    bridge = Bridge(board.port, session.submit, known_positions=known)
    session.health_sources["serial"] = bridge.health
    return [_Stopper(board), bridge], SerialBoardSensors(board, sensors)


class _Stopper:
    """A part already started when built: the service only stops it."""

    def __init__(self, part: Any):
        self.part = part

    def start(self) -> None:
        pass

    def stop(self) -> None:
        self.part.stop()


# --------------------------------------------------------------------------- bench
def cmd_bench(args: argparse.Namespace) -> int:
    from table.bench import run_benchmarks

    return run_benchmarks(quick=args.quick, as_json=args.json)


if __name__ == "__main__":
    sys.exit(main())
