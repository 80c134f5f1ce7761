"""The Pass Pass scorekeeper page in a real browser: set up a table, play a whole trick
by clicking cards, answer the first winner's question, undo an entry."""

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
    session = Session(EventLog(tmp_path / "pp.sqlite3"))
    server = DashboardServer(create_app(session, guard=pin_guard()), port=0, max_streams=4)
    server.start()
    yield session, server.url
    server.stop()
    session.log.close()


def _click_card(page, card: str) -> None:
    page.click(f"[data-testid=pp-grid] button[data-card='{card}']")


def _enter_card(page, card: str) -> None:
    """Click a card in the grid and wait for the page to show it entered (greyed, or the
    grid gone because the trick is complete)."""
    _click_card(page, card)
    page.wait_for_function(
        f"() => document.querySelector(\"[data-testid=pp-grid] button[data-card='{card}']\")?.disabled !== false")


def _seen_disabled(page, card: str) -> bool:
    return page.locator(f"[data-testid=pp-grid] button[data-card='{card}']").is_disabled()


def test_a_whole_trick_through_the_scorekeeper_page(dashboard, page):
    session, url = dashboard
    page.goto(url + "?lang=en")
    log_in(page)
    page.select_option("#game-select", "pass-pass")
    page.select_option("#setup-players", "4")
    for seat, name in enumerate(["Ana", "Bruno", "Chloé", "David"]):
        page.fill(f"#setup-names-{seat}", name)
    page.select_option("#setup-first", "1")  # Bruno leads
    page.click("#setup-start")
    page.wait_for_selector("[data-testid=pp-grid]")
    assert "Bruno" in page.locator("[data-testid=pp-prompt]").inner_text()
    assert page.locator("[data-testid=pp-grid] button").count() == 48

    # Bruno purple 10, Chloé purple 3, David blue 5, Ana purple 7: purple is the majority,
    # Bruno (purple 10) first, Ana (purple 7) second.
    for card in ["purple-10", "purple-3", "blue-5", "purple-7"]:
        _enter_card(page, card)  # each played card greys out in the grid
    page.wait_for_selector("[data-testid=pp-prompt][data-kind=take]")
    assert page.locator("[data-testid=pp-majority]").get_attribute("data-colour") == "purple"
    assert page.locator("[data-testid=pp-first]").inner_text().endswith("Bruno")
    assert page.locator("[data-testid=pp-second]").inner_text().endswith("Ana")
    prompt = page.locator("[data-testid=pp-prompt]").inner_text()
    assert "Bruno" in prompt and "which card do you take" in prompt
    assert sorted(page.locator("[data-take]").evaluate_all("bs => bs.map(b => b.dataset.take)")) == \
        ["blue-5", "purple-10", "purple-3", "purple-7"]

    # Bruno takes blue 5; Ana's take of the two lowest (purple 3 and 7) is forced.
    page.click("[data-take='blue-5']")
    page.wait_for_selector("[data-testid=pp-prompt][data-kind=play]")
    front = lambda seat: page.locator(f"[data-testid=pp-front-{seat}] [data-card]").evaluate_all(
        "cs => cs.map(c => c.dataset.card)")
    assert front(1) == ["blue-5"]
    assert sorted(front(0)) == ["purple-3", "purple-7"]
    assert front(2) == [] and front(3) == []
    assert "Ana" in page.locator("[data-testid=pp-prompt]").inner_text()  # the second winner leads
    assert page.locator("[data-testid=pp-trick]").inner_text() == "Trick 2/8"
    for card in ("purple-10", "purple-3", "blue-5", "purple-7"):  # seen this round, out included
        assert _seen_disabled(page, card)
    assert not _seen_disabled(page, "green-1")
    assert "Out: " in page.locator(".pp-trick").inner_text()
    feed = page.locator("#feed").inner_text()
    assert "Bruno takes blue 5." in feed and "Ana takes purple 3 and purple 7." in feed

    # Undo the take: the question comes back and Bruno's card goes back to the table.
    undo = page.locator("[data-testid=pp-undo]")
    assert "Bruno takes blue 5" in undo.inner_text()
    undo.click()
    page.wait_for_selector("[data-testid=pp-prompt][data-kind=take]")
    assert front(1) == [] and front(0) == []
    kinds = [o.kind for o in session.log.read()]
    assert kinds.count("pass_pass.play") == 4 and kinds.count("pass_pass.take") == 1 and kinds[-1] == "undo"


