"""A table on MQTT: its state, events, alerts and health, published off the table's thread.

    >>> from table.log import EventLog
    >>> from table.session import Session
    >>> session = Session(EventLog(":memory:"))
    >>> publisher = TablePublisher(session, url="mqtt://127.0.0.1:1", table="bar-1")  # nobody listens there
    >>> session.health_sources["mqtt"] = publisher.health
    >>> publisher.start()      # returns at once, broker up or not
    >>> session.health()["mqtt"]["connected"]
    False
    >>> publisher.stop()       # publishes "offline" when connected, disconnects

Never blocking the table is the point of the design:

* the session's listener only appends to a bounded ``deque`` (the oldest event is dropped
  and counted when full) and returns: no I/O, no lock held by the network;
* one worker thread waits on ``session.wait_for_change``, takes the snapshot, and
  publishes the compact state and the alerts only when they changed (retained), then the
  queued events with their sentences (QoS 1);
* paho's own thread talks to the broker and reconnects by itself (``connect_async``);
  while the broker is away the worker publishes nothing, events wait in the deque, and
  on reconnection the latest state, alerts, health and discovery are published again
  (a broker restarted without persistence has lost the retained ones).

The last will sets ``passetable/<table>/health`` to ``{"status": "offline"}`` when the
broker loses the table without a goodbye (power cut, SIGKILL, cable pulled).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from web.room import client as mqtt_client
from web.room.commands import run_command
from web.room.compact import compact
from web.room.discovery import discovery_messages
from web.room.settings import MqttSettings, validate
from web.room.signing import CommandRefused, Verifier
from web.room.topics import table_topics

log = logging.getLogger(__name__)

WAIT_S = 0.25           # how often the worker looks at the connection besides changes
HEALTH_EVERY_S = 10.0   # retained health refresh: the hub's "last seen"
GOODBYE_S = 1.0         # how long stop() waits for "offline" to leave
PAHO_SPARE = 64         # state, alerts, health and discovery beside a full queue of events


class TablePublisher:
    """Publishes one session to the broker; ``health()`` is a session health source."""

    def __init__(self, session, *, url: str, table: str, pin: str | None = None, commands: bool = False,
                 discovery: bool = False, clock: Callable[[], float] = time.time, **options: Any):
        self.settings = MqttSettings(url=url, table=table, pin=pin, commands=commands, discovery=discovery,
                                     **options)
        validate(self.settings)
        self.session = session
        self.clock = clock
        self.topics = table_topics(table)
        self._events: deque[tuple[int | None, str, float, str]] = deque(maxlen=self.settings.queue_limit)
        self._verifier = Verifier(pin, table=table, clock=clock)
        self._running = False
        self._subscribed = False
        self._worker: threading.Thread | None = None
        self._resync = threading.Event()
        self._online = threading.Event()  # set while connected: the worker sleeps on it otherwise
        self.wakeups = 0  # the worker's loop turns (a test checks it does not spin while offline)
        self._lock = threading.Lock()
        self.counters = {"published": 0, "dropped": 0, "failed": 0, "commands": 0, "refused_commands": 0}
        self.connected = False
        self.last_error = ""
        self.since = clock()
        # One client id per table name: a table restarted before the broker noticed the old
        # connection's end takes its place at once (the old one's will comes first, not later).
        self._client = mqtt_client.make_client(self.settings, client_id=f"passetable-table-{table}")
        self._client.will_set(self.topics.health, self._health_payload("offline"), qos=1, retain=True)
        # paho's own queue holds what is in flight (not yet acknowledged): room for one burst of ours
        self._client.max_queued_messages_set(self.settings.queue_limit + PAHO_SPARE)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message

    @classmethod
    def from_settings(cls, session, settings: MqttSettings, *, clock: Callable[[], float] = time.time):
        values = {k: getattr(settings, k) for k in settings.__dataclass_fields__}
        return cls(session, clock=clock, **values)

    # ----------------------------------------------------------------- control
    def start(self) -> None:
        self._running = True
        if not self._subscribed:  # the session has no unsubscribe: the listener checks _running
            self.session.subscribe(self._on_observation)
            self._subscribed = True
        self._worker = threading.Thread(target=self._work, name=f"mqtt-{self.settings.table}", daemon=True)
        self._worker.start()
        mqtt_client.start(self._client, self.settings)

    def stop(self) -> None:
        self._running = False
        if self._worker is not None:
            self._worker.join(timeout=5)
        if self.connected:  # a clean goodbye: the broker does not send the will for it
            info = self._client.publish(self.topics.health, self._health_payload("offline"), qos=1, retain=True)
            try:
                info.wait_for_publish(timeout=GOODBYE_S)
            except (RuntimeError, ValueError):
                pass
        self._client.disconnect()
        self._client.loop_stop()

    def health(self) -> dict[str, Any]:
        """For the table's health panel: scalars only, the English / French warning last."""
        with self._lock:
            out: dict[str, Any] = {"connected": self.connected, "broker": self.settings.url,
                                   "table": self.settings.table, "queued": len(self._events), **self.counters}
        if self.last_error:
            out["last_error"] = self.last_error
        if not self.connected:
            out["warning"] = ("broker unreachable: the table plays on, events wait (bounded) and it reconnects by "
                              "itself / broker injoignable : la table continue, les événements attendent (en nombre "
                              "limité) et elle se reconnecte seule")
        return out

    # ----------------------------------------------------------------- the table's side
    def _on_observation(self, obs, _session) -> None:
        """Runs on the thread that submitted ``obs``: append and return, nothing else."""
        if not self._running:
            return
        if len(self._events) == self._events.maxlen:
            self.counters["dropped"] += 1
        self._events.append((obs.seq, obs.kind, obs.t, obs.source))

    # ----------------------------------------------------------------- the worker
    def _work(self) -> None:
        seen, last_key, last_alerts, last_health = -1, None, None, 0.0
        changed_at, dirty = self.clock(), True
        while self._running:
            self.wakeups += 1
            if not self._online.wait(WAIT_S):  # offline: the changes wait, the deque keeps the events
                continue
            version = self.session.wait_for_change(seen, timeout=WAIT_S)
            if not self._running:
                break
            if not self.connected:
                continue
            try:
                if self._resync.is_set():  # (re)connected: the broker may have lost every retained message
                    self._resync.clear()
                    dirty, last_alerts, last_health = True, None, 0.0
                    self._publish_discovery()
                # events queued while the last state was read are in it but were not counted: not idle yet
                if version == seen and not dirty and not self._events and self.clock() - last_health < HEALTH_EVERY_S:
                    continue
                pending = len(self._events)  # these were applied before the snapshot below
                snap = self.session.snapshot()
                seen = snap["version"]
                state = compact(snap, table=self.settings.table, t=changed_at, url=self.settings.page_url)
                key = {k: v for k, v in state.items() if k not in ("t", "version")}
                if key != last_key:  # health-only wake-ups change no key and publish nothing
                    # the first time: when the game last moved (its last sentence), not when we started
                    first = last_key is None and snap["feed"]
                    changed_at = state["t"] = snap["feed"][-1]["t"] if first else self.clock()
                    last_key, dirty = key, True
                if dirty:
                    self._publish(self.topics.state, state, retain=True)
                    dirty = False
                if snap["alerts"] != last_alerts:
                    last_alerts = snap["alerts"]
                    self._publish(self.topics.alerts, {"table": self.settings.table, "alerts": last_alerts},
                                  retain=True)
                self._publish_events(pending, snap["feed"])
                if self.clock() - last_health >= HEALTH_EVERY_S:
                    self._publish(self.topics.health, self._health_body("online", snap), retain=True)
                    last_health = self.clock()
            except Exception:  # a publishing bug must not end the table's publishing for good
                log.exception("MQTT publisher of %s failed; carrying on", self.settings.table)
                time.sleep(WAIT_S)

    def _publish_events(self, count: int, feed: list[dict[str, Any]]) -> None:
        lines: dict[int, list[dict[str, str]]] = {}
        for line in feed:
            lines.setdefault(line.get("seq"), []).append(line["text"])
        for _ in range(count):
            try:
                seq, kind, t, source = self._events.popleft()
            except IndexError:
                break
            self._publish(self.topics.events, {"table": self.settings.table, "seq": seq, "kind": kind, "t": t,
                                               "source": source, "text": lines.get(seq, [])})

    def _publish(self, topic: str, body: dict[str, Any], *, retain: bool = False) -> None:
        # Retained topics go at QoS 0: after a reconnection the worker publishes the latest
        # again, while a QoS 1 copy paho kept from before the cut would be resent after it
        # and leave a stale retained state. Events are QoS 1 (at least once).
        info = self._client.publish(topic, json.dumps(body, ensure_ascii=False, separators=(",", ":")),
                                    qos=0 if retain else 1, retain=retain)
        with self._lock:
            if info.rc == mqtt.MQTT_ERR_SUCCESS:
                self.counters["published"] += 1
            elif info.rc == mqtt.MQTT_ERR_QUEUE_SIZE:
                self.counters["dropped"] += 1
            else:
                self.counters["failed"] += 1

    def _publish_discovery(self) -> None:
        if not self.settings.discovery:
            return
        for topic, payload in discovery_messages(self.settings):
            self._client.publish(topic, json.dumps(payload, ensure_ascii=False), qos=1, retain=True)

    def _health_body(self, status: str, snap: dict[str, Any] | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"status": status, "table": self.settings.table, "t": self.clock(),
                                "url": self.settings.page_url, "commands": self.settings.commands}
        if snap is not None:
            body.update(game=snap.get("game"), queued=len(self._events), dropped=self.counters["dropped"])
        return body

    def _health_payload(self, status: str) -> str:
        return json.dumps(self._health_body(status), ensure_ascii=False)

    # ----------------------------------------------------------------- paho's thread
    def _on_connect(self, client, _userdata, _flags, reason, _props) -> None:
        if reason.is_failure:
            self.last_error = str(reason)
            return
        with self._lock:
            self.connected, self.since = True, self.clock()
        self._online.set()
        self.last_error = ""
        if self.settings.commands:
            client.subscribe(self.topics.command, qos=1)
        self._resync.set()
        self.session.touch()  # the health panel shows the link is back

    def _on_disconnect(self, _client, _userdata, _flags, reason, _props) -> None:
        with self._lock:
            self.connected, self.since = False, self.clock()
        self._online.clear()
        if reason is not None and reason.is_failure:
            self.last_error = str(reason)
        if self._running:
            self.session.touch()

    def _on_message(self, client, _userdata, msg) -> None:
        if msg.topic != self.topics.command or not self.settings.commands:
            return
        cid = None
        try:
            cmd = self._verifier.verify(msg.payload)
            cid = cmd["id"]
            result = {"id": cid, **run_command(self.session, cmd)}
            self.counters["commands"] += 1
        except CommandRefused as exc:
            self.counters["refused_commands"] += 1
            log.warning("command refused on %s: %s", self.settings.table, exc.en)
            result = {"id": cid or _id_of(msg.payload), "ok": False, "error": {"code": exc.code, "en": exc.en,
                                                                              "fr": exc.fr}}
        except Exception:  # a bug must not end paho's thread, which would end the publishing
            log.exception("command failed on %s", self.settings.table)
            self.counters["refused_commands"] += 1
            result = {"id": cid, "ok": False, "error": {
                "code": "internal", "en": "the table failed to apply the command; see its log",
                "fr": "la table n'a pas pu appliquer la commande ; voir son journal"}}
        client.publish(self.topics.result, json.dumps(result, ensure_ascii=False), qos=1)


def _id_of(payload: bytes) -> str | None:
    """The id a refused command claimed, so that the hub can match the answer."""
    try:
        cid = json.loads(payload).get("id")
    except (ValueError, AttributeError, UnicodeDecodeError):
        return None
    return cid if isinstance(cid, str) else None
