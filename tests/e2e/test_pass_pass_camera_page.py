"""A Pass Pass trick played before the simulated camera (rendered frames through the real
pipeline) updates the scorekeeper page in a real browser with no tap."""

from __future__ import annotations

import pytest

from hardware.sim_cards import CameraPassPassTable, RoundFigures
from table.log import EventLog
from table.session import Session
from tests.browser import log_in, pin_guard
from web.app import create_app
from web.server import DashboardServer

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def model_dir(rendered_decks):
    return rendered_decks("pass-pass")


def test_a_trick_seen_by_the_camera_shows_on_the_page_with_no_tap(model_dir, tmp_path, page):
    session = Session(EventLog(tmp_path / "pp.sqlite3"))
    server = DashboardServer(create_app(session, guard=pin_guard()), port=0, max_streams=4)
    server.start()
    try:
        table = CameraPassPassTable(session, model_dir, seed=4, setups=((3, False),))
        table.new_game()
        page.goto(server.url + "?lang=en")
        log_in(page)
        page.wait_for_selector("[data-testid=pp-grid]")
        fig = RoundFigures()
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.method) if r.method == "POST" else None)
        played = []
        while table.mind.phase == "play":            # the three cards of the first trick
            table.step(fig)
            played.append(table.order[-1])
            card = played[-1]
            page.wait_for_function(   # the page greys the card out (or leaves the grid for the take)
                f"() => document.querySelector(\"[data-testid=pp-grid] button[data-card='{card}']\")"
                "?.disabled !== false")
        page.wait_for_selector("[data-testid=pp-prompt][data-kind=take]")
        first = table.mind.to_act
        table.step(fig)                               # the first winner takes a card to their seat
        taken = [c.id for c in table.mind.in_front(first)]
        page.wait_for_function(
            f"() => document.querySelector('[data-testid=pp-front-{first}]')?.textContent.trim().length > 0")
        assert taken and fig.taps == 0 and fig.wrong == []
        assert requests == []                          # nobody tapped: no request from the page changed anything
        assert len(played) == 3
    finally:
        server.stop()
        session.log.close()
