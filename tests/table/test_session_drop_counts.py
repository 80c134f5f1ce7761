"""The session keeps the sensor board's drop count per top hole (and its clock), in every
game's start and across a restart, so that the bridge can ask the board for the drops made
while the service was away (``hardware.frame.known_counts``)."""

from __future__ import annotations

from hardware.frame import known_counts
from table.log import EventLog
from table.observations import Observation
from table.session import Session

T0 = 1000.0


def _drop(session: Session, t: float, column: int, count: int, mcu_ms: int, source: str = "serial") -> None:
    session.submit(Observation("peg_drop", t=T0 + t, source=source,
                               data={"column": column, "count": count, "mcu_ms": mcu_ms}))


def test_drop_counts_are_remembered_carried_into_a_new_game_and_kept_across_a_restart(tmp_path):
    path = tmp_path / "log.sqlite3"
    session = Session(EventLog(path))
    session.start_game("passe-murailles", t=T0)
    _drop(session, 1.0, 2, 7, 41_000)
    _drop(session, 4.0, 4, 3, 44_000)
    _drop(session, 6.0, 5, 9, 46_000, source="sim")            # not from the board: not its count
    assert session.sensed["drops"] == {"2": 7, "4": 3} and session.sensed["mcu_ms"] == 44_000
    session.start_game("passe-murailles", t=T0 + 10)             # the board keeps counting across games
    _drop(session, 11.0, 2, 8, 51_000)
    session.log.close()
    again = Session(EventLog(path))
    assert again.sensed["drops"] == {"2": 8, "4": 3} and again.sensed["mcu_ms"] == 51_000
    assert known_counts(again.sensed, 7) == {"drops": [None, None, 8, None, 3, None, None], "drops_mcu_ms": 51_000}
    again.log.close()
