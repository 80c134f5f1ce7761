"""The hub's page in Debian's chromium: live cards for every table, a link to each
table's page, alerts resolved with the table's PIN, offline and broker-down shown."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.room.helpers import pass_pass_sim, raise_alert
from tests.support import wait_until
from web.room.app import create_hub_app
from web.room.compact import compact
from web.room.hub import RoomHub
from web.room.publisher import TablePublisher
from web.server import DashboardServer

pytestmark = pytest.mark.browser
PIN = "73915"


@pytest.fixture
def page(browser):
    context = browser.new_context()
    yield context.new_page()
    context.close()


@pytest.fixture
def room(broker, make_session):
    s1, s2 = make_session("bar-1"), make_session("bar-2")
    sim1 = pass_pass_sim(s1, pace=0.0, seed=11, restart_after=None)
    sim1.new_game()
    s2.new_game("pass-pass", {"players": 3, "first": 0, "names": ["Zoé", "Yann", "Xavier"]})
    pubs = [TablePublisher(s1, url=broker.url, table="bar-1", page_url="http://bar-1.local:8080/"),
            TablePublisher(s2, url=broker.url, table="bar-2", pin=PIN, commands=True)]
    hub = RoomHub(url=broker.url)
    server = DashboardServer(create_hub_app(hub), port=0, max_streams=4)
    for p in pubs:
        p.start()
    hub.start()
    server.start()
    yield {"s1": s1, "sim1": sim1, "s2": s2, "pubs": pubs, "server": server, "hub": hub}
    server.stop()
    hub.stop()
    for p in pubs:
        p.stop()


def test_cards_follow_the_tables_live_and_link_to_their_pages(room, page):
    page.goto(room["server"].url + "?lang=en")
    card = page.locator("article.card[data-table=bar-1]")
    expect(card).to_have_attribute("data-status", "online")
    expect(page.locator("article.card")).to_have_count(2)
    expect(page.locator("article.card").first).to_have_attribute("data-table", "bar-1")  # sorted by name
    expect(card.locator("h2 a")).to_have_attribute("href", "http://bar-1.local:8080/")
    expect(page.locator("#broker")).to_have_text("broker connected")
    for _ in range(30):  # the game moves on: the card follows without a reload
        room["sim1"].step()
    view = room["s1"].snapshot()["view"]
    seq = max(line["seq"] for line in room["s1"].snapshot()["feed"])
    expect(card).to_have_attribute("data-seq", str(seq))
    names = card.locator("ol.players li .name")
    expect(names).to_have_text(view["names"]["en"])
    want = compact(room["s1"].snapshot(), table="bar-1", t=0)
    expect(card.locator("ol.players li .score")).to_have_text([str(p["score"]) for p in want["players"]])
    expect(card.locator("ol.players li.turn .name")).to_have_text(view["names"]["en"][view["to_act"]])
    expect(card.locator("p.game")).to_have_text("Pass Pass")
    assert card.locator("input[name=pin]").count() == 0  # commands are off on bar-1
    room["pubs"][0].stop()  # a clean stop: the table says it is offline
    expect(card).to_have_attribute("data-status", "offline")
    expect(card.locator(".badge")).to_have_text("offline")


def test_an_alert_is_resolved_from_the_hub_with_the_pin_in_french(room, page):
    page.goto(room["server"].url + "?lang=fr")
    card = page.locator("article.card[data-table=bar-2]")
    expect(card.locator(".badge")).to_have_text("en ligne")
    s2 = room["s2"]
    alert = raise_alert(s2)
    box = card.locator(f".alert-box[data-alert='{alert['id']}']")
    expect(box).to_contain_text("Saisie non appliquée")
    expect(card).to_have_class(re.compile(r"has-alerts"))
    box.locator("button[data-choice=ok]").click()  # no PIN typed
    expect(card.locator(".answer")).to_have_text("Tapez le PIN de la table.")
    card.locator("input[name=pin]").fill("11111")
    box.locator("button[data-choice=ok]").click()
    expect(card.locator(".answer")).to_contain_text("PIN de cette table")
    assert s2.snapshot()["alerts"] != []
    card.locator("input[name=pin]").fill(PIN)
    card.locator(f".alert-box[data-alert='{alert['id']}'] button[data-choice=ok]").click()
    expect(card.locator(".alert-box")).to_have_count(0)
    assert s2.snapshot()["alerts"] == []
    assert s2.log.get(s2.log.last_seq("resolve")).source == "hub"


def test_new_game_from_the_hub_and_broker_down_is_shown(room, page, broker):
    page.goto(room["server"].url + "?lang=en")
    card = page.locator("article.card[data-table=bar-2]")
    seq = room["s2"].game_seq
    card.locator("input[name=pin]").fill(PIN)
    card.locator("button.new-game").click()
    expect(card.locator(".answer")).to_have_text("done")
    assert room["s2"].game_seq > seq
    assert room["s2"].snapshot()["view"]["names"]["en"] == ["Zoé", "Yann", "Xavier"]  # same players
    broker.stop()
    expect(page.locator("#broker")).to_have_text("broker unreachable")
    broker.start()
    expect(page.locator("#broker")).to_have_text("broker connected", timeout=20_000)
    assert wait_until(lambda: len(room["hub"].tables()) == 2, timeout=20)
    expect(page.locator("article.card")).to_have_count(2)
