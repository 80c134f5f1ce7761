"""The bridge over a real pseudo-terminal, against the pure-Python simulated board."""

from __future__ import annotations

import json
import random
import time

import pytest

from firmware_bridge import Bridge, MessageError
from hardware.sim.faults import Faults
from hardware.sim_board import SimulatedBoard
from table.log import EventLog
from table.observations import PEG_DROP
from tests.support import Recorder, wait_until


@pytest.fixture
def rig():
    board = SimulatedBoard(seed=1).start()
    seen = Recorder()
    bridge = Bridge(board.port, seen, retry_interval_s=0.05).start()
    assert wait_until(lambda: len(seen.items) == 7), seen.data()
    yield board, bridge, seen
    bridge.stop()
    board.stop()


def test_first_connection_reports_the_start_position(rig):
    _board, bridge, seen = rig
    assert sorted(seen.moves()) == sorted([("slide", i, 0) for i in range(1, 7)] + [("board", None, 2)])
    assert all(o.source == "serial" and abs(o.t - time.time()) < 60 for o in seen.items)
    assert bridge.positions() == {"slides": {i: 0 for i in range(1, 7)}, "board": 2}


def test_moves_become_observations(rig):
    board, _bridge, seen = rig
    board.set_slide(3, 1)
    board.set_board(1)
    assert wait_until(lambda: len(seen.items) == 9)
    assert seen.moves()[-2:] == [("slide", 3, 1), ("board", None, 1)]
    assert isinstance(seen.data()[-1][1]["mcu_ms"], int)


def test_board_reset_gives_handshake_and_no_spurious_moves(rig):
    board, bridge, seen = rig
    board.reset()
    assert wait_until(lambda: bridge.health()["board_resets"] == 1)
    time.sleep(0.1)
    assert len(seen.items) == 7
    assert bridge.health()["in_sync"] and bridge.health()["gaps"] == 0


def test_unplug_and_plug_reconnects_and_resyncs(rig):
    board, bridge, seen = rig
    board.unplug()
    assert wait_until(lambda: not bridge.health()["connected"])
    board.set_slide(6, -2)                  # moved while the cable was out
    board.plug()
    assert wait_until(lambda: bridge.health()["connected"] and bridge.health()["in_sync"])
    assert wait_until(lambda: len(seen.items) == 8)
    time.sleep(0.1)
    assert seen.moves()[7:] == [("slide", 6, -2)]
    health = bridge.health()
    assert health["reconnects"] == 1 and health["corrections"] == 1


def test_health_is_json_with_the_panel_figures(rig):
    board, bridge, _seen = rig
    health = json.loads(json.dumps(bridge.health()))
    for key in ("connected", "port", "frames", "crc_errors", "too_long", "gaps", "resyncs",
                "reconnects", "last_heartbeat_age_s", "firmware", "firmware_version", "unknown_types"):
        assert key in health
    assert health["port"] == board.port and health["firmware"] == "passeframe-py"
    assert wait_until(lambda: bridge.health()["last_heartbeat_age_s"] is not None)


def test_thresholds_are_sent_and_acknowledged(rig):
    board, bridge, _seen = rig
    bridge.set_thresholds(settle=80, band=20)
    assert wait_until(lambda: bridge.health()["thresholds"] == {"band": 20, "hold": 60, "settle": 80, "debounce": 20})
    assert board.thresholds["settle"] == 80
    with pytest.raises(MessageError, match="outside"):
        bridge.set_thresholds(settle=99_999)


def test_a_failing_observer_does_not_stop_the_link():
    board = SimulatedBoard().start()
    calls = []

    def observer(obs):
        calls.append(obs)
        raise RuntimeError("the session fell over")

    bridge = Bridge(board.port, observer).start()
    try:
        assert wait_until(lambda: len(calls) == 7)
        board.set_slide(1, 2)
        assert wait_until(lambda: len(calls) == 8)
    finally:
        bridge.stop()
        board.stop()


