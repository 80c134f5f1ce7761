"""Live updates by Server-Sent Events, one encoded snapshot shared by every open page.

Under waitress each open stream holds one worker thread for as long as the page is open
(see FACTS.md). That is a deliberate choice for a table service: a few dozen pages at
most (a TV, the players' phones), each costing one mostly-sleeping thread (~100 kB
resident), in exchange for plain WSGI code and no async framework. The thread pool is
sized for ``max_streams`` plus room for ordinary requests; a page beyond ``max_streams``
gets 503 and falls back to polling ``/api/state``, so a crowd cannot starve the API.

Nothing per page grows: each new version is encoded once, as the JSON text, its bytes
and its whole SSE frame, and every page is sent the same bytes object. A page waits in
slices of :data:`POLL_S` and asks the server whether its client is still there, so a
closed page frees its slot within about a second; a page whose client stops reading is
bounded by the server's output buffer and dropped by it (see :mod:`web.server`).

    >>> hub = SnapshotHub(session, max_streams=64)
    >>> version, payload = hub.current()
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator

from flask import has_request_context, request

from table.session import Session

KEEPALIVE_S = 15.0
POLL_S = 1.0  # how often an idle stream checks that its page is still open


class SnapshotHub:
    """Encodes the session's snapshot once per version and counts open streams."""

    def __init__(self, session: Session, *, max_streams: int = 64):
        self.session = session
        self.max_streams = max_streams
        self._lock = threading.Lock()
        self._cached: tuple[int, str, bytes, bytes] | None = None
        self.open_streams = 0
        self._closing = threading.Event()

    def shutdown(self) -> None:
        """End every open stream now (the server is stopping)."""
        self._closing.set()
        self.session.touch()

    def _encoded(self) -> tuple[int, str, bytes, bytes]:
        version = self.session.version
        with self._lock:
            if self._cached is None or self._cached[0] != version:
                snap = self.session.snapshot()
                snap["streams"] = self.open_streams
                text = json.dumps(snap, ensure_ascii=False, separators=(",", ":"))
                body = text.encode()
                frame = b"id: %d\ndata: %s\n\n" % (snap["version"], body)
                self._cached = (snap["version"], text, body, frame)
            return self._cached

    def current(self) -> tuple[int, str]:
        """The state's version and its JSON text (encoded once per version)."""
        version, text, _, _ = self._encoded()
        return version, text

    def current_bytes(self) -> tuple[int, bytes]:
        """The same, as the bytes every response shares (no copy per client)."""
        version, _, body, _ = self._encoded()
        return version, body

    def watch_health(self, interval: float = 1.0) -> None:
        """Health is not in the log, so a change in it (the sensor board falling
        silent, a beam warning) bumps nothing by itself: a single watcher thread wakes
        the pages when the part of it a person must notice changes."""
        with self._lock:
            if getattr(self, "_watcher", None) is not None:
                return
            self._watcher = threading.Thread(target=self._watch, args=(interval,), name="health-watch", daemon=True)
        self._watcher.start()

    def _watch(self, interval: float) -> None:
        last = None
        while not self._closing.is_set():
            digest = _health_digest(self.session.health())
            if last is not None and digest != last:
                self.session.touch()
            last = digest
            self._closing.wait(interval)

    def try_open(self) -> bool:
        with self._lock:
            if self.open_streams >= self.max_streams:
                return False
            self.open_streams += 1
            return True

    def close(self) -> None:
        with self._lock:
            self.open_streams -= 1

    def events(self, stop: threading.Event | None = None,
               disconnected: Callable[[], bool] | None = None) -> Iterator[bytes]:
        """The SSE body for one page: the state now, then each newer state.
        ``disconnected`` (default: waitress's ``waitress.client_disconnected`` of the
        request being served) ends it as soon as the page is closed."""
        if disconnected is None and has_request_context():
            disconnected = request.environ.get("waitress.client_disconnected")
        return self._events(stop, disconnected)

    def _events(self, stop: threading.Event | None, disconnected: Callable[[], bool] | None) -> Iterator[bytes]:
        self.watch_health()
        try:
            version, _, _, frame = self._encoded()
            yield b"retry: 2000\n" + frame
            idle = 0.0
            while not self._closing.is_set() and (stop is None or not stop.is_set()):
                if disconnected is not None and disconnected():
                    break
                new = self.session.wait_for_change(version, timeout=POLL_S)
                if self._closing.is_set():
                    break
                if new == version:
                    idle += POLL_S
                    if idle >= KEEPALIVE_S:
                        idle = 0.0
                        yield b": keepalive\n\n"  # lets the server notice a closed page
                    continue
                idle = 0.0
                version, _, _, frame = self._encoded()
                yield frame
        finally:
            self.close()


def _health_digest(health: dict) -> str:
    """What of the health a person must see change at once: links up or down, warnings (a part's too: the
    camera's say when a marker is hidden or a frame could not be read)."""
    keys = ("alive", "connected", "in_sync", "ok", "warnings")
    flags = {name: {k: v.get(k) for k in keys if k in v} for name, v in health.items() if isinstance(v, dict)}
    return json.dumps([flags, health.get("beam_warnings")], sort_keys=True, default=str)
