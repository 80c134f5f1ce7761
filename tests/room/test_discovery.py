"""Home Assistant discovery payloads, checked against the documented MQTT discovery
schema (home-assistant.io: "MQTT Discovery" and the "MQTT Sensor" integration's
configuration variables), and their templates rendered on real state messages."""

from __future__ import annotations

import json
import re

import jinja2
import pytest

from tests.room.helpers import pass_pass_sim
from tests.support import wait_until
from web.room.compact import compact
from web.room.discovery import SEATS, discovery_messages
from web.room.publisher import TablePublisher
from web.room.settings import MqttSettings

# <discovery_prefix>/<component>/[<node_id>/]<object_id>/config, ids in [a-zA-Z0-9_-]
TOPIC = re.compile(r"^(?P<prefix>[A-Za-z0-9_-]+)/(?P<component>[a-z_]+)/(?:[a-zA-Z0-9_-]+/)?"
                   r"(?P<object_id>[a-zA-Z0-9_-]+)/config$")
# The MQTT sensor's documented configuration variables and their types.
SENSOR_KEYS = {
    "availability": list, "availability_mode": str, "availability_template": str, "availability_topic": str,
    "device": dict, "device_class": str, "enabled_by_default": bool, "encoding": str, "entity_category": str,
    "entity_picture": str, "expire_after": int, "force_update": bool, "icon": str, "json_attributes_template": str,
    "json_attributes_topic": str, "last_reset_value_template": str, "name": str, "default_entity_id": str,
    "object_id": str, "options": list, "origin": dict, "payload_available": str, "payload_not_available": str,
    "suggested_display_precision": int, "qos": int, "state_class": str, "state_topic": str, "unique_id": str,
    "unit_of_measurement": str, "value_template": str,
}
AVAILABILITY_KEYS = {"topic": str, "payload_available": str, "payload_not_available": str, "value_template": str}
DEVICE_KEYS = {"configuration_url": str, "connections": list, "hw_version": str, "identifiers": list,
               "manufacturer": str, "model": str, "model_id": str, "name": str, "serial_number": str,
               "suggested_area": str, "sw_version": str, "via_device": str}
ORIGIN_KEYS = {"name": str, "sw_version": str, "support_url": str}
STATE_CLASSES = {"measurement", "measurement_angle", "total", "total_increasing"}
ENTITY_CATEGORIES = {"config", "diagnostic"}


def _typed(obj: dict, schema: dict, where: str) -> None:
    for key, value in obj.items():
        assert key in schema, f"{where}: {key!r} is not a documented option"
        assert isinstance(value, schema[key]) and not (schema[key] is int and isinstance(value, bool)), \
            f"{where}: {key} must be {schema[key].__name__}"


def check_sensor_config(topic: str, payload: dict) -> None:
    """The documented rules, one by one."""
    m = TOPIC.match(topic)
    assert m and m["component"] == "sensor", topic
    assert m["object_id"] == payload["unique_id"]  # the recommended form: object_id = unique_id
    _typed(payload, SENSOR_KEYS, topic)
    assert payload["state_topic"]  # the one required option of an MQTT sensor
    assert not ("availability" in payload and "availability_topic" in payload)  # "must not be used together"
    for item in payload.get("availability", []):
        _typed(item, AVAILABILITY_KEYS, topic + " availability")
        assert "topic" in item
    if "unique_id" in payload and "device" in payload:
        _typed(payload["device"], DEVICE_KEYS, topic + " device")
        assert payload["device"].get("identifiers") or payload["device"].get("connections")
    if "origin" in payload:
        _typed(payload["origin"], ORIGIN_KEYS, topic + " origin")
        assert "name" in payload["origin"]
    assert payload.get("state_class", "measurement") in STATE_CLASSES
    assert payload.get("entity_category", "diagnostic") in ENTITY_CATEGORIES
    for key in ("value_template", "json_attributes_template"):
        if key in payload:
            jinja2.Environment().parse(payload[key])  # valid Jinja


