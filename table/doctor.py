"""``passetable doctor``: is this table ready to play? One check per part, each with ✓/✗
and, when it fails, what to do about it in English and French.

    passetable doctor                          # the Pi's own settings (/etc/passetable/table.toml)
    passetable doctor --config table.toml --json
    passetable doctor --sim                    # the simulated hardware (a board on a pty, mock pins)
    passetable doctor --sim --fault beam-blocked   # ...with one fault injected

The exit code is 0 only when no check fails (a check that does not apply, such as the
card deck for the slide frame, is skipped and does not fail).

    >>> target = Target.simulated(data_dir=tmp_path, faults=["disk-full"])
    >>> with opened(target):
    ...     [(r.id, r.status) for r in run_checks(target, only=["data", "handshake"])]
    [('data', 'fail'), ('handshake', 'ok')]

The checks use the other packages (bridge, GPIO, vision) lazily inside the functions
that need them, as the CLI does, so ``table`` itself loads none of them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from table.config import Config, ConfigError, load_config

PI_SETTINGS = "/etc/passetable/table.toml"
MIN_FREE_MB = 200          # a season of games is a few MB; updates and the journal need room too
HANDSHAKE_S = 3.0          # the board says HELLO within a second of being opened (after the DTR reset)
STABLE_S = 0.7             # more than one heartbeat (0.5 s) between the two readings of the slides
SERVICE = "passetable.service"

OK, FAIL, SKIP = "ok", "fail", "skip"
MARK = {OK: "✓", FAIL: "✗", SKIP: "–"}

FAULTS = {
    "bad-settings": "settings", "disk-full": "data", "data-readonly": "data", "log-corrupt": "log",
    "serial-unplugged": "serial", "old-firmware": "handshake", "slide-stuck": "slides",
    "beam-blocked": "pins", "pin-busy": "pins", "camera-missing": "camera", "markers-hidden": "camera",
    "deck-missing": "deck", "port-busy": "port",
}


@dataclass
class Result:
    """One check's outcome; ``detail`` and ``fix`` are (English, French)."""

    id: str
    title: tuple[str, str]
    status: str
    detail: tuple[str, str] = ("", "")
    fix: tuple[str, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "status": self.status, "ok": self.status != FAIL,
                             "title": {"en": self.title[0], "fr": self.title[1]},
                             "detail": {"en": self.detail[0], "fr": self.detail[1]}}
        d["fix"] = None if self.fix is None else {"en": self.fix[0], "fr": self.fix[1]}
        return d

    def lines(self) -> list[str]:
        out = [f"{MARK[self.status]} {self.title[0]} / {self.title[1]}"]
        if self.detail[0]:
            out.append(f"    {self.detail[0]}" + (f" / {self.detail[1]}" if self.detail[1] != self.detail[0] else ""))
        if self.status == FAIL and self.fix:
            out.append(f"    fix: {self.fix[0]}")
            out.append(f"    à faire : {self.fix[1]}")
        return out


# --------------------------------------------------------------------------- the target
@dataclass
class Target:
    """What the checks look at: the settings and how to reach each part. The real table
    and the simulated one differ only in how the parts are reached."""

    config_path: str | None
    cfg: Config
    settings_error: str | None = None
    sim: bool = False
    disk_usage: Callable[[str], Any] = shutil.disk_usage
    pin_factory: Any = None                         # gpiozero's default (the Pi's pins) when None
    claim_input: Callable[[int], Any] | None = None  # pin -> a gpiozero input device (default: pull-up input)
    open_camera: Callable[[], Any] | None = None    # -> a vision FrameSource
    service_state: Callable[[], str | None] = field(default=lambda: _systemctl_is_active(SERVICE))
    clock_synced: Callable[[], bool | None] = field(default=lambda: kernel_clock_synced())
    cleanup: list[Callable[[], None]] = field(default_factory=list)
    _board: dict[str, Any] | None = None

    @classmethod
    def real(cls, config_path: str | None = None, *, data_dir: str | None = None, port: int | None = None) -> Target:
        if config_path is None and Path(PI_SETTINGS).exists():
            config_path = PI_SETTINGS
        cfg, error = _load(config_path)
        _override(cfg, data_dir, port)
        return cls(config_path, cfg, error)

    @classmethod
    def simulated(cls, config_path: str | None = None, *, data_dir: str | Path | None = None,
                  port: int | None = None, game: str | None = None, faults: list[str] | tuple[str, ...] = ()) -> Target:
        """The simulated hardware: the pure-Python sensor board on a pseudo-terminal (read by
        the real bridge), gpiozero's MockFactory pins, a camera that renders the four
        markers; ``faults`` (names of :data:`FAULTS`) are injected into it."""
        unknown = sorted(set(faults) - set(FAULTS))
        if unknown:
            raise ValueError(f"unknown fault(s) {', '.join(unknown)} (known: {', '.join(FAULTS)})")
        cleanup: list[Callable[[], None]] = []
        if data_dir is None:
            tmp = tempfile.mkdtemp(prefix="passetable-doctor-")
            cleanup.append(lambda: shutil.rmtree(tmp, ignore_errors=True))
            data_dir = tmp
        data = Path(data_dir)
        data.mkdir(parents=True, exist_ok=True)
        if "bad-settings" in faults:
            config_path = str(data / "broken-table.toml")
            Path(config_path).write_text('[service]\nport = "eighty"\n', encoding="utf-8")
        cfg, error = _load(config_path)
        _override(cfg, str(data), port)
        if game:
            cfg.game.name = game
        target = cls(config_path, cfg, error, sim=True, cleanup=cleanup)
        target.service_state = lambda: None
        target.clock_synced = lambda: None
        if "disk-full" in faults:
            real_usage = target.disk_usage
            target.disk_usage = lambda p: real_usage(p)._replace(free=5 * 1024 * 1024)
        if "data-readonly" in faults:
            target.disk_usage = _readonly(target.disk_usage)
        if "log-corrupt" in faults:
            cfg.log_path.parent.mkdir(parents=True, exist_ok=True)
            cfg.log_path.write_bytes(b"SQLite format 3\x00" + b"\xde\xad" * 2048)
        _simulate_board(target, faults)
        _simulate_pins(target, faults)
        _simulate_camera(target, faults)
        if "port-busy" in faults:
            sock = socket.socket()
            sock.bind((cfg.service.host, 0))  # another program listening on the port
            sock.listen(1)
            cfg.service.port = sock.getsockname()[1]
            cleanup.append(sock.close)
        return target

    def close(self) -> None:
        for undo in reversed(self.cleanup):
            with contextlib.suppress(Exception):
                undo()
        self.cleanup.clear()

    def board(self) -> dict[str, Any]:
        """One look at the sensor board through the real bridge (done once, shared by the
        serial, handshake and slide checks)."""
        if self._board is None:
            self._board = _read_board(self.cfg.serial.port or "", self.cfg.serial.baudrate)
        return self._board


