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
from hardware.sim_board import SimulatedBoard


def read_frames(port: serial.Serial, parser: FrameParser, count: int, timeout: float = 3.0):
    frames, end = [], time.monotonic() + timeout
    while len(frames) < count and time.monotonic() < end:
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
    assert frames[0].fields["why"] == "req" and frames[0].fields["proto"] == "1"
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
