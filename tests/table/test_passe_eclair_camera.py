"""Passe Éclair from the camera: the start card, a placement by the one hand that reached
the pile at the time the card landed, a one-tap question when two hands were in."""

from __future__ import annotations

from table.log import EventLog
from table.observations import Observation
from table.session import Session


def _pile(session, card, *, hands, landed):
    session.submit(Observation("card_seen", landed + 0.1, "camera",
                               {"card": card, "zone": "pile", "landed": landed, "hands": hands}))


def _started(players=3):
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": players}, source="test")
    _pile(session, "leon-marlon", hands=[], landed=1.0)        # the coach turns the start card
    return session


def test_the_start_card_then_a_placement_by_the_hand_that_came_in():
    session = _started()
    view = session.snapshot()["view"]
    assert view["phase"] == "playing" and view["pile"][-1]["card"] == "leon-marlon"
    _pile(session, "marlon-fabi", hands=[1], landed=4.25)
    top = session.snapshot()["view"]["pile"][-1]
    assert (top["card"], top["by"], top["t"]) == ("marlon-fabi", 1, 4.25)
    assert session.snapshot()["alerts"] == []


def test_two_hands_in_ask_who_laid_it_and_one_tap_places_it_at_its_landing_time():
    session = _started(4)
    _pile(session, "marlon-rocce", hands=[0, 2], landed=6.5)
    alert, = session.snapshot()["alerts"]
    assert alert["kind"] == "camera_who_placed" and [c["id"] for c in alert["choices"]] == ["0", "2"]
    assert "two hands" in alert["message"]["en"] and "deux mains" in alert["message"]["fr"]
    assert session.snapshot()["view"]["pile"][-1]["card"] == "leon-marlon"     # no guess meanwhile
    session.resolve(alert["id"], "2")
    top = session.snapshot()["view"]["pile"][-1]
    assert (top["card"], top["by"], top["t"]) == ("marlon-rocce", 2, 6.5)
    assert session.snapshot()["alerts"] == []


def test_no_hand_seen_asks_among_every_seat_and_a_wrong_card_is_flagged_not_refused():
    session = _started(3)
    _pile(session, "fabi-rocce", hands=[], landed=3.0)          # Fabi → Rocce does not go on Léon → Marlon
    alert, = session.snapshot()["alerts"]
    assert [c["id"] for c in alert["choices"]] == ["0", "1", "2"]
    session.resolve(alert["id"], "0")
    top = session.snapshot()["view"]["pile"][-1]
    assert top["card"] == "fabi-rocce" and top["by"] == 0 and top["wrong"]