def _load(path: str | None) -> tuple[Config, str | None]:
    try:
        return load_config(path), None
    except ConfigError as exc:
        return load_config(None), str(exc)


def _override(cfg: Config, data_dir: str | None, port: int | None) -> None:
    if data_dir is not None:
        cfg.service.data_dir = str(data_dir)
    if port is not None:
        cfg.service.port = port


def _readonly(usage: Callable[[str], Any]) -> Callable[[str], Any]:
    def check(path: str) -> Any:
        raise PermissionError(13, "Read-only file system (simulated)", path)
    check.readonly = True  # type: ignore[attr-defined]
    return check


# --------------------------------------------------------------------------- the checks
Check = Callable[[Target], Result]
CHECKS: dict[str, tuple[tuple[str, str], Check]] = {}


def check(id_: str, en: str, fr: str) -> Callable[[Check], Check]:
    def register(fn: Check) -> Check:
        CHECKS[id_] = ((en, fr), fn)
        return fn
    return register


def _r(t: tuple[str, str], id_: str, status: str, en: str = "", fr: str = "",
       fix: tuple[str, str] | None = None) -> Result:
    return Result(id_, t, status, (en, fr or en), fix)


def _sensed_game(target: Target) -> Any:
    from table import games

    try:
        return games.get(target.cfg.game.name)
    except Exception:
        return None


@check("settings", "Settings readable and valid", "Réglages lisibles et valides")
def check_settings(target: Target) -> Result:
    t = CHECKS["settings"][0]
    where = target.config_path or "(defaults / valeurs par défaut)"
    fix = (f"correct {where}: the message names the key; the commented template is hardware/pi/table.toml",
           f"corrigez {where} : le message nomme la clé ; le modèle commenté est hardware/pi/table.toml")
    if target.settings_error:
        return _r(t, "settings", FAIL, target.settings_error, target.settings_error, fix)
    from table import games

    try:
        spec = games.get(target.cfg.game.name)
        if spec.defaults is not None:
            spec.defaults(target.cfg)  # a broken profile file fails here
        if spec.sensors is not None:
            from hardware.gpio import PinMap

            PinMap.from_config(target.cfg.gpio)
    except Exception as exc:
        en = getattr(exc, "en", None) or str(exc)
        return _r(t, "settings", FAIL, en, getattr(exc, "fr", None) or en, fix)
    return _r(t, "settings", OK, f"{where}: game {spec.id}", f"{where} : jeu {spec.id}")


@check("data", "Data folder writable, with free space", "Dossier de données accessible en écriture, avec de la place")
def check_data(target: Target) -> Result:
    t = CHECKS["data"][0]
    folder = Path(target.cfg.service.data_dir)
    probe_dir = folder if folder.exists() else folder.parent
    try:
        if getattr(target.disk_usage, "readonly", False):
            target.disk_usage(str(probe_dir))
        with tempfile.NamedTemporaryFile(dir=probe_dir, prefix=".doctor-"):
            pass
    except OSError as exc:
        return _r(t, "data", FAIL, f"{folder} is not writable: {exc.strerror or exc}",
                  f"{folder} n'est pas accessible en écriture : {exc.strerror or exc}",
                  (f"sudo chown -R passetable: {folder} (install.sh creates it), or set [service] data_dir",
                   f"sudo chown -R passetable: {folder} (install.sh le crée), ou réglez [service] data_dir"))
    free_mb = target.disk_usage(str(probe_dir)).free / 1e6
    if free_mb < MIN_FREE_MB:
        return _r(t, "data", FAIL, f"only {free_mb:.0f} MB free under {folder} (at least {MIN_FREE_MB} MB wanted)",
                  f"seulement {free_mb:.0f} Mo libres sous {folder} (au moins {MIN_FREE_MB} Mo souhaités)",
                  ("free space on the SD card: sudo journalctl --vacuum-size=50M, sudo apt-get clean, "
                   "or move old games out of the data folder",
                   "libérez de la place sur la carte SD : sudo journalctl --vacuum-size=50M, sudo apt-get clean, "
                   "ou déplacez les anciennes parties hors du dossier de données"))
    return _r(t, "data", OK, f"{folder}: {free_mb:.0f} MB free", f"{folder} : {free_mb:.0f} Mo libres")


