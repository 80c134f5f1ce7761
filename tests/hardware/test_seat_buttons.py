"""PtiPassPass seat buttons on gpiozero's MockFactory pins into a real Session on a SQLite
file: Doublon!/Menteur!/OK and the announced colour become rule-checked steps, the
earlier edge wins between two callers, an impossible press is an alert (never dropped)
and a person's impossible press is refused."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.gpio import GpioConfigError
from hardware.gpio.seat_buttons import attach_seat_buttons, seat_pins
from table.errors import Refused
from table.log import EventLog
from table.observations import Observation
from table.ptipasspass.presses import BUTTON, TAP
from table.session import Session
from table.timers import ManualClock

PINS = [[5, 6], [13, 19], [26, 16], [20, 21]]


@pytest.fixture
def table(tmp_path, factory):
    clock = ManualClock(1000.0)
    session = Session(EventLog(tmp_path / "log.sqlite3"), clock=clock)
    session.start_game("ptipasspass", {"players": 4, "first": 0})
    buttons = attach_seat_buttons(session, {"seats": PINS}, pin_factory=factory, clock=clock)
    yield session, factory, clock
    buttons.stop()
    session.log.close()


def press(factory, clock, seat, role, hold=0.1):
    pin = PINS[seat][0 if role == "call" else 1]
    factory.pin(pin).drive_low()
    clock.advance(hold)
    factory.pin(pin).drive_high()
    clock.advance(0.1)


def name_cup(session, cell=(1, 1)):
    session.enter("ptipasspass.action", {"action": {"action": "Place", "seat": 0, "colour": None,
                                                    "cup": list(cell)}})


def view(session):
    return session.snapshot()["view"]


def test_pins_come_from_the_settings_and_are_checked():
    assert seat_pins({"seats": [[5], [6, 7]]}) == [(5,), (6, 7)]
    assert len(seat_pins({}, players=4)) == 4
    for bad in ([[5, 6, 7]], [[40]], "5", [[5], [5]]):
        with pytest.raises(GpioConfigError):
            seat_pins({"seats": bad})


def test_every_ok_then_colour_presses_then_every_ok_places_the_token(table):
    session, factory, clock = table
    name_cup(session)
    for seat in (1, 2, 3):
        press(factory, clock, seat, "ok")
    assert view(session)["phase"] == "announce"
    press(factory, clock, 0, "ok")
    press(factory, clock, 0, "ok")            # two presses: green
    press(factory, clock, 1, "ok")            # the colour is over: the window opens with this OK
    v = view(session)
    assert v["phase"] == "menteur_window" and v["turn"]["announced"] == "green"
    press(factory, clock, 2, "ok")
    press(factory, clock, 3, "ok")
    v = view(session)
    cup = next(c for c in v["cups"] if c["cell"] == [1, 1])
    assert v["phase"] == "name_cup" and v["active"] == 1 and cup["count"] == 1 and cup["claimed"] == ["green"]
    facts = [o for o in session.log.read() if o.kind == BUTTON]
    assert len(facts) == 8 and {o.source for o in facts} == {"gpio"}


def test_a_call_button_is_doublon_then_menteur_by_the_moment(table):
    session, factory, clock = table
    name_cup(session)
    press(factory, clock, 2, "call")
    v = view(session)
    assert v["phase"] == "reveal_outcome" and v["awaiting"]["kind"] == "doublon" and v["turn"]["caller"] == 2


def test_two_calls_a_few_ms_apart_the_earlier_edge_wins_even_when_reported_second(table):
    session, factory, clock = table
    name_cup(session)
    for seat in (1, 2, 3):
        press(factory, clock, seat, "ok")
    press(factory, clock, 0, "ok")
    press(factory, clock, 1, "ok")          # blue announced; menteur window
    t = clock()
    # seat 3's callback runs first, but seat 2's edge was 4 ms earlier
    session.submit(Observation(kind=BUTTON, t=t + 0.004, source="gpio", data={"seat": 3, "button": "call"}))
    session.submit(Observation(kind=BUTTON, t=t, source="gpio", data={"seat": 2, "button": "call"}))
    v = view(session)
    assert v["turn"]["caller"] == 2 and v["awaiting"]["kind"] == "menteur"
    assert not session.snapshot()["alerts"]
    replayed = Session(EventLog(session.log.path))      # a restart judges the same way from the log
    assert replayed.snapshot()["view"]["turn"]["caller"] == 2
    replayed.log.close()
    # in edge order on the pins: the first press is the one heard
    session.enter("ptipasspass.action", {"action": {"action": "TokenShown", "colour": "blue"}})
    assert view(session)["hands"][2]["size"] == 4      # the truth was told: the accuser took it


def test_pins_pressed_within_a_few_ms_in_edge_order(table):
    session, factory, clock = table
    name_cup(session)
    factory.pin(PINS[3][0]).drive_low()
    clock.advance(0.003)
    factory.pin(PINS[1][0]).drive_low()
    assert view(session)["turn"]["caller"] == 3
    assert any("not heard" in line["text"]["en"] for line in session.snapshot()["feed"])


def test_an_impossible_press_is_an_alert_and_a_persons_is_refused(table):
    session, factory, clock = table
    press(factory, clock, 1, "call")          # no cup named yet
    alerts = session.snapshot()["alerts"]
    assert [a["kind"] for a in alerts] == ["button_not_now"]
    assert "names a cup" in alerts[0]["message"]["en"] and "désigne" in alerts[0]["message"]["fr"]
    name_cup(session)
    press(factory, clock, 0, "call")          # the active player cannot challenge
    assert len(session.snapshot()["alerts"]) == 2 and view(session)["phase"] == "doublon_window"
    with pytest.raises(Refused) as refused:
        session.enter(TAP, {"seat": 0, "button": "call"})
    assert "active player" in refused.value.en


def test_a_phone_press_counts_like_a_button(table):
    session, factory, clock = table
    name_cup(session)
    session.enter(TAP, {"seat": 1, "button": "call"})
    assert view(session)["turn"]["caller"] == 1


def test_a_real_table_gets_the_seat_buttons_of_its_settings(tmp_path, monkeypatch):
    from gpiozero import Device

    from hardware.gpio.seat_buttons import sensors
    from table import games
    from table.config import Config

    assert games.get("ptipasspass").sensors == "hardware.gpio.seat_buttons:sensors"
    factory = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", factory)   # the pins a Pi would open
    session = Session(EventLog(tmp_path / "log.sqlite3"))
    session.start_game("ptipasspass", {"players": 3})
    cfg = Config(gpio={"seats": [[5, 6], [13, 19], [26, 16]]})
    [part] = sensors(session, cfg, {"players": 3})
    part.start()
    factory.pin(13).drive_low()
    part.stop()
    facts = [o for o in session.log.read() if o.kind == BUTTON]
    assert [(o.source, o.data) for o in facts] == [("gpio", {"seat": 1, "button": "call"})]
    factory.reset()
    session.log.close()
