"""The simulated table plays whole games through the real transports only (the sensor
board's protocol read by the bridge's logic, beams as pulses on mock GPIO pins), and the
session, which never looks at the simulator, keeps the same score as the simulated
physics. ``passetable run --sim``'s parts log no fact with source ``sim``."""

from __future__ import annotations

import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.frame import simulate
from hardware.gpio import attach_gpio
from hardware.gpio.sim_pins import GpioSensors
from hardware.sim_table import CameraStandIn, RenderedCamera, SimulatedTable
from table.config import load_config
from table.log import EventLog
from table.passe_murailles import DropPeg
from table.session import Session
from table.timers import ManualClock

GAME_FACTS = ("slide", "board", "peg_drop", "beam", "side_spill", "peg_seen")


def _rig(tmp_path, seed, *, camera=False):
    clock = ManualClock()
    factory = MockFactory()
    session = Session(EventLog(tmp_path / f"log-{seed}.sqlite3"), clock=clock)
    gpio = attach_gpio(session, {}, pin_factory=factory, clock=clock, columns=7)
    gpio.start()
    sensors = GpioSensors(session, factory, gpio.pins, clock, seed=seed)
    sim = SimulatedTable(session, sensors, pace=2.0, seed=seed, restart_after=None, clock=clock,
                         camera=CameraStandIn(session, clock) if camera else None)
    return session, sim, gpio, factory


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_simulated_game_is_scored_the_same_by_the_session(tmp_path, seed):
    session, sim, gpio, factory = _rig(tmp_path, seed)
    sim.play_game()
    game = session._adapter.g
    assert game.is_over()
    assert game.scores() == sim.mind.scores()
    assert [p.to_dict() for p in game.pegs()] == [p.to_dict() for p in sim.frame.pegs()]
    assert session.snapshot()["alerts"] == []
    assert session._adapter.feed[-1]["kind"] == "end"
    drops = [o for o in session.log.read() if o.kind == "peg_drop"]
    assert {o.source for o in drops} == {"serial"}
    assert len(drops) == sum(isinstance(a, DropPeg) for a in sim.mind.history)
    gpio.stop()
    factory.reset()
    session.log.close()


def test_the_camera_stand_in_confirms_every_resting_drop(tmp_path):
    session, sim, gpio, factory = _rig(tmp_path, 4, camera=True)
    sim.play_game()
    health = session.snapshot()["health"]
    assert sim.camera.seen > 0
    assert health["top_holes"]["camera_confirmed"] > 0
    assert session.snapshot()["alerts"] == [] and session._adapter.g.scores() == sim.mind.scores()
    gpio.stop()
    factory.reset()
    session.log.close()


def _pegs_seen(session) -> list[tuple]:
    return [(o.data["column"], o.data["colour"], o.data.get("slide")) for o in session.log.read()
            if o.kind == "peg_seen"]


def test_the_rendered_camera_reads_how_deep_a_peg_sits_and_a_peg_come_to_rest_above_one_of_its_colour(tmp_path):
    """A second red peg coming to rest above a red one lower in the same hole (a drop the
    sensor missed, in the bench's games) is news: the camera reads the depth from how
    dark the peg head is next to the hole seen empty, through the real vision code."""
    clock = ManualClock()
    session = Session(EventLog(tmp_path / "cam.sqlite3"), clock=clock)
    camera = RenderedCamera(session, clock, seed=3)
    camera.show({})                                            # the holes seen empty first
    camera.show({2: "red", 5: "blue"}, depths={2: 3, 5: 2})
    camera.show({2: "red", 5: "blue"}, depths={2: 2, 5: 2})    # a red peg stops above the first one
    camera.show({2: "red", 5: "blue"}, depths={2: 1, 5: 2})    # and another, in the top slide
    assert _pegs_seen(session) == [(2, "red", 3), (5, "blue", 2), (2, "red", 2), (2, "red", 1)]
    session.log.close()


def test_the_camera_stand_in_reports_the_same_colour_at_another_depth(tmp_path):
    clock = ManualClock()
    session = Session(EventLog(tmp_path / "stand-in.sqlite3"), clock=clock)
    camera = CameraStandIn(session, clock)
    camera.show({2: "red"}, depths={2: 3})
    camera.show({2: "red"}, depths={2: 3})                     # nothing changed: nothing new
    camera.show({2: "red"}, depths={2: 2})
    assert _pegs_seen(session) == [(2, "red", 3), (2, "red", 2)]
    session.log.close()


def test_new_game_from_the_dashboard_resets_the_frame_through_the_sensors(tmp_path):
    session, sim, gpio, factory = _rig(tmp_path, 4)
    sim.clock.sleep(0.3)  # the top holes are blind for 200 ms after the board boots
    sim._resume_or_start()
    for _ in range(15):
        sim.wait(2.0)
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
    gpio.stop()
    factory.reset()
    session.log.close()


def test_run_sim_logs_no_fact_with_source_sim(tmp_path):
    """What ``passetable run --sim`` starts (the game's ``simulator``): the pty sensor
    board read by the real bridge, mock GPIO pins, rendered camera frames read by the
    vision pipeline, the players; with top-hole faults on.
    The test waits (bounded) until drops were logged, then reads the whole log."""
    session = Session(EventLog(tmp_path / "run.sqlite3"))
    options: dict = {}
    parts = simulate(session, settings=load_config(None), game_options=options, pace=0.3, seed=5,
                     restart_after=1.0, faults="hole_chatter@0.3,hole_miss@0.2,miss@0.1", camera=True)
    for part in parts:
        part.start()
    done = threading.Event()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not done.is_set():
        drops = [o for o in session.log.read() if o.kind == "peg_drop"]
        if len(drops) >= 6:
            done.set()
        else:
            done.wait(0.2)
    for part in reversed(parts):
        part.stop()
    facts = [o for o in session.log.read() if o.kind in GAME_FACTS]
    assert done.is_set(), "the simulated players should have dropped pegs"
    assert "sim" not in {o.source for o in session.log.read()}
    assert {o.source for o in facts} <= {"serial", "gpio", "camera"}
    assert {o.source for o in facts if o.kind == "peg_drop"} == {"serial"}
    assert {o.source for o in facts if o.kind == "peg_seen"} == {"camera"}   # rendered frames, the vision code
    session.log.close()