@check("log", "Event log intact (SQLite)", "Journal des parties intact (SQLite)")
def check_log(target: Target) -> Result:
    t = CHECKS["log"][0]
    path = target.cfg.log_path
    if not path.exists():
        return _r(t, "log", OK, f"{path}: none yet, the service creates it",
                  f"{path} : pas encore, le service le crée")
    fix = (f"stop the service, keep a copy of {path}, then recover it: sqlite3 {path} .recover > saved.sql "
           "(or move it away to start a new log)",
           f"arrêtez le service, gardez une copie de {path}, puis récupérez-le : sqlite3 {path} .recover > "
           "sauve.sql (ou déplacez-le pour repartir d'un journal neuf)")
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2.0)
        try:
            rows = [r[0] for r in con.execute("PRAGMA integrity_check")]
            count = con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        return _r(t, "log", FAIL, f"{path} is damaged: {exc}", f"{path} est abîmé : {exc}", fix)
    if rows != ["ok"]:
        return _r(t, "log", FAIL, f"{path} is damaged: {'; '.join(rows[:3])}",
                  f"{path} est abîmé : {'; '.join(rows[:3])}", fix)
    return _r(t, "log", OK, f"{path}: intact ({count} tables and indexes)",
              f"{path} : intact ({count} tables et index)")


def _needs_board(target: Target, id_: str) -> Result | None:
    spec = _sensed_game(target)
    if spec is not None and spec.sensors is None:
        t = CHECKS[id_][0]
        return _r(t, id_, SKIP, f"{spec.names['en']} uses no sensor board", f"{spec.names['fr']} n'utilise pas de "
                  "carte capteurs")
    if target.service_state() == "active":
        t = CHECKS[id_][0]
        return _r(t, id_, SKIP, "the running service holds the board and pins: stop it to check them "
                  "(sudo systemctl stop passetable)", "le service en marche tient la carte et les broches : "
                  "arrêtez-le pour les vérifier (sudo systemctl stop passetable)")
    return None


@check("serial", "Sensor board found", "Carte capteurs trouvée")
def check_serial(target: Target) -> Result:
    t = CHECKS["serial"][0]
    if (skip := _needs_board(target, "serial")) is not None:
        return skip
    port = target.cfg.serial.port
    fix = ("plug the sensor board's USB cable in (any port: udev names it /dev/passeframe), check [serial] port",
           "branchez le câble USB de la carte capteurs (n'importe quel port : udev la nomme /dev/passeframe), "
           "vérifiez [serial] port")
    if not port:
        return _r(t, "serial", FAIL, "no [serial] port in the settings", "aucun port [serial] dans les réglages", fix)
    board = target.board()
    if not board["opened"]:
        others = [] if target.sim else usb_serial_ports()
        if others:  # a board is plugged but the udev rule did not name it: say its ids
            seen = ", ".join(f"{dev} ({ids or '?'})" for dev, ids in others)
            fix = (f"{fix[0]}; USB serial devices seen: {seen}: if one is the board, add its ids to the udev rule: "
                   f"sudo hardware/pi/install.sh --usb-id VVVV:PPPP", f"{fix[1]} ; ports série USB vus : {seen} : si "
                   f"l'un est la carte, ajoutez ses identifiants à la règle udev : sudo hardware/pi/install.sh "
                   f"--usb-id VVVV:PPPP")
        return _r(t, "serial", FAIL, f"no sensor board at {port}: {board['error']}",
                  f"aucune carte capteurs sur {port} : {board['error']}", fix)
    return _r(t, "serial", OK, f"{port} opens", f"{port} s'ouvre")


def usb_serial_ports(dev: str = "/dev", sys_root: str = "/sys") -> list[tuple[str, str | None]]:
    """The USB serial devices plugged in (``/dev/ttyACM*``, ``/dev/ttyUSB*``) with their
    ``vendor:product`` ids read from sysfs (None where sysfs does not say)."""
    found = []
    for path in sorted(Path(dev).glob("tty[AU][CS][MB]*")):
        ids = None
        node = Path(sys_root) / "class" / "tty" / path.name / "device"
        for _ in range(4):  # ttyACM: the interface's parent; ttyUSB: one level more
            node = node / ".."
            vendor, product = node / "idVendor", node / "idProduct"
            if vendor.is_file() and product.is_file():
                ids = f"{vendor.read_text().strip()}:{product.read_text().strip()}"
                break
        found.append((str(path), ids))
    return found


