"""The health panel: the serial link's figures, and the link pulled out and back seen
live on the page (the real bridge reading the simulated board over a pseudo-terminal)."""

from __future__ import annotations

import pytest

from firmware_bridge import Bridge
from hardware.sim_board import SimulatedBoard
from table.log import EventLog
from table.session import Session
from tests.browser import pin_guard
from web.app import create_app
from web.server import DashboardServer

pytestmark = pytest.mark.browser


@pytest.fixture
def served(tmp_path):
    session = Session(EventLog(tmp_path / "log.sqlite3"))
    session.new_game("passe-murailles")
    board = SimulatedBoard().start()
    bridge = Bridge(board.port, session.submit)
    session.health_sources["serial"] = bridge.health
    bridge.start()
    server = DashboardServer(create_app(session, guard=pin_guard()), port=0, max_streams=4)
    server.start()
    yield session, board, server
    server.stop()
    bridge.stop()
    board.stop()


def test_link_lost_and_back_is_shown_live(served, page):
    session, board, server = served
    page.goto(server.url + "?lang=en")
    summary = page.locator("#health-panel summary")
    page.wait_for_function("() => document.querySelector('#health-panel summary').dataset.state === 'ok'"
                           " && document.querySelector('#health').textContent.includes('Serial link')")
    page.click("#health-panel summary")
    assert "crc_errors" in page.locator("#health").inner_text()
    board.set_slide(3, 1)  # a real move still reaches the game through the link
    page.wait_for_selector('.slide[data-slide="3"][data-offset="1"]')
    board.unplug()
    page.wait_for_function("() => document.querySelector('#health-panel summary').dataset.state === 'lost'",
                           timeout=10_000)
    assert "Sensor link lost" in summary.inner_text()
    board.plug()
    page.wait_for_function("() => document.querySelector('#health-panel summary').dataset.state === 'ok'",
                           timeout=15_000)
