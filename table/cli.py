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
from pathlib import Path
from typing import Any

from table.config import ConfigError, load_config
from table.errors import Refused
from table.stopping import StopFlag

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
    run.add_argument("--game", help="game to play (default: the settings' [game] name); see the README's list")
    run.add_argument("--profile", help="your own frame geometry (TOML)")
    run.add_argument("--host", help="address to serve the dashboard on (default 127.0.0.1)")
    run.add_argument("--port", type=int, help="port of the dashboard (default 8080; 0 picks a free one)")
    run.add_argument("--data", help="folder for the event log (default ./data)")
    run.add_argument("--pace", type=float, help="seconds between simulated moves (default 2)")
    run.add_argument("--seed", type=int, help="seed of the simulated players")
    run.add_argument("--faults", default="", help="simulated sensor faults, e.g. 'miss@0.1,chatter=3@0.2,jam@0.1,"
                                                  "hole_miss@0.1,hole_chatter=3@0.2,hole_overlap@0.1'; with "
                                                  "--camera, the filmed table's faults, e.g. 'glare@0.1,burst@0.1' "
                                                  "(each game's list is in the README; an unknown one is refused "
                                                  "with that list)")
    run.add_argument("--camera", action="store_true",
                     help="with --sim: the simulated table is also filmed (rendered frames through the real vision "
                          "pipeline)")
    run.add_argument("--pin", help="the table's PIN for changing the game (default: made at first start, "
                                   "kept in the data folder)")
    run.add_argument("--pin-everywhere", action="store_true", default=None,
                     help="ask for the PIN on this machine's own screen too (loopback is trusted otherwise)")
    run.add_argument("--bot", choices=["red", "blue"], help="the machine takes this seat (games that have a bot)")
    run.add_argument("--level", type=int, choices=range(1, 6), metavar="1..5",
                     help="the machine's level with --bot (1 beginner .. 5 strongest; default 3)")
    run.add_argument("--mqtt", metavar="URL",
                     help="publish this table to the café's broker: mqtt://host:1883 or mqtts://host:8883")
    run.add_argument("--log-level", choices=["debug", "info", "warning", "error"], default="info",
                     help="least important log messages shown (default info; journal-style under systemd)")
    run.set_defaults(func=cmd_run)

    bench = sub.add_parser("bench", help="measure engine speed and live-update latency")
    bench.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench.add_argument("--soak", type=float, metavar="HOURS",
                       help="soak test: simulated games back to back for HOURS of virtual time, the service "
                            "restarted as a new process (SIGKILL or SIGTERM) at random moments")
    bench.add_argument("--in-process", action="store_true",
                       help="with --soak: restart the service inside this process instead (the older soak)")
    bench.set_defaults(func=cmd_bench)

    logs = sub.add_parser("log", help="check or restore the event log (the owner's tools)")
    log_sub = logs.add_subparsers(dest="log_command", required=True, metavar="ACTION")
    check = log_sub.add_parser("check", help="quick_check, rows, games, lost rows, snapshot against replay")
    restore = log_sub.add_parser("restore", help="put the last daily copy back (stop the service first)")
    restore.add_argument("--from", dest="source", help="a copy to restore instead of the newest daily one")
    for p in (check, restore):
        p.add_argument("--data", help="folder of the event log (default: the settings' data_dir, ./data)")
        p.add_argument("--config", help="TOML settings file")
        p.add_argument("--json", action="store_true", help="print the report as JSON")
    logs.set_defaults(func=cmd_log)

    from hardware import flash
    from table import doctor

    doctor.add_subcommand(sub, doctor.cmd_doctor)
    flash.add_subcommand(sub)
    from hardware import watch

    watch.add_subcommands(sub)  # passetable watch: a folder of camera images scored by the real pipeline

    try:
        from vision import cli as vision_cli
    except ImportError:  # vision is optional at run time on a frame-only table
        vision_cli = None
    if vision_cli is not None and hasattr(vision_cli, "add_subcommands"):
        vision_cli.add_subcommands(sub)
    from web.room import cli as room_cli

    room_cli.add_subcommands(sub)  # passetable hub
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
    from table.logsetup import setup_logging
    from table.rules import ProfileError

    setup_logging(args.log_level)
    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        return _die(*_both(f"broken settings: {exc}", f"réglages invalides : {exc}"))
    for key, section, name in (("host", "service", "host"), ("port", "service", "port"),
                               ("data", "service", "data_dir"), ("game", "game", "name"),
                               ("profile", "game", "profile"), ("pace", "sim", "pace"), ("seed", "sim", "seed"),
                               ("pin", "service", "pin"), ("pin_everywhere", "service", "pin_everywhere")):
        value = getattr(args, key)
        if value is not None:
            setattr(getattr(cfg, section), name, value)
    mqtt_where = f"{cfg.source} [mqtt]" if cfg.mqtt else "--mqtt"  # where an [mqtt] error is
    bot = {"bot": args.bot, "bot_level": args.level or 3} if args.bot else {}  # options of the game played
    if args.mqtt:
        cfg.mqtt = {**cfg.mqtt, "url": args.mqtt}
    if cfg.sim.pace < 0:
        return _die("--pace must be 0 or more seconds", "--pace doit valoir 0 seconde ou plus")
    if cfg.service.pin is not None and not (cfg.service.pin.isdigit() and 4 <= len(cfg.service.pin) <= 12):
        return _die("--pin must be 4 to 12 digits", "--pin doit compter de 4 à 12 chiffres")
    try:
        service = _build_service(cfg, sim=args.sim, args_faults=args.faults, camera=args.camera, game_options=bot,
                                 mqtt_where=mqtt_where)
    except Refused as exc:  # an unknown game, options the game refuses
        return _die(exc.en, exc.fr)
    except ProfileError as exc:
        return _die(f"broken profile: {exc}", f"profil invalide : {exc}")
    except ConfigError as exc:  # e.g. a GPIO pin used twice, no serial port for the frame
        return _die(*_both(f"broken settings: {exc}", f"réglages invalides : {exc}"))
    except OSError as exc:
        return _die(f"cannot start: {exc}", f"démarrage impossible : {exc}")
    except Exception as exc:  # an unusable log file, bad [mqtt] settings (they say both languages)...
        return _die(f"cannot start: {getattr(exc, 'en', exc)}", f"démarrage impossible : {getattr(exc, 'fr', exc)}")
    return service.run_until_stopped()


