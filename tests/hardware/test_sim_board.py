"""The pure-Python simulated board: its port, its protocol, its faults."""

from __future__ import annotations

import os
import random
import time

import pytest
import serial

from firmware_bridge.messages import encode_hello_request, encode_snapshot_request
from firmware_bridge.protocol import FrameParser
from hardware.sim.board_model import BoardModel
from hardware.sim.faults import FaultInjector, Faults
from hardware.sim.top_holes import HoleFaults, TopHoles
from hardware.sim_board import SimulatedBoard
from table.log import EventLog
from table.observations import PEG_DROP


def read_frames(port: serial.Serial, parser: FrameParser, count: int, timeout: float = 3.0):
    frames, end = [], time.monotonic() + timeout
    while len(frames) < count and time.monotonic() < end:
        frames += parser.feed(port.read(512))
    return frames


def read_until(port: serial.Serial, parser: FrameParser, done, timeout: float = 3.0):
    """Frames read until ``done(frames)`` is true (heartbeats may come in between)."""
    frames, end = [], time.monotonic() + timeout
    while not done(frames) and time.monotonic() < end:
        frames += parser.feed(port.read(512))
    return frames


@pytest.fixture
def board():
    b = SimulatedBoard(seed=2).start()
    yield b
    b.stop()


def test_speaks_the_protocol_on_a_pty_and_starts_at_offset_zero_board_two(board):
    with serial.Serial(board.port, 115200, timeout=0.05) as port:
        port.write(encode_hello_request(1))
        frames = read_frames(port, FrameParser(), 2)
    assert [f.type for f in frames] == ["HELLO", "SNAP"]
    assert frames[0].fields["why"] == "req" and frames[0].fields["proto"] == "2"
    assert frames[1].fields["s"] == "2,2,2,2,2,2" and frames[1].fields["b"] == "2"
    assert board.positions() == {"slides": {i: 0 for i in range(1, 7)}, "board": 2}


def test_unplug_removes_the_path_and_plug_brings_it_back(board):
    path = board.port
    with serial.Serial(path, 115200, timeout=0.05) as port:
        board.unplug()
        assert not os.path.exists(path)
        with pytest.raises(serial.SerialException):
            for _ in range(10):
                port.read(1)
    with pytest.raises(serial.SerialException):
        serial.Serial(path, 115200)
    board.plug()
    with serial.Serial(path, 115200, timeout=0.05) as port:
        port.write(encode_snapshot_request(2))
        assert [f.type for f in read_frames(port, FrameParser(), 1)] == ["SNAP"]


def test_faults_can_be_switched_while_running(board):
    with serial.Serial(board.port, 115200, timeout=0.05) as port:
        board.faults.flip_bit = 1.0             # every byte damaged
        parser = FrameParser()
        for i in range(5):
            board.set_slide(1, (-1, 0)[i % 2])
        read_frames(port, parser, 1, timeout=0.3)
        assert parser.frames == 0 and parser.crc_errors + parser.malformed + parser.noise_bytes > 0
        board.faults.flip_bit = 0.0
        board.set_board(3)
        frames = read_frames(port, parser, 1)
    assert frames and frames[-1].fields.get("b") == "3"


def test_bad_arguments_are_refused_with_clear_errors(board):
    with pytest.raises(ValueError, match="offset 3 is outside -2..2"):
        board.set_slide(1, 3)
    with pytest.raises(ValueError, match="slide 7"):
        board.set_slide(7, 0)
    with pytest.raises(ValueError, match="board position 4"):
        board.set_board(4)
    with pytest.raises(ValueError, match="probability"):
        Faults(drop_byte=1.5)
    with pytest.raises(ValueError, match="6 offsets"):
        SimulatedBoard(slides_start=(0, 0))


def test_fault_injector_frame_faults():
    frames = [b"$A 1*0000\r\n", b"$B 2*0000\r\n", b"$C 3*0000\r\n"]
    assert FaultInjector(Faults(duplicate_frame=1.0)).transmit(frames[:1]) == frames[0] * 2
    reorder = FaultInjector(Faults(reorder_frame=1.0), random.Random(0))
    out = reorder.transmit(frames[:2]) + reorder.flush()
    assert out == frames[1] + frames[0]
    assert FaultInjector(Faults(drop_byte=1.0)).transmit(frames) == b""
    a = FaultInjector(Faults(flip_bit=0.3), random.Random(9)).transmit(frames)
    b = FaultInjector(Faults(flip_bit=0.3), random.Random(9)).transmit(frames)
    assert a == b and a != b"".join(frames) and len(a) == len(b"".join(frames))


