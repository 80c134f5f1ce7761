"""The simulated PtiPassPass table with a camera and seat buttons: rendered frames through
the real pipeline and presses on MockFactory pins into a real Session on a SQLite file.
The log holds only camera, gpio and person facts, and the page never contradicts the
simulated truth."""

from __future__ import annotations

import pytest

from hardware.sim_cups import CameraPtiPassPassTable, make_simulation
from hardware.sim_thread import FilmedTableThread
from table.log import EventLog
from table.ptipasspass.sim import PtiPassPassSimulation
from table.session import Session

GAME_FACTS = {"seat_button", "cup_lifted", "cup_back", "cup_touched", "token_held"}


@pytest.fixture
def session(tmp_path):
    s = Session(EventLog(tmp_path / "log.sqlite3"))
    yield s
    s.log.close()


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
