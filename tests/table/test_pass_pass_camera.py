"""Pass Pass scored from camera facts (``card_seen`` / ``card_gone``, source camera) through
the session: plays and takes by the rules, alerts for what the rules refuse, one-tap
questions for what the camera is unsure of, and the same game on every replay."""

from __future__ import annotations

import random

import pytest

from table.log import EventLog
from table.observations import Observation
from table.pass_pass import new_game
from table.session import Session
from table.timers import DeadlineTimer


def _seen(session, card, zone):
    return session.submit(Observation.now("card_seen", source="camera", card=card, zone=zone, corners_mm=[]))


def _gone(session, card, zone):
    return session.submit(Observation.now("card_gone", source="camera", card=card, zone=zone))


def _start(session, players=4, teams=False, first=0, seed=5):
    session.start_game("pass-pass", {"players": players, "teams": teams, "first": first}, source="test")
    return new_game(players, teams=teams, first=first, seed=seed, deal=True)


def _camera_step(session, mind, rng):
    """One random legal move of the full-knowledge ``mind``, reported the way the camera sees it."""
    action = rng.choice(mind.legal_actions())
    for event in mind.apply(action).events:
        if event["type"] == "card_played":
            _seen(session, event["card"], "trick")
        elif event["type"] == "card_taken":
            for card in event["cards"]:
                _seen(session, card, f"seat{event['seat'] + 1}")
                _gone(session, card, "trick")
    return action


def _answer_records(session, mind):
    for alert in session.snapshot()["alerts"]:
        if alert["kind"] == "camera_record_question":
            choice = mind.suggested_member(alert["expected"]["team"])
            session.resolve(alert["id"], str(choice))
    record = session.current_game()
    for a in _trailing_records(record.extra["actions"]):
        if type(a).__name__ == "RecordMember" and mind.phase == "record" and \
                mind.round_scores[-1].recorded[a.team] is None:
            mind.apply(a)


def _trailing_records(actions):
    """The member records at the end of the scorekeeper's actions (this round's)."""
    tail = []
    for a in reversed(actions):
        if type(a).__name__ != "RecordMember":
            break
        tail.insert(0, a)
    return tail


@pytest.mark.parametrize("players,teams", [(3, False), (4, False), (5, False), (4, True)])
def test_a_whole_game_from_the_camera_alone_scores_as_the_truth(players, teams):
    session = Session(EventLog(":memory:"))
    mind = _start(session, players, teams, seed=players)
    rng = random.Random(players)
    while not mind.is_over():
        if mind.phase == "record":
            _answer_records(session, mind)
            continue
        _camera_step(session, mind, rng)
        if mind.phase == "record":   # the teams' choice: recorded by itself when obvious, else one tap
            _answer_records(session, mind)
        view = session.snapshot()["view"]
        assert view["sheet"] == [line.to_dict() for line in mind.round_scores]
        assert sorted(sum((s["in_front"] for s in view["seats"]), [])) == \
            sorted(c.id for s in range(players) for c in mind.in_front(s))
        assert [a for a in session.snapshot()["alerts"] if a["kind"] != "camera_record_question"] == []
    view = session.snapshot()["view"]
    assert view["over"] and view["scores"] == [mind.scores()[k] for k in sorted(mind.scores())]
    assert view["winners"] == mind.winners()


def test_a_card_already_played_this_round_is_an_alert_and_changes_nothing():
    session = Session(EventLog(":memory:"))
    _start(session, 4)
    _seen(session, "blue-7", "trick")
    _gone(session, "blue-7", "trick")
    _seen(session, "blue-7", "trick")          # a hand lifted it and laid it again: the same card, seen
    assert session.snapshot()["alerts"] == []
    session.undo()
    session.undo()                             # a misread card is cancelled from the page
    assert session.snapshot()["view"]["current_trick"] == []
    _seen(session, "green-2", "trick")
    _seen(session, "green-3", "trick")
    _seen(session, "green-2", "trick")         # already in this trick: nothing new
    _seen(session, "purple-1", "seat2")        # not from the trick
    alerts = session.snapshot()["alerts"]
    assert [a["kind"] for a in alerts] == ["camera_not_from_trick"]
    assert "purple 1" in alerts[0]["message"]["en"] and "1 violet" in alerts[0]["message"]["fr"]
    assert [p["card"] for p in session.snapshot()["view"]["current_trick"]] == ["green-2", "green-3"]


