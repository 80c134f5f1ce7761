"""An alert raised by the beams appears on the live page and a click resolves it.

The table is the simulated one on gpiozero MockFactory pins with a beam that misses
pegs, on virtual time; the page is the real dashboard in Debian's chromium."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.gpio import attach_gpio
from hardware.gpio.sim_pins import GpioSensors
from hardware.sim_table import SimulatedTable
from table.log import EventLog
from table.session import Session
from table.timers import ManualClock
from tests.browser import log_in, pin_guard
from web.app import create_app
from web.server import DashboardServer

pytestmark = pytest.mark.browser


@pytest.fixture
def served(tmp_path):
    clock = ManualClock()
    factory = MockFactory()
    session = Session(EventLog(tmp_path / "log.sqlite3"), clock=clock)
    gpio = attach_gpio(session, {}, pin_factory=factory, clock=clock, columns=7)
    gpio.start()
    table = SimulatedTable(session, GpioSensors(session, factory, gpio.pins, clock), pace=2.0, seed=3,
                           clock=clock, faults="miss@0.5")
    server = DashboardServer(create_app(session, guard=pin_guard()), host="127.0.0.1", port=0, max_streams=4)
    server.start()
    yield session, table, server
    server.stop()
    gpio.stop()
    factory.reset()
    session.log.close()


def _score(page, colour: str) -> int:
    return int(page.locator(f"[data-testid=score-{colour}]").inner_text().split()[1])


def test_an_alert_appears_live_and_a_click_resolves_it(served, page):
    session, table, server = served
    page.goto(server.url + "?lang=en")
    log_in(page)
    page.wait_for_function("() => document.body.dataset.version !== undefined")  # first state drawn
    table.play_game()                                    # the page is already open: it must update itself
    missing = [a for a in session.snapshot()["alerts"] if a["kind"] == "missing_landing"]
    assert missing, "the fault should have made the beam miss a peg"
    alert = next((a for a in missing if a["expected"]["scored"] and a["expected"]["points"] > 0), missing[0])
    colour = alert["expected"]["colour"]
    box = f".alert-box[data-alert='{alert['id']}']"
    page.wait_for_selector(box, timeout=15_000)
    assert "beam saw nothing" in page.locator(box).inner_text()
    page.wait_for_function(f"() => document.querySelectorAll('#alerts .alert-box').length == {len(missing)}")
    before = _score(page, colour)
    page.click(f"{box} button.resolve[data-choice=physics]")
    page.wait_for_selector(box, state="detached", timeout=15_000)
    assert session._adapter.find_alert(alert["id"]) is None
    [resolve] = [o for o in session.log.read() if o.kind == "resolve"]
    assert resolve.source == "dashboard" and resolve.data == {"alert": alert["id"], "choice": "physics"}
    page.wait_for_function(
        f"() => Number(document.querySelector('[data-testid=score-{colour}]').textContent.split(' ')[1]) == "
        f"{before + (alert['expected']['points'] if alert['expected']['scored'] else 0)}")
    assert page.locator("#alerts .alert-box").count() == len(missing) - 1


def test_saying_where_a_peg_went_from_the_page(served, page):
    session, table, server = served
    page.goto(server.url + "?lang=en")
    log_in(page)
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    table.play_game()
    alert = next(a for a in session.snapshot()["alerts"] if a["kind"] == "missing_landing")
    box = f".alert-box[data-alert='{alert['id']}']"
    page.wait_for_selector(box)
    column = (alert["expected"]["column"] + 1) % 7   # it landed one column further right
    page.select_option(f"{box} select[data-field=column]", label=f"column {column + 1}")
    page.click(f"{box} button.resolve[data-choice=entered]")
    page.wait_for_selector(box, state="detached", timeout=15_000)
    [resolve] = [o for o in session.log.read() if o.kind == "resolve"]
    assert resolve.data == {"alert": alert["id"], "choice": "entered", "column": column}
    [landing] = [l for l in session._adapter.g.landings if l.peg == alert["expected"]["peg"]]
    assert landing.column == column
