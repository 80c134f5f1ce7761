"""A Passe Éclair card laid while two hands were in: the camera (rendered frames through
calibration, recogniser, stability filter and hands) asks who laid it, and one tap on the
page places it for that seat."""

from __future__ import annotations

import pytest

from table.log import EventLog
from table.session import Session
from tests.browser import log_in, pin_guard
from tests.pile_camera import PileCamera
from web.app import create_app
from web.server import DashboardServer

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def model_dir(rendered_decks):
    return rendered_decks("passe-eclair")


def test_two_hands_in_a_question_one_tap_places_the_card(model_dir, tmp_path, page):
    session = Session(EventLog(tmp_path / "pe.sqlite3"))
    server = DashboardServer(create_app(session, guard=pin_guard()), port=0, max_streams=4)
    server.start()
    try:
        session.start_game("passe-eclair", {"players": 4, "names": ["Ana", "Bruno", "Chloé", "David"]},
                           source="test")
        camera = PileCamera(session, model_dir)
        camera.frames(count=3)
        camera.lay("leon-marlon", arms=[0])            # the coach turns the start card
        page.goto(server.url + "?lang=en")
        log_in(page)
        page.wait_for_function("() => document.body.dataset.version !== undefined")
        assert session.snapshot()["view"]["phase"] == "playing"
        camera.lay("marlon-fabi", arms=[1, 3])          # Bruno and David both reach the pile
        alert = next(a for a in session.snapshot()["alerts"] if a["kind"] == "camera_who_placed")
        assert sorted(c["id"] for c in alert["choices"]) == ["1", "3"]
        box = f".alert-box[data-alert='{alert['id']}']"
        page.wait_for_selector(box, timeout=15_000)
        page.click(f"{box} button.resolve[data-choice='3']")
        page.wait_for_selector(box, state="detached", timeout=15_000)
        top = session.snapshot()["view"]["pile"][-1]
        assert (top["card"], top["by"]) == ("marlon-fabi", 3)
        [resolve] = [o for o in session.log.read() if o.kind == "resolve"]
        assert resolve.source == "dashboard"
    finally:
        server.stop()
        session.log.close()
