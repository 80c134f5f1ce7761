"""Passe Éclair from the camera: the pile boxed and the next card turned before anyone
tapped "no one can play" (table/passe_eclair/camera_boxed.py). The new card is not a
placement of whoever turned it: one tap says whether no one could play."""

from __future__ import annotations

from table.log import EventLog
from table.observations import Observation
from table.session import Session


def _seen(session, card, *, hands, landed):
    session.submit(Observation("card_seen", landed + 0.1, "camera",
                               {"card": card, "zone": "pile", "landed": landed, "hands": hands}))


def _gone(session, card, *, left, bare=True):
    session.submit(Observation("card_gone", left + 0.17, "camera",
                               {"card": card, "zone": "pile", "left": left, "hands": [], "bare": bare}))


def _boxed_and_turned():
    """Léa (0) is the coach. Hugo and Inès lay a card each; no one can play; the pile goes
    to the box with no tap and Léa turns Rocce → Léon."""
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 3, "names": ["Léa", "Hugo", "Inès"]}, source="test")
    _seen(session, "leon-marlon", hands=[], landed=1.0)
    _seen(session, "marlon-fabi", hands=[1], landed=2.0)
    _seen(session, "fabi-rocce", hands=[2], landed=3.0)
    for card in ("fabi-rocce", "marlon-fabi", "leon-marlon"):
        _gone(session, card, left=20.0)
    _seen(session, "rocce-leon", hands=[0], landed=21.0)
    return session


def test_the_pile_cleared_asks_if_no_one_could_play_and_yes_makes_the_next_card_the_start_card():
    session = _boxed_and_turned()
    alert, = session.snapshot()["alerts"]
    assert alert["kind"] == "camera_boxed" and [c["id"] for c in alert["choices"]] == ["yes", "no"]
    assert "could no one play" in alert["message"]["en"] and "personne ne pouvait" in alert["message"]["fr"]
    assert session.snapshot()["view"]["pile"][-1]["card"] == "fabi-rocce"      # nothing guessed meanwhile
    session.resolve(alert["id"], "yes")
    view = session.snapshot()["view"]
    assert [(e["card"], e["by"]) for e in view["pile"]] == [("rocce-leon", None)]
    assert view["phase"] == "playing" and view["hand_sizes"] == [7, 6, 6]
    assert session.snapshot()["alerts"] == []


def test_no_keeps_the_pile_and_judges_the_card_seen_as_laid():
    session = _boxed_and_turned()
    alert, = session.snapshot()["alerts"]
    session.resolve(alert["id"], "no")
    view = session.snapshot()["view"]
    assert [(e["card"], e["by"]) for e in view["pile"]][-2:] == [("fabi-rocce", 2), ("rocce-leon", 0)]


def test_the_top_card_alone_leaving_is_not_a_cleared_pile():
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 3}, source="test")
    _seen(session, "leon-marlon", hands=[], landed=1.0)
    _seen(session, "marlon-fabi", hands=[1], landed=2.0)
    _gone(session, "marlon-fabi", left=20.0)
    assert not [a for a in session.snapshot()["alerts"] if a["kind"] == "camera_boxed"]


def test_the_pile_cleared_while_a_refused_entry_is_shown_is_asked_about():
    """Seed 63 of the bench: an entry refused (its alert expects nothing) was open when the
    pile was cleared; the camera's question raised AttributeError and every later card_gone
    of the game was quarantined."""
    from table.passe_eclair.adapter import PasseEclairAdapter

    pe = PasseEclairAdapter(Observation("game_start", 0.0, "test", {"game": "passe-eclair", "options": {"players": 3}}))
    for obs in (Observation("card_seen", 1.1, "camera", {"card": "leon-marlon", "zone": "pile", "landed": 1.0,
                                                          "hands": []}),
                Observation("card_seen", 2.1, "camera", {"card": "marlon-fabi", "zone": "pile", "landed": 2.0,
                                                          "hands": [1]})):
        pe.observe(obs)
    pe.refuse_entry(Observation("passe_eclair.place", 3.0, "dashboard", {"seat": 2, "card": "dog"}),
                    "Inès has no dog.", "Inès n'a pas de chien.")
    for card in ("marlon-fabi", "leon-marlon"):
        pe.observe(Observation("card_gone", 20.2, "camera", {"card": card, "zone": "pile", "left": 20.0,
                                                             "hands": [], "bare": True}))
    assert sorted(a.kind for a in pe.open_alerts()) == ["camera_boxed", "refused_entry"]