@check("handshake", "Board handshake and firmware version", "Poignée de main et version du micrologiciel")
def check_handshake(target: Target) -> Result:
    t = CHECKS["handshake"][0]
    if (skip := _needs_board(target, "handshake")) is not None:
        return skip
    if not target.cfg.serial.port or not target.board()["opened"]:
        return _r(t, "handshake", SKIP, "needs the sensor board", "demande la carte capteurs")
    from firmware_bridge.protocol import PROTOCOL_VERSION

    h = target.board()["health"]
    if h.get("refused"):
        text = str(h["refused"])
        en, _, fr = text.partition(" / ")
        return _r(t, "handshake", FAIL, en, fr or en,
                  ("flash the firmware: passetable firmware flash", "flashez le micrologiciel : passetable firmware "
                   "flash"))
    if not h.get("firmware"):
        return _r(t, "handshake", FAIL, f"the board sent no HELLO within {HANDSHAKE_S:.0f} s",
                  f"la carte n'a pas envoyé HELLO en {HANDSHAKE_S:.0f} s",
                  ("is it the sensor board? Is its firmware flashed (passetable firmware flash)? Press its reset "
                   "button", "est-ce bien la carte capteurs ? Son micrologiciel est-il flashé (passetable firmware "
                   "flash) ? Appuyez sur son bouton reset"))
    fw = f"{h['firmware']} {h['firmware_version']}, protocol {h['protocol_version']}"
    fw_fr = f"{h['firmware']} {h['firmware_version']}, protocole {h['protocol_version']}"
    return _r(t, "handshake", OK, f"{fw} (this passetable speaks protocol {PROTOCOL_VERSION})",
              f"{fw_fr} (ce passetable parle le protocole {PROTOCOL_VERSION})")


@check("slides", "Each slide on a stable notch", "Chaque réglette sur un cran stable")
def check_slides(target: Target) -> Result:
    t = CHECKS["slides"][0]
    if (skip := _needs_board(target, "slides")) is not None:
        return skip
    board = target.board() if target.cfg.serial.port else None
    if board is None or not board["opened"] or not board["health"].get("firmware") or board["health"].get("refused"):
        return _r(t, "slides", SKIP, "needs the board's handshake", "demande la poignée de main de la carte")
    first, second = board["positions"]
    between = [s for s, o in sorted(second["slides"].items()) if o is None]
    moved = [s for s, o in sorted(second["slides"].items()) if o is not None and first["slides"].get(s) != o]
    fix = ("push each slide until it clicks into a notch; if it does, check that slide's sensor wiring "
           "(hardware/WIRING.md)", "poussez chaque réglette jusqu'au déclic d'un cran ; si elle y est, vérifiez le "
           "câblage de son capteur (hardware/WIRING.md)")
    if between:
        names = ", ".join(map(str, between))
        return _r(t, "slides", FAIL, f"slide(s) {names} between two notches (no stable reading)",
                  f"réglette(s) {names} entre deux crans (pas de lecture stable)", fix)
    if moved:
        names = ", ".join(map(str, moved))
        return _r(t, "slides", FAIL, f"slide(s) {names} changed while checked", f"réglette(s) {names} ont bougé "
                  "pendant la vérification", fix)
    if second["board"] is None:
        return _r(t, "slides", FAIL, "the board (scoring) position is unknown", "la position du plateau est inconnue",
                  ("move the board until it clicks into position 1, 2 or 3", "déplacez le plateau jusqu'au déclic "
                   "d'une position 1, 2 ou 3"))
    offsets = " ".join(f"{o:+d}" for _, o in sorted(second["slides"].items()))
    return _r(t, "slides", OK, f"offsets {offsets}, board {second['board']}",
              f"décalages {offsets}, plateau {second['board']}")