def _full_trick(session, cards=("blue-3", "green-9", "yellow-12", "purple-5")):
    for card in cards:
        _seen(session, card, "trick")
    return session.snapshot()["view"]


def test_a_fifth_card_and_a_take_by_the_wrong_seat_are_alerts_saying_what_to_put_back():
    session = Session(EventLog(":memory:"))
    _start(session, 4)
    view = _full_trick(session)
    assert view["phase"] == "first_take"
    first = view["to_act"]
    _seen(session, "purple-12", "trick")                       # a fifth card in a 4-player trick
    wrong = (first + 1) % 4
    _seen(session, "yellow-12", f"seat{wrong + 1}")            # the wrong seat takes
    assert [a["kind"] for a in session.snapshot()["alerts"]] == ["camera_extra_card"]   # still in the trick
    _gone(session, "yellow-12", "trick")                       # it left: the wrong seat took it
    kinds = [a["kind"] for a in session.snapshot()["alerts"]]
    assert kinds == ["camera_extra_card", "camera_wrong_taker"]
    assert session.snapshot()["view"]["phase"] == "first_take"
    _seen(session, "yellow-12", "trick")                       # put back, then taken by the right seat
    _seen(session, "yellow-12", f"seat{first + 1}")
    assert "yellow-12" not in session.snapshot()["view"]["seats"][first]["in_front"]
    _gone(session, "yellow-12", "trick")
    assert "yellow-12" in session.snapshot()["view"]["seats"][first]["in_front"]


def test_a_card_half_off_the_trick_is_a_one_tap_question():
    session = Session(EventLog(":memory:"))
    _start(session, 3)
    _seen(session, "blue-3", None)
    alert, = session.snapshot()["alerts"]
    assert alert["kind"] == "camera_play_question" and [c["id"] for c in alert["choices"]] == ["played", "not_played"]
    assert session.snapshot()["view"]["current_trick"] == []
    session.resolve(alert["id"], "played")
    assert session.snapshot()["view"]["current_trick"] == [{"seat": 0, "card": "blue-3"}]
    assert session.snapshot()["alerts"] == []
    _seen(session, "blue-3", "trick")        # straightened: already played
    assert session.snapshot()["alerts"] == [] and len(session.snapshot()["view"]["current_trick"]) == 1


def test_a_take_the_camera_missed_is_asked_and_a_late_sighting_answers_it():
    session = Session(EventLog(":memory:"))
    _start(session, 4)
    view = _full_trick(session)
    first = view["to_act"]
    card = view["prompt"]["options"][0]
    gone = _gone(session, card, "trick")                       # left the trick, no seat saw it arrive
    assert session.snapshot()["alerts"] == []                  # not yet: its pile may be read a moment later
    session.submit(Observation("tick", gone.t + 1.05, "timer"))   # the take window is over
    alert, = session.snapshot()["alerts"]
    assert alert["kind"] == "camera_take_question"
    assert [c["id"] for c in alert["choices"]] == ["seat1", "seat2", "seat3", "seat4", "back"]
    session.resolve(alert["id"], f"seat{first + 1}")
    assert card in session.snapshot()["view"]["seats"][first]["in_front"]
    # the next trick: the sighting comes late and closes the question by itself
    view = session.snapshot()["view"]
    if view["phase"] == "second_take":
        return
    _full_trick(session, [c for c in ("blue-11", "green-1", "yellow-4", "purple-8")])
    view = session.snapshot()["view"]
    first, card = view["to_act"], view["prompt"]["options"][-1]
    gone = _gone(session, card, "trick")
    session.submit(Observation("tick", gone.t + 1.05, "timer"))
    assert [a["kind"] for a in session.snapshot()["alerts"]] == ["camera_take_question"]
    _seen(session, card, f"seat{first + 1}")                   # named at the seat: the camera answers it
    assert session.snapshot()["alerts"] == []
    assert card in session.snapshot()["view"]["seats"][first]["in_front"]