def test_a_stalled_board_is_noticed_then_recovered(rig):
    board, bridge, _seen = rig
    board.faults.stall_s = 2.0
    board.faults.stall = 1.0
    board.set_slide(2, 1)                   # this frame starts the stall and is lost
    board.faults.stall = 0.0
    assert wait_until(lambda: not bridge.health()["alive"])
    assert wait_until(lambda: bridge.health()["alive"] and bridge.positions()["slides"][2] == 1, 6.0)


def test_random_moves_through_a_faulty_pty_never_report_a_wrong_position():
    faults = Faults(drop_byte=0.005, flip_bit=0.005, duplicate_frame=0.01, reorder_frame=0.01)
    board = SimulatedBoard(faults=faults, seed=5).start()
    seen = Recorder()
    bridge = Bridge(board.port, seen).start()
    rng = random.Random(5)
    history = {i: [0] for i in range(1, 7)}
    try:
        assert wait_until(lambda: bridge.health()["in_sync"])
        for _ in range(400):
            slide = rng.randint(1, 6)
            offset = max(-2, min(2, history[slide][-1] + rng.choice((-1, 1))))
            if offset != history[slide][-1]:
                history[slide].append(offset)
                board.set_slide(slide, offset)
            time.sleep(0.001)
        truth = board.positions()
        assert wait_until(lambda: bridge.positions() == truth)
    finally:
        bridge.stop()
        board.stop()
    assert bridge.health()["crc_errors"] > 0
    for slide in range(1, 7):
        reported = [d["offset"] for k, d in seen.data() if k == "slide" and d["slide"] == slide]
        it = iter(history[slide])
        assert all(value in it for value in reported), (slide, reported, history[slide])


def test_a_pyserial_url_is_accepted():
    bridge = Bridge("loop://", lambda obs: None).start()
    try:
        assert wait_until(lambda: bridge.health()["connected"])
    finally:
        bridge.stop()


def test_a_missing_port_is_retried_until_it_appears(tmp_path):
    board = SimulatedBoard(link_path=str(tmp_path / "ttyLATE"))
    seen = Recorder()
    bridge = Bridge(board.port, seen, retry_interval_s=0.05).start()
    try:
        assert wait_until(lambda: "cannot open" in (bridge.health()["last_error"] or ""))
        board.start()
        assert wait_until(lambda: len(seen.items) == 7)
    finally:
        bridge.stop()
        board.stop()


def test_a_port_is_required():
    with pytest.raises(ValueError, match="serial port"):
        Bridge("", lambda obs: None)


def test_a_peg_dropped_on_the_simulated_board_reaches_a_session_on_sqlite(session, log_path):
    board = SimulatedBoard(seed=3).start()
    bridge = Bridge(board.port, session.submit, retry_interval_s=0.05).start()
    try:
        assert wait_until(lambda: bridge.health()["in_sync"])
        time.sleep(0.25)                        # the top holes arm 200 ms after boot
        board.drop_peg(5)
        board.drop_peg(2, rests=True)
        assert wait_until(lambda: bridge.health()["drops"] == 2)
        board.hole_faults.miss = 1.0            # a sensor that misses: nothing reaches the log
        board.drop_peg(4)
        time.sleep(0.6)
    finally:
        bridge.stop()
        board.stop()
    logged = [o for o in EventLog(log_path).read() if o.kind == PEG_DROP]
    assert [(o.data["column"], o.source) for o in logged] == [(5, "serial"), (2, "serial")]
    assert all(isinstance(o.data["mcu_ms"], int) for o in logged)
    assert bridge.drop_counts() == [0, 0, 1, 0, 0, 1, 0]


def test_an_old_firmware_on_the_port_is_refused_by_the_bridge():
    board = SimulatedBoard(seed=4, protocol=1).start()   # a board flashed before protocol 2
    seen = Recorder()
    bridge = Bridge(board.port, seen, retry_interval_s=0.05).start()
    try:
        assert wait_until(lambda: bridge.refused is not None)
        board.set_slide(1, 2)
        time.sleep(0.3)
    finally:
        bridge.stop()
        board.stop()
    assert seen.items == []
    assert "protocol 1" in bridge.refused and "protocole 2" in bridge.refused
    assert bridge.health()["refused"] == bridge.refused
