"""Serve the dashboard with waitress, a production WSGI server (not Flask's debug one).

    >>> from web.app import create_app
    >>> server = DashboardServer(create_app(session), host="127.0.0.1", port=0)
    >>> server.start(); print(server.url)  # doctest: +ELLIPSIS
    http://127.0.0.1:.../
    >>> from urllib.request import urlopen
    >>> urlopen(server.url + "healthz", timeout=5).status
    200
    >>> server.stop()

Connections are bounded (see issue 11, item 4): an idle or half-open connection is closed
after :data:`CHANNEL_TIMEOUT_S` (checked every :data:`CLEANUP_INTERVAL_S`), so sockets
that never send a request cannot fill :data:`CONNECTION_LIMIT`; each connection's output
buffer holds at most :data:`OUTBUF_HIGH_WATERMARK` bytes before the writer waits, and a
stream whose client has not taken a byte for :data:`STALLED_S` with that much pending is
closed, which frees its thread and its slot. A closed page is noticed at once (waitress
keeps reading the socket while the stream runs: ``channel_request_lookahead``).

A body over :data:`~web.errors.MAX_BODY` is refused by waitress itself, from its
``Content-Length`` before any of it is read (a chunked body as soon as it passes the limit),
so a 100 MB entry is never buffered in memory or in a temp file; the refusal is the app's
bilingual 413 (:mod:`web.server_errors`).

The server also runs the log's :class:`~table.backup.Keeper` (checkpoints, daily copy,
high-water mark, retrying a failed write) while it serves.
"""

from __future__ import annotations

import threading
import time

from waitress import wasyncore
from waitress.server import create_server

from table.backup import Keeper
from web.errors import MAX_BODY
from web.server_errors import BilingualChannel

# Ordinary requests (state, API, static files) beside the live streams.
SPARE_THREADS = 16
THREAD_STACK = 512 * 1024  # request threads run shallow code; 8 MiB stacks are address space for nothing
CHANNEL_TIMEOUT_S = 10
CLEANUP_INTERVAL_S = 2
CONNECTION_LIMIT = 512
OUTBUF_HIGH_WATERMARK = 256 * 1024
STALLED_S = 10.0


class DashboardServer:
    """waitress in a background thread; ``port=0`` picks a free port. ``keeper``: the log's
    storage chores (made for the app's session when None; ``False`` for none)."""

    def __init__(self, app, *, host: str = "127.0.0.1", port: int = 8080, max_streams: int = 64,
                 keeper: Keeper | bool | None = None):
        self._app = app
        threads = max_streams + SPARE_THREADS
        previous = threading.stack_size()
        try:
            threading.stack_size(THREAD_STACK)  # the request threads are made now
            self._server = create_server(
                app, host=host, port=port, threads=threads, connection_limit=max(CONNECTION_LIMIT, threads * 2),
                channel_timeout=CHANNEL_TIMEOUT_S, cleanup_interval=CLEANUP_INTERVAL_S,
                outbuf_high_watermark=OUTBUF_HIGH_WATERMARK, channel_request_lookahead=4, ident="passetable",
                # refused from its Content-Length (or as a chunked body passes it), never buffered
                max_request_body_size=MAX_BODY + 1)
            self._server.channel_class = BilingualChannel  # its refusals in the app's bilingual JSON
        finally:
            threading.stack_size(previous)
        self.host = host
        self.port = self._server.effective_port
        self._thread: threading.Thread | None = None
        session = getattr(app, "extensions", {}).get("passetable", {}).get("session")
        if keeper is None and session is not None:
            keeper = Keeper(session)
        self.keeper: Keeper | None = keeper or None
        self.dropped_streams = 0

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def start(self) -> None:
        self._stopping = threading.Event()
        if self.keeper is not None:
            self.keeper.start()
        self._thread = threading.Thread(target=self._loop, name="waitress", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        # waitress's own run() loops until every channel is gone, which an open live
        # page never is; this loop also checks a stop flag and closes everything itself
        # (in the loop's thread: asyncore channels are not thread-safe).
        next_check = 0.0
        while not self._stopping.is_set():
            wasyncore.loop(timeout=0.2, map=self._server._map, count=1)
            now = time.time()
            if now >= next_check:
                next_check = now + 1.0
                self._drop_stalled(now)
        # the streams end first (the hub woke them), while the trigger they pull is open
        self._server.task_dispatcher.shutdown(cancel_pending=True, timeout=2.0)
        for channel in list(self._server._map.values()):
            channel.close()

    def _drop_stalled(self, now: float) -> None:
        """Close the connections whose client stopped reading with a full buffer."""
        for channel in list(self._server.active_channels.values()):
            if (channel.requests and channel.total_outbufs_len >= OUTBUF_HIGH_WATERMARK
                    and now - channel.last_activity > STALLED_S):
                self.dropped_streams += 1
                channel.handle_close()  # wakes the waiting writer: its stream ends and frees its slot

    def stop(self) -> None:
        hub = getattr(self._app, "extensions", {}).get("passetable", {}).get("hub")
        if hub is not None:
            hub.shutdown()  # live pages' threads stop waiting for the next state
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self.keeper is not None:
            self.keeper.stop()
