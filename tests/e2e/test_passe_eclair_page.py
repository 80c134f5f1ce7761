"""The Passe Éclair scorekeeper page in a real browser: set a game up, play one turn by
taps, see a wrong card flagged and spotted, undo; and the simulated table live."""

from __future__ import annotations

import pytest

from table.log import EventLog
from table.session import Session
from tests.browser import log_in, pin_guard
from web.app import create_app
from web.server import DashboardServer

pytestmark = pytest.mark.browser


@pytest.fixture
def dashboard(tmp_path):
    session = Session(EventLog(tmp_path / "x.sqlite3"))
    server = DashboardServer(create_app(session, guard=pin_guard()), port=0)
    server.start()
    yield server.url, session
    server.stop()
    session.log.close()


def _text(page, testid: str) -> str:
    return page.locator(f"[data-testid={testid}]").inner_text()


def test_one_turn_by_taps_with_a_wrong_card_flagged_spotted_and_undone(dashboard, page):
    url, session = dashboard
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url + "?lang=fr")
    log_in(page)
    page.select_option("#game-select", "passe-eclair")
    page.select_option("#setup-players", "3")
    page.fill("#setup-names-0", "Ana")
    page.fill("#setup-names-1", "Bo")
    page.fill("#setup-names-2", "Cy")
    page.select_option("#setup-coach", "2")
    page.click("#setup-start")
    page.wait_for_selector("[data-testid=pe-start-leon-marlon]")
    assert session._adapter.setup == {"players": 3, "names": ["Ana", "Bo", "Cy"], "coach": 2}
    assert "Cy" in _text(page, "pe-phase")  # the coach turns the start card

    page.click("[data-testid=pe-start-leon-marlon]")
    page.wait_for_selector("[data-testid=pe-card-1-marlon-fabi]")
    assert _text(page, "pe-top") == "Léon → Marlon"
    # the cards that may follow are lit for every seat
    assert "pe-ok" in page.get_attribute("[data-testid=pe-card-0-marlon-fabi]", "class")
    assert "pe-risky" in page.get_attribute("[data-testid=pe-card-0-fabi-leon]", "class")

    page.click("[data-testid=pe-card-1-marlon-fabi]")  # one tap, one card
    page.wait_for_selector("[data-testid=pe-top][data-card=marlon-fabi]")
    assert _text(page, "pe-size-1").startswith("6")

    page.click("[data-testid=pe-card-0-rocce-leon]")  # Rocce does not follow Fabi: flagged at once
    banner = page.wait_for_selector("[data-testid=pe-wrong]")
    assert "MAUVAISE CARTE" in banner.inner_text() and "Fabi" in banner.inner_text()
    assert _text(page, "pe-size-0").startswith("6")
    spot = page.locator("[data-testid^=pe-spot-]")
    spot.click()
    page.wait_for_selector("[data-testid=pe-wrong]", state="detached")
    assert _text(page, "pe-size-0").startswith("8")  # taken back + one penalty card
    assert _text(page, "pe-top") == "Marlon → Fabi"

    page.click("[data-testid=pe-undo]")  # the spot was a mistake
    page.wait_for_selector("[data-testid=pe-wrong]")
    assert _text(page, "pe-size-0").startswith("6")
    assert page.locator("#feed li").count() >= 4

    # no one can play: the panel stays open while the state changes, then the coach turns
    page.click("[data-testid=pe-blocked-panel] summary")
    page.click("[data-testid=pe-card-2-dog]")
    page.wait_for_selector("[data-testid=pe-top][data-card=dog]")
    page.click("[data-testid=pe-blocked]")
    page.wait_for_selector("[data-testid=pe-phase][data-phase=turning]")
    assert _text(page, "pe-top") == "(vide)" and errors == []


def test_round_end_tokens_and_english_page(dashboard, page):
    url, session = dashboard
    session.new_game("passe-eclair", {"players": 2, "names": ["Ana", "Bo"]})
    page.goto(url + "?lang=en")
    log_in(page)
    page.click("[data-testid=pe-start-dog]")  # a dog is turned over: turn the next one
    page.wait_for_selector("[data-testid=pe-phase][data-phase=turning]")
    page.click("[data-testid=pe-start-vanessa-leon]")
    for n in range(7):
        page.click("[data-testid=pe-card-1-dog]")
        page.wait_for_selector(f"[data-testid=pe-size-1]:has-text('{6 - n} card')")
    page.wait_for_selector("[data-testid=pe-round]")
    assert "Bo wins" in _text(page, "pe-round")
    page.click("[data-testid=pe-victory-3]")
    page.wait_for_selector("[data-testid=pe-results]")
    assert _text(page, "pe-points-1").startswith("3 goal points")
    assert _text(page, "pe-size-0").startswith("7") and "Round 2 of 9" in _text(page, "pe-phase")


def test_the_simulated_table_plays_live_on_the_page(run_service, page):
    service = run_service("--sim", "--game", "passe-eclair", "--pace", "0.05", "--seed", "4")
    page.goto(service.url)
    page.wait_for_selector("[data-testid=pe-top]")
    first = int(page.locator("body").get_attribute("data-version"))
    # No reload: the page changes by itself as the simulated table enters cards.
    page.wait_for_function("(first) => Number(document.body.dataset.version) > first + 3", arg=first,
                           timeout=60_000)
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid^=pe-size-]')]"
                           ".some(e => parseInt(e.textContent) < 7)", timeout=60_000)
    assert page.locator("#feed li").count() > 3
