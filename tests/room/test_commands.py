"""Commands from the hub: refused unless signed with the table's PIN; a signed new game
and a signed resolve go through the session; a table with commands off takes none."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from tests.room.helpers import raise_alert
from tests.support import wait_until
from web.room.app import create_hub_app
from web.room.hub import RoomHub
from web.room.publisher import TablePublisher
from web.room.signing import sign
from web.server import DashboardServer

PIN = "4821-café"


@pytest.fixture
def room(broker, make_session):
    session = make_session("bar-1")
    session.new_game("pass-pass", {"players": 3, "first": 0, "names": ["Ana", "Bo", "Cy"]})
    pub = TablePublisher(session, url=broker.url, table="bar-1", pin=PIN, commands=True)
    hub = RoomHub(url=broker.url)
    server = DashboardServer(create_hub_app(hub), port=0, max_streams=2)
    pub.start()
    hub.start()
    server.start()
    assert wait_until(lambda: any(t["table"] == "bar-1" and t["online"] for t in hub.tables()), timeout=15)
    yield session, pub, hub, server
    server.stop()
    hub.stop()
    pub.stop()


def post(server, path: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(server.url + path.lstrip("/"), data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=15) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as err:
        return err.code, json.load(err)


def test_an_unsigned_or_badly_signed_command_is_refused_and_changes_nothing(room, listen, broker):
    session, pub, _hub, _server = room
    listener = listen(broker, "passetable/bar-1/command/result")
    version = session.snapshot()["game_seq"]
    unsigned = {"id": "x1", "table": "bar-1", "cmd": "new_game", "t": 0, "args": {"game": "passe-murailles"}}
    listener.publish("passetable/bar-1/command", unsigned)
    forged = sign("0000", {"table": "bar-1", "cmd": "new_game", "args": {"game": "passe-murailles"}})
    listener.publish("passetable/bar-1/command", forged)
    listener.publish("passetable/bar-1/command", b"not json")
    assert wait_until(lambda: len(listener.raw) >= 3, timeout=10)
    results = [json.loads(p) for _, p, _ in listener.raw]
    assert [(r["ok"], r["error"]["code"]) for r in results] == [(False, "bad_signature")] * 2 + [(False, "malformed")]
    assert results[0]["id"] == "x1" and results[1]["id"] == forged["id"]
    assert all(r["error"]["fr"] for r in results)
    assert session.snapshot()["game_seq"] == version and session.snapshot()["game"] == "pass-pass"
    assert pub.health()["refused_commands"] == 3 and pub.health()["commands"] == 0


def test_signed_for_another_table_or_replayed_is_refused(room, listen, broker):
    session, _pub, _hub, _server = room
    listener = listen(broker, "passetable/bar-1/command/result")
    other = sign(PIN, {"table": "bar-2", "cmd": "new_game", "args": {"game": "passe-murailles"}})
    listener.publish("passetable/bar-1/command", other)
    good = sign(PIN, {"table": "bar-1", "cmd": "new_game", "args": {"game": "passe-murailles"}})
    listener.publish("passetable/bar-1/command", good)
    assert wait_until(lambda: session.snapshot()["game"] == "passe-murailles", timeout=10)
    seq = session.game_seq
    listener.publish("passetable/bar-1/command", good)  # the same message again
    assert wait_until(lambda: len(listener.raw) >= 3, timeout=10)
    codes = [json.loads(p).get("error", {}).get("code") for _, p, _ in listener.raw]
    assert codes == ["wrong_table", None, "replay"]
    assert session.game_seq == seq


def test_hub_page_commands_need_the_right_pin_then_start_a_game_and_resolve_alerts(room):
    session, pub, hub, server = room
    status, body = post(server, "/api/tables/bar-1/command", {"pin": "9999", "cmd": "new_game",
                                                              "args": {"game": "passe-murailles"}})
    assert status == 403 and body["error"]["code"] == "bad_signature" and "PIN" in body["error"]["fr"]
    status, body = post(server, "/api/tables/bar-1/command", {"cmd": "new_game", "args": {}})
    assert status == 400 and body["error"]["en"]
    assert session.snapshot()["game"] == "pass-pass"

    alert = raise_alert(session)
    assert wait_until(lambda: [a["id"] for a in hub.tables()[0]["alerts"]] == [alert["id"]], timeout=10)
    status, body = post(server, "/api/tables/bar-1/command", {"pin": PIN, "cmd": "resolve",
                                                              "args": {"alert": alert["id"], "choice": "nope"}})
    assert status == 409 and body["error"]["fr"]
    status, body = post(server, "/api/tables/bar-1/command", {"pin": PIN, "cmd": "resolve",
                                                              "args": {"alert": alert["id"], "choice": "ok"}})
    assert status == 200 and body["ok"] is True
    assert session.snapshot()["alerts"] == []
    resolved = session.log.get(body["seq"])
    assert resolved.kind == "resolve" and resolved.source == "hub" and resolved.data["choice"] == "ok"
    assert wait_until(lambda: hub.tables()[0]["alerts"] == [], timeout=10)

    status, body = post(server, "/api/tables/bar-1/command", {"pin": PIN, "cmd": "new_game",
                                                              "args": {"game": "pass-pass", "options": {"players": 4}}})
    assert status == 200 and body["ok"]
    assert session.snapshot()["game"] == "pass-pass" and session.snapshot()["view"]["players"] == 4
    assert wait_until(lambda: len(hub.tables()[0]["players"]) == 4, timeout=10)
    status, body = post(server, "/api/tables/bar-1/command", {"pin": PIN, "cmd": "new_game",
                                                              "args": {"game": "chess"}})
    assert status == 409 and "chess" in body["error"]["en"]
    assert pub.health()["commands"] == 2 and pub.health()["refused_commands"] == 3


def test_a_table_with_commands_off_takes_none(broker, make_session, listen):
    session = make_session("bar-3")
    pub = TablePublisher(session, url=broker.url, table="bar-3", pin=PIN)  # commands off by default
    listener = listen(broker, "passetable/bar-3/#")
    pub.start()
    try:
        assert wait_until(lambda: pub.health()["connected"], timeout=10)
        listener.publish("passetable/bar-3/command", sign(PIN, {"table": "bar-3", "cmd": "new_game",
                                                               "args": {"game": "passe-murailles"}}))
        assert wait_until(lambda: listener.get("passetable/bar-3/health") is not None, timeout=10)
        hub = RoomHub(url=broker.url)
        hub.start()
        try:
            assert wait_until(lambda: hub.health()["connected"], timeout=10)
            assert hub.send_command("bar-3", PIN, "new_game", {"game": "passe-murailles"}, timeout=1.0) is None
        finally:
            hub.stop()
        assert session.snapshot()["game"] is None
        assert not any(t.endswith("/result") for t, _, _ in listener.raw)
    finally:
        pub.stop()
