"""Two simulated tables and a hub on a real Mosquitto: the hub's /api/tables follows the
games; a table killed with SIGKILL goes offline; the broker stopped for 10 s and
restarted: everyone reconnects by themselves and no table was blocked meanwhile."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from tests.room.helpers import TableProcess, pass_pass_sim
from tests.support import wait_until
from web.room.app import create_hub_app
from web.room.compact import compact
from web.room.hub import RoomHub
from web.room.publisher import TablePublisher
from web.server import DashboardServer


@pytest.fixture
def hub_server(broker):
    hub = RoomHub(url=broker.url)
    server = DashboardServer(create_hub_app(hub), port=0, max_streams=4)
    hub.start()
    server.start()
    yield hub, server
    server.stop()
    hub.stop()


def api_tables(server) -> dict[str, dict]:
    with urllib.request.urlopen(server.url + "api/tables", timeout=10) as resp:
        return {t["table"]: t for t in json.load(resp)}


class Table:
    """A session on its SQLite file, its simulated players and its publisher."""

    def __init__(self, make_session, broker, name: str, seed: int, pace: float = 0.02,
                 restart_after: float | None = None, **kw):
        self.name = name
        self.session = make_session(name)
        self.sim = pass_pass_sim(self.session, pace=pace, seed=seed, restart_after=restart_after)
        self.pub = TablePublisher(self.session, url=broker.url, table=name, page_url=f"http://{name}.local:8080/",
                                  **kw)
        self.session.health_sources["mqtt"] = self.pub.health

    def start(self):
        self.pub.start()
        self.sim.start()
        return self

    def stop(self):
        self.sim.stop()
        self.pub.stop()

    def expected(self) -> dict:
        return compact(self.session.snapshot(), table=self.name, t=0)


def _same(hub_view: dict, table: Table) -> bool:
    want = table.expected()
    return hub_view.get("seq") == want["seq"] and hub_view["players"] == want["players"] \
        and hub_view["turn"] == want["turn"] and hub_view["game"] == want["game"]


@pytest.mark.slow
def test_two_tables_hub_lists_both_and_follows_the_games(broker, make_session, hub_server):
    _hub, server = hub_server
    tables = [Table(make_session, broker, f"bar-{i}", seed=i).start() for i in (1, 2)]
    seen: dict[str, set] = {"bar-1": set(), "bar-2": set()}
    try:
        # while the games run, the hub's list moves with them
        def both_over() -> bool:
            listed = api_tables(server)
            for name, t in listed.items():
                seen[name].add((t["seq"], json.dumps(t["players"])))
            return all(t.session.snapshot()["view"]["over"] for t in tables)

        assert wait_until(both_over, timeout=120)
        for t in tables:
            t.sim.stop()
        listed = api_tables(server)
        assert sorted(listed) == ["bar-1", "bar-2"]
        assert wait_until(lambda: all(_same(api_tables(server)[t.name], t) for t in tables), timeout=10)
        listed = api_tables(server)
        for t in tables:
            row = listed[t.name]
            assert row["online"] and row["status"] == "online" and row["game"] == "pass-pass"
            assert row["url"] == f"http://{t.name}.local:8080/"
            assert row["over"] and row["winners"] == t.session.snapshot()["view"]["winners"]
            assert sum(p["score"] for p in row["players"]) > 0  # a finished game has points
            assert isinstance(row["last_change"], float) and row["alerts"] == [] and row["last"]["fr"]
            assert len(seen[t.name]) > 5  # many intermediate states were listed on the way
    finally:
        for t in tables:
            t.stop()
    # stopped cleanly: both say offline themselves
    assert wait_until(lambda: all(not r["online"] for r in api_tables(server).values()), timeout=10)


@pytest.mark.slow
def test_a_table_killed_with_sigkill_shows_offline(broker, make_session, hub_server, tmp_path):
    _hub, server = hub_server
    other = Table(make_session, broker, "bar-2", seed=2, pace=0.2).start()
    killed = TableProcess(broker, "bar-1", tmp_path / "bar-1", "--keepalive", "2", "--pace", "0.1", "--seed", "3")
    try:
        assert wait_until(lambda: all(api_tables(server).get(n, {}).get("online") for n in ("bar-1", "bar-2")),
                          timeout=20)
        assert api_tables(server)["bar-1"]["game"] == "pass-pass"
        killed.kill()  # no goodbye: only the broker's last will can say it
        assert wait_until(lambda: api_tables(server)["bar-1"]["status"] == "offline", timeout=3 * 2 + 10)
        listed = api_tables(server)
        assert listed["bar-2"]["online"]  # the other table is untouched
        assert listed["bar-1"]["players"]  # its last state stays on the card
        # restarted on the same log: online again, and the game carries on from where it was
        before = listed["bar-1"]["seq"]
        again = TableProcess(broker, "bar-1", tmp_path / "bar-1", "--keepalive", "2", "--pace", "0.1", "--seed", "3")
        try:
            assert wait_until(lambda: api_tables(server)["bar-1"]["online"], timeout=20)
            assert wait_until(lambda: api_tables(server)["bar-1"]["seq"] > before, timeout=20)
        finally:
            again.stop()
    finally:
        killed.stop()
        other.stop()


@pytest.mark.slow
def test_broker_stopped_10s_everyone_reconnects_and_no_table_blocked(broker, make_session, hub_server):
    hub, server = hub_server
    tables = [Table(make_session, broker, f"bar-{i}", seed=i, pace=0.05, restart_after=0.5).start() for i in (1, 2)]
    try:
        assert wait_until(lambda: all(api_tables(server).get(t.name, {}).get("online") for t in tables), timeout=20)
        broker.stop()
        assert wait_until(lambda: not hub.health()["connected"], timeout=10)
        entries_before = [t.sim.entries for t in tables]
        time.sleep(10)  # the broker stays down for 10 s
        for t, before in zip(tables, entries_before):
            assert t.sim.entries > before + 5, f"{t.name} stalled while the broker was down: {t.sim.entries} {before}"
            assert t.session.health()["mqtt"]["connected"] is False
        broker.start()
        for t in tables:
            t.sim.stop()
        assert wait_until(lambda: hub.health()["connected"], timeout=20)
        assert wait_until(lambda: all(t.pub.health()["connected"] for t in tables), timeout=20)
        # the restarted broker had lost every retained message; the tables published theirs again
        assert wait_until(lambda: all(_same(api_tables(server).get(t.name, {"seq": None}), t) for t in tables),
                          timeout=20), (api_tables(server), [t.expected() for t in tables])
        assert wait_until(lambda: all(r["online"] for r in api_tables(server).values()), timeout=10)
    finally:
        for t in tables:
            t.stop()


def _read_event(resp) -> dict:
    data = None
    while True:
        line = resp.fp.readline().decode()
        if line.startswith("data: "):
            data = json.loads(line[6:])
        elif line in ("\n", "\r\n") and data is not None:
            return data


def test_live_pages_get_the_room_then_only_the_tables_that_changed(broker, make_session, hub_server):
    import http.client

    hub, server = hub_server
    tables = [Table(make_session, broker, f"bar-{i}", seed=i) for i in (1, 2)]
    for t in tables:
        t.sim.new_game()
        t.pub.start()
    try:
        assert wait_until(lambda: all(api_tables(server).get(t.name, {}).get("online") for t in tables), timeout=15)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
        conn.request("GET", "/api/stream")
        resp = conn.getresponse()
        first = _read_event(resp)
        assert first["full"] and first["names"] == ["bar-1", "bar-2"] and first["broker"]["connected"]
        assert [t["table"] for t in first["tables"]] == ["bar-1", "bar-2"]
        tables[1].sim.step()
        want = tables[1].expected()["seq"]
        bar1 = first["tables"][0]
        while True:  # until bar-2's step arrives, messages carry bar-2 (bar-1 only for its health refresh)
            msg = _read_event(resp)
            assert not msg["full"] and msg["names"] == ["bar-1", "bar-2"]
            changed = {t["table"]: t for t in msg["tables"]}
            assert "bar-1" not in changed or changed["bar-1"]["seq"] == bar1["seq"]
            if changed.get("bar-2", {}).get("seq") == want:
                assert list(changed) == ["bar-2"]
                break
        conn.close()
    finally:
        for t in tables:
            t.stop()


def test_stray_messages_never_break_the_hub(broker, hub_server, listen):
    hub, server = hub_server
    stray = listen(broker, "nothing/#")
    for topic, payload in [("passetable/x1/state", b"[1, 2]"), ("passetable/x1/state", b"not json"),
                           ("passetable/x1/command/result", b"[]"), ("passetable/x1/alerts", {"alerts": "many"}),
                           ("passetable/x1/health", {"status": "online", "url": "javascript:alert(1)"}),
                           ("passetable/x2/state", {"players": "Ana", "turn": "1", "winners": 3, "seq": "9"}),
                           ("passetable/bad/name/state", {"game": "x"})]:
        stray.client.publish(topic, payload if isinstance(payload, bytes) else json.dumps(payload), retain=True)
    assert wait_until(lambda: sorted(api_tables(server)) == ["x1", "x2"] and api_tables(server)["x1"]["online"],
                      timeout=10)
    listed = api_tables(server)
    assert listed["x1"]["online"] and listed["x1"]["url"] is None and listed["x1"]["alerts"] == []
    assert listed["x2"]["players"] == [] and listed["x2"]["turn"] is None and listed["x2"]["seq"] is None
    assert hub.health()["connected"]  # paho's thread is still alive
    for topic in ("passetable/x1/state", "passetable/x1/alerts", "passetable/x1/health", "passetable/x2/state"):
        stray.client.publish(topic, b"", retain=True)  # emptied retained topics: the tables go away
    assert wait_until(lambda: api_tables(server) == {}, timeout=10)
