"""The PIN through the page: the first change from a device asks for the table's PIN,
a wrong one is said so, the right one lets the same tap through, and the device stays
logged in (its cookie) for the next changes."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

pytestmark = pytest.mark.browser


def _state(url: str) -> dict:
    return json.load(urllib.request.urlopen(url + "api/state", timeout=10))


def test_the_page_asks_for_the_pin_once_and_the_tap_goes_through(run_service, strict_page):
    page = strict_page
    service = run_service("--game", "pass-pass", "--pin", "4321", "--pin-everywhere")
    page.goto(service.url + "?lang=en")
    page.wait_for_selector("#setup-players")
    page.select_option("#setup-players", "3")
    page.click("#setup-start")
    page.wait_for_selector("#pin-dialog[open]")
    assert _state(service.url)["game"] is None                    # nothing happened without the PIN
    page.fill("#pin-input", "1111")
    page.click("#pin-ok")
    page.wait_for_selector("#pin-dialog .pin-error:has-text('Wrong PIN')")
    page.fill("#pin-input", "4321")
    page.click("#pin-ok")
    page.wait_for_selector("[data-testid=pp-grid]")               # the same tap started the game
    assert page.locator("#pin-dialog").count() == 0
    assert _state(service.url)["game"] == "pass-pass"
    seq = _state(service.url)["game_seq"]
    page.reload()
    page.wait_for_selector("[data-testid=pp-grid]")
    page.click("#setup summary")
    page.click("#setup-start")                                    # logged in: no second question
    page.click("#confirm-yes")                                    # a game is on: asked, then 10 s to cancel
    deadline = time.monotonic() + 25
    while _state(service.url)["game_seq"] == seq and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _state(service.url)["game_seq"] > seq
    assert page.locator("#pin-dialog").count() == 0
    assert page.csp_violations == []                               # the page lives within its policy
