"""Fixtures of the hardware tests."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from table.log import EventLog
from table.session import Session


@pytest.fixture
def factory():
    """gpiozero's own mock pins, reset after the test."""
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def session(tmp_path):
    """A session on a real SQLite log file, closed after the test."""
    s = Session(EventLog(tmp_path / "log.sqlite3"))
    yield s
    s.log.close()