@check("pins", "Beam and button pins free and idle", "Broches des faisceaux et boutons libres et au repos")
def check_pins(target: Target) -> Result:
    t = CHECKS["pins"][0]
    if (skip := _needs_board(target, "pins")) is not None:
        return skip
    from hardware.gpio import PinMap

    try:
        pins = PinMap.from_config(target.cfg.gpio)
    except ConfigError as exc:
        return _r(t, "pins", SKIP, f"unusable [gpio] settings: {exc}", f"réglages [gpio] inutilisables : {exc}")
    inputs = [(f"beam {i + 1}", f"faisceau {i + 1}", p) for i, p in enumerate(pins.beams)]
    inputs += [("left side beam", "faisceau côté gauche", pins.side_left),
               ("right side beam", "faisceau côté droit", pins.side_right),
               ("confirm button", "bouton valider", pins.confirm), ("undo button", "bouton annuler", pins.undo)]
    from gpiozero.exc import BadPinFactory

    claim = target.claim_input or _claimer(target.pin_factory)
    busy, active, devices = [], [], []
    try:
        for en, fr, pin in inputs:
            try:
                with warnings.catch_warnings():  # gpiozero warns about each pin library it cannot load
                    warnings.simplefilter("ignore")
                    dev = claim(pin)
            except BadPinFactory as exc:
                return _r(t, "pins", FAIL, f"no GPIO pins here: {exc}", f"pas de broches GPIO ici : {exc}",
                          ("run it on the Raspberry Pi; there: sudo apt-get install python3-lgpio, and a venv with "
                           "--system-site-packages (hardware/pi/install.sh)", "lancez-le sur le Raspberry Pi ; "
                           "là : sudo apt-get install python3-lgpio, et un venv avec --system-site-packages "
                           "(hardware/pi/install.sh)"))
            except Exception as exc:
                busy.append((en, fr, pin, type(exc).__name__))
                continue
            devices.append(dev)
            if dev.is_active:
                active.append((en, fr, pin))
    finally:
        for dev in devices:
            with contextlib.suppress(Exception):
                dev.close()
    if busy:
        en = "; ".join(f"{n} (GPIO{p}) is taken: {why}" for n, _, p, why in busy)
        fr = " ; ".join(f"{n} (GPIO{p}) est prise : {why}" for _, n, p, why in busy)
        return _r(t, "pins", FAIL, en, fr, ("stop what holds the pin (another service, a second passetable), or "
                                             "move the device to a free pin in [gpio]", "arrêtez ce qui tient la "
                                             "broche (un autre service, un second passetable), ou déplacez le "
                                             "composant sur une broche libre dans [gpio]"))
    if active:
        en = "; ".join(f"{n} (GPIO{p}) reads {'pressed' if 'button' in n else 'blocked'}" for n, _, p in active)
        fr = " ; ".join(f"{n} (GPIO{p}) lu {'appuyé' if 'bouton' in n else 'coupé'}" for _, n, p in active)
        return _r(t, "pins", FAIL, en, fr, ("clear what sits in the beam (a peg, a card) and check the emitter and "
                                             "receiver face each other; a held button: check its wiring",
                                             "retirez ce qui coupe le faisceau (un pion, une carte) et vérifiez "
                                             "que l'émetteur et le récepteur se font face ; un bouton tenu : "
                                             "vérifiez son câblage"))
    return _r(t, "pins", OK, f"{len(inputs)} inputs free and idle ({', '.join(f'GPIO{p}' for *_, p in inputs)})",
              f"{len(inputs)} entrées libres et au repos")


def _claimer(factory: Any) -> Callable[[int], Any]:
    def claim(pin: int) -> Any:
        from gpiozero import DigitalInputDevice

        return DigitalInputDevice(pin, pull_up=True, pin_factory=factory)
    return claim


@check("camera", "Camera opens and sees the four markers", "La caméra s'ouvre et voit les quatre repères")
def check_camera(target: Target) -> Result:
    t = CHECKS["camera"][0]
    if target.open_camera is None and not target.cfg.camera.source:
        return _r(t, "camera", SKIP, "no camera in the settings ([camera] source)",
                  "aucune caméra dans les réglages ([camera] source)")
    if target.service_state() == "active":
        return _r(t, "camera", SKIP, "the running service holds the camera: stop it to check it "
                  "(sudo systemctl stop passetable)", "le service en marche tient la caméra : arrêtez-le pour la "
                  "vérifier (sudo systemctl stop passetable)")
    fix_open = ("check the ribbon cable (blue side to the board's clips), then rpicam-hello --list-cameras; "
                "a USB webcam: ls /dev/video*", "vérifiez la nappe (côté bleu vers les clips), puis rpicam-hello "
                "--list-cameras ; une webcam USB : ls /dev/video*")
    try:
        from vision.calibration import CalibrationError, calibrate
        from vision.profile import TableProfile

        source = target.open_camera() if target.open_camera else _open_source(target.cfg.camera.source)
    except Exception as exc:
        en = getattr(exc, "en", None) or str(exc)
        return _r(t, "camera", FAIL, f"the camera does not open: {en}",
                  f"la caméra ne s'ouvre pas : {getattr(exc, 'fr', None) or en}", fix_open)
    try:
        frame = None
        for _ in range(10):  # a camera's first frames may be empty while it starts
            frame = source.read()
            if frame is not None:
                break
            time.sleep(0.1)
    finally:
        with contextlib.suppress(Exception):
            source.close()
    if frame is None:
        return _r(t, "camera", FAIL, "the camera gives no picture", "la caméra ne donne pas d'image", fix_open)
    try:
        cal = calibrate(frame.image, TableProfile.load())
    except CalibrationError as exc:
        return _r(t, "camera", FAIL, str(exc), getattr(exc, "fr", str(exc)),
                  ("make sure the four printed corner markers (passetable markers) are in view and lit",
                   "vérifiez que les quatre repères imprimés des coins (passetable markers) sont visibles et "
                   "éclairés"))
    ids = ", ".join(map(str, cal.markers_used))
    return _r(t, "camera", OK, f"markers {ids} seen, fit within {cal.error_mm:.1f} mm",
              f"repères {ids} vus, ajustés à {cal.error_mm:.1f} mm")


def _open_source(spec: str) -> Any:
    from vision.sources import open_source

    return open_source(spec)