def test_the_camera_game_is_the_same_after_a_restart(tmp_path):
    path = tmp_path / "log.db"
    session = Session(EventLog(path))
    mind = _start(session, 4, seed=9)
    rng = random.Random(2)
    for _ in range(20):
        _camera_step(session, mind, rng)
    _seen(session, "blue-3", None)   # an open question survives too
    before = session.snapshot()
    session.log.close()
    again = Session(EventLog(path))
    after = again.snapshot()
    assert after["view"] == before["view"]
    assert [a["id"] for a in after["alerts"]] == [a["id"] for a in before["alerts"]]


def test_two_cards_confirmed_by_the_same_frame_ask_for_their_order():
    session = Session(EventLog(":memory:"))
    _start(session, 4, first=1)
    session.submit(Observation("card_seen", 10.0, "camera", {"card": "blue-3", "zone": "trick"}))
    session.submit(Observation("card_seen", 10.0, "camera", {"card": "green-9", "zone": "trick"}))
    view = session.snapshot()["view"]
    assert view["current_trick"] == [] and view["to_act"] == 1     # no guess: the first play is set aside
    alert, = session.snapshot()["alerts"]
    assert alert["kind"] == "camera_order_question"
    assert sorted(c["id"] for c in alert["choices"]) == ["blue-3", "green-9"]
    session.resolve(alert["id"], "green-9")
    assert session.snapshot()["view"]["current_trick"] == [{"seat": 1, "card": "green-9"},
                                                           {"seat": 2, "card": "blue-3"}]
    session.submit(Observation("card_seen", 11.0, "camera", {"card": "yellow-1", "zone": "trick"}))
    assert [p["card"] for p in session.snapshot()["view"]["current_trick"]] == ["green-9", "blue-3", "yellow-1"]


def _unknown(session, zone, unknown=1, **hint):
    return session.submit(Observation.now("card_unknown", source="camera", zone=zone, corners_mm=[], unknown=unknown,
                                          **hint))


def test_an_unnamed_card_in_the_trick_asks_which_card_and_one_tap_plays_it():
    session = Session(EventLog(":memory:"))
    _start(session, 3)
    _seen(session, "blue-3", "trick")                          # seat 0 plays; the card of seat 1 is not recognised
    _unknown(session, "trick", 7)
    alert, = session.snapshot()["alerts"]
    ids = [c["id"] for c in alert["choices"]]
    assert alert["kind"] == "camera_unknown_question" and "Player 2" in alert["message"]["en"]
    assert "pas reconnue" in alert["message"]["fr"] and ids[-1] == "none"
    assert "blue-3" not in ids and "purple-12" in ids         # a card already played is no choice
    assert len(session.snapshot()["view"]["current_trick"]) == 1   # no guess meanwhile
    session.resolve(alert["id"], "purple-12", source="dashboard")
    assert session.snapshot()["view"]["current_trick"][-1] == {"seat": 1, "card": "purple-12"}
    _seen(session, "purple-12", "trick")                       # named later: already played
    assert len(session.snapshot()["view"]["current_trick"]) == 2 and session.snapshot()["alerts"] == []


@pytest.mark.parametrize("like, hinted", [("green-4", True), ("blue-3", False), ("black-99", False), (7, False)])
def test_the_card_not_enrolled_that_an_unnamed_card_looks_like_is_offered_first(like, hinted):
    """``like`` (vision.ghosts: the card nobody enrolled it read nearest) only orders the
    choices and says so; a card already played, or not a card, is no hint."""
    session = Session(EventLog(":memory:"))
    _start(session, 3)
    _seen(session, "blue-3", "trick")
    _unknown(session, "trick", 7, like=like)
    alert, = session.snapshot()["alerts"]
    ids = [c["id"] for c in alert["choices"]]
    assert "blue-3" not in ids and ids[-1] == "none" and len(ids) == 48
    assert (ids[0] == "green-4") == hinted
    assert ("It looks like green 4, a card not enrolled yet." in alert["message"]["en"]) == hinted
    assert ("Elle ressemble à 4 vert, une carte pas encore apprise." in alert["message"]["fr"]) == hinted
    assert len(session.snapshot()["view"]["current_trick"]) == 1   # still no guess


