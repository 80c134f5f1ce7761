"""Passe-Murailles: the top-hole sensor's drops checked by the adapter — extra drops
(a flickering sensor), drops recovered from a count after a lost frame, drops the sensor
missed (revealed by a beam or by the camera), and the camera's colour for whose turn."""

from __future__ import annotations

from table.log import EventLog
from table.observations import Observation
from table.passe_murailles import DropPeg, MoveSlide
from table.passe_murailles.adapter import PasseMuraillesAdapter
from table.passe_murailles.fusion import CAMERA_WAIT_S, EXTRA_DROP_S
from table.session import Session

T0 = 1000.0


def _game() -> PasseMuraillesAdapter:
    return PasseMuraillesAdapter(Observation("game_start", t=T0, source="test", data={"game": "passe-murailles"}))


class Feed:
    """Observations with increasing sequence numbers, as the session gives them."""

    def __init__(self, pm: PasseMuraillesAdapter):
        self.pm = pm
        self.seq = 1

    def __call__(self, kind: str, t: float, source: str = "serial", **data) -> None:
        self.seq += 1
        self.pm.observe(Observation(kind, t=T0 + t, source=source, data=data, seq=self.seq))

    def resolve(self, t: float, alert, choice: str, **details) -> None:
        self("resolve", t, source="dashboard", alert=alert.id, choice=choice, **details)


def _kinds(pm) -> list[str]:
    return [a.kind for a in pm.open_alerts()]


def test_a_second_drop_in_a_hole_right_after_a_peg_fell_through_is_an_alert_not_a_move():
    pm = _game()
    feed = Feed(pm)
    feed("peg_drop", 1.0, column=0, mcu_ms=1000, count=1)     # red-1 falls on into slide 2
    assert pm.g.frame.peg_at(1, 0) is None and pm.g.current_player == "blue"
    feed("peg_drop", 1.0 + EXTRA_DROP_S / 2, column=0, mcu_ms=1400, count=2)   # a flicker, 0.4 s later
    assert _kinds(pm) == ["extra_drop"] and len(pm.g.history) == 1
    alert = pm.open_alerts()[0]
    assert {c["id"] for c in alert.choices} == {"no_drop", "dropped"}
    feed.resolve(3.0, alert, "no_drop")
    assert pm.open_alerts() == [] and len(pm.g.history) == 1 and pm.g.current_player == "blue"
    feed("peg_drop", 5.0, column=0, mcu_ms=5000, count=3)      # blue's real drop, seconds later: played
    assert pm.open_alerts() == [] and pm.g.history == [DropPeg(0), DropPeg(0)]
    assert pm.health()["top_holes"]["extra_alerts"] == 1


def test_a_second_peg_confirmed_by_a_person_is_played():
    pm = _game()
    feed = Feed(pm)
    feed("peg_drop", 1.0, column=0, mcu_ms=1000, count=1)
    feed("peg_drop", 1.6, column=0, mcu_ms=1600, count=2)
    feed.resolve(2.0, pm.open_alerts()[0], "dropped")
    assert pm.open_alerts() == [] and pm.g.history == [DropPeg(0), DropPeg(0)]
    assert pm.g.frame.peg(pm.g.frame.peg_at(1, 0)).colour == "blue"


def test_a_recovered_drop_is_played_when_nothing_came_between_and_asked_about_when_a_move_did():
    pm = _game()
    feed = Feed(pm)
    feed("peg_drop", 1.0, column=2, mcu_ms=1500, count=1, recovered=True, after_mcu_ms=900)
    assert pm.open_alerts() == [] and pm.g.history == [DropPeg(2)]
    feed("slide", 2.0, slide=3, offset=1, mcu_ms=2000)           # blue's move, reported at board time 2000
    # red's drop whose frame was lost after board time 1900: the slide move may have come after it
    feed("peg_drop", 2.5, column=4, mcu_ms=2500, count=1, recovered=True, after_mcu_ms=1900)
    assert _kinds(pm) == ["late_drop"] and len(pm.g.history) == 2
    feed.resolve(3.0, pm.open_alerts()[0], "dropped")
    assert pm.open_alerts() == [] and pm.g.history[-1] == DropPeg(4)
    top = pm.health()["top_holes"]
    assert (top["drops"], top["recovered"], top["late_alerts"]) == (2, 2, 1)


def test_a_beam_no_landing_explains_offers_the_drop_the_sensor_missed():
    pm = _game()
    feed = Feed(pm)
    for t, slide, offset in ((1.0, 2, 1), (3.0, 4, -1), (5.0, 5, 1)):
        feed("slide", t, slide=slide, offset=offset, mcu_ms=int(t * 1000))
    assert pm.g.current_player == "blue"
    feed("beam", 7.0, source="gpio", column=4)                   # blue's peg fell straight through, unseen above
    feed("tick", 7.6, source="timer")
    [alert] = pm.open_alerts()
    assert alert.kind == "unexpected_beam" and "dropped" in [c["id"] for c in alert.choices]
    feed.resolve(8.0, alert, "dropped")
    assert pm.open_alerts() == [] and pm.g.history[-1] == DropPeg(4)
    feed("tick", 9.0, source="timer")                            # the beam already seen confirmed the landing
    assert pm.open_alerts() == [] and pm.beams["missing"] == 0
    assert pm.health()["top_holes"]["missed_by_beam"] == 1


