"""Live updates: Server-Sent Events through the real waitress server, many pages at once."""

from __future__ import annotations

import http.client
import json
import threading

import pytest

from table.observations import Observation
from web.app import create_app
from web.server import DashboardServer


def _read_event(resp) -> dict:
    data = None
    while True:
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


def _wait_until(predicate, limit: float = 10.0) -> bool:
    import time

    end = time.monotonic() + limit
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def test_a_closed_page_frees_its_slot_without_waiting_for_a_keepalive(server, session):
    hub = server._app.extensions["passetable"]["hub"]
    conn, resp = _open_stream(server.port)
    assert _read_event(resp)["version"] == session.version
    assert hub.open_streams == 1
    conn.close()
    resp.close()
    # nothing changes in the game: only the stream's own check can notice the page is gone
    assert _wait_until(lambda: hub.open_streams == 0)


def test_a_page_that_stops_reading_is_dropped_and_its_memory_bounded(server, session, monkeypatch):
    import socket

    import web.server as server_module

    monkeypatch.setattr(server_module, "STALLED_S", 0.5)
    hub = server._app.extensions["passetable"]["hub"]
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", int(server.port)))
    sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    try:
        assert _wait_until(lambda: hub.open_streams == 1)

        import time

        end = time.monotonic() + 120
        while server.dropped_streams == 0 and time.monotonic() < end:
            session.touch()  # a new state for every page, as fast as the stream takes them
        assert server.dropped_streams == 1
        assert _wait_until(lambda: hub.open_streams == 0)
        channels = list(server._server.active_channels.values())
        assert all(c.total_outbufs_len <= server_module.OUTBUF_HIGH_WATERMARK * 2 for c in channels)
    finally:
        sock.close()
    # the others are still served
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    c.request("GET", "/api/state")
    assert c.getresponse().status == 200


def test_healthz_answers_during_300_half_open_connections(server):
    import socket

    idle = []
    try:
        for _ in range(300):
            s = socket.create_connection(("127.0.0.1", int(server.port)), timeout=5)
            s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127")  # and never the rest
            idle.append(s)
        c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        c.request("GET", "/healthz")
        assert c.getresponse().status == 200
    finally:
        for s in idle:
            s.close()
