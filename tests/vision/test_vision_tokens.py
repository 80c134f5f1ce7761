"""Tokens in lifted cups' cells and pegs in the top holes, after a colour calibration shot."""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibration import calibrate
from vision.pipeline import TableWatcher
from vision.sources import Frame
from vision.synth.items import peg_discs, token_discs
from vision.synth.scene import SceneStyle, render_table
from vision.tokens import ColourCalibrationError, ColourModel, read_cell, read_hole

SHOT_TOKENS = {(0, 0): ["blue"], (0, 1): ["green"], (0, 2): ["orange"]}


def shot(rig, profile, tokens=SHOT_TOKENS, cups=frozenset({(0, 4)}), pegs=None, seed=0, style=SceneStyle()):
    discs = token_discs(profile, tokens, cups) + peg_discs(profile, {0: "red", 1: "blue"} if pegs is None else pegs)
    return render_table([], rig.camera, np.random.default_rng(seed), style, pictures=rig.pictures,
                        discs=discs, background=rig.background).image


@pytest.fixture(scope="module")
def calibrated(rig, profile):
    frame = shot(rig, profile, style=SceneStyle.clean())
    cal = calibrate(frame, profile)
    return cal, ColourModel.from_shot(frame, cal, profile)


CASES = [
    ({(1, 1): ["blue", "orange"], (2, 3): ["green"], (1, 4): ["blue", "blue"], (0, 5): [],
      (2, 2): ["orange", "green", "blue"]}, {(2, 0), (0, 0)}, {3: "red", 5: "blue", 6: "red"}),
    ({(0, 0): ["green"], (2, 5): ["orange", "orange"]}, {(1, 1), (1, 2)}, {0: "blue", 2: "blue"}),
]


@pytest.mark.parametrize("seed", [11, 12, 13])
@pytest.mark.parametrize("tokens,cups,pegs", CASES)
def test_tokens_cups_and_pegs_are_read_under_other_light(rig, profile, calibrated, seed, tokens, cups, pegs):
    cal, colours = calibrated
    frame = shot(rig, profile, tokens, cups, pegs, seed)      # new light, cast, noise, glare...
    for cell, expected in tokens.items():
        reading = read_cell(frame, cal, profile, colours, cell)
        assert not reading.covered and reading.colours == sorted(expected), cell
    for cell in cups:
        assert read_cell(frame, cal, profile, colours, cell).covered
    assert [read_hole(frame, cal, profile, colours, c) for c in range(profile.frame_holes)] == \
        [pegs.get(c) for c in range(profile.frame_holes)]


def test_calibration_shot_without_its_tokens_is_refused(rig, profile, calibrated):
    cal, _ = calibrated
    with pytest.raises(ColourCalibrationError, match="blue token"):
        ColourModel.from_shot(shot(rig, profile, tokens={}), cal, profile)


def test_colour_model_round_trips(calibrated, tmp_path, rig, profile):
    cal, colours = calibrated
    colours.save(tmp_path / "colours.json")
    again = ColourModel.load(tmp_path / "colours.json")
    frame = shot(rig, profile, {(1, 3): ["orange"]}, set(), {}, 5)
    assert read_cell(frame, cal, profile, again, (1, 3)).colours == ["orange"]


def test_watcher_reports_lifted_cup_and_peg(rig, profile, calibrated):
    cal, colours = calibrated
    w = TableWatcher(None, cal, profile, colours=colours, watch_cells=True, watch_holes=True, appear_frames=2)
    all_cups = {(r, c) for r in range(3) for c in range(6)}
    hidden = {(1, 2): ["green", "blue"]}
    seqs = [(all_cups, {}), (all_cups, {}), (all_cups - {(1, 2)}, {4: "red"}),
            (all_cups - {(1, 2)}, {4: "red"}), (all_cups - {(1, 2)}, {4: "red"}), (all_cups, {4: "red"})]
    obs = []
    for k, (cups, pegs) in enumerate(seqs):
        frame = shot(rig, profile, hidden, cups, pegs, 20 + k)
        obs += [(k, o.kind, o.data) for o in w.process(Frame(frame, float(k), k))]
    assert obs == [(3, "token_seen", {"cell": [1, 2], "colours": ["blue", "green"]}),
                   (3, "peg_seen", {"column": 4, "colour": "red", "slide": 1})]   # in the top slide