@check("deck", "Card deck enrolled", "Jeu de cartes enregistré")
def check_deck(target: Target) -> Result:
    t = CHECKS["deck"][0]
    spec = _sensed_game(target)
    if spec is None or spec.deck is None:
        name = spec.names if spec else {"en": target.cfg.game.name, "fr": target.cfg.game.name}
        return _r(t, "deck", SKIP, f"{name['en']} uses no card deck", f"{name['fr']} n'utilise pas de cartes")
    folder = Path(target.cfg.service.data_dir) / "models" / spec.deck.id
    fix = (f"enrol the deck on the dashboard's enrolment page, or: passetable enroll --deck {spec.deck.id} "
           f"--images DIR --out {folder}", f"enregistrez le jeu sur la page d'enrôlement du tableau de bord, ou : "
           f"passetable enroll --deck {spec.deck.id} --images DOSSIER --out {folder}")
    try:
        from vision.enrol import enrolment_status

        status = enrolment_status(folder, spec.deck.id)
    except Exception as exc:
        en = getattr(exc, "en", None) or str(exc)
        return _r(t, "deck", FAIL, en, getattr(exc, "fr", None) or en, fix)
    done = sum(c["enrolled"] for c in status["cards"])
    if status["next"] is not None:
        return _r(t, "deck", FAIL, f"{done} of {len(status['cards'])} cards enrolled in {folder}",
                  f"{done} cartes sur {len(status['cards'])} enregistrées dans {folder}", fix)
    return _r(t, "deck", OK, f"{spec.deck.id}: all {done} cards", f"{spec.deck.id} : les {done} cartes")


@check("clock", "Clock synchronised", "Horloge synchronisée")
def check_clock(target: Target) -> Result:
    t = CHECKS["clock"][0]
    if target.sim:
        return _r(t, "clock", SKIP, "not checked with --sim (the host is not the table)",
                  "non vérifiée avec --sim (cette machine n'est pas la table)")
    synced = target.clock_synced()
    if synced:
        return _r(t, "clock", OK, "the kernel clock is synchronised", "l'horloge du noyau est synchronisée")
    return _r(t, "clock", FAIL, "the clock is not synchronised (a Pi has no battery clock: games would carry "
              "wrong dates)", "l'horloge n'est pas synchronisée (un Pi n'a pas d'horloge à pile : les parties "
              "porteraient de mauvaises dates)",
              ("connect the Pi to a network with internet access, then: sudo timedatectl set-ntp true; "
               "timedatectl status", "reliez le Pi à un réseau avec accès à internet, puis : sudo timedatectl "
               "set-ntp true ; timedatectl status"))


def kernel_clock_synced() -> bool | None:
    """Whether the kernel says its clock is synchronised (``adjtimex``: not ``TIME_ERROR``),
    None where that cannot be asked."""
    import ctypes
    import ctypes.util

    class Timex(ctypes.Structure):
        _fields_ = [("modes", ctypes.c_uint), *[(n, ctypes.c_long) for n in ("offset", "freq", "maxerror",
                    "esterror")], ("status", ctypes.c_int), *[(n, ctypes.c_long) for n in (
                    "constant", "precision", "tolerance", "sec", "usec", "tick", "ppsfreq", "jitter")],
                    ("shift", ctypes.c_int), *[(n, ctypes.c_long) for n in ("stabil", "jitcnt", "calcnt",
                    "errcnt", "stbcnt")], ("tai", ctypes.c_int), ("pad", ctypes.c_int * 11)]

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        state = libc.adjtimex(ctypes.byref(Timex()))
    except (OSError, AttributeError):
        return None
    return None if state < 0 else state != 5  # TIME_ERROR: unsynchronised


@check("port", "Dashboard port free", "Port du tableau de bord libre")
def check_port(target: Target) -> Result:
    t = CHECKS["port"][0]
    host, port = target.cfg.service.host, target.cfg.service.port
    if port == 0:
        return _r(t, "port", OK, "port 0: a free port is picked at start", "port 0 : un port libre est choisi au "
                  "démarrage")
    probe_host = "127.0.0.1" if host in ("0.0.0.0", "") else ("::1" if host == "::" else host)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        sock.bind((host, port))
        return _r(t, "port", OK, f"{host}:{port} is free", f"{host}:{port} est libre")
    except PermissionError:
        # a port below 1024 and a user without CAP_NET_BIND_SERVICE (the unit grants it to
        # the service): ask whether anything answers there instead
        if not _listening(probe_host, port):
            return _r(t, "port", OK, f"{host}:{port}: nothing listens there (the service's unit may bind it)",
                      f"{host}:{port} : rien n'y écoute (l'unité du service a le droit de le prendre)")
        if _answers_as_passetable(probe_host, port):
            return _r(t, "port", OK, f"{host}:{port} is served by a running passetable",
                      f"{host}:{port} est servi par un passetable en marche")
        return _r(t, "port", FAIL, f"{host}:{port} is taken by another program",
                  f"{host}:{port} est pris par un autre programme",
                  (f"find it with: sudo ss -ltnp 'sport = :{port}', or choose another [service] port",
                   f"trouvez-le avec : sudo ss -ltnp 'sport = :{port}', ou choisissez un autre [service] port"))
    except OSError as exc:
        if _answers_as_passetable(probe_host, port):
            return _r(t, "port", OK, f"{host}:{port} is served by a running passetable",
                      f"{host}:{port} est servi par un passetable en marche")
        return _r(t, "port", FAIL, f"{host}:{port} is taken by another program: {exc.strerror or exc}",
                  f"{host}:{port} est pris par un autre programme : {exc.strerror or exc}",
                  (f"find it with: sudo ss -ltnp 'sport = :{port}', or choose another [service] port",
                   f"trouvez-le avec : sudo ss -ltnp 'sport = :{port}', ou choisissez un autre [service] port"))
    finally:
        sock.close()


