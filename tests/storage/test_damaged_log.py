"""SD card damage: a WAL cut in half or deleted, a log file that cannot be opened. The
service starts and says what it lost; ``passetable log check`` tells the owner and
``passetable log restore`` brings back the last daily copy (plus what still reads)."""

from __future__ import annotations

import json
import shutil

import pytest

from table.backup import Keeper, copies
from table.cli import main
from table.log import EventLog, LogError
from table.observations import Observation
from table.session import Session

GAME = "passe-murailles"


def _evening(folder, moves: int = 40) -> tuple[Session, Keeper]:
    """A table that made its daily copy, played, checkpointed, played on, and noted its mark."""
    session = Session(EventLog(folder / "passetable.sqlite3"))
    keeper = Keeper(session, checkpoint_every=1e9, mark_every=0.0)
    session.start_game(GAME)
    keeper.daily_chores()                         # this morning's copy
    for i in range(moves):
        session.submit(Observation.now("board", source="test", position=2 + i % 2))
        if i == moves // 2:
            session.log.checkpoint()              # the periodic checkpoint
    keeper.step()                                 # writes the mark: the newest seq
    return session, keeper


def _copy_without_wal(src, dst, *, wal: str = "none") -> None:
    """What the card holds after the damage (the service still running on the original)."""
    dst.mkdir()
    shutil.copy(src / "passetable.sqlite3", dst / "passetable.sqlite3")
    shutil.copy(src / "passetable.sqlite3.mark", dst / "passetable.sqlite3.mark")
    shutil.copytree(src / "backups", dst / "backups")
    if wal == "half":
        data = (src / "passetable.sqlite3-wal").read_bytes()
        (dst / "passetable.sqlite3-wal").write_bytes(data[: len(data) // 2])


@pytest.mark.parametrize("wal", ["none", "half"])
def test_a_lost_or_cut_wal_is_named_at_start(tmp_path, wal, capsys):
    session, _ = _evening(tmp_path / "a")
    written = session.log.last_seq()
    _copy_without_wal(tmp_path / "a", tmp_path / "b", wal=wal)
    restarted = Session(EventLog(tmp_path / "b" / "passetable.sqlite3"))
    keeper = Keeper(restarted, daily=False)
    keeper.start()
    have = restarted.log.last_seq()
    assert have < written  # the damage really lost rows
    assert have >= 20      # what the checkpoint had moved into the main file is kept
    alert = next(a for a in restarted.snapshot()["alerts"] if a["kind"] == "log_lost_rows")
    assert f"rows {have + 1} to {written}" in alert["message"]["en"]
    assert f"lignes {have + 1} à {written}" in alert["message"]["fr"]
    assert restarted.game == GAME  # and the table plays on with what it kept
    keeper.step()  # its chores have run, the mark written again: it still names the lost rows
    keeper.stop()  # (before the log closes: its thread reads the log every second)
    restarted.log.close()
    assert main(["log", "check", "--data", str(tmp_path / "b"), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["lost"]["have"] == have and report["lost"]["had"] == written


def test_a_log_that_cannot_be_opened_is_restored_from_the_daily_copy(tmp_path, capsys):
    session, _ = _evening(tmp_path / "a", moves=10)
    in_copy = json.loads(json.dumps(EventLog(copies(session.log.path)[0]).last_seq()))
    session.log.close()
    path = tmp_path / "a" / "passetable.sqlite3"
    raw = bytearray(path.read_bytes())
    raw[:100] = b"\xff" * 100  # the header is gone
    path.write_bytes(bytes(raw))
    (tmp_path / "a" / "passetable.sqlite3-wal").unlink(missing_ok=True)
    with pytest.raises(LogError):
        EventLog(path)
    assert main(["log", "check", "--data", str(tmp_path / "a")]) == 1
    out = capsys.readouterr().out
    assert "cannot be opened" in out and "ne peut pas être ouvert" in out and "passetable-" in out
    assert main(["log", "restore", "--data", str(tmp_path / "a")]) == 0
    out = capsys.readouterr().out
    assert "Restored" in out and "Restauré" in out
    restored = Session(EventLog(path))
    assert restored.log.last_seq() == in_copy and restored.game == GAME
    damaged = list((tmp_path / "a" / "backups").glob("damaged-*/passetable.sqlite3"))
    assert len(damaged) == 1  # the damaged file is kept, not deleted
    restored.log.close()
    assert main(["log", "check", "--data", str(tmp_path / "a")]) == 0
    assert "The log is sound. / Le journal est sain." in capsys.readouterr().out


def test_log_check_reports_quarantined_rows_and_the_snapshot_check(tmp_path, capsys):
    folder = tmp_path / "d"
    session = Session(EventLog(folder / "passetable.sqlite3"), snapshot_every=5)
    session.start_game(GAME)
    for i in range(12):
        session.submit(Observation.now("board", source="test", position=2 + i % 2))
    session.log.append(Observation.now("slide", source="test"))  # a row no version can replay
    session.log.close()
    Session(EventLog(folder / "passetable.sqlite3")).log.close()  # the start quarantines it
    assert main(["log", "check", "--data", str(folder), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["snapshot_agrees"] is True
    assert [q["kind"] for q in report["quarantined"]] == ["slide"]
    assert report["games"] == 1 and report["quick_check"] == ["ok"]
