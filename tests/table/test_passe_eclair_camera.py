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


def test_an_unnamed_top_card_asks_which_card_among_the_legal_ones_and_one_tap_places_it():
    session = _started(3)
    session.submit(Observation("card_unknown", 4.4, "camera",
                               {"zone": "pile", "corners_mm": [], "unknown": 2, "landed": 4.25, "hands": [1]}))
    alert, = session.snapshot()["alerts"]
    ids = [c["id"] for c in alert["choices"]]
    assert alert["kind"] == "camera_which_card" and "pas reconnue" in alert["message"]["fr"]
    legal = ids[:ids.index("leon-marlon")]                                        # what may go on it first,
    assert ids[-1] == "none" and "marlon-fabi" in legal and not [c for c in legal if c.startswith("leon")]
    assert "leon-fabi" in ids and len(ids) == len(set(ids)) == 23                   # then the others (a wrong card)
    assert session.snapshot()["view"]["pile"][-1]["card"] == "leon-marlon"     # no guess meanwhile
    session.resolve(alert["id"], "marlon-fabi", source="dashboard")
    top = session.snapshot()["view"]["pile"][-1]
    assert (top["card"], top["by"], top["t"]) == ("marlon-fabi", 1, 4.25)
    assert session.snapshot()["alerts"] == []


def test_an_unnamed_top_card_with_two_hands_in_then_asks_who():
    session = _started(4)
    session.submit(Observation("card_unknown", 6.6, "camera",
                               {"zone": "pile", "corners_mm": [], "unknown": 5, "landed": 6.5, "hands": [0, 2]}))
    alert, = session.snapshot()["alerts"]
    session.resolve(alert["id"], "marlon-rocce")
    who, = session.snapshot()["alerts"]
    assert who["kind"] == "camera_who_placed" and [c["id"] for c in who["choices"]] == ["0", "2"]
    session.resolve(who["id"], "2")
    top = session.snapshot()["view"]["pile"][-1]
    assert (top["card"], top["by"], top["t"]) == ("marlon-rocce", 2, 6.5)


def test_an_answer_after_the_camera_named_the_card_places_it_once():
    session = _started(3)
    session.submit(Observation("card_unknown", 4.4, "camera",
                               {"zone": "pile", "corners_mm": [], "unknown": 2, "landed": 4.25, "hands": [1]}))
    alert, = session.snapshot()["alerts"]
    _pile(session, "marlon-fabi", hands=[1], landed=4.35)     # read after all, a few frames later
    session.resolve(alert["id"], "marlon-fabi")
    assert [e["card"] for e in session.snapshot()["view"]["pile"]] == ["leon-marlon", "marlon-fabi"]
