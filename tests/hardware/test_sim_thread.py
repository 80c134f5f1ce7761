"""The simulated cameras' frame clock (``hardware.sim_thread.FrameClock``)."""

from __future__ import annotations

from hardware.sim_thread import FrameClock


def test_a_benchs_frames_never_look_at_the_wall():
    camera = FrameClock()
    camera.start_clock(None)
    camera.t += 1 / 30
    camera.catch_up()
    assert camera.t == 1 / 30


def test_a_live_cameras_frames_start_at_the_wall_and_catch_up_between_moves():
    wall = [1000.0]
    camera = FrameClock()
    camera.start_clock(lambda: wall[0])
    assert camera.t == 1000.0
    camera.t += 1 / 30          # a frame rendered
    wall[0] = 1002.5            # the rendering took longer than a frame
    camera.catch_up()
    assert camera.t == 1002.5
    wall[0] = 1000.0            # the wall never pulls the frames back
    camera.catch_up()
    assert camera.t == 1002.5
