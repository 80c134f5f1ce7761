"""Serve the dashboard with waitress, a production WSGI server (not Flask's debug one).

    >>> from web.app import create_app
    >>> server = DashboardServer(create_app(session), host="127.0.0.1", port=0)
    >>> server.start(); print(server.url)  # doctest: +ELLIPSIS
    http://127.0.0.1:.../
    >>> from urllib.request import urlopen
    >>> urlopen(server.url + "healthz", timeout=5).status
    200
    >>> server.stop()
"""

from __future__ import annotations

import threading

from waitress import wasyncore
from waitress.server import create_server

# Ordinary requests (state, API, static files) beside the live streams.
SPARE_THREADS = 16


class DashboardServer:
    """waitress in a background thread; ``port=0`` picks a free port."""

    def __init__(self, app, *, host: str = "127.0.0.1", port: int = 8080, max_streams: int = 64):
        self._app = app
        threads = max_streams + SPARE_THREADS
        self._server = create_server(app, host=host, port=port, threads=threads,
                                     connection_limit=max(100, threads * 2), channel_timeout=30,
                                     ident="passetable")
        self.host = host
        self.port = self._server.effective_port
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def start(self) -> None:
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="waitress", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        # waitress's own run() loops until every channel is gone, which an open live
        # page never is; this loop also checks a stop flag and closes everything itself
        # (in the loop's thread: asyncore channels are not thread-safe).
        while not self._stopping.is_set():
            wasyncore.loop(timeout=0.2, map=self._server._map, count=1)
        for channel in list(self._server._map.values()):
            channel.close()
        self._server.task_dispatcher.shutdown(cancel_pending=True, timeout=0.5)

    def stop(self) -> None:
        hub = getattr(self._app, "extensions", {}).get("passetable", {}).get("hub")
        if hub is not None:
            hub.shutdown()  # live pages' threads stop waiting for the next state
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