def _listening(host: str, port: int) -> bool:
    """Whether something accepts connections at ``host:port``.

        >>> with socket.create_server(("127.0.0.1", 0)) as server:
        ...     _listening("127.0.0.1", server.getsockname()[1])
        True
    """
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


def _answers_as_passetable(host: str, port: int) -> bool:
    from urllib.request import urlopen

    try:
        with urlopen(f"http://{host}:{port}/healthz", timeout=1.0) as reply:
            return reply.status == 200
    except Exception:
        return False


@check("service", "Service unit active", "Service systemd actif")
def check_service(target: Target) -> Result:
    t = CHECKS["service"][0]
    if target.sim:
        return _r(t, "service", SKIP, "not checked with --sim", "non vérifié avec --sim")
    state = target.service_state()
    if state == "active":
        return _r(t, "service", OK, f"{SERVICE} is active", f"{SERVICE} est actif")
    en = f"{SERVICE} is {state}" if state else "systemd cannot be asked here (not a Pi with systemd?)"
    fr = f"{SERVICE} est {state}" if state else "systemd n'est pas joignable ici (pas un Pi avec systemd ?)"
    return _r(t, "service", FAIL, en, fr,
              ("install it with sudo hardware/pi/install.sh, then: sudo systemctl enable --now passetable; "
               "why it stopped: journalctl -u passetable -p warning", "installez-le avec sudo hardware/pi/install.sh,"
               " puis : sudo systemctl enable --now passetable ; pourquoi il s'est arrêté : journalctl -u passetable "
               "-p warning"))