def test_board_model_heartbeat_every_half_second_without_bursts():
    model = BoardModel()
    model.boot(0)
    beats = [ms for ms in range(0, 2001, 10) if model.tick(ms)]
    assert beats == [500, 1000, 1500, 2000]
    assert len(model.tick(10_000)) == 1 and model.tick(10_010) == []


# ---- top-hole sensors (hardware.sim.top_holes) and drop_peg ---------------------------

def test_a_peg_falling_through_and_a_peg_staying_in_the_hole_each_count_once():
    holes = TopHoles(7)
    assert holes.drop(3, 100) == [3]
    assert [holes.tick(ms) for ms in range(101, 1000, 7)] == [[]] * len(range(101, 1000, 7))
    assert holes.drop(5, 1000, rests=True) == [5]
    assert all(holes.tick(ms) == [] for ms in range(1001, 5000, 10))   # seen the whole time
    assert holes.clear(5, 5000) == [] and holes.counts() == (0, 0, 0, 1, 0, 1, 0)
    assert holes.drop(5, 5300) == [5]                                  # clear long enough: armed again


def test_a_second_peg_in_the_same_hole_counts_once_the_hole_was_clear_long_enough():
    holes = TopHoles(7, rearm_ms=200)
    assert holes.drop(2, 0) == [2]
    assert holes.drop(2, 100) == []           # 85 ms after the first left the sensor's view
    assert holes.drop(2, 400) == [2]
    assert holes.counts()[2] == 2


def test_chatter_bounces_are_one_drop_and_a_flicker_later_is_an_extra_one():
    holes = TopHoles(7, faults=HoleFaults(chatter=1.0), rng=random.Random(1))
    counted = holes.drop(1, 0) + [c for ms in range(1, 2000) for c in holes.tick(ms)]
    flickers = holes.stats["flickers"]
    assert holes.stats["chattered"] == 1 and counted == [1] * (1 + flickers)
    many = TopHoles(7, faults=HoleFaults(chatter=1.0), rng=random.Random(2))
    for i in range(40):
        many.drop(i % 7, i * 2000)
        many.tick(i * 2000 + 1999)
    assert 5 < many.stats["flickers"] < 35                      # about half of them
    assert sum(many.counts()) == 40 + many.stats["flickers"] == 40 + many.stats["extra"]


def test_a_missing_sensor_and_a_faulty_hole_set():
    holes = TopHoles(7, faults=HoleFaults(miss=1.0, holes=frozenset({4})))
    assert holes.drop(4, 0) == [] and holes.drop(3, 0) == [3]
    assert holes.stats["missed"] == 1
    holes.faults.miss = 0.0                                      # switched off while running
    assert holes.drop(4, 500) == [4]


def test_a_peg_dropped_while_the_previous_is_still_in_view_merges_in_the_same_hole():
    holes = TopHoles(7, faults=HoleFaults(overlap=1.0))
    assert holes.drop(6, 0) == [6]
    assert holes.drop(6, 3000) == []                             # one long passage: a missed drop
    assert holes.stats["merged"] == 1
    assert holes.drop(0, 6000) == [0]                            # another hole: both seen
    assert holes.stats["overlapped"] == 2


def test_pegs_carried_by_the_top_slide_are_not_drops_and_a_boot_counts_none():
    holes = TopHoles(7)
    assert holes.drop(2, 0, rests=True) == [2] and holes.drop(4, 0, rests=True) == [4]
    assert holes.carry(+1, 1000) == [] and holes.resting() == [3, 5]
    assert holes.carry(+2, 2000) == [] and holes.resting() == [5]   # one went off the window
    holes.reboot(3000)
    assert all(holes.tick(ms) == [] for ms in range(3000, 3500, 10)) and holes.counts() == (0,) * 7
    assert holes.drop(1, 3500) == [1]


def test_hole_faults_are_checked():
    with pytest.raises(ValueError, match="probabilit"):
        HoleFaults(miss=2.0)
    with pytest.raises(ValueError, match="top hole 7"):
        TopHoles(7).drop(7, 0)


