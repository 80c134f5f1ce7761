"""The dashboard: a Flask app factory over one :class:`~table.session.Session`.

The web layer only reads snapshots and calls the session's commands (start a game,
enter, resolve, undo); it never reaches into an engine or an adapter, and knows the
games only through the registry (:mod:`table.games`). Every error a client can cause
answers JSON ``{"error": {"en", "fr", "code"}}`` with a 4xx status; nothing a client
sends can produce a traceback.

Anyone who reaches the table may watch (pages, state, stream); every write needs the
table's PIN (a cookie from ``POST /api/login``; see :mod:`web.auth`), comes from the
table's own pages (a foreign ``Origin`` is 403) and names the table by one of its own
names (another ``Host`` is 421); bodies are bounded (:mod:`web.errors`).

    >>> app = create_app(Session(EventLog(":memory:")))
    >>> app.test_client().get("/api/state").status_code
    200
"""

from __future__ import annotations

import logging
import secrets
import socket
import time
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, abort, jsonify, render_template, request, send_from_directory
from flask import session as cookie
from werkzeug.exceptions import HTTPException

from table import games, history
from table.errors import Refused
from table.session import Session
from web.auth import TableGuard
from web.errors import LANGS, MAX_BODY, BadRequest, json_body, page_lang
from web.hosts import allowed_hosts, host_name, lan_addresses
from web.stream import SnapshotHub

log = logging.getLogger(__name__)

