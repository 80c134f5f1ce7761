"""The dashboard's HTTP API: state, new game, alerts, and clear errors for bad requests."""

from __future__ import annotations

import json

import pytest

from table.observations import Observation
from web.app import create_app


@pytest.fixture
def client(session):
    return create_app(session).test_client()


def test_state_without_a_game(client):
    state = client.get("/api/state").get_json()
    assert state["game"] is None and state["view"] is None


def test_new_game_then_state_shows_the_frame(client, session):
    r = client.post("/api/games", json={"game": "passe-murailles"})
    assert r.status_code == 201
    state = client.get("/api/state").get_json()
    assert state["game"] == "passe-murailles"
    assert state["view"]["current_player"] == "red"
    assert len(state["view"]["slides"]) == 6
    assert state["version"] == session.version


def test_index_page_french_by_default_english_on_request(client):
    assert 'lang="fr"' in client.get("/").get_data(as_text=True)
    r = client.get("/?lang=en")
    assert 'lang="en"' in r.get_data(as_text=True)
    assert "lang=en" in r.headers["Set-Cookie"]


@pytest.mark.parametrize(
    "path, body, status, phrase",
    [
        ("/api/games", "not json", 400, "Send a JSON object"),
        ("/api/games", json.dumps([1, 2]), 400, "Send a JSON object"),
        ("/api/games", json.dumps({"game": "chess"}), 400, "Unknown game 'chess'"),
        ("/api/games", json.dumps({"game": "passe-murailles", "options": 3}), 400, "'options' must be an object"),
        ("/api/alerts/nope/resolve", json.dumps({"choice": "x"}), 404, "No open alert"),
        ("/api/undo", json.dumps({"seq": "one"}), 400, "Say which entry to undo"),
    ],
)
def test_bad_requests_get_bilingual_errors_not_tracebacks(client, path, body, status, phrase):
    r = client.post(path, data=body, content_type="application/json")
    assert r.status_code == status
    err = r.get_json()["error"]
    assert phrase in err["en"] and err["fr"] and err["fr"] != err["en"]


def test_unknown_api_path_and_wrong_method_answer_json(client):
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and r.get_json()["error"]["fr"] == "Introuvable"
    r = client.get("/api/undo")
    assert r.status_code == 405


def test_dashboard_cannot_fake_sensor_facts(client):
    client.post("/api/games", json={"game": "passe-murailles"})
    r = client.post("/api/observations", json={"kind": "slide", "data": {"slide": 1, "offset": 1}})
    assert r.status_code == 400 and "does not take 'slide'" in r.get_json()["error"]["en"]


def test_sensor_move_is_shown_and_illegal_one_raises_an_alert(client, session):
    client.post("/api/games", json={"game": "passe-murailles"})
    session.submit(Observation.now("slide", source="test", slide=3, offset=1))  # red moves slide 3
    session.submit(Observation.now("slide", source="test", slide=3, offset=0))  # blue may not move it back
    state = client.get("/api/state").get_json()
    assert state["view"]["slides"][2]["offset"] == 1
    assert state["view"]["current_player"] == "blue"
    [alert] = state["alerts"]
    assert alert["kind"] == "put_back"
    assert "slide 3" in alert["message"]["en"] and "coulisse 3" in alert["message"]["fr"]
    # no choice can be forced: the part must be put back
    r = client.post(f"/api/alerts/{alert['id']}/resolve", json={"choice": "anything"})
    assert r.status_code == 400
    session.submit(Observation.now("slide", source="test", slide=3, offset=1))  # put back
    state = client.get("/api/state").get_json()
    assert state["alerts"] == [] and state["view"]["current_player"] == "blue"


def test_entry_fields_named_like_observation_fields_are_just_data(client, session):
    from table.games import games

    if "pass-pass" not in games():
        pytest.skip("the Pass Pass adapter is not installed")
    client.post("/api/games", json={"game": "pass-pass", "options": {"players": 3}})
    r = client.post("/api/observations", json={"kind": "pass_pass.play",
                                               "data": {"kind": "x", "source": "y", "t": 1, "seat": 0}})
    assert r.status_code == 422 and r.get_json()["error"]["fr"]
