"""Topic names of a table, and what a table name may be.

    >>> table_topics("t1").state
    'passetable/t1/state'
    >>> split_topic("passetable/t1/alerts")
    ('t1', 'alerts')
    >>> valid_table_name("bar/2")
    False
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ROOT = "passetable"
KINDS = ("state", "events", "alerts", "health", "command", "result")
# Home Assistant's object ids allow [a-zA-Z0-9_-] only; MQTT wildcards and '/' would split topics.
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def valid_table_name(name: str) -> bool:
    return isinstance(name, str) and bool(_NAME.match(name))


@dataclass(frozen=True)
class TableTopics:
    table: str

    def _t(self, kind: str) -> str:
        return f"{ROOT}/{self.table}/{kind}"

    @property
    def state(self) -> str:
        return self._t("state")

    @property
    def events(self) -> str:
        return self._t("events")

    @property
    def alerts(self) -> str:
        return self._t("alerts")

    @property
    def health(self) -> str:
        return self._t("health")

    @property
    def command(self) -> str:
        return self._t("command")

    @property
    def result(self) -> str:
        """Answers to commands (not retained): ``{"id", "ok", "error": {en, fr}}``."""
        return self._t("command/result")


def table_topics(table: str) -> TableTopics:
    if not valid_table_name(table):
        raise ValueError(f"table name {table!r} must be 1-64 letters, digits, '-' or '_'")
    return TableTopics(table)


def split_topic(topic: str) -> tuple[str, str] | None:
    """``(table, kind)`` of a table topic; None for anything else."""
    parts = topic.split("/")
    if len(parts) == 3 and parts[0] == ROOT and valid_table_name(parts[1]) and parts[2] in KINDS:
        return parts[1], parts[2]
    if len(parts) == 4 and parts[0] == ROOT and parts[2:] == ["command", "result"] and valid_table_name(parts[1]):
        return parts[1], "result"
    return None
