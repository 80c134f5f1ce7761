"""Shared fixtures: a session on a real SQLite file, a running dashboard server."""

from __future__ import annotations

import pytest

from table.log import EventLog
from table.session import Session


@pytest.fixture
def log_path(tmp_path):
    return tmp_path / "passetable.sqlite3"


@pytest.fixture
def session(log_path):
    s = Session(EventLog(log_path))
    yield s
    s.log.close()
