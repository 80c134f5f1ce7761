"""The PIN through the page: the first change from a device asks for the table's PIN,
a wrong one is said so, the right one lets the same tap through, and the device stays
logged in (its cookie) for the next changes."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from tests.browser import log_in

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


def test_the_lock_button_logs_in_shows_it_and_logs_out(run_service, strict_page):
    page = strict_page
    service = run_service("--game", "pass-pass")                 # the PIN asked everywhere (tests.browser.PIN)
    page.goto(service.url + "?lang=fr")
    lock = page.locator("#login")
    page.wait_for_selector("#login[data-state=out]")
    assert "Connexion" in lock.inner_text()
    log_in(page)
    assert "Connecté" in lock.inner_text() and "déconnecter" in lock.get_attribute("title")
    page.reload()                                                  # the cookie keeps the device logged in
    page.wait_for_selector("#login[data-state=in]")
    lock.click()                                                   # logged in: the lock logs out
    page.wait_for_selector("#login[data-state=out]")
    page.select_option("#setup-players", "3")
    page.click("#setup-start")
    page.wait_for_selector("#pin-dialog[open]")                    # a change asks for the PIN again
    page.click("#pin-cancel")
    assert page.locator("#pin-dialog").count() == 0
    assert _state(service.url)["game"] is None
    page.goto(service.url + "tv")                                  # the TV watches: no lock, no PIN
    page.wait_for_selector("body")
    assert page.locator("#login").count() == 0 and page.locator("#pin-dialog").count() == 0
    assert page.csp_violations == []


def test_the_pis_own_screen_needs_no_login(run_service, page):
    service = run_service("--game", "pass-pass", trusted=True)    # loopback trusted: the README's first command
    page.goto(service.url + "?lang=en")
    page.select_option("#setup-players", "3")
    page.click("#setup-start")
    page.wait_for_selector("[data-testid=pp-grid]")
    assert page.locator("#login").is_hidden() and page.locator("#pin-dialog").count() == 0
