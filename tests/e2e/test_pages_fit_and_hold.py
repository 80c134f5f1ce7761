"""Issue 14 in a real browser: every page fits a 360 px phone, the TV shows scores at least
64 px high, a tap during a burst of live updates is applied exactly once (a double tap too),
an alert's choice survives live updates, "New game" waits 10 s and can be cancelled, and
axe-core finds no serious or critical violation on any page."""

from __future__ import annotations

import itertools
import json
import threading
from pathlib import Path

import pytest

from table.log import EventLog
from table.observations import Observation
from table.session import Session
from tests.browser import log_in, pin_guard
from tests.e2e.test_alerts_page import served  # noqa: F401  (the beam-missing table, as a fixture)
from web.app import create_app
from web.server import DashboardServer

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / ".vendor/node_modules/axe-core/axe.min.js"
GAMES = {"passe-murailles": {}, "pass-pass": {"players": 4, "names": ["Léa", "Marc", "Noé", "Zoé"]},
         "passe-eclair": {"players": 4, "names": ["Léa", "Hugo", "Inès", "Tom"]}, "ptipasspass": {"players": 4}}


@pytest.fixture
def dashboard(tmp_path):
    session = Session(EventLog(tmp_path / "log.sqlite3"))
    ticks = itertools.count()
    session.health_sources["test"] = lambda: {"tick": next(ticks)}  # each touch() draws a new health figure
    server = DashboardServer(create_app(session, guard=pin_guard()), port=0, max_streams=8)
    server.start()
    yield session, server.url
    server.stop()
    session.log.close()


def _drawn(page) -> None:
    page.wait_for_function("() => document.body.dataset.version !== undefined && window.PT && PT.state")


def _with_game(session, game: str) -> None:
    session.new_game(game, GAMES[game])
    if game == "pass-pass":
        session.enter("pass_pass.play", {"seat": 0, "card": "purple-10"})


# ------------------------------------------------------------------ phones
@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_page_fits_a_360_px_phone(dashboard, browser, game):
    session, url = dashboard
    _with_game(session, game)
    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True)
    page = context.new_page()
    try:
        for path in ("?lang=fr", "?lang=en", "tv?lang=fr", "history?lang=fr", f"history/{session.game_seq}?lang=en"):
            page.goto(url + path)
            if not path.startswith("history"):
                _drawn(page)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, f"{game} /{path}: {width} px wide"
        page.goto(url + "?lang=fr")
        _drawn(page)
        # the header's controls are at least 44 px high (a thumb, not a stylus)
        low = page.evaluate("""() => [...document.querySelectorAll('header a, header button, header select')]
            .filter(e => e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().height < 44)
            .map(e => e.id || e.textContent)""")
        assert low == []
    finally:
        context.close()


# ------------------------------------------------------------------ the TV
@pytest.mark.parametrize("game", list(GAMES))
def test_the_tv_shows_every_score_at_least_64_px_high_and_no_button(dashboard, browser, game):
    session, url = dashboard
    _with_game(session, game)
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(url + "tv?lang=en")
        summary = session.snapshot()["summary"]
        page.wait_for_function(f"() => document.querySelectorAll('[data-score]').length == {len(summary['players'])}")
        scores = page.locator("[data-score]").evaluate_all(
            "es => es.map(e => [e.dataset.score, parseFloat(getComputedStyle(e).fontSize), "
            "e.getBoundingClientRect().height])")
        assert [s for s, _, _ in scores] == ["" if p["score"] is None else str(p["score"]) for p in summary["players"]]
        assert all(size >= 64 and height >= 64 for _, size, height in scores), scores
        assert page.locator("button:visible, select:visible, input:visible").count() == 0
        assert page.locator("#tv-qr svg path").count() == 1 and page.locator("#tv-qr").is_visible()
        assert page.locator("#tv-qr").get_attribute("data-url").startswith("http://")
        assert "0.0.0.0" not in page.locator("[data-testid=tv-address]").inner_text()
        # the last events as sentences, and a live update reaches the TV by itself
        assert page.locator("#feed li").count() >= 1
        version = session.version
        session.touch()
        page.wait_for_function(f"() => Number(document.body.dataset.version) > {version}")
    finally:
        context.close()


