"""``passetable firmware flash|version``: put the sensor board's firmware on it, ask which it runs.

    passetable firmware version [--port /dev/passeframe] [--json]
    passetable firmware flash [--port /dev/passeframe] [--hex FILE] [--baud 115200] [--dry-run]

Flashing goes through the Arduino's own bootloader with avrdude (Debian package
``avrdude``), as ``make -C hardware/firmware flash`` does; the image is
``hardware/firmware/build/passeframe.hex`` (``/opt/passetable/firmware`` on an installed
Pi), built first (``gcc-avr``) when it is missing.
Nano clones with the old bootloader need ``--baud 57600``.

    >>> avrdude_command("/dev/passeframe", "build/passeframe.hex")
    ['avrdude', '-p', 'atmega328p', '-c', 'arduino', '-P', '/dev/passeframe', '-b', '115200', '-D', \
'-U', 'flash:w:build/passeframe.hex:i']
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

# The firmware's source: beside this module in a checkout; install.sh copies it (and its
# built image) to /opt/passetable/firmware, since an installed package carries no C sources.
FIRMWARE_DIRS = (Path(__file__).resolve().parent / "firmware", Path("/opt/passetable/firmware"))
FIRMWARE_DIR = next((d for d in FIRMWARE_DIRS if (d / "Makefile").is_file()), FIRMWARE_DIRS[0])
DEFAULT_PORT = "/dev/passeframe"


def _say(en: str, fr: str, *, err: bool = False) -> None:
    print(f"passetable: {en}\npassetable : {fr}", file=sys.stderr if err else sys.stdout, flush=True)


def avrdude_command(port: str, hex_path: str | Path, *, baud: int = 115200, mcu: str = "atmega328p",
                    programmer: str = "arduino", attempts: int | None = None) -> list[str]:
    """The avrdude command line that writes ``hex_path`` through the board's bootloader
    (``-D``: the bootloader erases page by page itself; ``attempts``: tries to get in sync
    with the bootloader, avrdude's default 10 when None)."""
    extra = ["-x", f"attempts={attempts}"] if attempts else []
    return ["avrdude", "-p", mcu, "-c", programmer, "-P", str(port), "-b", str(baud), "-D", *extra,
            "-U", f"flash:w:{hex_path}:i"]


def build_hex(out_dir: Path, source: Path = FIRMWARE_DIR) -> Path:
    """Builds the firmware image from ``source`` into ``out_dir`` with make and avr-gcc;
    returns its path."""
    hex_path = out_dir / "passeframe.hex"
    done = subprocess.run(["make", "-s", "-C", str(source), f"BUILD={out_dir}", str(hex_path)],
                          capture_output=True, text=True)
    if done.returncode != 0 or not hex_path.exists():
        raise RuntimeError((done.stderr or done.stdout).strip()[-800:] or "make failed")
    return hex_path


def _port(args: argparse.Namespace) -> str:
    if args.port:
        return args.port
    from table.config import ConfigError, load_config

    path = args.config or ("/etc/passetable/table.toml" if Path("/etc/passetable/table.toml").exists() else None)
    try:
        return load_config(path).serial.port or DEFAULT_PORT
    except ConfigError:
        return DEFAULT_PORT


def _service_holds_port() -> bool:
    from table.doctor import SERVICE, _systemctl_is_active

    return _systemctl_is_active(SERVICE) == "active"


def cmd_flash(args: argparse.Namespace) -> int:
    port = _port(args)
    if not args.dry_run and _service_holds_port():
        _say("the service holds the board's port: stop it first (sudo systemctl stop passetable), then start it "
             "again", "le service tient le port de la carte : arrêtez-le d'abord (sudo systemctl stop passetable), "
             "puis relancez-le", err=True)
        return 1
    tmp: str | None = None
    try:
        if args.hex:
            hex_path = Path(args.hex)
            if not hex_path.is_file():
                _say(f"no firmware image {hex_path}", f"pas d'image de micrologiciel {hex_path}", err=True)
                return 2
        elif (FIRMWARE_DIR / "build" / "passeframe.hex").is_file():
            hex_path = FIRMWARE_DIR / "build" / "passeframe.hex"
        elif args.dry_run:
            hex_path = FIRMWARE_DIR / "build" / "passeframe.hex"
        else:
            tmp = tempfile.mkdtemp(prefix="passeframe-build-")
            try:
                hex_path = build_hex(Path(tmp))
            except (RuntimeError, OSError) as exc:
                _say(f"cannot build the firmware (needs gcc-avr, avr-libc, make): {exc}",
                     f"impossible de compiler le micrologiciel (il faut gcc-avr, avr-libc, make) : {exc}", err=True)
                return 1
        command = avrdude_command(port, hex_path, baud=args.baud, attempts=args.attempts)
        if args.dry_run:
            print(" ".join(command))
            return 0
        if shutil.which("avrdude") is None:
            _say("avrdude is not installed: sudo apt-get install avrdude",
                 "avrdude n'est pas installé : sudo apt-get install avrdude", err=True)
            return 1
        _say(f"flashing {hex_path} on {port}...", f"flashage de {hex_path} sur {port}...")
        done = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
        if done.returncode != 0:
            tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-4:])
            _say(f"avrdude failed on {port} (is it the board? try --baud 57600 for an old Nano bootloader, or "
                 f"press reset as the upload starts):\n{tail}",
                 f"avrdude a échoué sur {port} (est-ce bien la carte ? essayez --baud 57600 pour un ancien "
                 f"chargeur de Nano, ou appuyez sur reset au début du flashage) :\n{tail}", err=True)
            return 1
        _say("flashed; check it: passetable firmware version", "flashé ; vérifiez : passetable firmware version")
        return 0
    except subprocess.TimeoutExpired:
        _say(f"avrdude did not finish within {args.timeout:.0f} s", f"avrdude n'a pas fini en {args.timeout:.0f} s",
             err=True)
        return 1
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