def test_the_camera_confirms_a_resting_drop_and_catches_the_wrong_colour():
    pm = _game()
    feed = Feed(pm)
    feed("peg_drop", 1.0, column=2, mcu_ms=1000, count=1)       # red-1 stays in the top hole
    feed("peg_seen", 1.1, source="camera", column=2, colour="red")
    assert pm.open_alerts() == [] and pm.health()["top_holes"]["camera_confirmed"] == 1
    feed("peg_drop", 3.0, column=4, mcu_ms=3000, count=1)       # blue's turn, but the camera sees red
    feed("peg_seen", 3.1, source="camera", column=4, colour="red")
    [alert] = pm.open_alerts()
    assert alert.kind == "wrong_colour" and "not counted" in alert.message["en"]
    assert pm.g.history == [DropPeg(2)] and pm.g.current_player == "blue"       # taken back
    assert {c["id"] for c in alert.choices} == {"removed", "camera_wrong", "missed_before", "missed_earlier"}
    feed.resolve(4.0, alert, "camera_wrong")                    # the camera misread it: the drop stands
    assert pm.open_alerts() == [] and pm.g.history == [DropPeg(2), DropPeg(4)]


def test_a_colour_only_the_camera_saw_becomes_a_missed_drop_alert_after_its_wait():
    pm = _game()
    feed = Feed(pm)
    feed("peg_seen", 1.0, source="camera", column=2, colour="red")
    assert pm.open_alerts() == [] and pm.next_deadline() == T0 + 1.0 + CAMERA_WAIT_S
    feed("tick", 1.0 + CAMERA_WAIT_S + 0.1, source="timer")
    [alert] = pm.open_alerts()
    assert alert.kind == "missed_drop" and "sensor reported no drop" in alert.message["en"]
    assert alert.message["fr"] and pm.next_deadline() is None
    feed.resolve(3.0, alert, "dropped")
    assert pm.open_alerts() == [] and pm.g.history == [DropPeg(2)]


def test_the_camera_seeing_first_and_the_sensor_a_moment_later_is_one_confirmed_drop():
    pm = _game()
    feed = Feed(pm)
    feed("peg_seen", 1.0, source="camera", column=2, colour="red")
    feed("peg_drop", 1.2, column=2, mcu_ms=1200, count=1)
    feed("tick", 3.0, source="timer")
    assert pm.open_alerts() == [] and pm.g.history == [DropPeg(2)]
    assert pm.health()["top_holes"]["camera_confirmed"] == 1


def test_a_drop_missed_earlier_is_entered_from_a_wrong_colour_alert():
    pm = _game()
    feed = Feed(pm)
    # red dropped into hole 1 unseen (its peg fell on into slide 2); blue then drops into hole 3
    feed("peg_drop", 3.0, column=2, mcu_ms=3000, count=1)
    feed("peg_seen", 3.1, source="camera", column=2, colour="blue")
    [alert] = pm.open_alerts()
    assert alert.kind == "wrong_colour" and pm.g.history == []
    feed.resolve(4.0, alert, "missed_before")                    # no column said: cannot be applied
    assert pm.open_alerts() == [alert]
    feed.resolve(4.5, alert, "missed_before", column=0)
    assert pm.open_alerts() == [] and pm.g.history == [DropPeg(0), DropPeg(2)]
    assert pm.g.frame.peg(pm.g.frame.peg_at(1, 2)).colour == "blue"


def test_a_known_peg_carried_by_the_top_slide_is_not_news_to_the_camera():
    pm = _game()
    feed = Feed(pm)
    feed("peg_drop", 1.0, column=2, mcu_ms=1000, count=1)
    feed("peg_seen", 1.1, source="camera", column=2, colour="red")
    feed("slide", 3.0, slide=1, offset=-1, mcu_ms=3000)         # blue moves the top slide: red-1 now over column 2
    assert pm.g.history[-1] == MoveSlide(1, -1) and pm.g.frame.peg_at(1, 1) is not None
    feed("peg_seen", 3.1, source="camera", column=1, colour="red")
    feed("tick", 5.0, source="timer")
    assert pm.open_alerts() == []


def test_drop_alerts_and_their_resolutions_replay_the_same_after_a_restart(tmp_path):
    path = tmp_path / "log.sqlite3"
    session = Session(EventLog(path))
    session.start_game("passe-murailles", t=T0)
    session.submit(Observation("peg_drop", t=T0 + 1.0, source="serial", data={"column": 0, "mcu_ms": 1000,
                                                                              "count": 1}))
    session.submit(Observation("peg_drop", t=T0 + 1.5, source="serial", data={"column": 0, "mcu_ms": 1500,
                                                                              "count": 2}))
    [alert] = session.snapshot()["alerts"]
    session.resolve(alert["id"], "no_drop", t=T0 + 2.0)
    before = session._adapter.g.to_dict()
    session.log.close()
    again = Session(EventLog(path))
    assert again.snapshot()["alerts"] == [] and again._adapter.g.to_dict() == before
    assert [a.kind for a in again._adapter.alerts] == ["extra_drop"]
    again.log.close()


def test_a_sensor_wrong_again_and_again_is_named_on_the_health_panel():
    pm = _game()
    feed = Feed(pm)
    for n in range(3):                       # the camera sees a peg the sensor of hole 1 never reports
        t = 1.0 + 4 * n
        feed("peg_seen", t, source="camera", column=0, colour="red")
        feed("tick", t + CAMERA_WAIT_S + 0.1, source="timer")
        feed.resolve(t + 2.0, pm.open_alerts()[0], "no_drop")
    health = pm.health()
    assert health["top_holes"]["camera_only"] == 3
    [warning] = health["hole_warnings"]
    assert "Top hole 1" in warning["en"] and "Trou du haut 1" in warning["fr"]
