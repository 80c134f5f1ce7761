"""Live updates: Server-Sent Events through the real waitress server, many pages at once."""

from __future__ import annotations

import http.client
import json
import threading
import time

import pytest

from table.observations import Observation
from web.app import create_app
from web.server import DashboardServer


def _read_event(resp, within: float | None = None) -> dict:
    """The next event's data; with ``within`` (seconds), an AssertionError if none came by then (keepalive
    comments keep the socket busy, so its own timeout never fires)."""
    data, end = None, None if within is None else time.monotonic() + within
    while True:
        assert end is None or time.monotonic() < end, f"no event within {within} s"
        line = resp.fp.readline().decode()
        if line.startswith("data: "):
            data = json.loads(line[6:])
        elif line in ("\n", "\r\n") and data is not None:
            return data


@pytest.fixture
def server(session):
    session.new_game("passe-murailles")
    srv = DashboardServer(create_app(session, max_streams=60), port=0, max_streams=60)
    srv.start()
    yield srv
    srv.stop()


def _open_stream(port: int):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    conn.request("GET", "/api/stream")
    return conn, conn.getresponse()


def test_sixty_open_pages_all_receive_an_update(server, session):
    streams = [_open_stream(server.port) for _ in range(60)]
    try:
        assert all(r.status == 200 for _, r in streams)
        first = [_read_event(r)["version"] for _, r in streams]
        assert set(first) == {session.version}
        received: list[dict] = []
        lock = threading.Lock()

        def read(resp):
            event = _read_event(resp)
            with lock:
                received.append(event)

        readers = [threading.Thread(target=read, args=(r,)) for _, r in streams]
        for t in readers:
            t.start()
        session.submit(Observation.now("slide", source="test", slide=2, offset=1))
        for t in readers:
            t.join(timeout=20)
        assert len(received) == 60
        assert all(e["view"]["slides"][1]["offset"] == 1 for e in received)
        # the 61st page is refused politely and told to poll
        conn, resp = _open_stream(server.port)
        assert resp.status == 503 and resp.getheader("Retry-After") == "5"
        conn.close()
        # the API still answers while 60 streams are open
        c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        c.request("GET", "/api/state")
        assert c.getresponse().status == 200
    finally:
        for conn, _ in streams:
            conn.close()


# Half-open connections, pages that stop reading and closed pages are rows of the attack table:
# tests/security/test_attacks.py replays them against the server with the PIN asked everywhere.


def test_an_open_page_is_told_at_once_when_a_part_warns(server, session):
    # a part's warning (the camera's: a marker hidden, a frame the reading failed on) is health, not a logged
    # fact: the health watcher wakes the open pages when one appears, and when it changes
    warnings: list[dict] = []
    session.health_sources["camera"] = lambda: {"connected": True, "warnings": list(warnings)}
    conn, resp = _open_stream(server.port)
    try:
        assert _read_event(resp)["health"]["camera"]["warnings"] == []
        warnings.append({"en": "Camera: a frame could not be read (error: x); 1 so far.",
                         "fr": "Caméra : une image n'a pas pu être lue (error: x) ; 1 jusqu'ici."})
        assert _read_event(resp, within=10)["health"]["camera"]["warnings"] == warnings   # watched every second
    finally:
        conn.close()
