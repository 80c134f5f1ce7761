"""The machine's seat on the real frame: it says its move, a person makes it, the sensors
confirm it; another move is played (the frame is the truth) with an alert saying what the
bot asked. Hints on demand through the dashboard."""

from __future__ import annotations

import subprocess
import sys

from table.observations import Observation
from table.passe_murailles.actions import action_from_dict
from table.passe_murailles.seat import BOT_MOVE, BotSeat
from web.app import create_app


def _sensed(session, action: dict) -> None:
    """What the frame's sensors report when a person makes ``action``."""
    view = session.snapshot()["view"]
    a = action_from_dict(action)
    if action["type"] == "drop_peg":
        session.submit(Observation.now("peg_drop", source="test", column=a.column))
    elif action["type"] == "move_slide":
        offset = view["slides"][a.slide - 1]["offset"] + a.step
        session.submit(Observation.now("slide", source="test", slide=a.slide, offset=offset))
    else:
        session.submit(Observation.now("board", source="test", position=view["board"]["position"] + a.step))


def _other_move(session, asked: dict) -> dict:
    legal = session.current_game().engine.legal_actions()
    return next(a.to_dict() for a in legal if a.to_dict() != asked and a.to_dict()["type"] != "drop_peg")


def test_the_bot_speaks_on_its_turn_only_and_the_sensed_move_is_checked(session):
    session.start_game("passe-murailles", {"bot": "blue", "bot_level": 2, "first": "red"})
    seat = BotSeat(session, budget_s=0.05)
    assert seat.announce_if_due() is False                       # red to play: the bot waits
    red = session.current_game().engine.legal_actions()[0].to_dict()
    _sensed(session, red)
    assert session.snapshot()["view"]["current_player"] == "blue"
    assert seat.announce_if_due() is True
    said = session.snapshot()["view"]["bot"]
    assert said["player"] == "blue" and said["say"]["en"].startswith("Bot: ") and said["say"]["fr"].startswith("Bot : ")
    assert [o.source for o in session.log.read() if o.kind == BOT_MOVE] == ["bot"]
    assert seat.announce_if_due() is False                       # said once per position
    _sensed(session, said["action"])                             # a person does as asked
    snap = session.snapshot()
    assert snap["view"]["bot"] is None and not [a for a in snap["alerts"] if a["kind"] == "bot_mismatch"]
    assert said["say"]["fr"] in [line["text"]["fr"] for line in snap["feed"]]


def test_a_different_move_is_played_and_the_bot_says_what_it_asked(session):
    session.start_game("passe-murailles", {"bot": "red", "bot_level": 1})
    seat = BotSeat(session, budget_s=0.05)
    assert seat.announce_if_due()
    asked = session.snapshot()["view"]["bot"]["action"]
    moves = session.snapshot()["view"]["moves"]
    _sensed(session, _other_move(session, asked))
    snap = session.snapshot()
    assert snap["view"]["moves"] == moves + 1                    # the frame is the truth: the move counts
    (alert,) = [a for a in snap["alerts"] if a["kind"] == "bot_mismatch"]
    assert alert["message"]["en"].startswith("The bot asked you to") and alert["message"]["fr"].startswith("Le robot")
    session.resolve(alert["id"], "ok")
    assert not session.snapshot()["alerts"]


def test_no_bot_without_the_option(session):
    session.start_game("passe-murailles", {})
    assert BotSeat(session, budget_s=0.05).announce_if_due() is False
    assert session.snapshot()["view"]["bot_seat"] is None


def test_hints_only_when_switched_on_and_they_change_nothing(session):
    client = create_app(session).test_client()
    session.start_game("passe-murailles", {})
    assert client.get("/api/hint").status_code == 409
    session.start_game("passe-murailles", {"hints": True})
    before = session.snapshot()["view"]
    r = client.get("/api/hint")
    assert r.status_code == 200 and r.get_json()["say"]["fr"] and r.get_json()["threats"]
    assert session.snapshot()["view"] == before


def test_the_cli_refuses_a_bot_for_a_game_that_has_none(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "table.cli", "run", "--game", "pass-pass", "--bot", "red",
                           "--port", "0", "--data", str(tmp_path)], capture_output=True, text=True, timeout=60,
                          check=False)
    assert proc.returncode == 2 and "bot" in proc.stderr and "passetable :" in proc.stderr
