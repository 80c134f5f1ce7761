"""Passe Éclair's camera questions in a real browser, each answered by one tap: a Gros Michi
the camera saw off a footballer card ("could no one play?" — yes, and who with), and the
cards left at the round's end corrected by one tap on a number."""

from __future__ import annotations

import pytest

from table.log import EventLog
from table.observations import Observation
from table.session import Session
from tests.browser import log_in, pin_guard
from web.app import create_app
from web.server import DashboardServer

pytestmark = pytest.mark.browser
NAMES = ["Ana", "Bo", "Cy"]


@pytest.fixture
def dashboard(tmp_path):
    session = Session(EventLog(tmp_path / "q.sqlite3"))
    server = DashboardServer(create_app(session, guard=pin_guard()), port=0)
    server.start()
    yield server.url, session
    server.stop()
    session.log.close()


def seen(session, card, hands, landed):
    session.submit(Observation("card_seen", landed + 0.1, "camera",
                               {"card": card, "zone": "pile", "landed": landed, "hands": hands}))


def michi_asked(session):
    """Ana's start card, then Cy's Gros Michi on Léon → Marlon: the camera asks."""
    session.start_game("passe-eclair", {"players": 3, "names": NAMES}, source="test")
    seen(session, "leon-marlon", [], 1.0)
    seen(session, "michi", [2], 2.0)
    alert, = session.snapshot()["alerts"]
    return alert


def round_won(session):
    """Ana and Bo pass until Ana has laid her 7th card (typed, as a scorekeeper would)."""
    session.start_game("passe-eclair", {"players": 3, "names": NAMES}, source="test")
    session.enter("passe_eclair.start_card", {"card": "leon-marlon"}, source="test")
    cycle = ["marlon-fabi", "fabi-leon", "leon-marlon"]
    for i in range(13):
        session.enter("passe_eclair.place", {"seat": i % 2, "card": cycle[i % 3]}, source="test")


def test_a_michi_off_a_footballer_card_is_one_tap_yes_and_who_with(dashboard, page):
    url, session = dashboard
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    alert = michi_asked(session)
    page.goto(url + "?lang=fr")
    log_in(page)
    box = f".alert-box[data-alert='{alert['id']}']"
    page.wait_for_selector(box)
    assert "Personne ne pouvait-il jouer" in page.locator(box).inner_text()
    labels = page.locator(f"{box} button.resolve").all_inner_texts()
    assert labels == ["Oui : Cy échange avec Ana", "Oui : Cy échange avec Bo", "Non : c'est une mauvaise carte"]
    page.click(f"{box} button.resolve[data-choice='1']")          # one tap
    page.wait_for_selector(box, state="detached")
    page.wait_for_selector("[data-testid=pe-phase][data-phase=turning]")
    assert session.snapshot()["view"]["hand_sizes"] == [7, 6, 7]   # Cy laid one, then took Bo's 7
    [answer] = [o for o in session.log.read() if o.kind == "resolve"]
    assert answer.source == "dashboard" and answer.data["choice"] == "1"
    assert errors == []


def test_a_michi_on_a_dog_asks_the_partner_once_not_twice(dashboard, page):
    url, session = dashboard
    session.start_game("passe-eclair", {"players": 3, "names": NAMES}, source="test")
    for card, hands, landed in (("leon-marlon", [], 1.0), ("dog", [0], 2.0), ("michi", [1], 3.0)):
        seen(session, card, hands, landed)
    alert, = session.snapshot()["alerts"]
    page.goto(url + "?lang=en")
    log_in(page)
    box = f".alert-box[data-alert='{alert['id']}']"
    page.wait_for_selector(box)
    assert page.locator("[data-testid=pe-michi]").count() == 0    # the camera's question only
    page.click(f"{box} button.resolve[data-choice='2']")
    page.wait_for_selector("[data-testid=pe-phase][data-phase=turning]")
    assert session.snapshot()["view"]["hand_sizes"] == [6, 7, 6]


def test_the_round_end_counts_are_prefilled_and_one_tap_corrects_one(dashboard, page):
    url, session = dashboard
    round_won(session)
    page.goto(url + "?lang=en")
    log_in(page)
    page.wait_for_selector("[data-testid=pe-counts]")
    assert page.get_attribute("[data-testid=pe-count-1]", "data-cards") == "1"
    assert page.get_attribute("[data-testid=pe-count-2]", "data-cards") == "7"
    assert page.locator("[data-testid=pe-count-0]").count() == 0          # the winner has none
    assert "for Cy" in page.locator("[data-testid=pe-round]").inner_text()  # most cards left: Cy
    page.click("[data-testid=pe-count-1-7]")                              # Bo counts 7: a tie, no consolation
    page.wait_for_selector("[data-testid=pe-count-1][data-cards='7']")
    page.wait_for_selector("[data-testid^=pe-consolation-]", state="detached")
    page.click("[data-testid=pe-victory-2]")
    page.wait_for_selector("[data-testid=pe-results]")
    result = session.snapshot()["view"]["results"][-1]
    assert result["hand_sizes"] == [0, 7, 7] and result["consolation"] is None
    counted = [o for o in session.log.read() if o.kind == "passe_eclair.count"]
    assert [(o.source, o.data) for o in counted] == [("dashboard", {"seat": 1, "cards": 7})]


def test_on_a_phone_the_question_is_in_view_with_no_scrolling(dashboard, browser):
    url, session = dashboard
    alert = michi_asked(session)
    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(url + "?lang=fr")
        log_in(page)
        box = f".alert-box[data-alert='{alert['id']}']"
        page.wait_for_selector(box)
        page.evaluate("window.scrollTo(0, 0)")
        top = page.locator(box).bounding_box()
        last = page.locator(f"{box} button.resolve").last.bounding_box()
        assert top["y"] >= 0 and last["y"] + last["height"] <= 740          # below three rows of faces before
        page.click(f"{box} button.resolve[data-choice='wrong']")
        page.wait_for_selector(box, state="detached")
        assert session.snapshot()["view"]["pile"][-1]["wrong"]["code"] == "michi_not_on_dog"
    finally:
        context.close()
