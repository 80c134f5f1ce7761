"""Fixtures: a real Mosquitto per test on a free port, sessions on real SQLite files."""

from __future__ import annotations

import pytest

from table.log import EventLog
from table.session import Session
from tests.room.helpers import Broker, Listener


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path).start()
    yield b
    b.stop()


@pytest.fixture
def make_session(tmp_path):
    made: list[Session] = []

    def make(name: str = "t") -> Session:
        s = Session(EventLog(tmp_path / f"{name}.sqlite3"))
        made.append(s)
        return s

    yield make
    for s in made:
        s.log.close()


@pytest.fixture
def listen():
    made: list[Listener] = []

    def make(broker, topic: str = "passetable/#", **kw) -> Listener:
        lst = Listener(broker, topic, **kw)
        made.append(lst)
        return lst

    yield make
    for lst in made:
        lst.close()