def _systemctl_is_active(unit: str) -> str | None:
    if shutil.which("systemctl") is None:
        return None
    try:
        out = subprocess.run(["systemctl", "is-active", unit], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    state = out.stdout.strip()
    return state if state and "\n" not in state and out.returncode in (0, 3, 4) and state != "" else None


# --------------------------------------------------------------------------- the board, read once
def _read_board(port: str, baudrate: int) -> dict[str, Any]:
    """Open ``port`` with the real bridge, wait for the handshake and a full state, read
    the positions twice, more than a heartbeat apart."""
    import serial

    from firmware_bridge import Bridge

    result: dict[str, Any] = {"opened": False, "error": None, "health": {}, "positions": None}
    try:  # is there a port at all? (the bridge would keep retrying quietly)
        serial.serial_for_url(port, baudrate=baudrate, timeout=0.1).close()
    except (serial.SerialException, OSError, ValueError) as exc:
        result["error"] = str(exc)
        return result
    result["opened"] = True
    quiet = logging.getLogger("firmware_bridge")  # its refusal is this check's own message
    was_disabled, quiet.disabled = quiet.disabled, True
    bridge = Bridge(port, lambda obs: None, baudrate=baudrate).start()
    try:
        deadline = time.monotonic() + HANDSHAKE_S
        while time.monotonic() < deadline:
            h = bridge.health()
            if h.get("refused") or (h.get("firmware") and h.get("in_sync")):
                break
            time.sleep(0.05)
        first = bridge.positions()
        if bridge.health().get("firmware") and not bridge.health().get("refused"):
            time.sleep(STABLE_S)
        result["positions"] = (first, bridge.positions())
        result["health"] = bridge.health()
    finally:
        bridge.stop()
        quiet.disabled = was_disabled
    return result


# --------------------------------------------------------------------------- the simulated parts
def _simulate_board(target: Target, faults: Any) -> None:
    from hardware.sim_board import SimulatedBoard

    board = SimulatedBoard(protocol=1 if "old-firmware" in faults else 2)
    if "slide-stuck" in faults:
        # slide 3 rests between two notches: its sensor reads neither, so the board reports
        # no notch for it (what the firmware says for a slide not on a notch since boot)
        board._model.notches[2] = None
    board.start()
    target.cleanup.append(board.stop)
    target.cfg.serial.port = board.port
    if "serial-unplugged" in faults:
        board.unplug()


def _simulate_pins(target: Target, faults: Any) -> None:
    from gpiozero import DigitalInputDevice
    from gpiozero.pins.mock import MockFactory

    from hardware.gpio import PinMap

    factory = MockFactory()
    target.pin_factory = factory
    target.cleanup.append(factory.close)
    try:
        pins = PinMap.from_config(target.cfg.gpio)
    except ConfigError:
        return
    blocked = {pins.beams[3]} if "beam-blocked" in faults else set()
    if "pin-busy" in faults:  # something else already holds the confirm button's line
        holder = DigitalInputDevice(pins.confirm, pin_factory=factory)
        target.cleanup.append(holder.close)

    def claim(pin: int) -> Any:
        dev = DigitalInputDevice(pin, pull_up=True, pin_factory=factory)
        if pin in blocked:  # the receiver sees no light: it pulls the line low
            factory.pin(pin).drive_low()
        return dev

    target.claim_input = claim


def _simulate_camera(target: Target, faults: Any) -> None:
    if "camera-missing" in faults:
        def missing() -> Any:
            from vision.sources import SourceError

            raise SourceError("no camera found (simulated: the ribbon cable is out)",
                              "aucune caméra trouvée (simulé : la nappe est débranchée)")
        target.open_camera = missing
        return
    hidden = {2} if "markers-hidden" in faults else set()

    def open_camera() -> Any:
        from vision.sources import RenderedSource

        return RenderedSource(lambda t: render_markers(hidden), time.time)
    target.open_camera = open_camera


def render_markers(hidden: set[int] | frozenset[int] = frozenset(), px_per_mm: float = 1.2) -> Any:
    """A top-down picture of the table with the profile's corner markers where the profile
    puts them (``hidden``: markers covered by something)."""
    import numpy as np

    from vision.markers import marker_image
    from vision.profile import TableProfile

    profile = TableProfile.load()
    xs = [c[0] for c in profile.marker_centres_mm.values()]
    ys = [c[1] for c in profile.marker_centres_mm.values()]
    margin = profile.marker_size_mm * 1.5
    x0, y0 = min(xs) - margin, min(ys) - margin
    w = round((max(xs) + margin - x0) * px_per_mm)
    h = round((max(ys) + margin - y0) * px_per_mm)
    image = np.full((h, w, 3), 200, np.uint8)
    side = round(profile.marker_size_mm * px_per_mm)
    for mid, (cx, cy) in profile.marker_centres_mm.items():
        if mid in hidden:
            continue
        x, y = round((cx - x0) * px_per_mm - side / 2), round((cy - y0) * px_per_mm - side / 2)
        quiet = max(4, side // 6)  # white paper around the printed marker
        image[y - quiet:y + side + quiet, x - quiet:x + side + quiet] = 255
        image[y:y + side, x:x + side] = marker_image(mid, side, profile.marker_dictionary)
    return image


# --------------------------------------------------------------------------- running
def run_checks(target: Target, only: list[str] | None = None) -> list[Result]:
    results = []
    for id_, (title, fn) in CHECKS.items():
        if only and id_ not in only:
            continue
        try:
            results.append(fn(target))
        except Exception as exc:  # a check that breaks is a failed check, with its reason
            results.append(Result(id_, title, FAIL, (f"the check itself failed: {exc!r}",
                                                     f"la vérification elle-même a échoué : {exc!r}")))
    return results


@contextlib.contextmanager
def opened(target: Target) -> Iterator[Target]:
    try:
        yield target
    finally:
        target.close()


def add_subcommand(sub: Any, func: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
    p = sub.add_parser("doctor", help="check that the table is ready: settings, data, board, pins, camera, clock...")
    p.add_argument("--config", help=f"TOML settings file (default {PI_SETTINGS} when it exists)")
    p.add_argument("--sim", action="store_true", help="check the simulated hardware instead of the real one")
    p.add_argument("--fault", action="append", default=[], choices=sorted(FAULTS),
                   help="with --sim: inject this fault (repeatable)")
    p.add_argument("--game", help="with --sim: the game to check for (default: the settings' [game] name)")
    p.add_argument("--data", help="data folder to check (default: the settings'; a temporary one with --sim)")
    p.add_argument("--port", type=int, help="dashboard port to check (default: the settings')")
    p.add_argument("--only", action="append", choices=list(CHECKS), help="run only this check (repeatable)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.set_defaults(func=func)
    return p


def cmd_doctor(args: argparse.Namespace) -> int:
    if args.fault and not args.sim:
        print("passetable: --fault needs --sim\npassetable : --fault demande --sim", file=sys.stderr)
        return 2
    if args.sim:
        target = Target.simulated(args.config, data_dir=args.data, port=args.port, game=args.game, faults=args.fault)
    else:
        target = Target.real(args.config, data_dir=args.data, port=args.port)
        if args.game:
            target.cfg.game.name = args.game
    with opened(target):
        results = run_checks(target, args.only)
    failed = [r for r in results if r.status == FAIL]
    if args.json:
        print(json.dumps({"ok": not failed, "sim": target.sim, "settings": target.config_path,
                          "checks": [r.to_dict() for r in results]}, ensure_ascii=False, indent=1))
    else:
        for r in results:
            print("\n".join(r.lines()))
        n = len(failed)
        print(f"\n{'all checks pass' if not n else f'{n} check(s) failed'} / "
              f"{'toutes les vérifications passent' if not n else f'{n} vérification(s) en échec'}")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:  # python -m table.doctor
    parser = argparse.ArgumentParser(prog="passetable")
    add_subcommand(parser.add_subparsers(dest="command", required=True), cmd_doctor)
    args = parser.parse_args(["doctor", *(sys.argv[1:] if argv is None else argv)])
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