def test_drop_peg_sends_a_drop_frame_with_the_count(board):
    with serial.Serial(board.port, 115200, timeout=0.05) as port:
        time.sleep(0.25)                                         # the holes arm after boot
        board.drop_peg(3)
        board.drop_peg(0, rests=True)
        parser = FrameParser()
        frames = read_until(port, parser, lambda fs: sum(f.type == "DROP" for f in fs) >= 2)
        assert [(f.fields["c"], f.fields["n"]) for f in frames if f.type == "DROP"] == [("3", "1"), ("0", "1")]
        port.write(encode_snapshot_request(1))
        snap = next(f for f in read_until(port, parser, lambda fs: any(f.type == "SNAP" for f in fs))
                    if f.type == "SNAP")
    assert snap.fields["d"] == "1,0,0,1,0,0,0" and board.drop_counts() == (1, 0, 0, 1, 0, 0, 0)
    board.set_slide(1, 1)                                        # carries the resting peg over hole 1
    board.clear_hole(1)
    assert board.drop_counts() == (1, 0, 0, 1, 0, 0, 0)


def test_hole_faults_can_be_switched_on_the_running_board(board):
    time.sleep(0.25)
    board.hole_faults.miss = 1.0
    board.drop_peg(2)
    board.hole_faults.miss = 0.0
    board.drop_peg(5)
    assert board.drop_counts() == (0, 0, 0, 0, 0, 1, 0)
    assert board.hole_stats == {"drops": 2, "missed": 1, "merged": 0, "extra": 0, "chattered": 0, "flickers": 0,
                                "overlapped": 0}


# ---- the inline board (hardware.sim.inline_board): the same chain in virtual time -----

def play_inline(board, clock, rng, moves: int) -> None:
    """Human-paced random moves: slides, the board, pegs that fall through or stay."""
    resting: set[int] = set()
    for _ in range(moves):
        clock.advance(rng.uniform(0.3, 2.0))
        board.advance()
        what = rng.random()
        if what < 0.4:
            column = rng.randrange(7)
            if column in resting:
                continue
            rests = rng.random() < 0.3
            board.drop_peg(column, rests=rests)
            if rests:
                resting.add(column)
        elif what < 0.5 and resting:
            column = resting.pop()
            board.clear_hole(column)
        elif what < 0.9:
            slide = rng.randint(2, 6)
            board.set_slide(slide, rng.randint(-2, 2))
        else:
            board.set_board(rng.randint(1, 3))
    for _ in range(5):                      # a quiet end: heartbeats bring anything lost
        clock.advance(0.5)
        board.advance()


def test_the_inline_board_delivers_every_drop_once_through_a_faulty_line(session, log_path):
    from hardware.sim.inline_board import InlineBoard
    from table.timers import ManualClock

    clock = ManualClock()
    faults = Faults(drop_byte=0.005, flip_bit=0.005, duplicate_frame=0.01, reorder_frame=0.01)
    board = InlineBoard(session.submit, clock=clock, faults=faults, seed=11)
    play_inline(board, clock, random.Random(11), 600)
    logged = list(EventLog(log_path).read())
    per_hole = [sum(1 for o in logged if o.kind == PEG_DROP and o.data["column"] == c) for c in range(7)]
    assert per_hole == list(board.drop_counts()) and sum(per_hole) > 150
    assert {o.source for o in logged} == {"serial"}
    assert board.link.positions() == board.positions()
    health = board.health()
    assert health["crc_errors"] > 10 and health["recovered_drops"] > 0   # the faults did bite


def test_the_inline_board_with_top_hole_faults_reconciles_with_its_truth(session, log_path):
    from hardware.sim.inline_board import InlineBoard
    from table.timers import ManualClock

    clock = ManualClock()
    board = InlineBoard(session.submit, clock=clock, seed=5,
                        hole_faults=HoleFaults(miss=0.1, chatter=0.2, overlap=0.1))
    play_inline(board, clock, random.Random(5), 800)
    drops = sum(1 for o in EventLog(log_path).read() if o.kind == PEG_DROP)
    st = board.hole_stats
    assert st["missed"] > 0 and st["merged"] > 0 and st["extra"] > 0
    assert drops == st["drops"] - st["missed"] - st["merged"] + st["extra"] == sum(board.drop_counts())
