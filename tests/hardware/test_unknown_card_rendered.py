"""A card the recogniser abstains on, laid on the Passe Éclair pile in rendered frames
(calibration, recogniser, stability filter, hands): never a guess, the page asks which
card among those the rules allow there, and one tap places it for the seat whose hand
came in, at the time it landed."""

from __future__ import annotations

import cv2
import pytest

from table.log import EventLog
from table.session import Session
from tests.pile_camera import PileCamera

UNREAD = "marlon-fabi"   # enrolled without it, as an owner's ``--partial`` enrolment


@pytest.fixture(scope="module")
def partial_model(tmp_path_factory):
    from vision.decks import deck_card_ids
    from vision.enrol import enrol_directory
    from vision.synth.scene import card_photo

    base = tmp_path_factory.mktemp("pe-partial")
    for i, card in enumerate(deck_card_ids("passe-eclair")):
        if card != UNREAD:
            cv2.imwrite(str(base / f"{card}.png"), card_photo(card, 900_000 + i))
    enrol_directory("passe-eclair", base, base / "model", partial=True)
    return base / "model"


def test_an_unread_top_card_is_asked_and_one_tap_places_it_as_it_happened(partial_model):
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 4}, source="test")
    camera = PileCamera(session, partial_model)
    camera.frames(count=3)
    camera.lay("leon-marlon", arms=[0])               # the coach turns the start card
    assert session.snapshot()["view"]["phase"] == "playing"
    camera.lay(UNREAD, arms=[1])                      # seat 1 lays the card the model lacks
    view = session.snapshot()["view"]
    assert view["pile"][-1]["card"] == "leon-marlon"  # no guess
    alert, = session.snapshot()["alerts"]
    ids = [c["id"] for c in alert["choices"]]
    assert alert["kind"] == "camera_which_card" and UNREAD in ids and ids[-1] == "none"
    # the card nobody enrolled that it read nearest (vision.ghosts) is offered first, as a hint
    assert ids[0] == UNREAD and "It looks like Marlon → Fabi, a card not enrolled yet." in alert["message"]["en"]
    legal = ids[:ids.index("leon-marlon")]            # what the rules allow on the pile first, then the others
    assert UNREAD in legal and not [c for c in legal if c.startswith("leon")] and "leon-fabi" in ids
    session.resolve(alert["id"], UNREAD, source="dashboard")
    top = session.snapshot()["view"]["pile"][-1]
    assert (top["card"], top["by"]) == (UNREAD, 1) and session.snapshot()["alerts"] == []
    assert camera.landed <= top["t"] <= camera.landed + 3 / 30   # when it landed (frame clock), not the tap's
    asked = [o for o in session.log.read() if o.kind == "card_unknown"]
    assert len(asked) == 1 and asked[0].source == "camera" and asked[0].data["hands"] == [1]
    assert asked[0].data["like"] == UNREAD
