"""The TV page and what it needs from the service: its route, the table's addresses for the
QR code (never 0.0.0.0), the current game's options for a rematch, and the favicon."""

from __future__ import annotations

from table.log import EventLog
from table.session import Session
from web.app import create_app


def _client():
    session = Session(EventLog(":memory:"))
    return session, create_app(session).test_client()


def test_the_tv_page_has_no_controls_and_loads_its_scripts():
    _, client = _client()
    page = client.get("/tv?lang=en").get_data(as_text=True)
    assert "<button" not in page and "<select" not in page
    for script in ("patch.js", "app.js", "vendor/qrcode.js", "tv.js"):
        assert f"/static/{script}" in page
        assert client.get(f"/static/{script}").status_code == 200


def test_addresses_for_phones_are_real_ones():
    _, client = _client()
    answer = client.get("/api/address").get_json()
    assert all(u.startswith("http://") and "0.0.0.0" not in u and "127." not in u for u in answer["urls"])
    assert answer["name"].endswith(".local")


def test_rematch_reads_the_current_game_and_its_options():
    session, client = _client()
    assert client.get("/api/game").get_json() == {"game": None, "options": None}
    session.new_game("pass-pass", {"players": 3, "names": ["Ana", "Bo", "Cy"]})
    current = client.get("/api/game").get_json()
    assert current["game"] == "pass-pass" and current["options"]["names"] == ["Ana", "Bo", "Cy"]


def test_favicon_is_served():
    _, client = _client()
    resp = client.get("/favicon.ico")
    assert resp.status_code == 200 and resp.mimetype == "image/svg+xml" and b"<svg" in resp.data
