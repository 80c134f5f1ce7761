"""The simulated PtiPassPass table with a camera and seat buttons: rendered frames through
the real pipeline and presses on MockFactory pins into a real Session on a SQLite file.
The log holds only camera, gpio and person facts, and the page never contradicts the
simulated truth."""

from __future__ import annotations

import pytest

from hardware.sim_cups import CameraPtiPassPassTable, CameraPtiPassPassThread, make_simulation
from table.log import EventLog
from table.ptipasspass.sim import PtiPassPassSimulation
from table.session import Session

GAME_FACTS = {"seat_button", "cup_lifted", "cup_back", "cup_touched", "token_held"}


@pytest.fixture
def session(tmp_path):
    s = Session(EventLog(tmp_path / "log.sqlite3"))
    yield s
    s.log.close()


def test_rounds_are_scored_from_camera_and_buttons_only(session):
    table = CameraPtiPassPassTable(session, seed=3, players=(3,))
    try:
        figures = [table.play_round() for _ in range(2)]
    finally:
        table.close()
    assert all(not f.wrong for f in figures), [f.wrong for f in figures]
    assert sum(f.moves for f in figures) == sum(f.untapped for f in figures)   # no tap, none behind
    log = list(session.log.read())
    assert {o.source for o in log} <= {"camera", "gpio", "dashboard"}
    assert {o.kind for o in log if o.source == "dashboard"} == {"game_start"}   # the setup form only
    sources = {o.kind: o.source for o in log if o.kind in GAME_FACTS}
    assert sources["seat_button"] == "gpio" and sources["cup_touched"] == "camera"
    assert not [o for o in log if o.kind == "ptipasspass.action"]               # nothing typed
    assert session.snapshot()["view"]["victory_tokens"] == table.truth.victory_tokens


def test_run_sim_camera_makes_the_filmed_table_and_without_it_the_typed_one(session):
    filmed = make_simulation(session, pace=0.0, seed=1, restart_after=None, camera=True, settings=None)
    typed = make_simulation(session, pace=0.0, seed=1, restart_after=None, camera=False, settings=None,
                            game_options={}, faults="")
    assert isinstance(filmed, CameraPtiPassPassThread) and isinstance(typed, PtiPassPassSimulation)


def test_with_faults_a_peek_costs_one_tap_and_a_race_is_won_by_the_first_edge(session):
    table = CameraPtiPassPassTable(session, seed=5, players=(3,), faults="peek@0.3,race@1,burst@0.3")
    try:
        fig = table.play_round()
    finally:
        table.close()
    assert not fig.wrong, fig.wrong                       # the page never contradicts the truth
    alerts = [a for a in session.snapshot()["alerts"]]
    assert alerts == []                                   # every alert was answered
    assert fig.taps == fig.alerts > 0                     # each peek: one alert, one tap
    feed = [line["text"]["en"] for line in session.snapshot()["feed"]]
    assert any("is not heard" in line for line in feed)   # the rival 3 ms later lost (hands match the truth)