def _both(en: str, fr: str) -> tuple[str, str]:
    """A message that already holds both languages ("en | fr") is split between them."""
    if " | " in en:
        head_en, _, tail = en.partition(": ")
        msg_en, _, msg_fr = tail.partition(" | ")
        head_fr = fr.partition(": ")[0].partition(" : ")[0]
        return f"{head_en}: {msg_en}", f"{head_fr} : {msg_fr}"
    return en, fr


class Service:
    """The running parts, started and stopped together."""

    def __init__(self, server: Any, parts: list[Any], *, notes: list[str] | None = None, url: str | None = None):
        self.server = server
        self.parts = parts
        self.notes = notes or []  # printed after the address: the PIN, the addresses for phones
        self.url = url or server.url
        self._stopped = StopFlag()  # not a threading.Event: SIGTERM sets it (table.stopping says why)
        self.watchdog: Any = None  # table.watchdog.Watchdog; from the environment (systemd) when None

    def run_until_stopped(self) -> int:
        print(f"passetable: open {self.url}  —  ouvrez {self.url}", flush=True)
        for note in self.notes:
            print(note, flush=True)
        self.server.start()
        started: list[Any] = []
        try:
            for part in self.parts:
                part.start()
                started.append(part)
        except Exception as exc:  # a simulated table or a device that cannot start
            for part in reversed(started):
                part.stop()
            self.server.stop()
            return _die(f"cannot start: {exc}", f"démarrage impossible : {getattr(exc, 'fr', exc)}")
        if threading.current_thread() is threading.main_thread():
            self._stopped.on_signals(signal.SIGINT, signal.SIGTERM)
        self._main_loop()
        for part in reversed(self.parts):
            part.stop()
        self.server.stop()
        print("passetable: stopped / arrêté", flush=True)
        return 0

    def alive(self) -> bool:
        """The watchdog's liveness probe (``_build_service`` asks the session)."""
        return True

    def stop(self) -> None:
        self._stopped.set()

    def _main_loop(self) -> None:
        """Tells systemd the service is ready, then feeds its watchdog while ``alive()``
        answers; a hang here (a deadlocked session) stops the pings and systemd restarts us."""
        from table.watchdog import Watchdog

        dog = self.watchdog = self.watchdog or Watchdog.from_environment(alive=lambda: self.alive())
        dog.notifier.ready(status=f"serving {self.url}")
        dog.tick()
        while not self._stopped.wait(dog.tick_every):
            dog.tick()
        dog.notifier.stopping()


