"""The café's view of its room: every table, from the retained MQTT messages only.

    >>> hub = RoomHub(url="mqtt://127.0.0.1:1")     # nobody listens there: no table yet
    >>> hub.start(); hub.tables(), hub.health()["connected"]
    ([], False)
    >>> hub.stop()

The hub keeps nothing of its own: it subscribes to ``passetable/+/state``, ``alerts`` and
``health`` (all retained), so a hub started late, restarted, or reconnected after the
broker came back is told everything again by the broker itself. A table is ``online``
while its retained health says so; its last will turns it ``offline``.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from web.room import client as mqtt_client
from web.room.settings import MqttSettings
from web.room.signing import sign
from web.room.topics import ROOT, split_topic, table_topics

log = logging.getLogger(__name__)

COMMAND_TIMEOUT_S = 5.0


class RoomHub:
    def __init__(self, *, url: str, clock: Callable[[], float] = time.time, **options: Any):
        self.settings = MqttSettings(url=url, table="hub", **options)
        self.clock = clock
        self._parts: dict[str, dict[str, Any]] = {}  # table -> {"state", "alerts", "health"} as received
        self._touched: dict[str, int] = {}  # table -> the version at which it last changed
        self._changed = threading.Condition()
        self.version = 0
        self.connected = False
        self.messages = 0
        self._closing = threading.Event()
        self._waiting: dict[str, dict[str, Any]] = {}  # command id -> {"event", "result"}
        self._client = mqtt_client.make_client(self.settings, client_id=f"passetable-hub-{os.getpid()}-{id(self)}")
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message

    # ----------------------------------------------------------------- control
    def start(self) -> None:
        mqtt_client.start(self._client, self.settings)

    def stop(self) -> None:
        self.shutdown()
        self._client.disconnect()
        self._client.loop_stop()

    def shutdown(self) -> None:
        """Open pages stop waiting (the web server is stopping)."""
        self._closing.set()
        self._bump()

    @property
    def closing(self) -> bool:
        return self._closing.is_set()

    # ----------------------------------------------------------------- reading
    def tables(self) -> list[dict[str, Any]]:
        """One entry per table known from the retained messages, by name."""
        with self._changed:
            parts = {name: dict(p) for name, p in self._parts.items()}
        return [_table_view(name, p) for name, p in sorted(parts.items())]

    def changes(self, since: int | None) -> dict[str, Any]:
        """What changed after version ``since`` (None: everything): ``{"version", "full",
        "tables": [changed tables], "names": [every table]}``. Live pages receive this, so
        that a room of twenty tables sends one card per change, not twenty."""
        with self._changed:
            version = self.version
            names = sorted(self._parts)
            changed = {n: dict(self._parts[n]) for n in names if since is None or self._touched.get(n, 0) > since}
        return {"version": version, "full": since is None, "names": names,
                "tables": [_table_view(name, p) for name, p in sorted(changed.items())]}

    def health(self) -> dict[str, Any]:
        with self._changed:
            return {"connected": self.connected, "broker": self.settings.url, "tables": len(self._parts),
                    "messages": self.messages}

    def wait_for_change(self, seen: int, timeout: float) -> int:
        with self._changed:
            self._changed.wait_for(lambda: self.version != seen or self._closing.is_set(), timeout=timeout)
            return self.version

    # ----------------------------------------------------------------- commands
    def send_command(self, table: str, pin: str, cmd: str, args: dict[str, Any],
                     timeout: float = COMMAND_TIMEOUT_S) -> dict[str, Any] | None:
        """Sign with ``pin``, publish, and wait for the table's answer (None: no answer)."""
        signed = sign(pin, {"table": table, "cmd": cmd, "args": args})
        waiter = {"event": threading.Event(), "result": None}
        self._waiting[signed["id"]] = waiter
        try:
            self._client.publish(table_topics(table).command, json.dumps(signed, ensure_ascii=False), qos=1)
            waiter["event"].wait(timeout)
            return waiter["result"]
        finally:
            self._waiting.pop(signed["id"], None)

    # ----------------------------------------------------------------- paho's thread
    def _on_connect(self, client, _userdata, _flags, reason, _props) -> None:
        if reason.is_failure:
            return
        client.subscribe([(f"{ROOT}/+/state", 1), (f"{ROOT}/+/alerts", 1), (f"{ROOT}/+/health", 1),
                          (f"{ROOT}/+/command/result", 1)])
        with self._changed:
            self.connected = True
        self._bump()

    def _on_disconnect(self, *_args) -> None:
        with self._changed:
            self.connected = False
        self._bump()

    def _on_message(self, _client, _userdata, msg) -> None:
        where = split_topic(msg.topic)
        if where is None:
            return
        table, kind = where
        body = None
        if msg.payload:
            try:
                body = json.loads(msg.payload)
            except (ValueError, UnicodeDecodeError):
                log.warning("unreadable message on %s", msg.topic)
                return
        if kind == "result":
            waiter = self._waiting.get(body.get("id")) if isinstance(body, dict) else None
            if waiter is not None:
                waiter["result"] = body
                waiter["event"].set()
            return
        if kind not in ("state", "alerts", "health") or (body is not None and not isinstance(body, dict)):
            return
        with self._changed:
            self.messages += 1
            parts = self._parts.setdefault(table, {})
            if body is None:  # an emptied retained topic: that part of the table is gone
                parts.pop(kind, None)
                if not parts:
                    del self._parts[table]
            else:
                parts[kind] = body
            self._bump(table)

    def _bump(self, table: str | None = None) -> None:
        with self._changed:
            self.version += 1
            if table is not None:
                self._touched[table] = self.version
            self._changed.notify_all()


def _listed(value: Any) -> list[dict[str, Any]]:
    """Only objects from a list: whatever else a stray publisher sends never reaches the page."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _table_view(name: str, parts: dict[str, Any]) -> dict[str, Any]:
    """What ``/api/tables`` says of one table."""
    state = parts.get("state") or {}
    health = parts.get("health") or {}
    alerts = _listed((parts.get("alerts") or {}).get("alerts"))
    status = health.get("status") if health.get("status") in ("online", "offline") else "unknown"
    turn = state.get("turn")
    return {
        "table": name,
        "game": state.get("game") if isinstance(state.get("game"), str) else None,
        "players": [{"name": p.get("name"), "score": p.get("score"), **({"team": p["team"]} if "team" in p else {})}
                    for p in _listed(state.get("players"))],
        "turn": turn if isinstance(turn, int) and not isinstance(turn, bool) else None,
        "over": state.get("over") is True,
        "winners": [w for w in state.get("winners") or [] if isinstance(w, int)]
        if isinstance(state.get("winners"), list) else [],
        "alerts": alerts,
        "online": status == "online",
        "status": status,
        "last_change": state.get("t") if isinstance(state.get("t"), (int, float)) else None,
        "seq": state.get("seq") if isinstance(state.get("seq"), int) else None,
        "last": state.get("last") if isinstance(state.get("last"), dict) else None,
        "url": _url(state.get("url")) or _url(health.get("url")),
        "commands": health.get("commands") is True,
    }


def _url(value: Any) -> str | None:
    """A link the page may show: http(s) only (no javascript: from a stray publisher)."""
    return value if isinstance(value, str) and value.startswith(("http://", "https://")) else None
