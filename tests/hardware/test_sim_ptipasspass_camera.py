"""The simulated PtiPassPass table with a camera and seat buttons: rendered frames through
the real pipeline and presses on MockFactory pins into a real Session on a SQLite file.
The log holds only camera, gpio and person facts, and the page never contradicts the
simulated truth."""

from __future__ import annotations

from dataclasses import replace

from hardware.sim_cups import CameraPtiPassPassTable, make_simulation
from hardware.sim_thread import FilmedTableThread
from table.ptipasspass.sim import PtiPassPassSimulation

GAME_FACTS = {"seat_button", "cup_lifted", "cup_back", "cup_touched", "token_held"}


def test_rounds_are_scored_from_camera_and_buttons_only(session):
    table = CameraPtiPassPassTable(session, seed=3, players=(3,))
    try:
        figures = [table.play_round() for _ in range(2)]
    finally:
        table.close()
    assert all(not f.wrong for f in figures), [f.wrong for f in figures]
    assert sum(f.moves for f in figures) == sum(f.untapped for f in figures)   # no tap, none behind
    log = list(session.log.read())
    assert {o.source for o in log} <= {"camera", "gpio", "dashboard"}
    assert {o.kind for o in log if o.source == "dashboard"} == {"game_start"}   # the setup form only
    sources = {o.kind: o.source for o in log if o.kind in GAME_FACTS}
    assert sources["seat_button"] == "gpio" and sources["cup_touched"] == "camera"
    assert not [o for o in log if o.kind == "ptipasspass.action"]               # nothing typed
    assert session.snapshot()["view"]["victory_tokens"] == table.truth.victory_tokens


def test_run_sim_camera_makes_the_filmed_table_and_without_it_the_typed_one(session):
    filmed = make_simulation(session, pace=0.0, seed=1, restart_after=None, camera=True, settings=None)
    typed = make_simulation(session, pace=0.0, seed=1, restart_after=None, camera=False, settings=None,
                            game_options={}, faults="")
    assert isinstance(filmed, FilmedTableThread) and filmed.thread_name == "sim-ptipasspass-camera"
    assert isinstance(typed, PtiPassPassSimulation)


def test_with_faults_a_peek_costs_one_tap_and_a_race_is_won_by_the_first_edge(session):
    table = CameraPtiPassPassTable(session, seed=5, players=(3,), faults="peek@0.3,race@1,burst@0.3")
    try:
        fig = table.play_round()
    finally:
        table.close()
    assert not fig.wrong, fig.wrong                       # the page never contradicts the truth
    alerts = [a for a in session.snapshot()["alerts"]]
    assert alerts == []                                   # every alert was answered
    assert fig.taps == fig.alerts > 0                     # each peek: one alert, one tap
    feed = [line["text"]["en"] for line in session.snapshot()["feed"]]
    assert any("is not heard" in line for line in feed)   # the rival 3 ms later lost (hands match the truth)
    times = [o.t for o in session.log.read()]
    assert times == sorted(times)   # each tap carries the table's clock, as the frames and presses do


