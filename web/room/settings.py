"""The ``[mqtt]`` settings of a table, and broker URLs.

    >>> parse_url("mqtt://broker.local")
    BrokerUrl(host='broker.local', port=1883, tls=False)
    >>> parse_url("mqtts://10.0.0.2:8884").port
    8884
    >>> s = from_toml({"url": "mqtt://127.0.0.1:1883", "table": "bar-1", "pin": "4821", "commands": True})
    >>> s.broker.port, s.table, s.commands
    (1883, 'bar-1', True)
    >>> try:
    ...     from_toml({"url": "mqtt://h", "keepalive": "soon"})
    ... except SettingsError as exc:
    ...     print(exc.en); print(exc.fr)
    [mqtt] keepalive must be an integer, not 'soon'
    [mqtt] keepalive doit être un entier, pas 'soon'

A table's TOML file carries, for instance::

    [mqtt]
    url = "mqtts://broker.local:8883"
    table = "bar-1"              # default: this machine's name
    username = "bar-1"
    password = "…"
    ca_file = "/etc/passetable/ca.pem"
    pin = "4821"                 # signs commands from the hub
    commands = true              # off by default
    discovery = true             # Home Assistant discovery, off by default
"""

from __future__ import annotations

import re
import socket
from dataclasses import dataclass, field, fields
from typing import Any
from urllib.parse import unquote, urlsplit

from web.room.topics import valid_table_name

DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}


class SettingsError(ValueError):
    """A setting that cannot be used, named in both languages."""

    def __init__(self, en: str, fr: str):
        super().__init__(f"{en} / {fr}")
        self.en, self.fr = en, fr


@dataclass(frozen=True)
class BrokerUrl:
    host: str
    port: int
    tls: bool


def parse_url(url: str) -> BrokerUrl:
    """``mqtt://host[:port]`` (1883) or ``mqtts://host[:port]`` (TLS, 8883)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except (ValueError, TypeError, AttributeError):
        parts, port = None, None
    if parts is None or parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        raise SettingsError(f"broker address {url!r} must look like mqtt://host:1883 or mqtts://host:8883",
                            f"l'adresse du broker {url!r} doit ressembler à mqtt://hôte:1883 ou mqtts://hôte:8883")
    if parts.username or parts.password:
        raise SettingsError(
            "put the broker's username and password in username/password, not in the address",
            "mettez l'identifiant et le mot de passe du broker dans username/password, pas dans l'adresse")
    return BrokerUrl(host=unquote(parts.hostname), port=port or DEFAULT_PORTS[parts.scheme],
                     tls=parts.scheme == "mqtts")


def default_table_name() -> str:
    """This machine's name, made into a valid table name."""
    name = re.sub(r"[^A-Za-z0-9_-]", "-", socket.gethostname().split(".")[0])[:64].strip("-")
    return name or "table"


@dataclass(frozen=True)
class MqttSettings:
    url: str
    table: str = field(default_factory=default_table_name)
    pin: str | None = None
    commands: bool = False
    discovery: bool = False
    discovery_prefix: str = "homeassistant"
    username: str | None = None
    password: str | None = None
    ca_file: str | None = None
    cert_file: str | None = None
    key_file: str | None = None
    tls_insecure: bool = False
    keepalive: int = 15
    queue_limit: int = 1000
    page_url: str | None = None  # the table's own page, linked from the hub

    @property
    def broker(self) -> BrokerUrl:
        return parse_url(self.url)


_TYPES = {"str": (str, "a string", "une chaîne"), "bool": (bool, "true or false", "true ou false"),
          "int": (int, "an integer", "un entier")}


def from_toml(values: dict[str, Any], *, where: str = "[mqtt]") -> MqttSettings:
    """Validated settings from the ``[mqtt]`` table of a TOML file (a dict)."""
    if not isinstance(values, dict):
        raise SettingsError(f"{where} must be a table", f"{where} doit être une table")
    known = {f.name: f for f in fields(MqttSettings)}
    out: dict[str, Any] = {}
    for key, value in values.items():
        if key not in known:
            raise SettingsError(f"{where}: unknown key {key!r} (known: {', '.join(known)})",
                                f"{where} : clé inconnue {key!r} (connues : {', '.join(known)})")
        typ, en, fr = _TYPES[str(known[key].type).split("|")[0].strip()]
        if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
            raise SettingsError(f"{where} {key} must be {en}, not {value!r}",
                                f"{where} {key} doit être {fr}, pas {value!r}")
        out[key] = value
    if "url" not in out:
        raise SettingsError(f"{where} url is missing (e.g. url = \"mqtt://broker.local:1883\")",
                            f"{where} url manque (par ex. url = \"mqtt://broker.local:1883\")")
    try:
        parse_url(out["url"])
    except SettingsError as exc:
        raise SettingsError(f"{where} url: {exc.en}", f"{where} url : {exc.fr}") from None
    settings = MqttSettings(**out)
    validate(settings, where)
    return settings


def validate(s: MqttSettings, where: str = "[mqtt]") -> None:
    """Raise :class:`SettingsError` for values that cannot work together."""
    if not valid_table_name(s.table):
        raise SettingsError(f"{where} table {s.table!r} must be 1-64 letters, digits, '-' or '_'",
                            f"{where} table {s.table!r} doit faire 1 à 64 lettres, chiffres, '-' ou '_'")
    if s.commands and not s.pin:
        raise SettingsError(f"{where} commands = true needs a pin (commands are signed with it)",
                            f"{where} commands = true demande un pin (les commandes sont signées avec)")
    if s.pin is not None and len(s.pin) < 4:
        raise SettingsError(f"{where} pin must have at least 4 characters",
                            f"{where} pin doit avoir au moins 4 caractères")
    if not 2 <= s.keepalive <= 3600:
        raise SettingsError(f"{where} keepalive must be 2 to 3600 seconds",
                            f"{where} keepalive doit valoir 2 à 3600 secondes")
    if not 10 <= s.queue_limit <= 100_000:
        raise SettingsError(f"{where} queue_limit must be 10 to 100000", f"{where} queue_limit doit valoir 10 à 100000")
    if (s.cert_file is None) != (s.key_file is None):
        raise SettingsError(f"{where} cert_file and key_file go together",
                            f"{where} cert_file et key_file vont ensemble")
    if s.password is not None and s.username is None:
        raise SettingsError(f"{where} password without username", f"{where} password sans username")
    if not re.match(r"^[A-Za-z0-9_-]+$", s.discovery_prefix):
        raise SettingsError(f"{where} discovery_prefix must be letters, digits, '-' or '_'",
                            f"{where} discovery_prefix doit être en lettres, chiffres, '-' ou '_'")
