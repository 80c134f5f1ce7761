"""Enrolment checks the card in view before saving it, and shows the saved photo: a card
that looks like another card already enrolled is not saved silently."""

from __future__ import annotations

import time

from vision.desk import EnrolmentDesk
from vision.sources import RenderedSource
from vision.synth.scene import card_photo
from web.app import create_app


def test_a_lookalike_of_an_enrolled_card_is_asked_about_and_the_saved_photo_is_shown(session, tmp_path):
    shown = {"card": "purple-1"}                      # what lies under the camera
    desk = EnrolmentDesk(RenderedSource(lambda t: card_photo(shown["card"], seed=3), time.time), tmp_path / "models")
    client = create_app(session, desk=desk).test_client()
    r = client.post("/api/enrol", json={"deck": "pass-pass", "card": "purple-1"})
    assert r.status_code == 201 and r.get_json()["saved"]
    photo = client.get("/api/enrol/pass-pass/purple-1.jpg")
    assert photo.status_code == 200 and photo.mimetype == "image/jpeg" and photo.data[:2] == b"\xff\xd8"
    assert client.get("/api/enrol/pass-pass/purple-2.jpg").status_code == 404       # not enrolled yet
    assert client.get("/api/enrol/pass-pass/..%2Fmodel.json.jpg").status_code == 404  # ids only, never paths

    r = client.post("/api/enrol", json={"deck": "pass-pass", "card": "purple-2"})    # purple-1 still in view
    assert r.status_code == 409
    answer = r.get_json()
    assert answer["saved"] is False and answer["looks_like"] == "purple-1" and answer["confidence"] >= 0.995
    assert client.get("/api/enrol?deck=pass-pass").get_json()["next"] == "purple-2"  # nothing saved
    r = client.post("/api/enrol", json={"deck": "pass-pass", "card": "purple-2", "confirm": True})
    assert r.status_code == 201                                                      # the person said yes

    shown["card"] = "purple-3"                           # the right card this time: saved at once
    assert client.post("/api/enrol", json={"deck": "pass-pass", "card": "purple-3"}).status_code == 201


def test_a_sibling_card_is_not_taken_for_an_enrolled_one(session, tmp_path):
    shown = {"card": "purple-1"}
    desk = EnrolmentDesk(RenderedSource(lambda t: card_photo(shown["card"], seed=3), time.time), tmp_path / "models")
    client = create_app(session, desk=desk).test_client()
    assert client.post("/api/enrol", json={"deck": "pass-pass", "card": "purple-1"}).status_code == 201
    shown["card"] = "purple-2"               # alike (0.992 on this deck) but another card: saved without a question
    r = client.post("/api/enrol", json={"deck": "pass-pass", "card": "purple-2"})
    assert r.status_code == 201 and r.get_json()["saved"]
