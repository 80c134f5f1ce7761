"""The enrolment page: teach the recogniser the owner's deck with the live camera,
card by card (the same as ``passetable enroll`` does from a folder of photos).

The web layer does not import the vision package: the composition root hands
:func:`enrol_blueprint` a *desk*, any object with

* ``snapshot_jpeg() -> bytes | None`` — the camera's latest frame;
* ``status(deck) -> dict`` — ``{"deck", "model", "cards": [{"card", "enrolled", "held_back"}], "next"}``
  (``held_back``: enrolled, but not named in play until more of the deck is enrolled);
* ``enrol(deck, card, *, confirm) -> dict`` — add the card in view to the deck's model
  (``{"saved": False, "looks_like": card}`` when the card in view is another enrolled card
  and ``confirm`` is false: the page asks first); raises an exception with ``en``/``fr``
  attributes when it cannot (no card in view, two cards...);
* ``face_jpeg(deck, card) -> bytes | None`` — the saved photo of an enrolled card.

    >>> class Desk:                                  # a stand-in for the camera and recogniser
    ...     def snapshot_jpeg(self): return b"<jpeg bytes>"
    ...     def status(self, deck): return {"deck": deck, "model": None, "cards": [], "next": None}
    ...     def enrol(self, deck, card, *, confirm=False): return {"card": card, "enrolled": 1}
    ...     def face_jpeg(self, deck, card): return None
    >>> desk = Desk()
    >>> from flask import Flask
    >>> app = Flask("dashboard")
    >>> app.register_blueprint(enrol_blueprint(desk))
    >>> client = app.test_client()
    >>> client.get("/api/camera.jpg").mimetype
    'image/jpeg'
    >>> from table.games import games
    >>> deck = next(spec.id for spec in games().values() if spec.deck is not None)
    >>> resp = client.post("/api/enrol", json={"deck": deck, "card": "card-1"})
    >>> resp.status_code, resp.get_json()
    (201, {'card': 'card-1', 'enrolled': 1})

:func:`web.app.create_app` registers it when given a desk, and answers a bad request
with its bilingual JSON error:

    >>> from web.app import create_app
    >>> resp = create_app(session, desk=desk).test_client().get("/api/enrol?deck=chess")
    >>> resp.status_code, resp.get_json()["error"]["code"]
    (400, 'bad_request')
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request

from table.games import games
from web.errors import BadRequest, json_body, page_lang


def enrol_blueprint(desk: Any) -> Blueprint:
    bp = Blueprint("enrol", __name__)
    decks = {spec.id: spec for spec in games().values() if spec.deck is not None}
    DECKS = tuple(decks)

    def _deck(value: Any) -> str:
        if value not in DECKS:
            raise BadRequest(f"Choose a deck: {', '.join(DECKS)}.", f"Choisissez un jeu : {', '.join(DECKS)}.")
        return str(value)

    @bp.get("/enrol")
    def page():
        return render_template("enrol.html", lang=page_lang(), decks=DECKS,
                               names={d: decks[d].names for d in DECKS})

    @bp.get("/api/camera.jpg")
    def snapshot():
        jpeg = desk.snapshot_jpeg()
        if jpeg is None:
            raise BadRequest("The camera has given no picture yet.", "La caméra n'a pas encore donné d'image.", 503)
        return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})

    @bp.get("/api/enrol")
    def status():
        return jsonify(desk.status(_deck(request.args.get("deck", DECKS[0] if DECKS else ""))))

    @bp.post("/api/enrol")
    def enrol():
        body = json_body()
        deck = _deck(body.get("deck"))
        card = body.get("card")
        if not isinstance(card, str) or not card:
            raise BadRequest("Say which card is under the camera ('card').",
                             "Indiquez la carte posée sous la caméra (« card »).")
        try:
            result = desk.enrol(deck, card, confirm=body.get("confirm") is True)
        except Exception as exc:  # the desk's errors carry both languages
            if hasattr(exc, "en"):
                raise BadRequest(exc.en, getattr(exc, "fr", exc.en), 422) from None
            raise
        # not saved: the card in view looks like another enrolled card; the page asks first
        return jsonify(result), 201 if result.get("saved", True) else 409

    @bp.get("/api/enrol/<deck>/<card>.jpg")
    def saved_photo(deck: str, card: str):
        """The saved photo of an enrolled card (the page's preview)."""
        jpeg = desk.face_jpeg(_deck(deck), card)
        if jpeg is None:
            raise BadRequest("No saved photo of this card.", "Aucune photo enregistrée de cette carte.", 404)
        return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})

    return bp