def render(template: str, body: dict) -> str:
    """As Home Assistant does: the payload parsed as JSON is ``value_json``."""
    return jinja2.Environment().from_string(template).render(value_json=body, value=json.dumps(body))


def test_every_payload_follows_the_documented_schema():
    settings = MqttSettings(url="mqtt://h", table="bar-1", page_url="http://bar-1.local:8080/", discovery=True)
    messages = discovery_messages(settings)
    assert len(messages) == 4 + SEATS
    ids = set()
    for topic, payload in messages:
        check_sensor_config(topic, payload)
        ids.add(payload["unique_id"])
        assert payload["state_topic"] == "passetable/bar-1/state"
        assert payload["availability"][0]["topic"] == "passetable/bar-1/health"
        assert payload["device"]["configuration_url"] == "http://bar-1.local:8080/"
    assert len(ids) == len(messages)  # unique ids are unique
    prefixed = discovery_messages(MqttSettings(url="mqtt://h", table="bar-1", discovery_prefix="ha"))
    assert all(t.startswith("ha/sensor/") for t, _ in prefixed)


@pytest.mark.parametrize("play", [0, 15, "all"])
def test_templates_give_the_table_s_values(make_session, play):
    session = make_session("bar-1")
    sim = pass_pass_sim(session, pace=0.0, seed=7, restart_after=None)
    sim.new_game()
    if play == "all":
        sim.play_game()
    else:
        for _ in range(play):
            sim.step()
    state = compact(session.snapshot(), table="bar-1", t=1.0)
    by_key = {p["unique_id"].removeprefix("passetable_bar-1_"): p
              for _, p in discovery_messages(MqttSettings(url="mqtt://h", table="bar-1"))}
    assert render(by_key["game"]["value_template"], state) == "pass-pass"
    assert render(by_key["alerts"]["value_template"], state) == "0"
    turn = render(by_key["turn"]["value_template"], state)
    assert turn == (state["players"][state["turn"]]["name"]["en"] if state["turn"] is not None else "nobody")
    scores = [p["score"] for p in state["players"]]
    assert render(by_key["scores"]["value_template"], state) == " / ".join(map(str, scores))
    attrs = json.loads(render(by_key["scores"]["json_attributes_template"], state))
    assert attrs == {"players": [p["name"]["en"] for p in state["players"]], "scores": scores}
    for seat in range(SEATS):
        sensor = by_key[f"seat{seat + 1}_score"]
        value = render(sensor["value_template"], state)
        player = json.loads(render(sensor["json_attributes_template"], state))["player"]
        if seat < len(state["players"]):
            assert value == str(scores[seat]) and player == state["players"][seat]["name"]["en"]
        else:  # Home Assistant shows "None" as unknown
            assert value == "None" and player is None
    health = {"status": "offline"}
    avail = by_key["game"]["availability"][0]
    assert render(avail["value_template"], health) == avail["payload_not_available"]


def test_discovery_is_published_retained_only_when_asked(broker, make_session, listen):
    listener = listen(broker, "homeassistant/#")
    quiet = TablePublisher(make_session("bar-0"), url=broker.url, table="bar-0")
    loud = TablePublisher(make_session("bar-1"), url=broker.url, table="bar-1", discovery=True)
    for p in (quiet, loud):
        p.start()
    try:
        assert wait_until(lambda: len(listener.raw) == 4 + SEATS, timeout=10)
        assert all(t.startswith("homeassistant/sensor/passetable_bar-1_") for t, _, _ in listener.raw)
        late = listen(broker, "homeassistant/#")  # retained: Home Assistant started later still finds them
        assert wait_until(lambda: len(late.raw) == 4 + SEATS, timeout=10)
        assert all(retain for _, _, retain in late.raw)
        for topic, payload, _ in late.raw:
            check_sensor_config(topic, json.loads(payload))
    finally:
        for p in (quiet, loud):
            p.stop()
