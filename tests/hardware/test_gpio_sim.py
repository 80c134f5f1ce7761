"""Whole simulated games scored from MockFactory beam pins, with and without faults,
alerts resolved through the HTTP API, and the resolutions surviving a restart."""

from __future__ import annotations

from collections import Counter

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.gpio import attach_gpio
from hardware.gpio.sim_pins import GpioSensors
from hardware.sim.top_holes import HoleFaults
from hardware.sim_table import Faults, SimulatedTable
from table.log import EventLog
from table.session import Session
from table.timers import ManualClock
from web.app import create_app


class Rig:
    """A session, its GPIO on mock pins and a simulated table, all on virtual time."""

    def __init__(self, path, faults: str = "", seed: int = 1):
        self.clock = ManualClock()
        self.factory = MockFactory()
        self.session = Session(EventLog(path), clock=self.clock)
        self.gpio = attach_gpio(self.session, {}, pin_factory=self.factory, clock=self.clock, columns=7)
        self.gpio.start()
        sensors = GpioSensors(self.session, self.factory, self.gpio.pins, self.clock)
        self.table = SimulatedTable(self.session, sensors, pace=2.0, seed=seed, clock=self.clock, faults=faults)

    def play(self) -> dict:
        self.table.play_game()
        return self.session.snapshot()

    def truth(self) -> dict[str, int]:
        return self.table.mind.scores()   # what the players know happened

    def close(self) -> None:
        self.gpio.stop()
        self.factory.reset()
        self.session.log.close()


@pytest.fixture
def rig(tmp_path):
    made = []

    def make(faults: str = "", seed: int = 1) -> Rig:
        r = Rig(tmp_path / f"log-{len(made)}.sqlite3", faults, seed)
        made.append(r)
        return r

    yield make
    for r in made:
        r.close()


def _kinds(snap) -> Counter:
    return Counter(a["kind"] for a in snap["alerts"])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_game_is_scored_with_every_landing_confirmed(rig, seed):
    r = rig(seed=seed)
    snap = r.play()
    beams = snap["health"]["beams"]
    assert r.table.stats["landings"] > 0 and snap["view"]["over"]
    assert beams["confirmed"] == r.table.stats["landings"]
    assert beams["missing"] == beams["unexpected"] == beams["wrong_column"] == 0
    assert snap["alerts"] == [] and snap["view"]["scores"] == r.truth()
    assert snap["health"]["side_beams"]["seen"] == snap["health"]["side_beams"]["expected"]


def test_a_beam_that_misses_pegs_raises_alerts_and_never_a_wrong_score(rig):
    r = rig("miss@0.5", seed=3)
    snap = r.play()
    missed = r.table.stats["missed"]
    assert missed > 0 and _kinds(snap) == Counter({"missing_landing": missed})
    truth = r.truth()
    for colour in truth:   # nothing disputed is counted; everything disputed is pending
        assert snap["view"]["scores"][colour] + snap["view"]["pending"][colour] == truth[colour]
    for alert in snap["alerts"]:
        _resolve(r, alert["id"], "physics")
    after = r.session.snapshot()
    assert after["alerts"] == [] and after["view"]["scores"] == truth


def _resolve(r, alert_id, choice, details=None):
    client = create_app(r.session).test_client()
    reply = client.post(f"/api/alerts/{alert_id}/resolve", json={"choice": choice, "details": details or {}})
    assert reply.status_code == 200, reply.get_json()
    return reply


def test_a_chattering_beam_is_debounced_and_its_flickers_are_alerts(rig):
    r = rig("chatter=4", seed=3)
    snap = r.play()
    stats = r.table.stats
    assert stats["chattered"] > 0 and stats["flickers"] > 0
    # the bounces of every real peg were debounced: every landing confirmed, once
    assert snap["health"]["beams"]["confirmed"] == stats["landings"]
    assert _kinds(snap) == Counter({"unexpected_beam": stats["flickers"]})
    assert all(a["seen"]["column"] == 3 for a in snap["alerts"])
    assert snap["view"]["scores"] == r.truth() and snap["view"]["pending"] == {"red": 0, "blue": 0}
    beam = snap["health"]["gpio"]["beams"]["3"]
    assert beam["edges"] > 2 * beam["counted"]
    assert stats["flickers"] >= 3   # three disagreements: the health panel points at the beam
    assert any("Column 4" in w["en"] for w in snap["health"]["beam_warnings"])


