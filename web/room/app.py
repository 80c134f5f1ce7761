"""The hub's web app: one page for the café, ``/api/tables``, a live stream, commands.

    >>> hub = RoomHub(url="mqtt://127.0.0.1:1")
    >>> client = create_hub_app(hub).test_client()
    >>> client.get("/api/tables").get_json()
    []
    >>> client.post("/api/tables/bar-1/command", json={"cmd": "resolve", "args": {}}).status_code
    400

Every error a client can cause answers ``{"error": {"en", "fr"}}`` with a 4xx status,
like the table's own dashboard. The stream holds one waitress thread per open page
(see :mod:`web.stream`), sized by ``max_streams``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

from flask import Flask, Response, jsonify, render_template, request

from web.room.hub import RoomHub
from web.room.signing import COMMANDS
from web.room.topics import valid_table_name

HERE = Path(__file__).parent
LANGS = ("fr", "en")
KEEPALIVE_S = 15.0


class HubStreams:
    """Live pages: the whole room first, then only the tables that changed; an encoded
    message is shared by every page at the same version. Counts open pages."""

    def __init__(self, hub: RoomHub, max_streams: int):
        self.hub, self.max_streams = hub, max_streams
        self._lock = threading.Lock()
        self._cached: dict[int | None, tuple[int, str]] = {}  # since -> (version, payload) of the newest
        self.open = 0

    def shutdown(self) -> None:  # DashboardServer.stop() calls this
        self.hub.shutdown()

    def message(self, since: int | None) -> tuple[int, str]:
        version = self.hub.version
        with self._lock:
            hit = self._cached.get(since)
            if hit is not None and hit[0] == version:
                return hit
        body = {**self.hub.changes(since), "broker": self.hub.health()}
        payload = (body["version"], json.dumps(body, ensure_ascii=False))
        with self._lock:
            if len(self._cached) > 64:
                self._cached.clear()
            self._cached[since] = payload
        return payload

    def events(self) -> Iterator[str]:
        try:
            version, payload = self.message(None)
            yield f"retry: 2000\ndata: {payload}\n\n"
            while not self.hub.closing:
                new = self.hub.wait_for_change(version, timeout=KEEPALIVE_S)
                if self.hub.closing:
                    break
                if new == version:
                    yield ": keepalive\n\n"
                    continue
                version, payload = self.message(version)
                yield f"data: {payload}\n\n"
        finally:
            with self._lock:
                self.open -= 1

    def try_open(self) -> bool:
        with self._lock:
            if self.open >= self.max_streams:
                return False
            self.open += 1
            return True


def _error(en: str, fr: str, status: int):
    return jsonify(error={"en": en, "fr": fr}), status


def create_hub_app(hub: RoomHub, *, max_streams: int = 32) -> Flask:
    app = Flask(__name__, template_folder=str(HERE / "templates"), static_folder=str(HERE / "static"),
                static_url_path="/static")
    streams = HubStreams(hub, max_streams)
    app.extensions["passetable"] = {"hub": streams, "room": hub}

    @app.get("/")
    def page():
        lang = request.args.get("lang") or request.cookies.get("lang") or "fr"
        lang = lang if lang in LANGS else "fr"
        resp = Response(render_template("hub.html", lang=lang))
        if request.args.get("lang") in LANGS:
            resp.set_cookie("lang", lang, max_age=3600 * 24 * 365, samesite="Lax")
        return resp

    @app.get("/healthz")
    def healthz():
        return jsonify(ok=True, **hub.health())

    @app.get("/api/tables")
    def tables():
        return jsonify(hub.tables())

    @app.get("/api/stream")
    def stream():
        if not streams.try_open():
            resp, status = _error(
                "Too many live pages; this page will refresh every few seconds.",
                "Trop de pages ouvertes ; cette page se rafraîchira toutes les quelques secondes.", 503)
            resp.headers["Retry-After"] = "5"
            return resp, status
        return Response(streams.events(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @app.post("/api/tables/<table>/command")
    def command(table: str):
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            return _error("Send a JSON object.", "Envoyez un objet JSON.", 400)
        pin, cmd, args = body.get("pin"), body.get("cmd"), body.get("args") or {}
        if not valid_table_name(table) or cmd not in COMMANDS or not isinstance(args, dict):
            return _error(f"Say which command ({', '.join(COMMANDS)}) and its arguments.",
                          f"Indiquez la commande ({', '.join(COMMANDS)}) et ses arguments.", 400)
        if not isinstance(pin, str) or not pin:
            return _error("Type the table's PIN: commands are signed with it.",
                          "Tapez le PIN de la table : les commandes sont signées avec.", 400)
        result = hub.send_command(table, pin, cmd, args)
        if result is None:
            return _error("The table did not answer (offline, or commands are off on it).",
                          "La table n'a pas répondu (hors ligne, ou commandes désactivées).", 504)
        if not result.get("ok"):
            err = result.get("error") or {}
            return jsonify(error={"en": err.get("en", "refused"), "fr": err.get("fr", "refusé"),
                                  "code": err.get("code")}), 403 if err.get("code") == "bad_signature" else 409
        return jsonify(result)

    @app.errorhandler(404)
    def _missing(exc):
        if request.path.startswith("/api/"):
            return _error("Not found.", "Introuvable.", 404)
        return exc

    return app