def _build_service(cfg: Any, *, sim: bool, args_faults: str = "", camera: bool = False,
                   game_options: dict[str, Any] | None = None, mqtt_where: str = "[mqtt]") -> Service:
    from table import games
    from table.backup import Keeper
    from table.log import EventLog
    from table.session import Session
    from web.app import create_app
    from web.auth import load_or_make_secret
    from web.hosts import allowed_hosts, lan_addresses
    from web.server import DashboardServer

    spec = games.get(cfg.game.name)
    # every game's start options from the settings (a broken profile file fails here, early)
    defaults = {g.id: g.defaults(cfg) for g in games.games().values() if g.defaults is not None}
    session = Session(EventLog(cfg.log_path))
    options = defaults.setdefault(spec.id, {})
    if game_options:  # --bot / --level
        options.update(game_options)
        spec.check_options(options)  # a game without a bot says so now, not at its first start
    parts: list[Any] = []
    for game in games.games().values():  # what each game adds to the service (e.g. a bot's seat, idle until asked)
        if game.parts is not None:
            parts += game.load("parts")(session, cfg)
    if sim:
        if spec.simulator is None:
            raise ConfigError(f"{spec.names['en']} has no simulated table | {spec.names['fr']} n'a pas de table "
                              "simulée")
        made = spec.load("simulator")(session, pace=cfg.sim.pace, seed=cfg.sim.seed,
                                      restart_after=cfg.sim.restart_after, settings=cfg, game_options=options,
                                      faults=args_faults, camera=camera)
        parts += made if isinstance(made, list) else [made]
    elif spec.sensors is not None:
        parts += spec.load("sensors")(session, cfg, options)
        if session.game is None:  # a sensed game starts by itself; the others from the dashboard's form
            session.start_game(spec.id, options)
    camera = None if sim else _table_camera(cfg, session)
    if camera is not None:
        parts.append(camera)
    guard, notes = _access(cfg)
    app = create_app(session, max_streams=cfg.service.max_streams, game_defaults=defaults, default_game=spec.id,
                     desk=_enrolment_desk(cfg, sim=sim, camera=camera), guard=guard,
                     hosts=allowed_hosts(cfg.service.host, cfg.service.hostnames),
                     secret_key=load_or_make_secret(Path(cfg.service.data_dir)))
    server = DashboardServer(app, host=cfg.service.host, port=cfg.service.port, max_streams=cfg.service.max_streams,
                             keeper=Keeper(session, keep_days=cfg.service.keep_sensor_days))
    url = server.url
    if cfg.service.host in ("0.0.0.0", "::"):  # phones cannot open 0.0.0.0: say where the table really is
        lan = lan_addresses()
        url = f"http://{lan[0] if lan else '127.0.0.1'}:{server.port}/"
        for address in lan:
            notes.append(f"passetable: phones open http://{address}:{server.port}/  —  "
                         f"téléphones : http://{address}:{server.port}/")
        if lan:
            notes.append(_qr_code(url))
        if not lan:
            notes.append("passetable: no network address found / aucune adresse réseau trouvée")
    if cfg.mqtt:
        parts.append(_room_publisher(session, cfg, guard, page_url=url, where=mqtt_where))
    service = Service(server, parts, notes=notes, url=url)
    service.alive = lambda: isinstance(session.snapshot(), dict)  # type: ignore[method-assign]  # takes its lock
    return service


