"""Beams against physics: the pairing window, the alerts, pending points, resolutions,
and the engine corrections they make (all on observation times, no clock, no pins)."""

from __future__ import annotations

import pytest

from table.log import EventLog
from table.observations import Observation
from table.passe_murailles import DropPeg, MoveSlide, PhysicsError, load_profile, new_game, profile_dict
from table.passe_murailles.landing import Expected, LandingMatcher, Seen
from table.session import Session

# 3 columns; slide 1 has holes over 0 and 2, slide 2 over 1, slides 3-5 over 2, slide 6
# over 1. A peg dropped over column 2 rests on slide 2; slide 2 one notch right lets it
# fall to slide 5; slide 6 one notch right lets it through onto the board (3 points at
# board position 1).
OPEN = [[0, 2], [1], [2], [2], [2], [1]]


def _profile(**kw):
    return profile_dict(3, OPEN, ranges=(-1, 1), board_start=1, **kw)


def _obs(kind, t, **data):
    return Observation(kind=kind, t=t, source="test", data=data)


def _game_with_landing(tmp_path):
    """Red has dropped red-1 over column 2: it rests in slide 1 (slide 2 has no hole there)."""
    session = Session(EventLog(tmp_path / "log.sqlite3"), clock=lambda: 100.0)
    session.new_game("passe-murailles", {"profile": _profile(), "beam_window_ms": 500})
    session.submit(_obs("peg_drop", 100.0, column=2))
    return session


# ---------------------------------------------------------------- the matcher
def test_matcher_pairs_within_the_window_either_order():
    m = LandingMatcher(window=0.5)
    assert m.expect(Expected("red-1", "red", 3, 2, True, t=10.0)) is None
    assert m.see(Seen(3, 10.4)).kind == "confirmed"
    assert m.see(Seen(1, 20.0)) is None                     # the beam came first
    assert m.expect(Expected("blue-1", "blue", 1, 1, True, t=20.3)).kind == "confirmed"
    assert m.next_deadline() is None


def test_matcher_judges_only_after_the_window_closed():
    m = LandingMatcher(window=0.5)
    m.expect(Expected("red-1", "red", 3, 2, True, t=10.0))
    m.expect(Expected("red-2", "red", 0, 1, True, t=20.0))
    m.see(Seen(4, 20.2))
    assert m.next_deadline() == 10.5
    assert m.expire(10.5) == []                              # still inside
    [missing] = m.expire(10.6)
    assert missing.kind == "missing" and missing.expected.peg == "red-1"
    [wrong] = m.expire(30.0)
    assert wrong.kind == "wrong_column" and (wrong.expected.column, wrong.seen.column) == (0, 4)
    m.see(Seen(2, 40.0))
    assert [x.kind for x in m.expire(41.0)] == ["unexpected"]


def test_matcher_refuses_a_useless_window():
    with pytest.raises(ValueError, match="positive"):
        LandingMatcher(window=0)


# ---------------------------------------------------------------- the engine corrections
def test_correct_moves_removes_or_adds_a_landing_and_survives_save_and_pop():
    g = new_game(_profile())
    g.apply(DropPeg(2))
    g.apply(MoveSlide(2, 1))       # red-1 falls to slide 5
    g.apply(MoveSlide(6, 1))       # slide 6's hole goes over column 2: red-1 lands
    [landing] = g.landings
    assert landing.column == 2 and g.scores()["red"] == 3
    g.correct("red-1", 0, points=1)
    assert g.scores()["red"] == 1 and g.frame.peg("red-1").column == 0
    g.correct("red-1", None)
    assert g.scores()["red"] == 0 and g.frame.peg("red-1").where == "table"
    saved = g.to_dict()
    assert type(g).from_dict(saved).to_dict() == saved
    g.apply(MoveSlide(5, 1))
    g.pop()                        # corrections before the popped action stay
    assert g.frame.peg("red-1").where == "table" and g.scores()["red"] == 0


