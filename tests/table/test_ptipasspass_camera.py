"""PtiPassPass camera facts (cup touched, lifted, back, token held) into a real Session:
each becomes the engine step the moment allows, or an alert saying what was expected."""

from __future__ import annotations

import pytest

from table.log import EventLog
from table.observations import Observation
from table.session import Session

ACTION = "ptipasspass.action"


@pytest.fixture
def session(tmp_path):
    s = Session(EventLog(tmp_path / "log.sqlite3"))
    s.start_game("ptipasspass", {"players": 3, "first": 0})
    yield s
    s.log.close()


def fact(session, kind, **data):
    session.submit(Observation.now(kind, source="camera", **data))


def typed(session, **action):
    session.enter(ACTION, {"action": action})


def view(session):
    return session.snapshot()["view"]


def cup(v, cell):
    return next(c for c in v["cups"] if c["cell"] == list(cell))


def kinds(session):
    return [a["kind"] for a in session.snapshot()["alerts"]]


def place_token(session, seat, cell, colour):
    """One place turn with no call, typed (the camera's part is what follows)."""
    typed(session, action="Place", seat=seat, colour=None, cup=list(cell))
    typed(session, action="Pass")
    typed(session, action="AnnounceColour", seat=seat, colour=colour)
    typed(session, action="Pass")


def test_a_hand_on_a_cup_names_it_once_it_leaves_and_a_doublon_lift_is_its_outcome(session):
    fact(session, "cup_touched", cell=[2, 1])
    assert view(session)["phase"] == "name_cup"           # not while the hand may still move on
    fact(session, "cup_released", cell=[2, 1])
    assert view(session)["turn"]["cup"] == [2, 1]
    fact(session, "cup_touched", cell=[0, 0])            # a hand moving on: the cup is named already
    fact(session, "cup_released", cell=[0, 0])
    assert view(session)["turn"]["cup"] == [2, 1] and kinds(session) == []
    typed(session, action="CallDoublon", seat=2)
    fact(session, "cup_lifted", cell=[2, 1], colours=[])
    v = view(session)
    assert v["phase"] == "name_cup" and v["active"] == 1 and v["hands"][2]["size"] == 4


def test_an_arm_over_several_cups_asks_which_with_one_tap(session):
    for cell in ([2, 1], [1, 1], [0, 1]):                 # reaching across the grid
        fact(session, "cup_touched", cell=cell)
    for cell in ([2, 1], [1, 1], [0, 1]):
        fact(session, "cup_released", cell=cell)
    [alert] = session.snapshot()["alerts"]
    assert alert["kind"] == "camera_cup_question" and view(session)["phase"] == "name_cup"
    assert [c["id"] for c in alert["choices"]] == ["2-1", "1-1", "0-1"]
    assert "which cup" in alert["message"]["en"] and "quel gobelet" in alert["message"]["fr"]
    session.resolve(alert["id"], "0-1")
    assert view(session)["turn"]["cup"] == [0, 1] and session.snapshot()["alerts"] == []


def test_a_lift_that_contradicts_what_went_in_is_an_alert_saying_what_was_expected(session):
    place_token(session, 0, (1, 1), "blue")
    fact(session, "cup_touched", cell=[1, 1])
    fact(session, "cup_released", cell=[1, 1])
    typed(session, action="CallDoublon", seat=0)
    fact(session, "cup_lifted", cell=[1, 1], colours=[])   # one token went in; the camera saw none
    alerts = session.snapshot()["alerts"]
    assert [a["kind"] for a in alerts] == ["camera_contradiction"]
    assert alerts[0]["expected"] == {"cell": [1, 1], "count": 1, "known": []}
    assert "should hold 1 token" in alerts[0]["message"]["en"] and "devrait contenir 1" in alerts[0]["message"]["fr"]
    assert view(session)["phase"] == "reveal_outcome"        # still waiting for the cup
    fact(session, "cup_back", cell=[1, 1])
    fact(session, "cup_lifted", cell=[1, 1], colours=["orange"])   # lifted again, seen right
    assert view(session)["hands"][1]["size"] == 4 and view(session)["active"] == 2   # took it, kept his own


def test_a_cup_lifted_on_the_wrong_cell_or_at_the_wrong_moment_is_an_alert(session):
    fact(session, "cup_lifted", cell=[0, 2], colours=[])
    assert kinds(session) == ["camera_unexpected_lift"]
    fact(session, "cup_touched", cell=[1, 0])
    fact(session, "cup_released", cell=[1, 0])
    typed(session, action="CallDoublon", seat=1)
    fact(session, "cup_lifted", cell=[1, 1], colours=[])
    assert kinds(session)[-1] == "camera_wrong_cup" and view(session)["phase"] == "reveal_outcome"


def empty_hands(session):
    """Three place turns each, no call, blue/green/orange in three columns' rows."""
    colours = ["blue", "green", "orange"]
    for turn in range(9):
        seat = turn % 3
        place_token(session, seat, (turn // 3, seat), colours[turn // 3])


def test_two_neighbouring_cells_left_bare_and_covered_again_are_a_swap(session):
    empty_hands(session)
    assert view(session)["phase"] == "swap_or_reveal"
    fact(session, "cup_lifted", cell=[0, 0], colours=[])
    fact(session, "cup_lifted", cell=[0, 1], colours=[])
    fact(session, "cup_back", cell=[0, 0])
    assert view(session)["turn"]["swapped"] is None          # not before both are down
    fact(session, "cup_back", cell=[0, 1])
    assert view(session)["turn"]["swapped"] == [[0, 0], [0, 1]]


def test_three_cups_up_in_a_line_are_the_reveal_and_win_the_round(session):
    empty_hands(session)
    for cell, colour in (((0, 0), "blue"), ((1, 0), "green"), ((2, 0), "orange")):
        fact(session, "cup_lifted", cell=list(cell), colours=[colour])
    v = view(session)
    assert v["victory_tokens"] == [1, 0, 0] and v["phase"] == "round_over" and kinds(session) == []


def test_cups_lifted_but_not_in_a_line_are_an_alert_and_nothing_is_scored(session):
    empty_hands(session)
    fact(session, "cup_lifted", cell=[0, 0], colours=["blue"])
    fact(session, "cup_back", cell=[0, 0])
    assert kinds(session) == ["camera_lift_not_reveal"] and view(session)["turn"]["swapped"] is None


def test_the_token_held_up_on_menteur_is_the_show(session):
    typed(session, action="Place", seat=0, colour=None, cup=[1, 1])
    typed(session, action="Pass")
    typed(session, action="AnnounceColour", seat=0, colour="green")
    typed(session, action="CallMenteur", seat=1)
    fact(session, "token_held", cell=[1, 1], colour="blue")   # a lie: the liar keeps it
    v = view(session)
    assert v["hands"][0]["size"] == 3 and v["hands"][0]["blue"] == 1 and v["active"] == 1
