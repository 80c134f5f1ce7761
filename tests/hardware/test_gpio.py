"""The GPIO devices on gpiozero's MockFactory pins: pin map checks, debouncing from
edge times, buttons, turn lights and buzzer, all on virtual time."""

from __future__ import annotations

import time

import pytest

from hardware.gpio import EdgeDebouncer, GpioConfigError, PinMap, attach_gpio
from hardware.gpio.devices import Beam
from table.log import EventLog
from table.observations import Observation
from table.session import Session
from table.timers import ManualClock


@pytest.fixture
def clock():
    return ManualClock(1000.0)


@pytest.fixture
def table(tmp_path, factory, clock):
    session = Session(EventLog(tmp_path / "log.sqlite3"), clock=clock)
    session.new_game("passe-murailles")
    gpio = attach_gpio(session, {}, pin_factory=factory, clock=clock, columns=7)
    gpio.start()
    yield session, gpio
    gpio.stop()
    session.log.close()


# ---------------------------------------------------------------- pin map
def test_defaults_follow_the_frame_width_and_name_each_pin():
    pins = PinMap.from_config({}, columns=5)
    assert len(pins.beams) == 5 and pins.role(pins.buzzer) == "buzzer"
    assert PinMap.from_config({"window_ms": 800}).game_options() == {"beam_window_ms": 800.0}


@pytest.mark.parametrize("raw, columns, phrase", [
    ({"buzzer": 23}, 7, "GPIO23 is used twice, by confirm and by buzzer"),
    ({"beams": [5, 6, 5]}, 3, "GPIO5 is used twice"),
    ({"light_red": 40}, 7, "out of range"),
    ({"undo": "GPIO24"}, 7, "a pin is a BCM number"),
    ({"beams": [5, 6]}, 7, "lists 2 pins but the frame has 7 columns"),
    ({"buzer": 18}, 7, "unknown key(s) buzer"),
    ({"debounce_ms": 0}, 7, "positive number"),
    ({}, 12, "list the 12 beam pins yourself"),
])
def test_bad_pin_settings_are_clear_errors(raw, columns, phrase):
    with pytest.raises(GpioConfigError) as err:
        PinMap.from_config(raw, columns=columns)
    assert phrase in str(err.value) and "[gpio]" in str(err.value)


# ---------------------------------------------------------------- debouncing
def test_debouncer_counts_a_passage_once_however_it_bounces():
    d = EdgeDebouncer(quiet=0.01)
    edges = [(True, 0.0), (False, 0.0005), (True, 0.001), (False, 0.009),   # one peg, bouncing
             (True, 0.040), (False, 0.048),                                 # the next peg
             (True, 0.0485), (False, 0.049)]                                # a flicker right after
    counted = [d.edge(b, t) for b, t in edges]
    assert counted == [True, False, False, False, True, False, False, False]
    assert d.counted == 2 and d.edges == 8


def test_a_beam_on_a_mock_pin_reports_each_peg_with_its_edge_time(factory, clock):
    seen = []
    beam = Beam(5, name=3, on_peg=lambda name, t: seen.append((name, t)), clock=clock, pin_factory=factory)
    pin = factory.pin(5)
    pin.drive_low()                   # broken (receiver pulls low)
    for _ in range(3):                # chatter
        clock.advance(0.0005); pin.drive_high(); clock.advance(0.0005); pin.drive_low()
    clock.advance(0.008); pin.drive_high()
    clock.advance(0.5); pin.drive_low(); clock.advance(0.008); pin.drive_high()
    assert seen == [(3, 1000.0), (3, pytest.approx(1000.511))]
    assert beam.health()["edges"] == 10 and beam.health()["pin"] == "GPIO5"
    beam.close()


