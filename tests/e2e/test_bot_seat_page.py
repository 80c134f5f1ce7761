"""The machine's seat, seen on the page: on the bot's turn the page says its move, the
simulated hand makes it on the frame through the real transports, and the sensors
confirm it (no "the bot asked …" alert)."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

pytestmark = pytest.mark.browser


def _state(url: str) -> dict:
    return json.load(urllib.request.urlopen(url + "api/state", timeout=10))


def test_the_bot_says_its_move_and_the_simulated_hand_makes_it(run_service, page):
    # fast players: the simulated hands still leave a second between two pegs in one hole
    service = run_service("--sim", "--bot", "blue", "--level", "2", "--pace", "0.3", "--seed", "4")
    page.goto(service.url + "?lang=fr")
    page.wait_for_selector("[data-testid=bot-say]", timeout=30_000)
    said = page.locator("[data-testid=bot-say]").inner_text()
    assert said.startswith("Bot : ")
    deadline = time.monotonic() + 60
    bot_lines: list[str] = []
    while time.monotonic() < deadline and len(bot_lines) < 3:
        state = _state(service.url)
        bot_lines = [f["text"]["fr"] for f in state["feed"] if f["kind"] == "bot"]
        time.sleep(0.3)
    assert len(bot_lines) >= 3 and said in bot_lines                      # it spoke on three of its turns
    state = _state(service.url)
    assert not [a for a in state["alerts"] if a["kind"] == "bot_mismatch"]  # each move made as asked
    assert state["view"]["moves"] >= 5 and state["view"]["bot_seat"] == {"player": "blue", "level": 2}