def test_an_unnamed_card_named_later_or_taken_away_withdraws_its_question():
    session = Session(EventLog(":memory:"))
    _start(session, 3)
    _unknown(session, "trick", 3)
    assert [a["kind"] for a in session.snapshot()["alerts"]] == ["camera_unknown_question"]
    _seen(session, "green-5", "trick")                         # the camera names it after all
    session.submit(Observation.now("card_unknown_gone", source="camera", zone="trick", unknown=3))
    assert session.snapshot()["alerts"] == []
    assert session.snapshot()["view"]["current_trick"] == [{"seat": 0, "card": "green-5"}]
    _unknown(session, "seat2", 4)                               # a seat's pile read badly: not a question
    assert session.snapshot()["alerts"] == []


def test_no_card_answer_changes_nothing():
    session = Session(EventLog(":memory:"))
    _start(session, 3)
    _unknown(session, "trick")
    alert, = session.snapshot()["alerts"]
    session.resolve(alert["id"], "none")
    assert session.snapshot()["view"]["current_trick"] == [] and session.snapshot()["alerts"] == []


# ---------------------------------------------------------------------- takes the seat cannot name
def _at(session, kind, t, **data):
    return session.submit(Observation(kind, t, "camera", data))


def _trick_at(session, t0, cards=("blue-3", "green-9", "yellow-12", "purple-5")):
    for i, card in enumerate(cards):
        _at(session, "card_seen", t0 + i, card=card, zone="trick", corners_mm=[])
    return session.snapshot()["view"]


def test_a_card_leaving_the_trick_for_a_seat_that_cannot_name_it_is_a_take_by_that_seat():
    session = Session(EventLog(":memory:"))
    _start(session, 4)
    view = _trick_at(session, 10.0)
    first, card = view["to_act"], view["prompt"]["options"][0]
    _at(session, "card_unknown", 20.1, zone=f"seat{first + 1}", corners_mm=[], unknown=1)   # on the pile, unnamed
    _at(session, "card_gone", 20.17, card=card, zone="trick")
    assert session.snapshot()["alerts"] == []
    assert card in session.snapshot()["view"]["seats"][first]["in_front"]


def test_a_seat_reading_a_card_still_in_the_trick_takes_the_card_that_left_once_that_card_stayed():
    """The pile's top read as a trick card that then stays in the trick a whole window: a
    misread, the seat of the card that left. Until then it may be that card on its way."""
    session = Session(EventLog(":memory:"))
    _start(session, 4)
    view = _trick_at(session, 10.0)
    first, options = view["to_act"], view["prompt"]["options"]
    card = options[0]
    misread = next(c for c in ("blue-3", "green-9", "yellow-12", "purple-5") if c != card)
    _at(session, "card_seen", 20.1, card=misread, zone=f"seat{first + 1}", corners_mm=[])   # the pile's top misread
    seats = session.snapshot()["view"]["seats"]
    assert misread not in seats[first]["in_front"] and card not in seats[first]["in_front"]   # nothing yet
    _at(session, "card_gone", 20.17, card=card, zone="trick")
    assert all(card not in s["in_front"] for s in session.snapshot()["view"]["seats"])   # not yet: no guess
    assert session.next_deadline() == pytest.approx(21.17)
    session.submit(Observation("tick", 21.2, "timer"))                   # misread stayed in the trick
    seats = session.snapshot()["view"]["seats"]
    assert card in seats[first]["in_front"] and misread not in seats[first]["in_front"]
    assert session.snapshot()["alerts"] == []


def _trick_laid(cards, t0):
    """A 4-player game whose first trick is ``cards``, seen laid from ``t0`` on: (the
    session, the seat that takes first)."""
    session = Session(EventLog(":memory:"))
    _start(session, 4, first=0)
    for i, card in enumerate(cards):
        _at(session, "card_seen", t0 + 0.2 * i, card=card, zone="trick", corners_mm=[])
    return session, session.snapshot()["view"]["to_act"]


