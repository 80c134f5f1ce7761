"""The simulated table plays whole games through sensor facts only, and the session,
which never looks at the simulator, keeps the same score as the simulated physics."""

from __future__ import annotations

import pytest

from hardware.sim_table import DirectSensors, SimulatedTable


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_simulated_game_is_scored_the_same_by_the_session(session, seed):
    sim = SimulatedTable(session, DirectSensors(session), pace=0, seed=seed, restart_after=None)
    sim._resume_or_start()
    while not sim.mind.is_over():
        sim.play_one()
        assert sim.moves < 2000
    game = session._adapter.g
    assert game.is_over()
    assert game.scores() == sim.mind.scores()
    assert [p.to_dict() for p in game.pegs()] == [p.to_dict() for p in sim.frame.pegs()]
    assert session.snapshot()["alerts"] == []
    assert session._adapter.feed[-1]["kind"] == "end"


def test_new_game_from_the_dashboard_resets_the_frame_through_the_sensors(session):
    sim = SimulatedTable(session, DirectSensors(session), pace=0, seed=4, restart_after=None)
    sim._resume_or_start()
    for _ in range(15):
        sim.play_one()
    out_of_place = any(sim.frame.offset(n) != 0 for n in range(1, 7)) or sim.frame.board_position != 2
    assert out_of_place  # 15 moves with this seed moved something
    session.new_game("passe-murailles")   # pressed on the dashboard mid-game
    assert [a["kind"] for a in session.snapshot()["alerts"]] == ["setup"]
    assert sim._new_game.is_set()
    sim._new_game.clear()
    sim._reset_frame()                    # the players put every part back
    assert session.snapshot()["alerts"] == []
    assert session._adapter.g.history == [] and session._adapter.g.current_player == "red"