def test_correct_takes_a_peg_out_of_the_frame_and_refuses_nonsense():
    g = new_game(_profile())
    g.apply(DropPeg(2))            # red-1 rests in the frame
    assert g.frame.peg("red-1").where == "frame"
    g.correct("red-1", 2, points=5)
    assert g.scores()["red"] == 5 and g.frame.peg_at(1, 2) is None
    with pytest.raises(PhysicsError, match="in hand"):
        g.correct("blue-1", 1)
    with pytest.raises(PhysicsError, match="outside the window"):
        g.correct("red-1", 9)


# ---------------------------------------------------------------- in the session
@pytest.fixture
def landed(tmp_path):
    session = _game_with_landing(tmp_path)
    session.submit(_obs("slide", 100.5, slide=2, offset=1))  # blue: red-1 falls to slide 5
    session.submit(_obs("slide", 101.0, slide=6, offset=1))  # red: red-1 lands over column 2
    [landing] = session._adapter.g.landings
    assert landing.points == 3 and landing.scored
    return session


def _kinds(session):
    return [a["kind"] for a in session.snapshot()["alerts"]]


def test_a_beam_in_the_window_confirms_the_landing(landed):
    landed.submit(_obs("beam", 101.3, column=2))
    landed.submit(_obs("tick", 105.0))
    snap = landed.snapshot()
    assert snap["alerts"] == [] and snap["view"]["scores"]["red"] == 3
    assert snap["health"]["beams"]["confirmed"] == 1


def test_no_beam_raises_an_alert_and_holds_the_points_back(landed):
    assert landed._adapter.next_deadline() == pytest.approx(101.5)
    landed.submit(_obs("tick", 101.6))
    [alert] = landed.snapshot()["alerts"]
    assert alert["kind"] == "missing_landing" and alert["expected"]["column"] == 2 and alert["seen"] is None
    assert "column 3" in alert["message"]["en"] and "colonne 3" in alert["message"]["fr"]
    view = landed.snapshot()["view"]
    assert view["scores"]["red"] == 0 and view["pending"]["red"] == 3
    assert {c["id"] for c in alert["choices"]} == {"physics", "sensors", "entered"}


@pytest.mark.parametrize("choice, details, red", [
    ("physics", {}, 3), ("sensors", {}, 0), ("entered", {"column": 0}, 1), ("entered", {"column": None}, 0),
])
def test_resolving_a_missing_landing(landed, choice, details, red):
    landed.submit(_obs("tick", 101.6))
    [alert] = landed.snapshot()["alerts"]
    landed.submit(_obs("resolve", 102.0, alert=alert["id"], choice=choice, **details))
    snap = landed.snapshot()
    assert snap["alerts"] == [] and snap["view"]["scores"]["red"] == red and snap["view"]["pending"]["red"] == 0
    assert landed._adapter.g.scores()["red"] == red   # the engine itself was corrected


def test_a_bad_entry_keeps_the_alert_open(landed):
    landed.submit(_obs("tick", 101.6))
    [alert] = landed.snapshot()["alerts"]
    landed.submit(_obs("resolve", 102.0, alert=alert["id"], choice="entered", column=17))
    assert _kinds(landed) == ["missing_landing"]
    assert "outside the frame" in landed._adapter.feed[-1]["text"]["en"]


def test_a_late_beam_is_shown_on_the_missing_landing_for_a_person_to_confirm(landed):
    landed.submit(_obs("tick", 101.6))
    assert _kinds(landed) == ["missing_landing"]
    landed.submit(_obs("beam", 103.2, column=2))       # the jammed peg falls at last
    landed.submit(_obs("tick", 110.0))
    [alert] = landed.snapshot()["alerts"]               # no second alert for that beam
    assert alert["seen"]["late_by"] == pytest.approx(2.2) and "late" in alert["message"]["en"]
    assert "retard" in alert["message"]["fr"] and landed.snapshot()["view"]["pending"]["red"] == 3
    landed.submit(_obs("resolve", 111.0, alert=alert["id"], choice="physics"))
    snap = landed.snapshot()
    assert snap["alerts"] == [] and snap["view"]["scores"]["red"] == 3 and snap["health"]["beams"]["late"] == 1


