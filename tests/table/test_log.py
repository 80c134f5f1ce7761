"""The event log: durable, ordered, versioned, and refusing files it cannot read."""

import sqlite3

import pytest

from table.log import SCHEMA_VERSION, EventLog, LogError
from table.observations import Observation


def test_append_assigns_increasing_seq_and_reads_back_in_order(tmp_path):
    log = EventLog(tmp_path / "t.sqlite3")
    a = log.append(Observation.now("slide", source="sim", slide=1, offset=1))
    b = log.append(Observation.now("board", source="sim", position=3))
    assert (a.seq, b.seq) == (1, 2)
    assert [(o.kind, o.data) for o in log.read()] == [("slide", {"slide": 1, "offset": 1}), ("board", {"position": 3})]
    assert [o.seq for o in log.read(after=1)] == [2]
    assert log.get(2).data == {"position": 3} and log.get(99) is None
    assert log.last_seq() == 2 and log.last_seq("slide") == 1 and log.last_seq("beam") == 0


def test_observations_survive_reopening_the_file(tmp_path):
    path = tmp_path / "t.sqlite3"
    log = EventLog(path)
    log.append(Observation.now("peg_drop", source="sim", column=4))
    log.close()  # as after a power cut: nothing but the file remains
    again = EventLog(path)
    assert [o.data for o in again.read()] == [{"column": 4}]


def test_file_is_in_wal_mode_with_schema_version(tmp_path):
    path = tmp_path / "t.sqlite3"
    EventLog(path).append(Observation.now("board", source="sim", position=1))
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == str(SCHEMA_VERSION)


def test_newer_schema_is_refused_with_a_clear_error(tmp_path):
    path = tmp_path / "t.sqlite3"
    EventLog(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    db.commit()
    with pytest.raises(LogError, match="schema version 99"):
        EventLog(path)


def test_a_file_that_is_not_sqlite_is_refused(tmp_path):
    path = tmp_path / "t.sqlite3"
    path.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(LogError, match="not a usable passetable log"):
        EventLog(path)


def test_a_big_log_is_checked_in_the_background_and_damage_is_reported(tmp_path, monkeypatch):
    import table.log as log_module
    from table.session import Session

    path = tmp_path / "t.sqlite3"
    log = EventLog(path)
    for i in range(300):
        log.append(Observation.now("board", source="sim", position=1 + i % 3))
    log.append(Observation.now("game_start", source="sim", game="passe-murailles", options={},
                               sensed={"slides": {}, "board": 2}))
    log.checkpoint()
    log.close()
    monkeypatch.setattr(log_module, "QUICK_CHECK_INLINE_BYTES", 1024)  # "big" for this test
    raw = bytearray(path.read_bytes())
    page = 1024
    raw[6 * page: 6 * page + 8] = b"\x00" * 8  # an early page's b-tree header wiped (the current game is later)
    path.write_bytes(bytes(raw))
    opened = EventLog(path)
    session = Session(opened)
    assert opened.integrity_checked.wait(10)
    assert opened.integrity  # quick_check found it
    alert = next(a for a in session.snapshot()["alerts"] if a["kind"] == "log_damaged")
    assert "passetable log restore" in alert["message"]["en"] and "abîmé" in alert["message"]["fr"]
    health = session.health()["log"]
    assert health["damaged"] and "damaged" in health["warnings"][0]["en"] and "abîmé" in health["warnings"][0]["fr"]
    assert health["ok"] is True  # it still writes: the panel's red is for a log that cannot be written