# ---------------------------------------------------------------- through the session
def test_beam_edges_become_observations_with_the_edge_time(table, factory, clock):
    session, gpio = table
    clock.advance(1.0)
    factory.pin(gpio.pins.beams[4]).drive_low()
    clock.advance(0.008)
    factory.pin(gpio.pins.beams[4]).drive_high()
    factory.pin(gpio.pins.side_left).drive_low()
    [beam, spill] = list(session.log.read())[-2:]
    assert (beam.kind, beam.data, beam.t, beam.source) == ("beam", {"column": 4}, 1001.0, "gpio")
    assert (spill.kind, spill.data) == ("side_spill", {"side": "left"})


def test_turn_lights_follow_the_turn(table, factory):
    session, gpio = table
    red, blue = factory.pin(gpio.pins.light_red), factory.pin(gpio.pins.light_blue)
    assert (red.state, blue.state) == (1, 0)
    session.submit(Observation.now("board", source="test", position=3))   # red moves the board
    assert (red.state, blue.state) == (0, 1) and gpio.lights.lit == "blue"


def test_the_buzzer_sounds_for_an_illegal_move_and_the_confirm_button_does_nothing_then(table, factory, clock):
    session, gpio = table
    session.submit(Observation.now("slide", source="test", slide=2, offset=2))  # two notches: illegal
    assert session.snapshot()["alerts"] and gpio.buzzer.sounded == 1
    buzzer = factory.pin(gpio.pins.buzzer)
    deadline = time.monotonic() + 3
    while not any(s.state for s in buzzer.states) and time.monotonic() < deadline:
        time.sleep(0.01)              # the beep runs in gpiozero's background thread
    assert any(s.state for s in buzzer.states)
    seq = session.log.last_seq()
    _press(factory, gpio.pins.confirm, clock)       # a put-back alert has no "physics"
    assert session.log.last_seq() == seq and gpio.buttons.presses["confirm"] == 1


def _press(factory, pin, clock):
    factory.pin(pin).drive_low()
    clock.advance(0.1)
    factory.pin(pin).drive_high()
    clock.advance(0.1)


def test_confirm_accepts_the_physics_and_undo_takes_it_back(table, factory, clock):
    session, gpio = table
    column = session._adapter.g.legal_actions()[0].column
    session.submit(Observation(kind="peg_drop", t=clock(), source="test", data={"column": column}))
    clock.advance(1.0)
    session.submit(Observation(kind="beam", t=clock(), source="test", data={"column": 6}))  # nothing fell there
    clock.advance(1.0)                # the timer ticks as virtual time passes
    [alert] = session.snapshot()["alerts"]
    assert alert["kind"] == "unexpected_beam" and gpio.timer.ticks == 1
    _press(factory, gpio.pins.confirm, clock)
    assert session.snapshot()["alerts"] == []
    _press(factory, gpio.pins.undo, clock)
    assert [a["id"] for a in session.snapshot()["alerts"]] == [alert["id"]]
    assert gpio.health()["buttons"] == {"confirm": 1, "undo": 1}


def test_stop_releases_the_pins_for_the_next_attach(tmp_path, factory, clock):
    session = Session(EventLog(tmp_path / "log.sqlite3"), clock=clock)
    first = attach_gpio(session, {}, pin_factory=factory, clock=clock)
    first.start()
    first.stop()
    second = attach_gpio(session, {}, pin_factory=factory, clock=clock)   # no GPIOPinInUse
    assert session.health()["gpio"]["running"] is False
    second.start()
    assert session.health()["gpio"]["running"] is True
    second.stop()


def test_the_buzzer_sounded_from_many_threads_at_once_never_fails(factory):
    import threading

    from hardware.gpio.devices import Buzzer

    buzzer = Buzzer(22, on_time=0.001, off_time=0.001, pin_factory=factory)
    errors: list[BaseException] = []

    def alert() -> None:
        for _ in range(50):
            try:
                buzzer.sound(1)
            except BaseException as exc:  # what a caller would see
                errors.append(exc)

    threads = [threading.Thread(target=alert) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    buzzer.close()
    assert errors == [] and buzzer.sounded == 400