def test_a_trick_card_named_at_a_seat_after_another_left_unseen_is_its_own_take_not_the_other():
    """Seed 61, pile@0.1 (issue 13): the first winner's card left for their pile unread; the
    next card was named on the second winner's pile before its card_gone. It used to be
    taken as a misread of the first card there (a wrong-taker alert, then the first winner
    given the wrong card in silence)."""
    session, first = _trick_laid(("yellow-1", "purple-7", "purple-6", "green-12"), 8.1)
    view = session.snapshot()["view"]
    assert view["phase"] == "first_take" and "green-12" in view["prompt"]["options"]
    second = (first + 1) % 4
    _at(session, "card_gone", 8.97, card="green-12", zone="trick")                 # unread on its pile
    _at(session, "card_seen", 9.10, card="yellow-1", zone=f"seat{second + 1}", corners_mm=[])
    _at(session, "card_gone", 9.17, card="yellow-1", zone="trick")
    _at(session, "card_seen", 9.30, card="purple-6", zone=f"seat{second + 1}", corners_mm=[])
    _at(session, "card_unknown", 9.30, zone=f"seat{first + 1}", corners_mm=[], unknown=57)   # green-12's pile
    _at(session, "card_gone", 9.37, card="purple-6", zone="trick")
    seats = session.snapshot()["view"]["seats"]
    assert "green-12" in seats[first]["in_front"] and "purple-6" not in seats[first]["in_front"]
    assert sorted(seats[second]["in_front"]) == ["purple-6", "yellow-1"]     # the two lowest, as laid
    assert session._adapter.alerts == []                                  # nothing said wrongly


def test_an_unnamed_pile_after_two_cards_left_unseen_answers_neither():
    """Seed 61 round 3, pile@0.1: two cards left for piles that could not be read, one
    unnamed card showed on one of them; a card then put away (nobody took it) used to be
    given to that seat in silence. Which card lies there the camera cannot say: both asked."""
    session, first = _trick_laid(("blue-4", "purple-9", "blue-9", "blue-6"), 34.0)
    _at(session, "card_gone", 34.87, card="blue-4", zone="trick")
    _at(session, "card_gone", 35.07, card="blue-6", zone="trick")
    _at(session, "card_unknown", 35.20, zone=f"seat{first + 1}", corners_mm=[], unknown=245)
    _at(session, "card_gone", 35.57, card="blue-9", zone="trick")                 # put away
    assert all(s["in_front"] == [] for s in session.snapshot()["view"]["seats"])  # no guess
    session.submit(Observation("tick", 36.6, "timer"))
    asked = sorted(a["expected"]["card"] for a in session.snapshot()["alerts"])
    assert asked == ["blue-4", "blue-6", "blue-9"]
    assert all(a["kind"] == "camera_take_question" for a in session.snapshot()["alerts"])
    assert all(s["in_front"] == [] for s in session.snapshot()["view"]["seats"])


def test_a_card_laid_while_a_take_is_unplaced_asks_it_now_and_is_played_once_answered():
    """Seed 61 round 6, pile@0.1: a take the camera could not see (the pile's top unread, on
    a pile already unread: nothing new shows) and the players already laying the next trick.
    Those cards used to be refused ('laid before it was taken'), the page fell a trick
    behind and then named wrong cards in front of seats."""
    session = Session(EventLog(":memory:"))
    _start(session, 3, first=0)
    for i, card in enumerate(("blue-8", "yellow-8", "purple-3")):
        _at(session, "card_seen", 68.3 + 0.2 * i, card=card, zone="trick", corners_mm=[])
    view = session.snapshot()["view"]
    first = view["to_act"]
    taken = view["prompt"]["options"][0]
    _at(session, "card_gone", 69.37, card=taken, zone="trick")                  # unread on an unread pile
    _at(session, "card_seen", 69.90, card="blue-3", zone="trick", corners_mm=[])   # the next trick begins
    alert, = session.snapshot()["alerts"]
    assert alert["kind"] == "camera_take_question" and alert["expected"]["card"] == taken   # asked at once
    assert "blue-3" not in [p["card"] for p in session.snapshot()["view"]["current_trick"]]   # not played yet
    session.resolve(alert["id"], f"seat{first + 1}")
    view = session.snapshot()["view"]
    assert taken in view["seats"][first]["in_front"]
    assert [p["card"] for p in view["current_trick"]] == ["blue-3"]     # played once the take is placed
    assert session.snapshot()["alerts"] == []                              # and never refused