GAME_ASSETS = {"page.js": "text/javascript", "page.css": "text/css"}
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SECURITY_HEADERS = {
    # no inline script anywhere; styles may be set by the pages' scripts
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; "
                               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def create_app(session: Session, *, max_streams: int = 64, game_defaults: dict[str, dict] | None = None,
               desk: Any = None, default_game: str | None = None, guard: TableGuard | None = None,
               hosts: set[str] | None = None, secret_key: bytes | None = None) -> Flask:
    """Build the dashboard app. ``game_defaults`` gives per-game options a new game
    starts with (e.g. the Passe-Murailles profile loaded from the config);
    ``default_game`` is the game the page offers first (from the settings); ``desk``,
    when a camera is attached, serves the enrolment page (see :mod:`web.enrol`).
    ``guard`` holds the PIN (default: a random one, loopback trusted), ``hosts`` the names
    the table answers to (default: its own), ``secret_key`` signs the login cookies."""
    app = Flask(__name__)
    app.json.sort_keys = False  # an option schema's fields keep their order (the setup form's)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY, SESSION_COOKIE_NAME="passetable",
                      SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict",
                      PERMANENT_SESSION_LIFETIME=timedelta(days=7))
    app.secret_key = secret_key or secrets.token_bytes(32)
    guard = guard or TableGuard(f"{secrets.randbelow(10**6):06d}")
    names = hosts if hosts is not None else allowed_hosts("127.0.0.1")
    hub = SnapshotHub(session, max_streams=max_streams)
    app.extensions["passetable"] = {"session": session, "hub": hub}
    defaults = game_defaults or {}
    known = games.games()
    first_game = default_game if default_game in known else next(iter(known), None)

    @app.errorhandler(BadRequest)
    def _bad(exc: BadRequest):
        return jsonify(error={"en": exc.en, "fr": exc.fr, "code": exc.code}), exc.status

    @app.errorhandler(Refused)
    def _refused(exc: Refused):
        return jsonify(error=exc.to_dict()), exc.status

    # ------------------------------------------------------------- who may do what
    @app.before_request
    def _gate():
        if host_name(request.host) not in names:
            raise BadRequest("This table does not answer to that name.", "Cette table ne répond pas à ce nom.",
                             421, code="wrong_host")
        if request.method not in WRITES:
            return None
        origin = request.headers.get("Origin")
        if origin is not None and (origin == "null" or host_name(urlsplit(origin).netloc) not in names
                                   or urlsplit(origin).netloc.lower() != request.host.lower()):
            raise BadRequest("Writes come only from the table's own pages.",
                             "Les modifications ne viennent que des pages de la table.", 403, code="foreign_origin")
        if request.headers.get("Sec-Fetch-Site") == "cross-site":
            raise BadRequest("Writes come only from the table's own pages.",
                             "Les modifications ne viennent que des pages de la table.", 403, code="foreign_origin")
        if request.path == "/api/login" or _writer():
            return None
        raise BadRequest("Type the table's PIN to change the game.",
                         "Tapez le code de la table pour modifier la partie.", 401, code="pin_needed")

    def _writer() -> bool:
        return guard.trusted(request.remote_addr) or cookie.get("pin") == guard.fingerprint()

    @app.after_request
    def _headers(resp: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            resp.headers.setdefault(name, value)
        return resp

    @app.get("/api/login")
    def whoami():
        return jsonify(writer=_writer(), trusted=guard.trusted(request.remote_addr))

    @app.post("/api/login")
    def login():
        address, now = request.remote_addr or "?", time.monotonic()
        wait = guard.locked_for(address, now)
        if wait:
            resp = jsonify(error={"en": f"Too many wrong PINs: try again in {wait:.0f} s.",
                                  "fr": f"Trop de codes faux : réessayez dans {wait:.0f} s.", "code": "locked"})
            resp.headers["Retry-After"] = str(int(wait) + 1)
            return resp, 429
        if not guard.check_pin(json_body().get("pin"), address, now):
            raise BadRequest("Wrong PIN.", "Code faux.", 401, code="wrong_pin")
        cookie.permanent = True
        cookie["pin"] = guard.fingerprint()
        return jsonify(writer=True)

    @app.post("/api/logout")
    def logout():
        cookie.clear()
        return jsonify(writer=_writer())

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        if request.path.startswith("/api/"):
            en = "The request is too large (64 KB at most)." if exc.code == 413 else exc.description or exc.name
            return jsonify(error={"en": en, "fr": _FR_HTTP.get(exc.code, exc.name), "code": "http"}), exc.code
        return exc

    @app.errorhandler(Exception)
    def _crash(exc: Exception):
        log.exception("unexpected error on %s", request.path)
        return jsonify(error={"en": "Internal error; the table's log is safe. See the service log.",
                              "fr": "Erreur interne ; le journal de la table est intact. Voir le journal du service.",
                              "code": "internal"}), 500

    # ------------------------------------------------------------- pages
    @app.get("/")
    def index():
        lang = page_lang()
        specs = list(known.values())
        resp = Response(render_template("index.html", lang=lang, games=specs, camera=desk is not None,
                                        default_game=first_game))
        if request.args.get("lang") in LANGS:
            resp.set_cookie("lang", lang, max_age=3600 * 24 * 365, samesite="Lax")
        return resp

    @app.get("/games/<game_id>/<asset>")
    def game_asset(game_id: str, asset: str):
        """A game's page script or style, shipped in its folder (never a client's path)."""
        spec = known.get(game_id)
        if spec is None or spec.static is None or asset not in GAME_ASSETS:
            abort(404)
        return send_from_directory(spec.static, asset, mimetype=GAME_ASSETS[asset], max_age=300)

    @app.get("/favicon.ico")
    def favicon():
        return send_from_directory(app.static_folder, "favicon.svg", mimetype="image/svg+xml", max_age=86400)

    @app.get("/tv")
    def tv():
        """The spectator view for a TV across the room: no buttons, big scores."""
        return render_template("tv.html", lang=page_lang(), games=list(known.values()))

    @app.get("/api/address")
    def address():
        """Where a phone can open this table: the LAN addresses (for the TV's QR code)."""
        port = request.host.rsplit(":", 1)[1] if request.host.count(":") == 1 else ""
        urls = [f"http://{a}:{port}/" if port else f"http://{a}/" for a in lan_addresses()]
        return jsonify(urls=urls, name=f"{socket.gethostname().lower()}.local")

    @app.get("/api/game")
    def current():
        """The game being played and its options (a rematch starts the same again)."""
        record = session.current_game()
        return jsonify(game=record.game if record else None, options=record.options if record else None)

    # ------------------------------------------------------------- past games (from the log)
    @app.get("/history")
    def history_page():
        lang = page_lang()
        return render_template("history.html", lang=lang, past=history.past_games(session.log))

    @app.get("/history/<int:seq>")
    def history_game_page(seq: int):
        lang = page_lang()
        past = history.past_game(session.log, seq) or abort(404)
        return render_template("history_game.html", lang=lang, g=past, iso=_local_time)

    @app.get("/api/history")
    def history_json():
        return Response(history.to_json(history.past_games(session.log)), mimetype="application/json")

    @app.get("/api/history.csv")
    def history_csv():
        return _download(history.to_csv(history.past_games(session.log), page_lang()), "passetable-games.csv")

    @app.get("/api/history/<int:seq>")
    def history_game_json(seq: int):
        past = history.past_game(session.log, seq) or abort(404)
        return jsonify(past.to_dict(feed=True))

    @app.get("/api/history/<int:seq>.csv")
    def history_game_csv(seq: int):
        past = history.past_game(session.log, seq) or abort(404)
        return _download(history.sheet_csv(past), f"passetable-game-{seq}.csv")

    @app.get("/healthz")
    def healthz():
        """200 while the table can write its log; 503 (``ok`` false, ``log.error`` in both
        languages) while it cannot (disk full, read-only, I/O error)."""
        state = session.health().get("log") or {"ok": True, "writable": True}
        writable = bool(state.get("writable", True))
        return jsonify(ok=writable, version=session.version, log=state), (200 if writable else 503)

    # ------------------------------------------------------------- reading
    @app.get("/api/state")
    def state():
        _, body = hub.current_bytes()  # encoded once per state, shared by every client
        return Response(body, mimetype="application/json")

    @app.get("/api/games")
    def game_list():
        """The installed games with their option schemas (the setup forms)."""
        return jsonify(games=[spec.describe() for spec in known.values()], default=first_game)

    @app.get("/api/hint")
    def game_hint():
        """The best move and the threats for the player to move, where the game offers
        hints and they are switched on for this game (computed on a private copy)."""
        record = session.current_game()
        spec = known.get(record.game) if record is not None else None
        if spec is None or spec.hint is None or not record.options.get("hints"):
            raise BadRequest("Hints are off for this game.", "Les conseils sont désactivés pour cette partie.", 409,
                             code="no_hints")
        return jsonify(spec.load("hint")(record.engine))

    @app.get("/api/stream")
    def stream():
        if not hub.try_open():
            resp = jsonify(error={
                "en": "Too many live pages; this page will refresh every few seconds.",
                "fr": "Trop de pages ouvertes ; cette page se rafraîchira toutes les quelques secondes.",
                "code": "busy"})
            resp.status_code = 503
            resp.headers["Retry-After"] = "5"
            return resp
        return Response(hub.events(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    # ------------------------------------------------------------- writing
    @app.post("/api/games")
    def new_game():
        body = json_body()
        game = body.get("game")
        if not isinstance(game, str):
            raise BadRequest("Say which game to start ('game').", "Indiquez le jeu à commencer (« game »).")
        options = body.get("options") if body.get("options") is not None else {}
        if not isinstance(options, dict):
            raise BadRequest("'options' must be an object.", "« options » doit être un objet.")
        spec = games.get(game)
        spec.check_options(options)  # the client's own options first: a bad key is theirs to fix
        obs = session.start_game(spec.id, {**defaults.get(spec.id, {}), **options})
        return jsonify(seq=obs.seq, version=session.version), 201

    @app.post("/api/alerts/<alert_id>/resolve")
    def resolve(alert_id: str):
        body = json_body()
        details = body.get("details") if isinstance(body.get("details"), dict) else None
        obs = session.resolve(alert_id, body.get("choice"), details)
        return jsonify(seq=obs.seq, version=session.version)

    @app.post("/api/observations")
    def observe():
        """Entries a person makes on a scorekeeper page (the game says which kinds)."""
        body = json_body()
        kind, data = body.get("kind"), body.get("data") if body.get("data") is not None else {}
        if not isinstance(kind, str):
            raise BadRequest("Say what is entered ('kind').", "Indiquez ce qui est saisi (« kind »).")
        obs = session.enter(kind, data)
        return jsonify(seq=obs.seq, version=session.version), 201

    @app.post("/api/undo")
    def undo():
        seq = json_body().get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise BadRequest("Say which entry to undo ('seq').", "Indiquez l'entrée à annuler (« seq »).")
        if not 1 <= seq <= 2**53:
            raise BadRequest("'seq' is out of range.", "« seq » est hors limites.", 422, code="out_of_range")
        obs = session.undo(seq)
        return jsonify(seq=obs.seq, version=session.version)

    if desk is not None:
        from web.enrol import enrol_blueprint

        app.register_blueprint(enrol_blueprint(desk))
    return app


def _download(text: str, filename: str) -> Response:
    return Response(text, mimetype="text/csv", headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def _local_time(t: float | None) -> str:
    return datetime.fromtimestamp(t).strftime("%Y-%m-%d %H:%M") if isinstance(t, (int, float)) else ""


_FR_HTTP = {404: "Introuvable", 405: "Méthode non autorisée", 400: "Requête invalide",
            413: "Requête trop grande (64 Ko au plus)"}
