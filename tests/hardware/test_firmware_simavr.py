"""The real firmware: built with avr-gcc, run in simavr behind a pty, read by the bridge.

Skipped only when the tools are missing (gcc-avr, avr-libc, libsimavr-dev); CI installs
them. The harness paces the simulation to real time, so waits here are real waits.
"""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import pytest

from firmware_bridge import Bridge
from hardware.sim.simavr_board import FIRMWARE_DIR, SimavrBoard, build, notch_millivolts, tools_missing
from tests.support import Recorder, wait_until

MISSING = tools_missing()
pytestmark = [pytest.mark.simavr, pytest.mark.skipif(MISSING is not None, reason=f"cannot run the firmware: {MISSING}")]


@pytest.fixture(scope="module")
def binaries(tmp_path_factory):
    out = tmp_path_factory.mktemp("avr")
    return build(out / "firmware", out / "sim")


@pytest.fixture
def rig(binaries):
    elf, harness = binaries
    board = SimavrBoard(elf=elf, harness=harness).start()
    seen = Recorder()
    bridge = Bridge(board.port, seen, retry_interval_s=0.05).start()
    assert wait_until(lambda: len(seen.items) == 7), seen.moves()
    yield board, bridge, seen
    bridge.stop()
    board.stop()


def test_firmware_builds_and_fits_the_atmega328p(tmp_path):
    done = subprocess.run(["make", "-C", str(FIRMWARE_DIR), f"BUILD={tmp_path}"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    program = int(re.search(r"Program:\s+(\d+) bytes", done.stdout).group(1))
    data = int(re.search(r"Data:\s+(\d+) bytes", done.stdout).group(1))
    print(f"\npasseframe firmware: {program} bytes of flash, {data} bytes of RAM")
    assert program <= 32 * 1024 - 512        # the Uno's Optiboot keeps 512 bytes
    assert data <= 2048 - 512                # leave room for the stack
    assert (tmp_path / "passeframe.hex").read_text().startswith(":")


def test_firmware_host_unit_tests_pass(tmp_path):
    done = subprocess.run(["make", "-s", "-C", str(FIRMWARE_DIR), f"BUILD={tmp_path}", "test"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "all passed" in done.stdout


def test_handshake_and_start_position(rig):
    board, bridge, seen = rig
    assert sorted(seen.moves()) == sorted([("slide", i, 0) for i in range(1, 7)] + [("board", None, 2)])
    health = bridge.health()
    assert health["firmware"] == "passeframe" and health["firmware_version"] == "1.0.0"
    assert health["protocol_version"] == 1 and health["crc_errors"] == 0


def test_moving_a_slide_sets_the_ladder_voltage_and_is_observed(rig):
    board, bridge, seen = rig
    board.set_voltage(4, notch_millivolts(4))         # slide 4 to its rightmost notch
    assert wait_until(lambda: len(seen.items) == 8)
    assert seen.moves()[-1] == ("slide", 4, 2)
    board.set_slide(1, -2)
    board.set_board(3)
    assert wait_until(lambda: len(seen.items) == 10)
    assert sorted(seen.moves()[-2:], key=str) == sorted([("slide", 1, -2), ("board", None, 3)], key=str)


def test_passing_through_a_notch_does_not_report_it(rig):
    board, bridge, seen = rig
    bridge.set_thresholds(settle=400)
    assert wait_until(lambda: (bridge.health()["thresholds"] or {}).get("settle") == 400)
    board.set_voltage(2, 0)                           # leaves notch 2: between notches
    board.set_voltage(2, notch_millivolts(3))         # through notch 3 (a few ms)...
    board.set_voltage(2, 0)
    board.set_voltage(2, notch_millivolts(4))         # ...to rest at notch 4
    assert wait_until(lambda: len(seen.items) == 8)
    time.sleep(0.1)
    assert seen.moves()[7:] == [("slide", 2, 2)]


def test_hysteresis_keeps_a_notch_against_drift_and_ignores_out_of_band_levels(rig):
    board, bridge, seen = rig
    level3 = notch_millivolts(3)                       # 682 counts
    board.set_voltage(5, level3 + 200)                 # +41 counts: outside the band (25)
    time.sleep(0.2)
    assert len(seen.items) == 7
    board.set_voltage(5, level3 + 60)                  # +12 counts: notch 3
    assert wait_until(lambda: len(seen.items) == 8)
    board.set_voltage(5, level3 - 230)                 # -47 counts: within hold (60), stays
    time.sleep(0.2)
    assert seen.moves()[7:] == [("slide", 5, 1)]


def test_board_switch_glitches_are_debounced(rig):
    board, bridge, seen = rig
    bridge.set_thresholds(debounce=300)
    assert wait_until(lambda: (bridge.health()["thresholds"] or {}).get("debounce") == 300)
    board.set_switches(a_closed=True, b_closed=False)  # a bounce towards position 1...
    board.set_switches(a_closed=True, b_closed=True)   # ...back at 2 after a few ms
    time.sleep(0.5)
    assert len(seen.items) == 7
    board.set_board(1)
    assert wait_until(lambda: len(seen.items) == 8)
    assert seen.moves()[-1] == ("board", None, 1)


def test_mcu_reset_gives_handshake_and_snapshot_without_spurious_moves(rig):
    board, bridge, seen = rig
    resets = bridge.health()["board_resets"]
    board.set_slide(6, 1)
    assert wait_until(lambda: len(seen.items) == 8)
    board.reset()
    assert wait_until(lambda: bridge.health()["board_resets"] == resets + 1 and bridge.health()["in_sync"])
    time.sleep(0.2)
    assert len(seen.items) == 8 and bridge.positions()["slides"][6] == 1


def test_thresholds_survive_a_reset_in_eeprom(rig):
    board, bridge, seen = rig
    bridge.set_thresholds(settle=120, hold=50)
    assert wait_until(lambda: (bridge.health()["thresholds"] or {}).get("settle") == 120)
    board.reset()
    assert wait_until(lambda: bridge.health()["in_sync"])
    bridge.set_thresholds()                            # no change: the board tells its values
    assert wait_until(lambda: bridge.health()["thresholds"] == {"band": 25, "hold": 50, "settle": 120, "debounce": 20})


def test_pulling_the_port_away_and_back_reconnects_and_resyncs(rig):
    board, bridge, seen = rig
    board.unplug()
    assert wait_until(lambda: not bridge.health()["connected"])
    board.set_slide(3, -1)                             # moved while unplugged
    board.plug()
    assert wait_until(lambda: bridge.health()["connected"] and bridge.health()["in_sync"])
    assert wait_until(lambda: len(seen.items) == 8)
    time.sleep(0.1)
    assert seen.moves()[7:] == [("slide", 3, -1)]
    assert bridge.health()["reconnects"] == 1


def test_ping_is_answered(rig):
    board, bridge, seen = rig
    bridge.ping(4242)
    assert wait_until(lambda: bridge.health().get("last_pong_token") == "4242")


def test_harness_refuses_bad_commands(binaries):
    elf, harness = binaries
    board = SimavrBoard(elf=elf, harness=harness).start()
    try:
        with pytest.raises(ValueError, match="outside"):
            board.set_voltage(1, 6000)
        with pytest.raises(RuntimeError, match="unknown command"):
            board._command("fly")
    finally:
        board.stop()
    assert not Path(board.port).exists()
