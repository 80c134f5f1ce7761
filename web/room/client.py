"""One paho-mqtt client set up from the settings: TLS, login, reconnection by itself.

    >>> c = make_client(MqttSettings(url="mqtt://127.0.0.1:1883", table="t1"), client_id="doc")
    >>> c.is_connected()
    False

``connect_async`` + ``loop_start`` never raise for a broker that is down: paho's own
thread keeps retrying (1 s, doubling up to ``RECONNECT_MAX_S``), which is what lets a
table start, play and recover with the broker off.
"""

from __future__ import annotations

import ssl

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from web.room.settings import MqttSettings

RECONNECT_MIN_S = 1
RECONNECT_MAX_S = 4


def make_client(settings: MqttSettings, *, client_id: str) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True,
                         protocol=mqtt.MQTTv311)
    broker = settings.broker
    if broker.tls:
        client.tls_set(ca_certs=settings.ca_file, certfile=settings.cert_file, keyfile=settings.key_file,
                       cert_reqs=ssl.CERT_NONE if settings.tls_insecure else ssl.CERT_REQUIRED)
        if settings.tls_insecure:
            client.tls_insecure_set(True)
    if settings.username is not None:
        client.username_pw_set(settings.username, settings.password)
    client.reconnect_delay_set(RECONNECT_MIN_S, RECONNECT_MAX_S)
    return client


def start(client: mqtt.Client, settings: MqttSettings) -> None:
    """Connect in the background; paho's thread connects and reconnects."""
    broker = settings.broker
    client.connect_async(broker.host, broker.port, keepalive=settings.keepalive)
    client.loop_start()


def reason_text(rc) -> str:
    """A paho reason code (or an int) as words, for the health panel."""
    return str(getattr(rc, "getName", lambda: rc)()) if rc is not None else ""