# ------------------------------------------------------------------ taps that are never lost
def _burst(session, n: int, pause: float = 0.03) -> threading.Thread:
    def run():
        for i in range(n):
            session.submit(Observation.now("board", source="sim", position=1 + i % 3))
            threading.Event().wait(pause)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_tap_during_a_burst_of_20_updates_is_applied_exactly_once(dashboard, page):
    session, url = dashboard
    session.new_game("pass-pass", GAMES["pass-pass"])
    page.goto(url + "?lang=en")
    log_in(page)
    page.wait_for_selector("[data-testid=pp-grid]")
    start = session.version
    burst = _burst(session, 20)
    page.wait_for_function(f"() => Number(document.body.dataset.version) >= {start + 5}")  # updates are landing
    page.click("[data-testid=pp-grid] button[data-card='green-7']")
    burst.join()
    page.wait_for_function(f"() => Number(document.body.dataset.version) >= {start + 21}")
    page.wait_for_function("() => document.querySelector(\"[data-card='green-7']\").disabled")
    plays = [o.data for o in session.log.read() if o.kind == "pass_pass.play"]
    assert plays == [{"seat": 0, "card": "green-7"}]
    # a double tap (two clicks before any answer) enters the card once
    page.evaluate("() => { const b = document.querySelector(\"[data-card='blue-3']\"); b.click(); b.click(); }")
    page.wait_for_function("() => document.querySelector(\"[data-card='blue-3']\").disabled")
    plays = [o.data for o in session.log.read() if o.kind == "pass_pass.play"]
    assert plays == [{"seat": 0, "card": "green-7"}, {"seat": 1, "card": "blue-3"}]
    # two quick taps on different cards: the second waits for the first, and goes to the next seat
    page.evaluate("() => { document.querySelector(\"[data-card='yellow-1']\").click();"
                  " document.querySelector(\"[data-card='yellow-2']\").click(); }")
    page.wait_for_function("() => PT.state.view.last_entry && PT.state.view.last_entry.action.card === 'yellow-2'")
    plays = [o.data for o in session.log.read() if o.kind == "pass_pass.play"]
    assert plays[2:] == [{"seat": 2, "card": "yellow-1"}, {"seat": 3, "card": "yellow-2"}]


def test_an_alert_choice_survives_five_live_updates(served, page):  # noqa: F811
    session, table, server = served
    ticks = itertools.count()
    session.health_sources["test"] = lambda: {"tick": next(ticks)}
    page.goto(server.url + "?lang=en")
    log_in(page)
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    table.play_game()
    alert = next(a for a in session.snapshot()["alerts"] if a["kind"] == "missing_landing")
    box = f".alert-box[data-alert='{alert['id']}']"
    page.wait_for_selector(box)
    column = (alert["expected"]["column"] + 3) % 7
    page.select_option(f"{box} select[data-field=column]", label=f"column {column + 1}")
    version = int(page.locator("body").get_attribute("data-version"))
    for _ in range(5):
        session.touch()
    page.wait_for_function(f"() => Number(document.body.dataset.version) >= {version + 5}")
    assert page.locator(f"{box} select[data-field=column]").evaluate("s => s.selectedOptions[0].textContent") \
        == f"column {column + 1}"
    page.click(f"{box} button.resolve[data-choice=entered]")
    page.wait_for_selector(box, state="detached", timeout=15_000)
    [resolve] = [o for o in session.log.read() if o.kind == "resolve"]
    assert resolve.data == {"alert": alert["id"], "choice": "entered", "column": column}


