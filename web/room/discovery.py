"""Home Assistant MQTT discovery: each table announces its sensors (opt-in).

    >>> msgs = discovery_messages(MqttSettings(url="mqtt://h", table="bar-1"))
    >>> msgs[0][0]
    'homeassistant/sensor/passetable_bar-1_game/config'
    >>> msgs[0][1]["state_topic"], msgs[0][1]["value_template"]
    ('passetable/bar-1/state', '{{ value_json.game }}')

Every sensor reads the table's retained ``state`` topic through a template, so the
table publishes nothing more for Home Assistant; availability follows the retained
``health`` topic, whose last will says ``offline``. Topics follow
``<prefix>/<component>/<object_id>/config`` with ``object_id`` = ``unique_id``
(Home Assistant's recommended form; ids in ``[a-zA-Z0-9_-]``). Players change from one
game to the next, so scores are announced per seat (up to ``SEATS``), each with the
player's name as an attribute, plus one "scores" sensor whose attributes hold them all.
"""

from __future__ import annotations

from typing import Any

from web.room.settings import MqttSettings
from web.room.topics import table_topics

SEATS = 6
SW_VERSION = "0.1.0"


def _seat_templates(i: int) -> tuple[str, str]:
    has = f"value_json.players | length > {i}"
    value = f"{{{{ value_json.players[{i}].score if {has} else None }}}}"
    attrs = f"{{{{ {{'player': value_json.players[{i}].name.en if {has} else None}} | tojson }}}}"
    return value, attrs


def discovery_messages(settings: MqttSettings) -> list[tuple[str, dict[str, Any]]]:
    """``(topic, payload)`` for each sensor of the table; publish them retained."""
    table = settings.table
    topics = table_topics(table)
    device: dict[str, Any] = {"identifiers": [f"passetable_{table}"], "name": f"passetable {table}",
                              "manufacturer": "passetable", "model": "game table", "sw_version": SW_VERSION}
    if settings.page_url:
        device["configuration_url"] = settings.page_url
    common = {
        "state_topic": topics.state,
        "availability": [{"topic": topics.health, "value_template": "{{ value_json.status }}",
                          "payload_available": "online", "payload_not_available": "offline"}],
        "device": device,
        "origin": {"name": "passetable", "sw_version": SW_VERSION},
    }
    sensors: list[tuple[str, dict[str, Any]]] = [
        ("game", {"name": "Game", "icon": "mdi:cards-playing", "value_template": "{{ value_json.game }}"}),
        ("turn", {"name": "Whose turn", "icon": "mdi:account-arrow-right",
                  "value_template": "{{ value_json.players[value_json.turn].name.en "
                                    "if value_json.turn is not none else 'nobody' }}"}),
        ("alerts", {"name": "Open alerts", "icon": "mdi:alert", "state_class": "measurement",
                    "value_template": "{{ value_json.alerts }}"}),
        ("scores", {"name": "Scores", "icon": "mdi:scoreboard",
                    "value_template": "{{ value_json.players | map(attribute='score') | join(' / ') }}",
                    "json_attributes_topic": topics.state,
                    "json_attributes_template": "{{ {'players': value_json.players | map(attribute='name.en') | list, "
                                                "'scores': value_json.players | map(attribute='score') | list} "
                                                "| tojson }}"}),
    ]
    for i in range(SEATS):
        value, attrs = _seat_templates(i)
        sensors.append((f"seat{i + 1}_score", {"name": f"Seat {i + 1} score", "icon": "mdi:numeric",
                                               "state_class": "measurement", "value_template": value,
                                               "json_attributes_topic": topics.state,
                                               "json_attributes_template": attrs}))
    out = []
    for key, extra in sensors:
        unique = f"passetable_{table}_{key}"
        out.append((f"{settings.discovery_prefix}/sensor/{unique}/config", {"unique_id": unique, **common, **extra}))
    return out