def test_a_jammed_peg_raises_an_alert_showing_its_late_fall_and_confirm_settles_it(rig):
    r = rig("jam@0.5", seed=3)
    snap = r.play()
    jammed = r.table.stats["jammed"]
    assert jammed > 0 and r.table.stats["late_falls"] == jammed
    assert snap["health"]["beams"]["missing"] == jammed and snap["health"]["beams"]["late"] == jammed
    assert _kinds(snap) == Counter({"missing_landing": jammed})
    assert all(a["seen"]["late_by"] >= r.table.faults.jam_delay for a in snap["alerts"])
    truth = r.truth()
    assert all(snap["view"]["scores"][c] + snap["view"]["pending"][c] == truth[c] for c in truth)
    assert r.gpio.buzzer.sounded > 0    # the buzzer marked the missing landings
    for _ in snap["alerts"]:            # a player presses confirm once per alert
        r.factory.pin(r.gpio.pins.confirm).drive_low()
        r.clock.advance(0.1)
        r.factory.pin(r.gpio.pins.confirm).drive_high()
        r.clock.advance(0.1)
    after = r.session.snapshot()
    assert after["alerts"] == [] and after["view"]["scores"] == truth


def test_resolutions_through_the_api_survive_a_restart(rig, tmp_path):
    r = rig("miss@0.6", seed=2)
    snap = r.play()
    alerts = snap["alerts"]
    assert len(alerts) >= 2
    _resolve(r, alerts[0]["id"], "sensors")                      # it did not land: no points
    _resolve(r, alerts[1]["id"], "entered", {"column": 0})       # it landed over column 1
    for alert in alerts[2:]:
        _resolve(r, alert["id"], "physics")
    client = create_app(r.session).test_client()
    bad = client.post(f"/api/alerts/{alerts[0]['id']}/resolve", json={"choice": "physics"})
    assert bad.status_code == 404                               # already resolved
    before = r.session.snapshot()
    expected = dict(r.truth())            # the players' entries, not the physics, now count
    first, second = alerts[0]["expected"], alerts[1]["expected"]
    profile = r.session._adapter.g.profile
    if first["scored"]:
        expected[first["colour"]] -= first["points"]
    if second["scored"]:
        expected[second["colour"]] += profile.points(second["board"], 0) - second["points"]
    assert before["view"]["scores"] == expected and before["view"]["pending"] == {"red": 0, "blue": 0}
    r.gpio.stop()
    r.session.log.close()
    restarted = Session(EventLog(r.session.log.path))
    after = restarted.snapshot()
    assert after["alerts"] == [] and after["view"]["scores"] == before["view"]["scores"]
    assert restarted._adapter.g.to_dict() == r.session._adapter.g.to_dict()
    corrections = restarted._adapter.g.corrections
    assert corrections == r.session._adapter.g.corrections and len(corrections) == 2
    restarted.log.close()


def test_faults_are_parsed_with_clear_errors():
    faults = Faults.parse("miss=3, chatter=2@0.5, jam")
    assert [(f.kind, f.column, f.probability) for f in faults.items] == [
        ("miss", 2, 1.0), ("chatter", 1, 0.5), ("jam", None, 0.2)]
    assert faults.describe() == "miss=3@1, chatter=2@0.5, jam@0.2"
    for bad, phrase in [("smoke", "unknown fault"), ("miss=0", "numbered from 1"), ("jam@2", "between 0 and 1"),
                        ("miss=x", "kind[=column][@probability]")]:
        with pytest.raises(ValueError, match=phrase.replace("[", r"\[").replace("]", r"\]")):
            Faults.parse(bad)


def test_top_hole_faults_are_parsed_for_the_sensor_board():
    assert Faults.parse("hole_miss@0.1, hole_chatter=3@0.5, hole_overlap@0.2").hole_faults() == HoleFaults(
        miss=0.1, chatter=0.5, overlap=0.2, holes=None)
    assert Faults.parse("hole_miss=2@0.3, hole_chatter=5").hole_faults() == HoleFaults(
        miss=0.3, chatter=1.0, holes=frozenset({1, 4}))
    assert Faults.parse("miss@0.3").hole_faults() == HoleFaults()
    with pytest.raises(ValueError, match="hole_miss"):
        Faults.parse("hole_smoke")


def test_every_game_fact_comes_from_the_serial_board_or_the_gpio_pins(rig):
    r = rig(seed=2)
    snap = r.play()
    assert snap["view"]["over"] and snap["alerts"] == [] and snap["view"]["scores"] == r.truth()
    sources = {(o.kind, o.source) for o in r.session.log.read() if o.kind not in ("game_start", "tick")}
    assert {kind for kind, _ in sources} >= {"slide", "peg_drop", "beam"}
    assert {source for _, source in sources} == {"serial", "gpio"}
    drops = [o for o in r.session.log.read() if o.kind == "peg_drop"]
    assert len(drops) == len([a for a in r.table.mind.history if type(a).__name__ == "DropPeg"])