# ------------------------------------------------------------------ safe destructive actions
def test_new_game_asks_first_and_can_be_cancelled_within_10_s(dashboard, page):
    session, url = dashboard
    session.new_game("pass-pass", GAMES["pass-pass"])
    seq = session.game_seq
    page.goto(url + "?lang=en")
    log_in(page)
    page.wait_for_selector("[data-testid=pp-grid]")
    page.click("#new-game")
    page.click("#setup-start")
    assert "will end" in page.locator("#confirm-dialog").inner_text()
    page.click("#confirm-no")                                   # no: nothing happens
    assert page.locator("#grace").count() == 0
    page.click("#setup-start")
    page.click("#confirm-yes")
    page.wait_for_selector("#grace:has-text('New game in')")    # a visible countdown with Cancel
    page.click("#grace-cancel")
    page.wait_for_selector("#grace", state="detached")
    page.wait_for_timeout(11_000)                               # the 10 s pass: still the same game
    assert session.game_seq == seq
    # rematch: same game, same players and options, after the same question and countdown
    page.click("#rematch")
    page.click("#confirm-yes")
    page.wait_for_function(f"() => PT.state.game_seq > {seq}", timeout=20_000)
    assert session.game_seq > seq and session.game == "pass-pass"
    assert session.current_game().options["names"] == GAMES["pass-pass"]["names"]


# ------------------------------------------------------------------ accessibility
def _axe(page) -> list[dict]:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run ./setup.sh (it vendors axe-core with npm)")
    page.add_script_tag(path=str(AXE))
    return page.evaluate("axe.run(document).then(r => r.violations.map(v => "
                         "({id: v.id, impact: v.impact, nodes: v.nodes.length, first: v.nodes[0].target})))")


@pytest.mark.parametrize("game", list(GAMES))
def test_axe_finds_no_serious_or_critical_violation(dashboard, browser, game):
    session, url = dashboard
    _with_game(session, game)
    counts = {}
    for width, height in ((1366, 768), (360, 740)):
        context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
        page = context.new_page()
        try:
            for path in ("?lang=fr", "?lang=en", "tv?lang=fr", "history?lang=fr", f"history/{session.game_seq}"):
                page.goto(url + path)
                if not path.startswith("history"):
                    _drawn(page)
                violations = _axe(page)
                bad = [v for v in violations if v["impact"] in ("serious", "critical")]
                counts[f"{width} /{path}"] = {"serious+critical": len(bad), "other": len(violations) - len(bad)}
                assert bad == [], f"{game} /{path} at {width}px: {json.dumps(bad)}"
        finally:
            context.close()
    print(game, json.dumps(counts))


def test_the_new_pages_live_within_the_content_security_policy(dashboard, strict_page):
    session, url = dashboard
    _with_game(session, "ptipasspass")
    for path in ("tv?lang=fr", "history", f"history/{session.game_seq}", "?lang=en"):
        strict_page.goto(url + path)
        if not path.startswith("history"):
            strict_page.wait_for_function("() => document.body.dataset.version !== undefined")
    strict_page.wait_for_selector("[data-testid=ppp]")
    assert strict_page.csp_violations == []


def test_the_enrolment_page_fits_a_phone_names_cards_and_passes_axe(tmp_path, browser):
    import time

    from vision.desk import simulated_desk

    session = Session(EventLog(tmp_path / "log.sqlite3"))
    desk = simulated_desk(tmp_path / "models", time.time)
    server = DashboardServer(create_app(session, guard=pin_guard(), desk=desk), port=0, max_streams=4)
    server.start()
    try:
        for width, height in ((1366, 768), (360, 740)):
            context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
            page = context.new_page()
            page.goto(server.url + "enrol?lang=fr")
            page.select_option("#deck", "pass-pass")
            page.wait_for_function("() => document.querySelector('#instruction').textContent.includes('violet 1')")
            assert page.locator("#cards button[data-card='purple-6']").inner_text() == "violet 6"
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            bad = [v for v in _axe(page) if v["impact"] in ("serious", "critical")]
            assert bad == [], json.dumps(bad)
            context.close()
    finally:
        server.stop()
        session.log.close()
