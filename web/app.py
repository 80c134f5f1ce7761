"""The dashboard: a Flask app factory over one :class:`~table.session.Session`.

The web layer only reads snapshots and submits observations; it never reaches into an
engine. Every error a client can cause answers JSON ``{"error": {"en", "fr"}}`` with a
4xx status; nothing a client sends can produce a traceback.

    >>> app = create_app(Session(EventLog(":memory:")))
    >>> app.test_client().get("/api/state").status_code
    200
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from table import observations as K
from table.adapters import ADAPTERS, UnknownGame
from table.observations import Observation
from table.session import Session
from web.stream import SnapshotHub

log = logging.getLogger(__name__)

LANGS = ("fr", "en")


class BadRequest(Exception):
    def __init__(self, en: str, fr: str, status: int = 400):
        super().__init__(en)
        self.en, self.fr, self.status = en, fr, status


def create_app(session: Session, *, max_streams: int = 64, game_defaults: dict[str, dict] | None = None,
               desk: Any = None, default_game: str = "passe-murailles") -> Flask:
    """Build the dashboard app. ``game_defaults`` gives per-game options a new game
    starts with (e.g. the Passe-Murailles profile loaded from the config); ``desk``,
    when a camera is attached, serves the enrolment page (see :mod:`web.enrol`)."""
    app = Flask(__name__)
    app.config["JSON_SORT_KEYS"] = False
    hub = SnapshotHub(session, max_streams=max_streams)
    app.extensions["passetable"] = {"session": session, "hub": hub}
    defaults = game_defaults or {}

    @app.errorhandler(BadRequest)
    def _bad(exc: BadRequest):
        return jsonify(error={"en": exc.en, "fr": exc.fr}), exc.status

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        if request.path.startswith("/api/"):
            return jsonify(error={"en": exc.description or exc.name, "fr": _FR_HTTP.get(exc.code, exc.name)}), exc.code
        return exc

    @app.errorhandler(Exception)
    def _crash(exc: Exception):
        log.exception("unexpected error on %s", request.path)
        return jsonify(error={"en": "Internal error; the table's log is safe. See the service log.",
                              "fr": "Erreur interne ; le journal de la table est intact. Voir le journal du service."}), 500

    # ------------------------------------------------------------- pages
    @app.get("/")
    def index():
        lang = request.args.get("lang") or request.cookies.get("lang") or "fr"
        lang = lang if lang in LANGS else "fr"
        resp = Response(render_template("index.html", lang=lang, games=list(ADAPTERS), camera=desk is not None,
                                        default_game=default_game))
        if request.args.get("lang") in LANGS:
            resp.set_cookie("lang", lang, max_age=3600 * 24 * 365, samesite="Lax")
        return resp

    @app.get("/healthz")
    def healthz():
        return jsonify(ok=True, version=session.version)

    # ------------------------------------------------------------- reading
    @app.get("/api/state")
    def state():
        _, payload = hub.current()
        return Response(payload, mimetype="application/json")

    @app.get("/api/stream")
    def stream():
        if not hub.try_open():
            resp = jsonify(error={"en": "Too many live pages; this page will refresh every few seconds.",
                                  "fr": "Trop de pages ouvertes ; cette page se rafraîchira toutes les quelques secondes."})
            resp.status_code = 503
            resp.headers["Retry-After"] = "5"
            return resp
        return Response(hub.events(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    # ------------------------------------------------------------- writing
    @app.post("/api/games")
    def new_game():
        body = _json_body()
        game = body.get("game") or (session.adapter.game if session.adapter else None) or "passe-murailles"
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise BadRequest("'options' must be an object.", "« options » doit être un objet.")
        try:
            merged = {**defaults.get(game, {}), **options}
            obs = session.new_game(str(game), merged)
        except UnknownGame as exc:
            raise BadRequest(exc.en, exc.fr) from None
        except (ValueError, KeyError, TypeError) as exc:
            en, fr = getattr(exc, "en", str(exc)), getattr(exc, "fr", str(exc))
            raise BadRequest(f"This game cannot start: {en}", f"Cette partie ne peut pas commencer : {fr}") from None
        return jsonify(seq=obs.seq, version=session.version), 201

    @app.post("/api/alerts/<alert_id>/resolve")
    def resolve(alert_id: str):
        body = _json_body()
        adapter = session.adapter
        alert = adapter.find_alert(alert_id) if adapter else None
        if alert is None:
            raise BadRequest("No open alert with this id (already resolved?).",
                             "Aucune alerte ouverte avec cet identifiant (déjà résolue ?).", 404)
        choice = body.get("choice")
        if choice not in {c["id"] for c in alert.choices}:
            raise BadRequest(f"Choose one of: {', '.join(c['id'] for c in alert.choices) or '(none: put the parts back)'}.",
                             f"Choisissez parmi : {', '.join(c['id'] for c in alert.choices) or '(aucun : remettez les pièces)'}.")
        details = body.get("details") if isinstance(body.get("details"), dict) else {}
        obs = session.submit(Observation(kind=K.RESOLVE, t=session.clock(), source="dashboard",
                                         data={**details, "alert": alert_id, "choice": choice}))
        return jsonify(seq=obs.seq, version=session.version)

    @app.post("/api/observations")
    def observe():
        """Entries a person makes on a scorekeeper page (the game says which kinds)."""
        body = _json_body()
        adapter = session.adapter
        kind = body.get("kind")
        data = body.get("data") or {}
        if adapter is None:
            raise BadRequest("No game is running; start one first.", "Aucune partie en cours ; commencez-en une.", 409)
        allowed = getattr(adapter, "dashboard_kinds", frozenset())
        if kind not in allowed:
            raise BadRequest(f"This game does not take {kind!r} from the dashboard.",
                             f"Ce jeu n'accepte pas {kind!r} depuis le tableau de bord.")
        if not isinstance(data, dict):
            raise BadRequest("'data' must be an object.", "« data » doit être un objet.")
        problem = adapter.check_entry(kind, data) if hasattr(adapter, "check_entry") else None
        if problem:
            raise BadRequest(problem["en"], problem["fr"], 422)
        obs = session.submit(Observation(kind=kind, t=session.clock(), source="dashboard", data=data))
        return jsonify(seq=obs.seq, version=session.version), 201

    @app.post("/api/undo")
    def undo():
        body = _json_body()
        adapter = session.adapter
        seq = body.get("seq")
        if adapter is None or not isinstance(seq, int):
            raise BadRequest("Say which entry to undo ('seq').", "Indiquez l'entrée à annuler (« seq »).")
        target = session.log.get(seq)
        if target is None or seq < session.game_seq or target.kind not in adapter.undoable_kinds:
            raise BadRequest("That entry cannot be undone.", "Cette entrée ne peut pas être annulée.", 409)
        obs = session.submit(Observation.now(K.UNDO, source="dashboard", seq=seq))
        return jsonify(seq=obs.seq, version=session.version)

    if desk is not None:
        from web.enrol import enrol_blueprint

        app.register_blueprint(enrol_blueprint(desk))
    return app


def _json_body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadRequest("Send a JSON object.", "Envoyez un objet JSON.")
    return body


_FR_HTTP = {404: "Introuvable", 405: "Méthode non autorisée", 400: "Requête invalide", 413: "Requête trop grande"}
