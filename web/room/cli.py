"""The ``hub`` command of ``passetable``: the café's page over every table of the room.

    passetable hub --mqtt mqtt://broker.local:1883 --port 8090
    passetable hub --mqtt mqtts://broker.local --username hub --password … --ca-file ca.pem

``table/cli.py`` calls :func:`add_subcommands` on its subparsers; ``python -m web.room.cli``
runs the same command alone. Errors are one line on stderr (English / French) and exit
code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import signal
import sys

from table.stopping import StopFlag
from web.room.settings import SettingsError, parse_url

EXIT_ERROR = 2


def _fail(en: str, fr: str) -> int:
    print(f"passetable: {en}\npassetable : {fr}", file=sys.stderr)
    return EXIT_ERROR


def cmd_hub(args: argparse.Namespace) -> int:
    from web.room.app import create_hub_app
    from web.room.hub import RoomHub
    from web.server import DashboardServer

    try:
        parse_url(args.mqtt)
        if args.password is not None and args.username is None:
            raise SettingsError("--password needs --username", "--password demande --username")
        hub = RoomHub(url=args.mqtt, username=args.username, password=args.password, ca_file=args.ca_file,
                      tls_insecure=args.tls_insecure)
    except SettingsError as exc:
        return _fail(exc.en, exc.fr)
    try:
        server = DashboardServer(create_hub_app(hub, max_streams=args.max_streams), host=args.host, port=args.port,
                                 max_streams=args.max_streams)
    except OSError as exc:
        return _fail(f"cannot serve the hub page: {exc}", f"impossible de servir la page de la salle : {exc}")
    stopped = StopFlag()
    stopped.on_signals(signal.SIGINT, signal.SIGTERM)
    print(f"passetable hub: open {server.url}  —  ouvrez {server.url}", flush=True)
    hub.start()
    server.start()
    stopped.wait()
    server.stop()
    hub.stop()
    print("passetable hub: stopped / arrêté", flush=True)
    return 0


def add_subcommands(subparsers) -> None:
    """Add ``hub`` to an argparse subparsers object."""
    p = subparsers.add_parser("hub", help="one page showing every table of the room (MQTT)")
    p.add_argument("--mqtt", required=True, help="broker address: mqtt://host:1883 or mqtts://host:8883")
    p.add_argument("--host", default="127.0.0.1", help="address to serve the page on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8090, help="port of the page (default 8090; 0 picks a free one)")
    p.add_argument("--username", help="broker username")
    p.add_argument("--password", help="broker password")
    p.add_argument("--ca-file", help="CA certificate for mqtts:// (default: the system's)")
    p.add_argument("--tls-insecure", action="store_true", help="do not check the broker's certificate (tests only)")
    p.add_argument("--max-streams", type=int, default=32, help="live pages served at once (default 32)")
    p.set_defaults(func=cmd_hub)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m web.room.cli", description="passetable room hub")
    sub = parser.add_subparsers(dest="command", required=True)
    add_subcommands(sub)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
