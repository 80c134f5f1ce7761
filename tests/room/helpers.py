"""Helpers of the room tests: a real Mosquitto, a plain MQTT listener, the simulated card table."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tests.support import stop_process, wait_until

MOSQUITTO = "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    """``mosquitto -c <tiny config>`` on loopback; ``stop()`` and ``start()`` again keep the port."""

    def __init__(self, workdir: Path, port: int | None = None, *, persistent: bool = False, extra: str = ""):
        self.port = port or free_port()
        self.conf = workdir / f"mosquitto-{self.port}.conf"
        keep = f"persistence true\npersistence_location {workdir}/\n" if persistent else "persistence false\n"
        # as root, mosquitto drops to its own user, who cannot read pytest's private tmp dirs
        user = "user root\n" if os.geteuid() == 0 else ""
        self.conf.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\n{user}{keep}{extra}")
        self.log = workdir / f"mosquitto-{self.port}.log"
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> Broker:
        if not Path(MOSQUITTO).exists():
            pytest.fail(f"{MOSQUITTO} is missing: run ./setup.sh (it installs Debian's mosquitto)")
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=self.log.open("ab"))
        if not wait_until(self._listening, timeout=10):
            raise RuntimeError(f"mosquitto did not start: {self.log.read_text()}")
        return self

    def _listening(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None




def pass_pass_sim(session, **kw):
    """The card game's simulated table, wherever this tree keeps it."""
    try:
        from table.pass_pass.sim import make_simulation
    except ImportError:
        from hardware.sim_pass_pass import make_simulation
    return make_simulation(session, **kw)


def raise_alert(session) -> dict:
    """An entry undone under a later one: on the replay the later one no longer fits and
    the game raises a "not applied" alert a person acknowledges (choice ``ok``)."""
    from table.observations import Observation

    first = session.submit(Observation.now("pass_pass.play", source="dashboard", seat=0, card="blue-1"))
    session.submit(Observation.now("pass_pass.play", source="dashboard", seat=1, card="blue-2"))
    session.submit(Observation.now("undo", source="dashboard", seq=first.seq))
    (alert,) = session.snapshot()["alerts"]
    return alert


class Listener:
    """A plain MQTT client that keeps the last message of each topic and every event."""

    def __init__(self, broker: Broker, topic: str = "passetable/#", *, client_id: str | None = None):
        """``client_id`` given: a persistent session (the broker keeps its QoS 1 messages while it is away)."""
        self.last: dict[str, dict] = {}
        self.events: list[dict] = []
        self.raw: list[tuple[str, bytes, bool]] = []
        self.lock = threading.Lock()
        self.subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id or f"listener-{time.monotonic_ns()}",
                                  clean_session=client_id is None)
        self.client.on_message = self._on_message
        self.client.on_connect = lambda c, *_: c.subscribe(topic, qos=1)
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        if not self.subscribed.wait(10):
            raise RuntimeError("the listener could not subscribe")

    def _on_message(self, _c, _u, msg) -> None:
        with self.lock:
            self.raw.append((msg.topic, msg.payload, msg.retain))
            if not msg.payload:
                self.last.pop(msg.topic, None)
                return
            body = json.loads(msg.payload)
            self.last[msg.topic] = body
            if msg.topic.endswith("/events"):
                self.events.append(body)

    def get(self, topic: str) -> dict | None:
        with self.lock:
            return self.last.get(topic)

    def publish(self, topic: str, payload) -> None:
        self.client.publish(topic, payload if isinstance(payload, (str, bytes)) else json.dumps(payload), qos=1)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


RUNNER = Path(__file__).with_name("table_runner.py")


class TableProcess:
    """``table_runner.py`` in a child process."""

    def __init__(self, broker: Broker, table: str, data: Path, *args: str):
        import sys

        self.proc = subprocess.Popen([sys.executable, str(RUNNER), "--mqtt", broker.url, "--table", table,
                                      "--data", str(data), *args], stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("ready"):
            self.stop()
            raise RuntimeError(f"table {table} did not start: {line!r}")

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def stop(self) -> None:
        stop_process(self.proc)
