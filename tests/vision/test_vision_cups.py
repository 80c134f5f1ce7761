"""The cup grid through the real pipeline: rendered frames (random camera pose, the
calibration shot's markers and colour layout) → calibration → CupWatcher's facts."""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibration import calibrate
from vision.cups import CupColours, CupWatcher, read_grid_cell
from vision.synth.cups import CupScene

CELLS = [(r, c) for r in range(3) for c in range(5)]


@pytest.fixture(params=[1, 7, 21])
def grid(request):
    scene = CupScene(np.random.default_rng(request.param), CELLS)
    cal = calibrate(scene.shot, scene.profile)
    colours = CupColours.from_shot(scene.shot, cal, scene.profile)
    return scene, cal, colours


def test_each_state_of_a_cell_is_read(grid):
    scene, cal, colours = grid
    scene.tokens = {(0, 0): ["green"], (1, 3): ["blue", "orange", "orange"], (2, 4): []}
    scene.lifted = {(0, 0), (1, 3), (2, 4)}
    scene.hand, scene.held = (2, 1), ((0, 3), "orange")
    image = scene.image()
    read = {cell: read_grid_cell(image, cal, scene.profile, colours, cell) for cell in CELLS}
    assert read[(0, 0)] == ("open", "green")
    assert read[(1, 3)] == ("open", "blue", "orange", "orange")
    assert read[(2, 4)] == ("open",)
    assert read[(2, 1)] == ("hand",) and read[(0, 3)] == ("token", "orange")
    assert all(read[c] == ("cup",) for c in CELLS if c not in {(0, 0), (1, 3), (2, 4), (2, 1), (0, 3)})


def test_a_lift_is_reported_once_then_the_cup_back(grid):
    scene, cal, colours = grid
    watcher = CupWatcher(colours, cal, scene.profile, cells=CELLS)

    def facts():
        return [(o.kind, o.data) for f in scene.frames(5) for o in watcher.process(f)]

    assert facts() == []                                  # every cup down: nothing to say
    scene.tokens[(1, 1)] = ["blue"]
    scene.lifted = {(1, 1)}
    assert facts() == [("cup_lifted", {"cell": [1, 1], "colours": ["blue"]})]
    scene.tokens[(1, 1)] = []                             # taken out while the cup is up: the same lift
    assert facts() == []
    scene.lifted = set()
    assert facts() == [("cup_back", {"cell": [1, 1]})]
    scene.hand = (0, 4)
    assert facts() == [("cup_touched", {"cell": [0, 4]})]
    scene.hand = None
    assert facts() == [("cup_released", {"cell": [0, 4]})]
    scene.held = ((2, 2), "green")
    assert facts() == [("token_held", {"cell": [2, 2], "colour": "green"})]
    assert all(o.source == "camera" for f in scene.frames(1) for o in watcher.process(f))


def test_a_change_shorter_than_the_stability_window_says_nothing(grid):
    scene, cal, colours = grid
    watcher = CupWatcher(colours, cal, scene.profile, cells=CELLS, appear_frames=3)
    scene.hand = (0, 2)
    flicker = [o for f in scene.frames(2) for o in watcher.process(f)]
    scene.hand = None
    flicker += [o for f in scene.frames(3) for o in watcher.process(f)]
    assert flicker == []
