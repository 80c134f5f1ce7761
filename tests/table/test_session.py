"""The session: the log is the truth; replaying it gives the same state, and a restart
mid-game resumes the same game."""

from __future__ import annotations

import random

from table.log import EventLog
from table.observations import Observation
from table.passe_murailles import DropPeg, MoveBoard, MoveSlide
from table.session import Session


def _sensor_facts_for(action, game) -> list[Observation]:
    """What the frame's sensors report when a player makes ``action`` (before applying)."""
    if isinstance(action, DropPeg):
        return [Observation.now("peg_drop", source="test", column=action.column)]
    if isinstance(action, MoveSlide):
        offset = game.frame.offset(action.slide) + action.step
        return [Observation.now("slide", source="test", slide=action.slide, offset=offset)]
    assert isinstance(action, MoveBoard)
    return [Observation.now("board", source="test", position=game.frame.board_position + action.step)]


def _play(session: Session, moves: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        game = session._adapter.g
        if game.is_over():
            return
        action = rng.choice(game.legal_actions())
        for obs in _sensor_facts_for(action, game):
            session.submit(obs)


def _comparable(snapshot: dict) -> dict:
    return {k: v for k, v in snapshot.items() if k not in ("version", "health")}


def test_sensor_facts_become_moves_by_whose_turn_it_is(session):
    session.new_game("passe-murailles")
    session.submit(Observation.now("peg_drop", source="test", column=session._adapter.g.legal_actions()[0].column))
    g = session._adapter.g
    assert g.in_hand()["red"] == 7 and g.current_player == "blue"


def test_replaying_the_log_gives_the_same_state(log_path):
    live = Session(EventLog(log_path))
    live.new_game("passe-murailles")
    _play(live, 60, seed=11)
    expected = _comparable(live.snapshot())
    replayed = Session(EventLog(log_path))
    assert _comparable(replayed.snapshot()) == expected
    assert replayed._adapter.g.to_dict() == live._adapter.g.to_dict()


def test_restart_mid_game_resumes_the_same_game(tmp_path):
    # one table plays 80 moves straight through; another is restarted after 37
    straight = Session(EventLog(tmp_path / "a.sqlite3"))
    straight.new_game("passe-murailles")
    _play(straight, 37, seed=5)
    interrupted = Session(EventLog(tmp_path / "b.sqlite3"))
    interrupted.new_game("passe-murailles")
    _play(interrupted, 37, seed=5)
    interrupted.log.close()  # power cut
    resumed = Session(EventLog(tmp_path / "b.sqlite3"))
    assert resumed._adapter.g.to_dict() == straight._adapter.g.to_dict()
    _play(straight, 43, seed=6)
    _play(resumed, 43, seed=6)
    assert resumed._adapter.g.to_dict() == straight._adapter.g.to_dict()
    assert resumed._adapter.feed[-1]["text"] == straight._adapter.feed[-1]["text"]


def test_new_game_with_the_frame_out_of_place_asks_to_set_it_up(session):
    session.new_game("passe-murailles")
    session.submit(Observation.now("slide", source="test", slide=4, offset=1))   # red
    session.submit(Observation.now("board", source="test", position=3))          # blue
    session.new_game("passe-murailles")
    [alert] = session.snapshot()["alerts"]
    assert alert["kind"] == "setup"
    assert "slide 4" in alert["message"]["en"] and "board" in alert["message"]["en"]
    session.submit(Observation.now("slide", source="test", slide=4, offset=0))
    assert session.snapshot()["alerts"]  # the board is still out of place
    session.submit(Observation.now("board", source="test", position=2))
    assert session.snapshot()["alerts"] == []
    assert session._adapter.g.current_player == "red" and session._adapter.g.history == []


def test_a_two_notch_jump_is_refused_and_waits_for_the_put_back(session):
    session.new_game("passe-murailles")
    session.submit(Observation.now("slide", source="test", slide=2, offset=2))
    [alert] = session.snapshot()["alerts"]
    assert "2 notches" in alert["message"]["en"] and "2 crans" in alert["message"]["fr"]
    # while the slide is out of place, another move is not taken either
    session.submit(Observation.now("slide", source="test", slide=5, offset=1))
    assert session._adapter.g.history == []
    assert {p["number"] for p in session.snapshot()["alerts"][0]["expected"]} == {2, 5}
    session.submit(Observation.now("slide", source="test", slide=2, offset=0))
    session.submit(Observation.now("slide", source="test", slide=5, offset=0))
    assert session.snapshot()["alerts"] == [] and session._adapter.g.current_player == "red"


def test_waiting_readers_wake_on_a_new_observation(session):
    import threading

    session.new_game("passe-murailles")
    seen = session.version
    woke: list[int] = []
    t = threading.Thread(target=lambda: woke.append(session.wait_for_change(seen, timeout=10)))
    t.start()
    session.submit(Observation.now("board", source="test", position=3))
    t.join(timeout=10)
    assert woke and woke[0] > seen
    assert session.wait_for_change(session.version, timeout=0.01) == session.version  # times out unchanged


def test_options_a_game_refuses_are_not_logged_and_a_restart_still_works(log_path):
    import pytest

    from table.games import games

    if "pass-pass" not in games():
        pytest.skip("the Pass Pass adapter is not installed")
    live = Session(EventLog(log_path))
    live.new_game("passe-murailles")
    before = live.log.last_seq()
    with pytest.raises(ValueError):
        live.new_game("pass-pass", {"players": 9})
    assert live.log.last_seq() == before  # nothing logged
    restarted = Session(EventLog(log_path))
    assert restarted._adapter.game == "passe-murailles"