def test_a_beam_in_another_column_is_a_wrong_column_alert(landed):
    landed.submit(_obs("beam", 101.2, column=0))
    landed.submit(_obs("tick", 102.0))
    [alert] = landed.snapshot()["alerts"]
    assert alert["kind"] == "wrong_column" and alert["expected"]["column"] == 2 and alert["seen"]["column"] == 0
    landed.submit(_obs("resolve", 103.0, alert=alert["id"], choice="sensors"))
    assert landed._adapter.g.scores()["red"] == 1 and landed.snapshot()["view"]["scores"]["red"] == 1


def test_a_beam_nobody_expected_offers_the_peg_standing_over_it(tmp_path):
    session = _game_with_landing(tmp_path)               # red-1 rests over column 2
    session.submit(_obs("beam", 101.0, column=2))
    session.submit(_obs("tick", 102.0))
    [alert] = session.snapshot()["alerts"]
    assert alert["kind"] == "unexpected_beam" and alert["seen"]["candidate"] == "red-1"
    assert session.snapshot()["view"]["scores"]["red"] == 0   # nothing counted yet
    session.submit(_obs("resolve", 103.0, alert=alert["id"], choice="sensors"))
    assert session._adapter.g.frame.peg("red-1").where == "board"
    assert session._adapter.g.scores()["red"] == 3           # section under column 2, board at 1


def test_repeated_disagreements_on_a_column_show_in_health(tmp_path):
    session = _game_with_landing(tmp_path)
    for n in range(3):
        session.submit(_obs("beam", 110.0 + 10 * n, column=1))
    session.submit(_obs("tick", 200.0))
    health = session.health()
    assert health["beams"]["disagreements"] == {"2": 3}
    [warning] = health["beam_warnings"]
    assert "Column 2" in warning["en"] and "Colonne 2" in warning["fr"]


def test_resolutions_and_ticks_replay_to_the_same_state_and_can_be_undone(landed, log_path, tmp_path):
    landed.submit(_obs("tick", 101.6))
    [alert] = landed.snapshot()["alerts"]
    resolve = landed.submit(_obs("resolve", 102.0, alert=alert["id"], choice="sensors"))
    assert landed._adapter.g.scores()["red"] == 0
    replayed = Session(EventLog(tmp_path / "log.sqlite3"))
    assert replayed._adapter.g.to_dict() == landed._adapter.g.to_dict()
    assert replayed.snapshot()["alerts"] == []
    landed.submit(_obs("undo", 103.0, seq=resolve.seq))      # the resolution is taken back
    assert _kinds(landed) == ["missing_landing"] and landed._adapter.g.scores()["red"] == 3


def test_a_peg_of_the_wrong_colour_is_not_played(tmp_path):
    session = Session(EventLog(tmp_path / "log.sqlite3"), clock=lambda: 100.0)
    session.new_game("passe-murailles", {"profile": _profile()})
    session.submit(_obs("peg_drop", 100.0, column=2, colour="blue"))   # red's turn
    assert _kinds(session) == ["bad_drop"] and session._adapter.g.history == []
    assert "blue" in session.snapshot()["alerts"][0]["message"]["en"]


def test_the_window_comes_from_the_game_options(tmp_path):
    session = Session(EventLog(tmp_path / "log.sqlite3"), clock=lambda: 100.0)
    session.new_game("passe-murailles", {"profile": _profile(), "beam_window_ms": 2000})
    session.submit(_obs("peg_drop", 100.0, column=2))
    session.submit(_obs("slide", 100.5, slide=2, offset=1))
    session.submit(_obs("slide", 101.0, slide=6, offset=1))
    assert session._adapter.next_deadline() == pytest.approx(103.0)
    assert load_profile(_profile()).points(1, 2) == 3