def _room_publisher(session: Any, cfg: Any, guard: Any, *, page_url: str, where: str) -> Any:
    """The table on the café's broker (``[mqtt]`` or ``--mqtt``); commands from the hub are
    signed with the table's own PIN."""
    from web.room.publisher import TablePublisher
    from web.room.settings import from_toml

    values = {"page_url": page_url, **cfg.mqtt}
    if values.get("commands"):
        values.setdefault("pin", guard.pin)
    settings = from_toml(values, where=where)
    publisher = TablePublisher.from_settings(session, settings)
    session.health_sources["mqtt"] = publisher.health
    return publisher


def _qr_code(url: str) -> str:
    """The address as a QR code drawn with text, for a phone held up to the console."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=1)
    return out.getvalue().rstrip("\n")


def _access(cfg: Any) -> tuple[Any, list[str]]:
    """The table's PIN (from the settings, or made once and kept in the data folder) and
    what the console says about it."""
    from web.auth import TableGuard, load_or_make_pin

    notes: list[str] = []
    pin, made = cfg.service.pin, False
    if pin is None:
        pin, made = load_or_make_pin(Path(cfg.service.data_dir))
        where = Path(cfg.service.data_dir) / "pin"
        notes.append(f"passetable: the table's PIN is {pin} (kept in {where}; --pin to choose one)  —  "
                     f"code de la table : {pin} (gardé dans {where} ; --pin pour en choisir un)")
    open_to_all = cfg.service.host not in ("127.0.0.1", "localhost", "::1")
    if open_to_all and (made or cfg.service.pin is None):
        notes.append("passetable: WARNING: listening on the network with a generated PIN; choose your own with "
                     "--pin or [service] pin  —  ATTENTION : table ouverte sur le réseau avec un code généré ; "
                     "choisissez le vôtre avec --pin ou [service] pin")
    return TableGuard(pin, pin_everywhere=cfg.service.pin_everywhere), notes


def _table_camera(cfg: Any, session: Any) -> Any:
    """The configured camera reading the card and cup games into the session (None: no
    ``[camera] source``)."""
    if not cfg.camera.source:
        return None
    from hardware.camera import TableCamera
    from vision.sources import open_source

    return TableCamera(session, lambda: open_source(cfg.camera.source), Path(cfg.service.data_dir) / "models")


def _enrolment_desk(cfg: Any, *, sim: bool, camera: Any = None) -> Any:
    """The camera and deck models behind the dashboard's enrolment page: the simulated
    table's camera with --sim, the configured camera otherwise (its latest frame: one
    camera, one reader; None: no page)."""
    import time
    from pathlib import Path

    models = Path(cfg.service.data_dir) / "models"
    if sim:
        from vision.desk import simulated_desk

        return simulated_desk(models, time.time)
    if camera is None:
        return None
    from vision.desk import EnrolmentDesk

    return EnrolmentDesk(camera.frames(), models)


# --------------------------------------------------------------------------- bench
def cmd_bench(args: argparse.Namespace) -> int:
    from table import soak
    from table.bench import run_benchmarks, run_soak

    if args.soak is not None:
        if not 0 < args.soak <= 24 * 30:
            return _die("--soak takes 0 to 720 hours", "--soak prend de 0 à 720 heures")
        if args.in_process:
            return run_soak(args.soak, as_json=args.json, quick=args.quick)
        return soak.run(args.soak, as_json=args.json, quick=args.quick)
    return run_benchmarks(quick=args.quick, as_json=args.json)


# --------------------------------------------------------------------------- log
def cmd_log(args: argparse.Namespace) -> int:
    from table import logtools

    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        return _die(*_both(f"broken settings: {exc}", f"réglages invalides : {exc}"))
    if args.data is not None:
        cfg.service.data_dir = args.data
    if args.log_command == "check":
        return logtools.main_check(cfg.log_path, as_json=args.json)
    return logtools.main_restore(cfg.log_path, args.source, as_json=args.json)


if __name__ == "__main__":
    sys.exit(main())
