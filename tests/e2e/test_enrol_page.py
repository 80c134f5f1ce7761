"""The enrolment page: the owner's deck learnt card by card from the (simulated) camera."""

from __future__ import annotations

import time

import numpy as np
import pytest

from tests.browser import log_in, pin_guard
from vision.desk import EnrolmentDesk, simulated_desk
from vision.model import CardModel
from vision.sources import RenderedSource
from web.app import create_app
from web.server import DashboardServer


@pytest.fixture
def desk(tmp_path):
    return simulated_desk(tmp_path / "models", time.time)


@pytest.mark.browser
def test_two_cards_enrolled_by_clicks(session, desk, page, tmp_path):
    server = DashboardServer(create_app(session, guard=pin_guard(), desk=desk), port=0, max_streams=4)
    server.start()
    try:
        page.goto(server.url + "?lang=en")
        log_in(page)
        page.click("#enrol-link")
        page.select_option("#deck", "passe-eclair")
        page.wait_for_function("() => document.querySelector('#instruction').textContent.includes('leon-marlon')")
        page.click("#enrol-next")
        page.wait_for_function("() => document.querySelector('#progress').textContent.startsWith('1 / 22')")
        page.wait_for_function("() => document.querySelector('#instruction').textContent.includes('leon-rocce')")
        page.click("#enrol-next")
        page.wait_for_function("() => document.querySelector('#progress').textContent.startsWith('2 / 22')")
        assert page.locator("#cards button.enrolled").count() == 2
        # two faces of Léon: the 7 others with his face, not enrolled, may look like them; the page says so
        assert page.locator("#cards button.held").count() == 2
        assert page.locator("#held").is_visible()
        assert page.locator("#held").text_content().startswith("2 enrolled cards are (✓*) not named in play yet")
    finally:
        server.stop()
    assert CardModel.load(tmp_path / "models" / "passe-eclair").cards == ["leon-marlon", "leon-rocce"]


def test_enrolment_api_errors_are_clear(session, tmp_path):
    empty_table = RenderedSource(lambda t: np.full((720, 1280, 3), 90, np.uint8), time.time)
    client = create_app(session, desk=EnrolmentDesk(empty_table, tmp_path / "models")).test_client()
    r = client.post("/api/enrol", json={"deck": "pass-pass", "card": "purple-3"})
    assert r.status_code == 422 and r.get_json()["error"]["en"] and r.get_json()["error"]["fr"]
    r = client.post("/api/enrol", json={"deck": "chess", "card": "purple-3"})
    assert r.status_code == 400 and "Choose a deck" in r.get_json()["error"]["en"]
    r = client.post("/api/enrol", json={"deck": "pass-pass"})
    assert r.status_code == 400
    assert client.get("/api/enrol?deck=pass-pass").get_json()["next"] == "purple-1"
    assert client.get("/api/camera.jpg").data[:2] == b"\xff\xd8"  # a JPEG


def test_no_camera_no_enrolment_page(session):
    client = create_app(session).test_client()
    assert client.get("/enrol").status_code == 404
    assert b"enrol-link" not in client.get("/").data
