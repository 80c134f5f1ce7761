"""The simulated PtiPassPass table: random legal games entered as an observer would."""

from __future__ import annotations

import re
import subprocess
import sys
import threading

import pytest
import requests

from table.observations import Observation
from table.ptipasspass.adapter import ACTION
from table.ptipasspass.sim import SOURCE, make_simulation

WAIT = 30.0  # generous upper bound for background work on a busy 2-core machine


def wait_until(session, condition, timeout=WAIT):
    """Wait on the session's change signal until ``condition()`` holds."""
    import time

    version = session.version
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        version = session.wait_for_change(version, 0.1)
    assert condition(), "the simulated table did not get there"


@pytest.mark.parametrize("seed", [4, 5])
def test_a_whole_game_is_entered_and_the_scorekeeper_agrees(session, seed):
    sim = make_simulation(session, pace=0.0, seed=seed, restart_after=None)
    sim.begin_game()
    steps = 0
    while sim.step():
        steps += 1
    adapter = session._adapter
    assert sim.truth.is_over() and adapter.g.is_over()
    assert adapter.g.winners() == sim.truth.winners()
    assert adapter.g.victory_tokens == sim.truth.victory_tokens
    assert adapter.skipped == [] and len(adapter.entries) == steps
    logged = [o for o in session.log.read() if o.kind == ACTION]
    assert len(logged) == steps and {o.source for o in logged} == {SOURCE}
    # what is logged is only what an observer sees: no held colour on any Place
    assert all(o.data["action"]["colour"] is None for o in logged if o.data["action"]["action"] == "Place")


def test_the_background_table_plays_and_starts_again_after_a_game(session):
    sim = make_simulation(session, pace=0.0, seed=11, restart_after=0.01)
    sim.start()
    try:
        wait_until(session, lambda: sum(1 for o in session.log.read() if o.kind == "game_start") >= 2)
    finally:
        sim.stop()
    starts = [o for o in session.log.read() if o.kind == "game_start"]
    assert all(o.data["game"] == "ptipasspass" and o.source == SOURCE for o in starts)
    finished = [o for o in session.log.read() if o.seq < starts[1].seq and o.kind == ACTION]
    assert finished  # the first game was played before the second began


def test_a_person_new_game_is_played_from_its_start(session):
    sim = make_simulation(session, pace=0.0, seed=2, restart_after=None)
    sim.begin_game()
    sim.step()
    session.new_game("ptipasspass", {"players": 5, "first": 3})  # pressed on the dashboard
    sim._take_over_person_game()
    assert sim.truth.players == 5 and sim.truth.active == 3
    assert sim.step() and session._adapter.entries[0]["action"]["seat"] == 3


def test_a_person_game_of_another_kind_leaves_the_simulation_idle(session):
    sim = make_simulation(session, pace=0.0, seed=2, restart_after=None)
    sim.begin_game()
    session.new_game("passe-murailles")
    sim._take_over_person_game()
    assert sim.truth is None and sim.step() is False


def test_a_person_entry_hands_the_game_over_to_the_table(session):
    sim = make_simulation(session, pace=0.0, seed=6, restart_after=None)
    sim.begin_game()
    for _ in range(3):
        assert sim.step()
    last = session._adapter.entries[-1]["seq"]
    session.submit(Observation.now("undo", source="dashboard", seq=last))
    assert sim.step() is False and sim.truth is None
    assert len(session._adapter.entries) == 2  # nothing more was submitted


def test_passetable_run_sim_game_ptipasspass(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "table.cli", "run", "--sim", "--game", "ptipasspass",
                             "--pace", "0.01", "--seed", "3", "--port", "0", "--data", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = re.search(r"(http://\S+/)", proc.stdout.readline()).group(1)
        for _ in range(300):
            state = requests.get(url + "api/state", timeout=5).json()
            if state["game"] == "ptipasspass" and state["view"]["entries"] >= 8:
                break
            threading.Event().wait(0.1)
        assert state["view"]["started"] and state["view"]["entries"] >= 8 and state["view"]["skipped"] == []
    finally:
        proc.terminate()
        proc.wait(timeout=10)