def test_cards_coming_to_rest_at_two_seats_ask_who_took_it():
    session = Session(EventLog(":memory:"))
    _start(session, 4)
    view = _trick_at(session, 10.0)
    first, card = view["to_act"], view["prompt"]["options"][0]
    other = (first + 2) % 4
    _at(session, "card_unknown", 20.1, zone=f"seat{first + 1}", corners_mm=[], unknown=1)
    _at(session, "card_unknown", 20.13, zone=f"seat{other + 1}", corners_mm=[], unknown=2)
    _at(session, "card_gone", 20.17, card=card, zone="trick")
    alert, = session.snapshot()["alerts"]
    assert alert["kind"] == "camera_take_question" and alert["expected"]["card"] == card
    assert all(card not in s["in_front"] for s in session.snapshot()["view"]["seats"])   # no guess
    session.resolve(alert["id"], f"seat{first + 1}")
    assert card in session.snapshot()["view"]["seats"][first]["in_front"]


def test_a_card_coming_to_rest_just_after_the_card_left_is_the_take_and_nothing_is_asked():
    """The pile read a moment after the card left the trick: no question shows, not even
    for a moment (it used to be raised at once and withdrawn 0.13 s later)."""
    session = Session(EventLog(":memory:"))
    _start(session, 4)
    view = _trick_at(session, 10.0)
    first, card = view["to_act"], view["prompt"]["options"][0]
    _at(session, "card_gone", 20.17, card=card, zone="trick")            # a hand still over the pile
    assert session.snapshot()["alerts"] == [] and session.next_deadline() == pytest.approx(21.17)
    _at(session, "card_unknown", 20.3, zone=f"seat{first + 1}", corners_mm=[], unknown=1)
    assert card in session.snapshot()["view"]["seats"][first]["in_front"]
    assert session._adapter.alerts == [] and session.next_deadline() is None   # never asked, nothing withdrawn


def test_a_take_truly_unseen_is_asked_once_the_window_has_passed_and_a_replay_asks_at_the_same_place(tmp_path):
    session = Session(EventLog(tmp_path / "log.db"))
    _start(session, 4)
    view = _trick_at(session, 10.0)
    first, card = view["to_act"], view["prompt"]["options"][0]
    _at(session, "card_gone", 20.17, card=card, zone="trick")
    session.submit(Observation("tick", 21.0, "timer"))                   # a tick before the deadline: nothing
    assert session.snapshot()["alerts"] == []
    assert DeadlineTimer(session, lambda: 21.2).check()                   # the window is over: a tick
    alert, = session.snapshot()["alerts"]
    assert alert["kind"] == "camera_take_question" and alert["expected"]["card"] == card
    assert "did not see who took it" in alert["message"]["en"] and "Qui l'a" in alert["message"]["fr"]
    assert session.next_deadline() is None
    assert all(card not in s["in_front"] for s in session.snapshot()["view"]["seats"])   # no guess
    before = session.snapshot()
    session.log.close()
    again = Session(EventLog(tmp_path / "log.db"))
    assert again.snapshot()["alerts"] == before["alerts"] and again.snapshot()["view"] == before["view"]
    again.resolve(alert["id"], f"seat{first + 1}")
    assert card in again.snapshot()["view"]["seats"][first]["in_front"]