def _write_recording(record, folder, fps=30.0):
    """The simulated table's frames as numbered images and its presses on the frames' clock
    (a press between image i-1 and i is a few ms after image i-1, in edge order)."""
    import cv2

    folder.mkdir()
    presses, images, after = [], 0, 0
    for item in record:
        if isinstance(item, dict):
            after += 1
            presses.append({"t": round((images - 1) / fps + after * 0.003, 4), **item})
            continue
        cv2.imwrite(str(folder / f"{images:05d}.png"), item, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        images, after = images + 1, 0
    return presses


def test_passetable_watch_scores_a_recorded_round_from_its_frames_and_presses(session, tmp_path, capsys):
    """A round filmed and pressed by the simulated table (a race of two callers among them),
    written to a folder of images and a presses file, read back by ``passetable watch
    --game ptipasspass``: the same victory tokens, hands and cups as the simulated truth,
    and every fact from the camera or the buttons."""
    import json

    from table.cli import main

    table = CameraPtiPassPassTable(session, seed=5, players=(3,), faults="race@1")
    table.record = [table.scene.shot]
    try:
        fig = table.play_round()
    finally:
        table.close()
    assert not fig.wrong and fig.taps == 0
    presses = _write_recording(table.record, tmp_path / "frames")
    (tmp_path / "presses.json").write_text(json.dumps(presses))
    start = next(o for o in session.log.read() if o.kind == "game_start")
    options = {k: v for k, v in start.data["options"].items() if v is not None}
    capsys.readouterr()
    assert main(["watch", "--game", "ptipasspass", "--options", json.dumps(options), "--frames",
                 str(tmp_path / "frames"), "--presses", str(tmp_path / "presses.json"), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert not [x for x in lines if "alert" in x]
    final, truth = lines[-1]["final"]["view"], table.truth
    assert final["victory_tokens"] == truth.victory_tokens and final["round"] == truth.round
    assert [h["size"] for h in final["hands"]] == [sum(h.values()) for h in truth.hands]
    assert [c["count"] for c in final["cups"]] == [len(truth.cups[c]) for c in truth.layout.cells]
    facts = [x["observation"] for x in lines if "observation" in x]
    assert {o["source"] for o in facts} == {"camera", "gpio"}
    assert sum(o["kind"] == "seat_button" for o in facts) == len(presses) == fig.presses


def test_passetable_watch_says_what_is_wrong_with_a_presses_file(tmp_path, capsys):
    from table.cli import main

    (tmp_path / "frames").mkdir()
    (tmp_path / "presses.json").write_text('[{"t": 1.0, "seat": 9, "button": "ok"}]')
    assert main(["watch", "--game", "ptipasspass", "--frames", str(tmp_path / "frames"),
                 "--presses", str(tmp_path / "presses.json")]) == 2
    err = capsys.readouterr().err
    assert "press 1 is not" in err and "la pression 1 n'est pas" in err


def test_the_live_filmed_table_plays_in_its_thread_and_stops(session):
    """``run --sim --game ptipasspass --camera``'s thread: it starts a game, steps it (camera
    and button facts reach the session), and stops when asked, releasing its pins."""
    import time

    thread = make_simulation(session, pace=0.0, seed=2, restart_after=None, camera=True, faults="")
    thread.start()
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            kinds = [o.kind for o in session.log.read()]
            if kinds.count("seat_button") >= 3 and "cup_touched" in kinds:
                break
            time.sleep(0.2)
    finally:
        thread.stop()
    log = list(session.log.read())
    assert [o.kind for o in log].count("game_start") == 1
    assert {o.source for o in log if o.kind != "game_start"} == {"camera", "gpio"}
    assert [o.kind for o in log].count("seat_button") >= 3
    assert not thread._thread.is_alive()


def test_a_glare_over_a_cup_is_no_move_and_the_lift_under_it_is_seen_once_it_has_gone():
    """A bright spot over a down cup: the bare cup watcher reads a move that did not happen
    (a hand on it, or a lift); behind :class:`hardware.glare.GlareHold` nothing is reported
    while it lies there, and a cup lifted under it is reported, with its tokens, once it goes."""
    import random

    import cv2
    import numpy as np

    from hardware.glare import GlareHold
    from hardware.sim_cards import Glare
    from vision.calibration import calibrate
    from vision.cups import CupColours, CupWatcher
    from vision.synth.cups import CupScene

    scene = CupScene(np.random.default_rng(3), cells=[(r, c) for r in range(3) for c in range(6)])
    cal = calibrate(scene.shot, scene.profile)
    colours = CupColours.from_shot(scene.shot, cal, scene.profile)
    bare = CupWatcher(colours, cal, scene.profile, cells=scene.cells)
    held = GlareHold(CupWatcher(colours, cal, scene.profile, cells=scene.cells), cal, scene.profile, scene.shot)
    for frame in scene.frames(4):                                  # the cups set out, no glare
        assert bare.process(frame) == [] and held.process(frame) == []
    rng = random.Random(4)
    false_moves = 0
    for cell in [(0, 1), (1, 3), (2, 5), (1, 0)]:
        x0, y0, x1, y1 = scene.profile.cell_rect_mm(*cell)
        spot = Glare.drawn(rng, ((x0 + x1) / 2, (y0 + y1) / 2)).layer(scene.shot.shape, scene.view)
        glared = [replace(f, image=cv2.add(f.image, spot)) for f in scene.frames(6)]
        false_moves += sum(len(bare.process(f)) for f in glared)
        assert [o for f in glared for o in held.process(f)] == []   # a glare is not a move
        for frame in scene.frames(4):                              # it goes: the bare watcher settles back
            bare.process(frame)
            assert held.process(frame) == []
    assert false_moves >= 4                                        # the bare watcher was fooled each time
    assert held.held_frames >= 4 * 6 - 4
    scene.lifted, scene.tokens = {(1, 3)}, {(1, 3): ["blue", "orange"]}   # lifted under the glare
    x0, y0, x1, y1 = scene.profile.cell_rect_mm(1, 3)
    spot = Glare.drawn(rng, ((x0 + x1) / 2, (y0 + y1) / 2)).layer(scene.shot.shape, scene.view)
    assert [o for f in scene.frames(8) for o in held.process(replace(f, image=cv2.add(f.image, spot)))] == []
    facts = [(o.kind, o.data) for f in scene.frames(4) for o in held.process(f)]
    assert facts == [("cup_lifted", {"cell": [1, 3], "colours": ["blue", "orange"]})]


def test_rounds_with_a_glare_at_every_change_show_no_wrong_state(session):
    table = CameraPtiPassPassTable(session, seed=5, players=(3,), faults="glare@1.0")
    try:
        fig = table.play_round()
    finally:
        table.close()
    assert not fig.wrong, fig.wrong
    assert fig.glare_frames > 0 and table.watcher.held_frames > 0
    assert session.snapshot()["alerts"] == [] and fig.taps == fig.alerts
