"""Passe Éclair from the camera, what the camera cannot see, each by one tap (issue 13, item 2):
a Gros Michi's swap partner, "could no one play?" for a Michi off anything but a dog,
"no one can play" then the camera's next pile card as the new start card, and the cards
left counted at the round's end."""

from __future__ import annotations

import pytest

from table.errors import Refused
from table.log import EventLog
from table.observations import Observation
from table.passe_eclair.observed import ObservedGame
from table.session import Session


def _pile(session, card, *, hands, landed):
    session.submit(Observation("card_seen", landed + 0.1, "camera",
                               {"card": card, "zone": "pile", "landed": landed, "hands": hands}))


def _started(players=3):
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": players, "names": ["Ana", "Bo", "Cy", "Di"][:players]},
                       source="test")
    _pile(session, "leon-marlon", hands=[], landed=1.0)        # the coach turns the start card
    return session


def _view(session):
    return session.snapshot()["view"]


def _question(session, kind):
    alerts = session.snapshot()["alerts"]
    assert [a["kind"] for a in alerts] == [kind]
    return alerts[0]


def test_a_michi_on_a_dog_asks_who_to_swap_with_and_one_tap_swaps_then_the_next_card_starts():
    session = _started(3)
    _pile(session, "dog", hands=[0], landed=2.0)
    _pile(session, "michi", hands=[1], landed=3.0)
    question = _question(session, "camera_michi_partner")
    assert [c["id"] for c in question["choices"]] == ["0", "2"]
    assert [c["label"]["fr"] for c in question["choices"]] == ["Ana", "Cy"]
    assert "Bo" in question["message"]["en"] and "échange" in question["message"]["fr"]
    view = _view(session)
    assert view["phase"] == "michi" and view["pile"][-1]["card"] == "michi" and not view["pile"][-1]["wrong"]
    assert view["hand_sizes"] == [6, 6, 7]
    session.resolve(question["id"], "2", source="dashboard")
    view = _view(session)
    assert view["hand_sizes"] == [6, 7, 6] and view["phase"] == "turning" and view["turner"] == 1
    assert view["pile_size"] == 0 and session.snapshot()["alerts"] == []
    _pile(session, "fabi-rocce", hands=[1], landed=9.0)       # Bo turns the new start card
    view = _view(session)
    assert view["phase"] == "playing" and [(e["card"], e["by"]) for e in view["pile"]] == [("fabi-rocce", None)]


def test_at_two_players_a_michi_on_a_dog_swaps_with_the_other_player_with_no_question():
    session = _started(2)
    _pile(session, "dog", hands=[0], landed=2.0)
    _pile(session, "michi", hands=[0], landed=3.0)
    assert session.snapshot()["alerts"] == []
    view = _view(session)
    assert view["hand_sizes"] == [7, 5] and view["phase"] == "turning" and view["turner"] == 0


def test_a_michi_off_a_footballer_card_asks_could_no_one_play_and_yes_swaps():
    session = _started(3)
    _pile(session, "michi", hands=[2], landed=2.5)
    question = _question(session, "camera_michi_blocked")
    assert [c["id"] for c in question["choices"]] == ["0", "1", "wrong"]
    assert "no one can play" in question["message"]["en"] and "personne ne peut jouer" in question["message"]["fr"]
    assert _view(session)["pile_size"] == 1                   # nothing placed before the tap
    _pile(session, "michi", hands=[2], landed=2.5)            # seen again while asked: not a second Michi
    assert len(session.snapshot()["alerts"]) == 1
    session.resolve(question["id"], "0", source="dashboard")
    view = _view(session)
    assert view["hand_sizes"] == [6, 7, 7] and view["phase"] == "turning" and view["turner"] == 2
    assert session.snapshot()["alerts"] == []


def test_a_michi_off_a_footballer_card_answered_wrong_is_placed_and_flagged():
    session = _started(3)
    _pile(session, "michi", hands=[2], landed=2.5)
    question = _question(session, "camera_michi_blocked")
    session.resolve(question["id"], "wrong", source="dashboard")
    view = _view(session)
    top = view["pile"][-1]
    assert (top["card"], top["by"], top["t"]) == ("michi", 2, 2.5)
    assert top["wrong"]["code"] == "michi_not_on_dog" and view["phase"] == "playing"
    assert view["hand_sizes"] == [7, 7, 6]