def test_a_card_coming_to_rest_long_after_answers_nothing():
    session = Session(EventLog(":memory:"))
    _start(session, 4)
    view = _trick_at(session, 10.0)
    first, card = view["to_act"], view["prompt"]["options"][0]
    _at(session, "card_gone", 20.17, card=card, zone="trick")
    _at(session, "card_unknown", 22.0, zone=f"seat{first + 1}", corners_mm=[], unknown=1)   # 2 s later
    assert [a["kind"] for a in session.snapshot()["alerts"]] == ["camera_take_question"]   # asked, not answered
    assert card not in session.snapshot()["view"]["seats"][first]["in_front"]


def test_a_card_named_at_a_seat_during_a_take_that_is_not_from_the_trick_is_an_alert_once_no_card_left():
    session = Session(EventLog(":memory:"))
    _start(session, 4)
    view = _trick_at(session, 10.0)
    first = view["to_act"]
    _at(session, "card_seen", 20.1, card="purple-1", zone=f"seat{first + 1}", corners_mm=[])
    assert session.snapshot()["alerts"] == []                            # maybe a misread of the card being taken
    _at(session, "card_seen", 22.0, card="purple-1", zone="trick", corners_mm=[])   # the next fact, later
    kinds = [a["kind"] for a in session.snapshot()["alerts"]]
    assert kinds[0] == "camera_not_from_trick"
    assert "purple 1" in session.snapshot()["alerts"][0]["message"]["en"]
    assert "1 violet" in session.snapshot()["alerts"][0]["message"]["fr"]
    assert all("purple-1" not in s["in_front"] for s in session.snapshot()["view"]["seats"])


def test_a_tapped_unnamed_trick_card_leaving_for_a_seat_is_taken_by_it():
    session = Session(EventLog(":memory:"))
    _start(session, 3)
    _at(session, "card_seen", 10.0, card="blue-3", zone="trick", corners_mm=[])
    _at(session, "card_seen", 11.0, card="green-9", zone="trick", corners_mm=[])
    _at(session, "card_unknown", 12.0, zone="trick", corners_mm=[], unknown=5)
    alert, = session.snapshot()["alerts"]
    session.resolve(alert["id"], "yellow-12", source="dashboard")
    view = session.snapshot()["view"]
    assert view["phase"] == "first_take" and "yellow-12" in view["prompt"]["options"]
    first = view["to_act"]
    _at(session, "card_unknown", 20.1, zone=f"seat{first + 1}", corners_mm=[], unknown=6)
    _at(session, "card_unknown_gone", 20.17, zone="trick", unknown=5)
    assert session.snapshot()["alerts"] == []
    assert "yellow-12" in session.snapshot()["view"]["seats"][first]["in_front"]


def test_a_pile_misread_as_another_seats_card_during_a_take_is_the_seat_where_a_card_came_to_rest():
    session = Session(EventLog(":memory:"))
    _start(session, 4)
    view = _trick_at(session, 10.0)
    first, card = view["to_act"], view["prompt"]["options"][0]
    _at(session, "card_seen", 20.1, card=card, zone=f"seat{first + 1}", corners_mm=[])
    _at(session, "card_gone", 20.17, card=card, zone="trick")
    view = _trick_at(session, 30.0, ("blue-11", "green-1", "yellow-4", "purple-8"))
    taker, taken = view["to_act"], view["prompt"]["options"][0]
    other, theirs = next((s, c) for s, seat in enumerate(view["seats"]) if s != taker for c in seat["in_front"])
    # the taker's pile top is misread as a card lying in front of another seat
    _at(session, "card_seen", 40.1, card=theirs, zone=f"seat{taker + 1}", corners_mm=[])
    _at(session, "card_gone", 40.17, card=taken, zone="trick")
    assert session.snapshot()["alerts"] == []
    seats = session.snapshot()["view"]["seats"]
    assert taken in seats[taker]["in_front"] and theirs in seats[other]["in_front"]
    # out of a take (the trick is over) the same reading is said at once
    assert session.snapshot()["view"]["phase"] == "play"
    _at(session, "card_seen", 50.1, card=theirs, zone=f"seat{taker + 1}", corners_mm=[])
    alert, = session.snapshot()["alerts"]
    assert alert["kind"] == "camera_wrong_seat" and alert["expected"] == {"seat": other}
