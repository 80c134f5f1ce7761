"""The [mqtt] settings and broker URLs: good values pass, every bad one is named in both languages."""

from __future__ import annotations

import json
import tomllib

import pytest

from web.room.settings import SettingsError, from_toml, parse_url
from web.room.signing import WINDOW_S, CommandRefused, Verifier, sign


@pytest.mark.parametrize("url, host, port, tls", [
    ("mqtt://127.0.0.1", "127.0.0.1", 1883, False), ("mqtt://broker.local:1884", "broker.local", 1884, False),
    ("mqtts://broker.local", "broker.local", 8883, True), ("mqtts://[::1]:8884/", "::1", 8884, True),
])
def test_broker_urls(url, host, port, tls):
    b = parse_url(url)
    assert (b.host, b.port, b.tls) == (host, port, tls)


@pytest.mark.parametrize("url", ["http://h:1883", "mqtt://", "h:1883", "mqtt://h:99999", "mqtt://h/topic",
                                 "mqtt://u:p@h", ""])
def test_bad_urls_are_refused_in_both_languages(url):
    with pytest.raises(SettingsError) as exc:
        parse_url(url)
    assert exc.value.en and exc.value.fr and exc.value.en != exc.value.fr


def test_a_full_toml_table():
    raw = tomllib.loads('''
        [mqtt]
        url = "mqtts://broker.local"
        table = "bar-1"
        username = "bar-1"
        password = "secret"
        ca_file = "/etc/passetable/ca.pem"
        pin = "48213377"
        commands = true
        discovery = true
        keepalive = 30
    ''')
    s = from_toml(raw["mqtt"])
    assert (s.broker.tls, s.broker.port, s.table, s.commands, s.discovery, s.keepalive) == (True, 8883, "bar-1", True,
                                                                                           True, 30)
    assert from_toml({"url": "mqtt://h"}).table  # the machine's name by default


@pytest.mark.parametrize("values, key", [
    ({}, "url"), ({"url": "mqtt://h", "colour": 1}, "colour"), ({"url": "ftp://h"}, "url"),
    ({"url": "mqtt://h", "table": "bar/1"}, "table"), ({"url": "mqtt://h", "commands": True}, "pin"),
    ({"url": "mqtt://h", "pin": 1234}, "pin"), ({"url": "mqtt://h", "pin": "12"}, "pin"),
    ({"url": "mqtt://h", "keepalive": 1}, "keepalive"), ({"url": "mqtt://h", "discovery": "yes"}, "discovery"),
    ({"url": "mqtt://h", "cert_file": "c.pem"}, "cert_file"), ({"url": "mqtt://h", "password": "x"}, "password"),
    ({"url": "mqtt://h", "queue_limit": True}, "queue_limit"), ({"url": "mqtt://h", "discovery_prefix": "a/b"},
                                                                "discovery_prefix"),
])
def test_each_bad_setting_is_named(values, key):
    with pytest.raises(SettingsError) as exc:
        from_toml(values)
    assert key in exc.value.en and key in exc.value.fr and "[mqtt]" in exc.value.en


def test_signatures_cover_every_field():
    cmd = sign("48213377", {"table": "t1", "cmd": "resolve", "args": {"alert": "3-1", "choice": "ok"}}, t=1000.0)
    for field, value in (("table", "t2"), ("cmd", "new_game"), ("args", {"alert": "3-1", "choice": "no"}),
                         ("t", 1001.0), ("id", "other")):
        v = Verifier("48213377", table=cmd["table"] if field != "table" else "t2", clock=lambda: 1000.0)
        with pytest.raises(CommandRefused) as exc:
            v.verify(json.dumps({**cmd, field: value}).encode())
        assert exc.value.code == "bad_signature"
    ok = Verifier("48213377", table="t1", clock=lambda: 1000.0 + WINDOW_S - 1)
    assert ok.verify(json.dumps(cmd).encode())["args"]["choice"] == "ok"
    late = Verifier("48213377", table="t1", clock=lambda: 1000.0 + WINDOW_S + 1)
    with pytest.raises(CommandRefused) as exc:
        late.verify(json.dumps(cmd).encode())
    assert exc.value.code == "stale"
    nopin = Verifier(None, table="t1")
    with pytest.raises(CommandRefused) as exc:
        nopin.verify(json.dumps(cmd).encode())
    assert exc.value.code == "no_pin"


def test_compact_state_of_a_team_game_gives_each_player_the_team_score(tmp_path):
    from table.log import EventLog
    from table.pass_pass.sim import SimulatedPassPassTable
    from table.session import Session
    from web.room.compact import compact

    session = Session(EventLog(tmp_path / "log.sqlite3"))
    session.start_game("pass-pass", {"players": 4, "teams": True, "names": ["A", "B", "C", "D"], "deal_seed": 3})
    SimulatedPassPassTable(session, pace=0, seed=1, restart_after=None).play_game()
    snap = session.snapshot()
    view = snap["view"]
    c = compact(snap, table="t", t=1.0)
    teams = [seat["team"] for seat in view["seats"]]
    assert [(p["name"]["en"], p["score"], p["team"]) for p in c["players"]] == [
        (name, view["scores"][team], team) for name, team in zip("ABCD", teams, strict=True)]
    assert c["winners"] == [seat for seat, team in enumerate(teams) if team in view["winners"]] and c["winners"]
    assert c["over"] and c["alerts"] == len(snap["alerts"])


def test_a_publisher_from_toml_settings_and_refused_combinations(tmp_path):
    from table.log import EventLog
    from table.session import Session
    from web.room.publisher import TablePublisher

    session = Session(EventLog(tmp_path / "s.sqlite3"))
    try:
        settings = from_toml({"url": "mqtt://127.0.0.1:1", "table": "bar-4", "pin": "48213377", "commands": True,
                              "discovery": True, "page_url": "http://bar-4.local:8080/", "keepalive": 5})
        pub = TablePublisher.from_settings(session, settings)
        assert pub.settings == settings and pub.topics.command == "passetable/bar-4/command"
        with pytest.raises(SettingsError) as exc:
            TablePublisher(session, url="mqtt://h", table="bar-4", commands=True)  # commands need a PIN
        assert "pin" in exc.value.en and "pin" in exc.value.fr
        with pytest.raises(SettingsError):
            TablePublisher(session, url="mqtt://h", table="bar 4")
    finally:
        session.log.close()
