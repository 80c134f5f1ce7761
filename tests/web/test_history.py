"""Past games read back from the log (no second store): the listing, one game's sheet,
the CSV and JSON exports, and the pages."""

from __future__ import annotations

import csv
import io

from table import history
from table.log import EventLog
from table.pass_pass.sim import SimulatedPassPassTable
from table.session import Session
from web.app import create_app


def _two_games(tmp_path):
    session = Session(EventLog(tmp_path / "log.sqlite3"))
    SimulatedPassPassTable(session, pace=0, seed=3, restart_after=None).play_game()
    finished = session.snapshot()["summary"]
    first = session.game_seq
    session.new_game("passe-murailles")
    return session, first, finished


def test_the_listing_tells_each_game_its_date_players_and_result(tmp_path):
    session, first, finished = _two_games(tmp_path)
    past = history.past_games(session.log)
    assert [g.game for g in past] == ["passe-murailles", "pass-pass"]  # newest first
    done = past[1]
    assert done.seq == first and done.over
    assert done.players == finished["players"] and done.winners == finished["winners"]
    winners = [finished["players"][w]["name"]["en"] for w in finished["winners"]]
    assert all(name in done.result("en") for name in winners)
    assert past[0].over is False and past[0].result("fr") == "Pas terminée"
    assert done.feed[0]["text"]["en"].startswith("New game of Pass Pass")


def test_an_undone_entry_is_left_out_as_the_session_does(tmp_path):
    session = Session(EventLog(tmp_path / "log.sqlite3"))
    session.new_game("pass-pass", {"players": 3, "names": ["Ana", "Bo", "Cy"]})
    obs = session.enter("pass_pass.play", {"seat": 0, "card": "purple-10"})
    session.undo(obs.seq)
    session.enter("pass_pass.play", {"seat": 0, "card": "blue-2"})
    [g] = history.past_games(session.log)
    sentences = " ".join(f["text"]["en"] for f in g.feed)
    assert "blue 2" in sentences and "purple 10" not in sentences
    assert [f["text"] for f in g.feed] == [f["text"] for f in session.snapshot()["feed"]]


def test_exports_as_csv_and_json_and_the_pages(tmp_path):
    session, first, finished = _two_games(tmp_path)
    client = create_app(session).test_client()
    listing = client.get("/api/history").get_json()["games"]
    assert [g["game"] for g in listing] == [session.game_seq, first]
    assert listing[1]["result"]["en"] and listing[1]["over"] is True
    rows = list(csv.reader(io.StringIO(client.get("/api/history.csv").get_data(as_text=True))))
    assert rows[0][:4] == ["game", "start_utc", "end_utc", "game_id"] and len(rows) == 3
    assert rows[2][3] == "pass-pass" and rows[2][7] == "yes"
    one = client.get(f"/api/history/{first}").get_json()
    assert one["players"] == finished["players"] and len(one["feed"]) > 10
    sheet = client.get(f"/api/history/{first}.csv")
    assert sheet.headers["Content-Disposition"].startswith("attachment")
    assert "New game of Pass Pass" in sheet.get_data(as_text=True)
    page = client.get("/history?lang=fr").get_data(as_text=True)
    assert "Pass Pass" in page and "Passe-Murailles" in page and f'href="/history/{first}"' in page
    assert client.get(f"/history/{first}?lang=en").status_code == 200
    assert client.get("/history/999").status_code == 404
    assert client.get("/api/history/999").status_code == 404
