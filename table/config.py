"""The service's settings: sensible defaults, optionally overridden by a TOML file.

No setting is needed to try passetable (``passetable run --sim``); a real table gives a
file such as::

    [service]
    host = "127.0.0.1"
    port = 8080
    data_dir = "/var/lib/passetable"
    [game]
    name = "passe-murailles"
    profile = "/etc/passetable/my-frame.toml"   # optional: your own geometry
    [serial]
    port = "/dev/ttyACM0"
    [camera]
    source = "picamera"          # or "0" (a USB webcam), a video file, a folder of images

    >>> cfg = load_config(None)
    >>> cfg.service.port
    8080

A broken file raises :class:`ConfigError` naming the file and the problem.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """A configuration that cannot be used; the message names the file and the key."""


@dataclass
class ServiceConfig:
    host: str = "127.0.0.1"
    port: int = 8080
    data_dir: str = "data"
    max_streams: int = 64
    pin: str | None = None        # the table's PIN for writes; None: made at first start, kept in data_dir/pin
    pin_everywhere: bool = False  # True: the Pi's own screen (loopback) must type the PIN too
    hostnames: list = field(default_factory=list)  # extra names the table answers to (besides its own)
    keep_sensor_days: float = 30.0  # raw sensor facts of finished games are pruned after this (the games stay)


@dataclass
class GameConfig:
    name: str = "passe-murailles"
    profile: str | None = None


@dataclass
class SerialConfig:
    port: str | None = None
    baudrate: int = 115200


@dataclass
class CameraConfig:
    source: str | None = None   # "picamera", a device number ("0"), a video file or an image folder


@dataclass
class SimConfig:
    pace: float = 2.0          # seconds between the simulated players' moves
    seed: int | None = None
    restart_after: float = 20.0  # seconds before the simulated table starts a new game


@dataclass
class Config:
    service: ServiceConfig = field(default_factory=ServiceConfig)
    game: GameConfig = field(default_factory=GameConfig)
    serial: SerialConfig = field(default_factory=SerialConfig)
    sim: SimConfig = field(default_factory=SimConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    gpio: dict[str, Any] = field(default_factory=dict)  # read by hardware.gpio
    mqtt: dict[str, Any] = field(default_factory=dict)  # read by web.room.settings (the café's hub)
    source: str = "(defaults)"

    @property
    def log_path(self) -> Path:
        return Path(self.service.data_dir) / "passetable.sqlite3"


_SECTIONS = {"service": ServiceConfig, "game": GameConfig, "serial": SerialConfig, "sim": SimConfig,
             "camera": CameraConfig}


def load_config(path: str | Path | None) -> Config:
    """Defaults, then the file's values; unknown sections or keys are errors (a typo
    must not be silently ignored)."""
    cfg = Config()
    if path is None:
        return cfg
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    cfg.source = str(path)
    for section, values in raw.items():
        if section in ("gpio", "mqtt"):  # checked by the part that reads them
            if not isinstance(values, dict):
                raise ConfigError(f"{path}: [{section}] must be a table")
            setattr(cfg, section, dict(values))
            continue
        if section not in _SECTIONS:
            raise ConfigError(f"{path}: unknown section [{section}] (known: {', '.join([*_SECTIONS, 'gpio', 'mqtt'])})")
        if not isinstance(values, dict):
            raise ConfigError(f"{path}: [{section}] must be a table")
        setattr(cfg, section, _fill(_SECTIONS[section], values, f"{path} [{section}]"))
    return cfg


_BASIC = {"int": int, "float": float, "str": str, "bool": bool, "list": list}


def _fill(cls: type, values: dict[str, Any], where: str) -> Any:
    known = {f.name: f for f in fields(cls)}
    obj = cls()
    for key, value in values.items():
        if key not in known:
            raise ConfigError(f"{where}: unknown key {key!r} (known: {', '.join(known)})")
        expected = _BASIC[str(known[key].type).split("|")[0].strip()]
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, expected) or (isinstance(value, bool) and expected is not bool):
            raise ConfigError(f"{where}: {key} must be {expected.__name__}, not {value!r}")
        if expected is list and not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: {key} must be a list of texts, not {value!r}")
        setattr(obj, key, value)
    if isinstance(obj, ServiceConfig) and obj.pin is not None and not (obj.pin.isdigit() and 4 <= len(obj.pin) <= 12):
        raise ConfigError(f"{where}: pin must be 4 to 12 digits")
    return obj