def test_the_page_speaks_french_and_refuses_nothing_silently(dashboard, page):
    session, url = dashboard
    session.new_game("pass-pass", {"players": 3, "names": ["Léa", "Marc", "Noé"], "first": 0})
    page.goto(url + "?lang=fr")
    log_in(page)
    page.wait_for_selector("[data-testid=pp-grid]")
    assert page.locator("[data-testid=pp-prompt]").inner_text().startswith("Carte jouée par Léa")
    assert page.locator("[data-testid=pp-undo]").is_disabled()
    _enter_card(page, "yellow-12")
    assert "Léa joue le 12 jaune." in page.locator("#feed").inner_text()
    assert "Annuler la dernière saisie" in page.locator("[data-testid=pp-undo]").inner_text()
    # A stale click (the card was already entered from another page) is refused with the reason.
    page.evaluate("PT.post('/api/observations', {kind: 'pass_pass.play', data: {seat: 1, card: 'yellow-12'}})"
                  ".catch(() => {})")
    page.wait_for_selector("#status .alert-box")
    assert "Le 12 jaune a déjà été joué" in page.locator("#status").inner_text()
    assert len(session._adapter.actions) == 1  # nothing was applied


def test_a_tie_on_the_cut_asks_the_second_winner_on_the_page(dashboard, page):
    session, url = dashboard
    session.new_game("pass-pass", {"players": 4, "names": ["Ana", "Bo", "Cy", "Di"]})
    page.goto(url + "?lang=en")
    log_in(page)
    page.wait_for_selector("[data-testid=pp-grid]")
    for card in ("yellow-12", "green-2", "blue-5", "purple-5"):
        _enter_card(page, card)
    page.click("[data-take='yellow-12']")
    page.wait_for_selector("[data-testid=pp-prompt][data-kind=take_low]")
    assert "Cy, second winner" in page.locator("[data-testid=pp-prompt]").inner_text()
    assert page.locator("[data-take-low]").evaluate_all("bs => bs.map(b => b.dataset.takeLow)") == \
        ["green-2,purple-5", "green-2,blue-5"]
    page.click("[data-take-low='green-2,blue-5']")
    page.wait_for_selector("[data-testid=pp-prompt][data-kind=play]")
    assert session._adapter.view()["seats"][2]["in_front"] == ["green-2", "blue-5"]


@pytest.mark.parametrize("seed", [0, 3])
def test_the_end_shows_the_winner_the_sheet_and_the_ranking(dashboard, page, seed):
    from table.pass_pass.sim import SimulatedPassPassTable

    session, url = dashboard
    SimulatedPassPassTable(session, pace=0, seed=seed, restart_after=None).play_game()
    view = session._adapter.view()
    page.goto(url + "?lang=en")
    page.wait_for_selector("[data-testid=pp-ranking]")
    banner = page.locator("[data-testid=pp-winner]")
    # A 3rd Pass Pass is shown loudly; a win on points plainly.
    assert ("pp-loud" in banner.get_attribute("class")) == (view["won_by"] == "pass_pass")
    assert ("PASS PASS" in banner.inner_text()) == (view["won_by"] == "pass_pass")
    assert page.locator("[data-testid=pp-ranking] li").count() == len(view["ranking"])
    assert page.locator("[data-testid=pp-sheet] tr").count() == 2 + len(view["sheet"])
    assert page.locator("[data-testid=pp-grid]").count() == 0