def test_a_michi_laid_while_two_hands_were_in_asks_who_then_the_partner():
    session = _started(4)
    _pile(session, "dog", hands=[3], landed=2.0)
    _pile(session, "michi", hands=[0, 1], landed=3.0)
    who = _question(session, "camera_who_placed")
    session.resolve(who["id"], "1", source="dashboard")
    partner = _question(session, "camera_michi_partner")
    assert [c["id"] for c in partner["choices"]] == ["0", "2", "3"]
    session.resolve(partner["id"], "3", source="dashboard")
    assert _view(session)["hand_sizes"] == [7, 6, 7, 6]


def test_an_unnamed_card_off_a_footballer_may_be_named_the_michi():
    session = _started(3)
    session.submit(Observation("card_unknown", 4.4, "camera",
                               {"zone": "pile", "corners_mm": [], "unknown": 2, "landed": 4.25, "hands": [1]}))
    which = _question(session, "camera_which_card")
    assert "michi" in [c["id"] for c in which["choices"]]
    session.resolve(which["id"], "michi", source="dashboard")
    assert _question(session, "camera_michi_blocked")["expected"]["seat"] == 1


def test_no_one_can_play_is_one_tap_and_the_camera_s_next_pile_card_is_the_new_start_card():
    session = _started(3)
    _pile(session, "marlon-fabi", hands=[1], landed=2.0)
    session.enter("passe_eclair.blocked", {}, source="dashboard")
    view = _view(session)
    assert view["phase"] == "turning" and view["pile_size"] == 0 and view["turner"] == view["coach"]
    _pile(session, "dog", hands=[0], landed=5.0)              # a dog turned: the next card is turned on it
    _pile(session, "vanessa-leon", hands=[0], landed=6.0)
    view = _view(session)
    assert view["phase"] == "playing" and [(e["card"], e["by"]) for e in view["pile"]] == [
        ("dog", None), ("vanessa-leon", None)]
    assert view["hand_sizes"] == [7, 6, 7]


# ------------------------------------------------------------------ the round's end
def _won_round(players=3):
    """Seats 0 and 1 pass Léon → Marlon → Fabi → Léon... until seat 0 placed its 7th card."""
    g = ObservedGame(players)
    g.turn_start_card("leon-marlon")
    cycle = ["marlon-fabi", "fabi-leon", "leon-marlon"]
    for i in range(13):
        g.place(i % 2, cycle[i % 3])
    assert g.phase == "round_won"
    return g


def test_counts_at_the_round_end_are_prefilled_and_one_tap_corrects_one_and_the_consolation_follows():
    g = _won_round()
    assert g.round_over["hand_sizes"] == [0, 1, 7] and g.round_over["consolation_seat"] == 2
    events = g.count_cards(1, 7)                               # seat 2's count was right, seat 1 had 7
    assert events[0]["type"] == "cards_counted" and events[0]["was"] == 1
    assert g.round_over["consolation_seat"] is None and g.round_over["no_consolation"]["reason"] == "tie"
    g.count_cards(2, 5)
    assert g.round_over["consolation_seat"] == 1
    out = g.round_tokens(2, "goal-1")
    assert [e["type"] for e in out][:2] == ["round_won", "consolation"] and out[1]["seat"] == 1
    assert g.results[-1]["hand_sizes"] == [0, 7, 5]


def test_a_count_for_the_winner_or_not_a_count_is_refused_in_both_languages_and_changes_nothing():
    from table.rules import IllegalAction

    g = _won_round()
    with pytest.raises(IllegalAction) as exc:
        g.count_cards(0, 2)
    assert "winner" in exc.value.en and "gagnant" in exc.value.fr
    for bad in (-1, 61, "3", True):
        with pytest.raises(IllegalAction) as exc:
            g.count_cards(1, bad)
        assert "0" in exc.value.en and "main" in exc.value.fr
    assert g.round_over["hand_sizes"] == [0, 1, 7]


def test_a_count_through_the_session_is_a_dashboard_entry_refused_before_the_round_end():
    session = _started(3)
    with pytest.raises(Refused) as exc:
        session.enter("passe_eclair.count", {"seat": 1, "cards": 3}, source="dashboard")
    assert "round" in exc.value.en.lower() and "tour" in exc.value.fr.lower()