def cmd_version(args: argparse.Namespace) -> int:
    from firmware_bridge.protocol import PROTOCOL_VERSION
    from table.doctor import _read_board

    port = _port(args)
    board = _read_board(port, args.baudrate)
    h: dict[str, Any] = board["health"]
    info = {"port": port, "found": board["opened"], "firmware": h.get("firmware"),
            "version": h.get("firmware_version"), "protocol": h.get("protocol_version"),
            "host_protocol": PROTOCOL_VERSION, "reset_cause": h.get("reset_cause"), "refused": h.get("refused"),
            "error": board["error"]}
    if args.json:
        print(json.dumps(info, ensure_ascii=False))
    elif not board["opened"]:
        _say(f"no sensor board at {port}: {board['error']}", f"aucune carte capteurs sur {port} : {board['error']}",
             err=True)
    elif not info["firmware"]:
        _say(f"the board at {port} did not say HELLO", f"la carte sur {port} n'a pas dit HELLO", err=True)
    else:
        print(f"{info['firmware']} {info['version']}, protocol / protocole {info['protocol']} "
              f"(passetable: {PROTOCOL_VERSION}), reset / redémarrage: {info['reset_cause']}")
        if info["refused"]:
            print(info["refused"])
    return 0 if info["firmware"] and not info["refused"] else 1


def add_subcommand(sub: Any) -> argparse.ArgumentParser:
    fw = sub.add_parser("firmware", help="the sensor board's firmware: flash it, ask its version")
    fw_sub = fw.add_subparsers(dest="firmware_command", required=True, metavar="ACTION")
    flash = fw_sub.add_parser("flash", help="write the firmware through the board's bootloader (avrdude)")
    flash.add_argument("--port", help=f"the board's serial port (default: the settings', else {DEFAULT_PORT})")
    flash.add_argument("--config", help="TOML settings file (its [serial] port)")
    flash.add_argument("--hex", help="firmware image (default: hardware/firmware/build/passeframe.hex, built if "
                                     "missing)")
    flash.add_argument("--baud", type=int, default=115200, help="bootloader speed (57600 for an old Nano)")
    flash.add_argument("--attempts", type=int, help="tries to reach the bootloader (avrdude's default: 10)")
    flash.add_argument("--timeout", type=float, default=120.0, help="give avrdude this many seconds")
    flash.add_argument("--dry-run", action="store_true", help="print the avrdude command, do nothing")
    flash.set_defaults(func=cmd_flash)
    version = fw_sub.add_parser("version", help="ask the board which firmware and protocol it runs")
    version.add_argument("--port", help=f"the board's serial port (default: the settings', else {DEFAULT_PORT})")
    version.add_argument("--config", help="TOML settings file (its [serial] port)")
    version.add_argument("--baudrate", type=int, default=115200)
    version.add_argument("--json", action="store_true", help="print the answer as JSON")
    version.set_defaults(func=cmd_version)
    return fw
