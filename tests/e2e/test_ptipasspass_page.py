"""The PtiPassPass scorekeeper page in a real browser: a table enters turns by clicks.

The dashboard runs in-process on a real SQLite log; the page is Debian's chromium."""

from __future__ import annotations

import pytest

from table.log import EventLog
from table.observations import Observation
from table.ptipasspass.adapter import ACTION
from table.session import Session
from tests.browser import log_in, pin_guard
from web.app import create_app
from web.server import DashboardServer

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy"]


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """One dashboard for the module (stopping waitress takes seconds); each test starts
    its own game on it."""
    session = Session(EventLog(tmp_path_factory.mktemp("ppp") / "ppp.sqlite3"))
    server = DashboardServer(create_app(session, guard=pin_guard()), port=0, max_streams=8)
    server.start()
    yield session, server.url
    server.stop()
    session.log.close()


@pytest.fixture
def table(service):
    session, url = service
    session.new_game("passe-murailles")  # no PtiPassPass game left over from another test
    return session, url


def _start(session, **options):
    session.new_game("ptipasspass", {"players": 3, "names": NAMES, "first": 0, **options})


def _open(page, url, lang="en"):
    page.goto(f"{url}?lang={lang}")
    log_in(page)
    page.wait_for_selector("[data-testid=cup-0-0]")


def _attr(page, testid, name):
    return page.locator(f"[data-testid={testid}]").get_attribute(name)


def _wait_attr(page, testid, name, value):
    page.wait_for_function(
        "([t, n, v]) => { const e = document.querySelector(`[data-testid=${t}]`); "
        "return e && e.getAttribute(n) === v; }",
        arg=[testid, name, value])


def _feed(page):
    return page.locator("#feed").inner_text()


def _enter(session, **action):
    """An entry made directly on the session (to reach a later moment of the game fast)."""
    session.submit(Observation.now(ACTION, source="test", action=action))


def test_one_place_turn_is_entered_by_clicks(table, page):
    session, url = table
    _start(session)
    _open(page, url)
    assert "Ann" in page.locator("[data-testid=ppp-turn]").inner_text()
    page.click("[data-testid=cup-1-1]")
    page.click("[data-testid=no-call]")
    page.click("[data-testid=announce-green]")
    page.click("[data-testid=no-call]")
    _wait_attr(page, "cup-1-1", "data-count", "1")
    assert _attr(page, "player-0", "data-hand") == "2"
    assert "Bob" in page.locator("[data-testid=ppp-turn]").inner_text()
    assert "Ann announces green." in _feed(page)
    assert "claimed: green" in page.locator("[data-testid=cup-1-1]").inner_text()
    assert session._adapter.g.active == 1 and session._adapter.g.cup_knowledge[(1, 1)].count == 1


def test_doublon_and_menteur_with_their_outcomes(table, page):
    session, url = table
    _start(session)
    _open(page, url)
    # Ann names an empty cup; Bob calls Doublon!; the cup is lifted and shows nothing.
    page.click("[data-testid=cup-0-0]")
    page.click("[data-testid=doublon-1]")
    page.wait_for_selector("[data-testid=confirm-0-0]")
    page.click("[data-testid=confirm-0-0]")
    _wait_attr(page, "player-1", "data-hand", "4")
    assert _attr(page, "player-0", "data-hand") == "2"
    assert "Bob takes Ann's token" in _feed(page)
    # Bob names a cup, announces blue, Cy calls Menteur!, Bob shows orange: he lied.
    page.click("[data-testid=cup-0-1]")
    page.click("[data-testid=no-call]")
    page.click("[data-testid=announce-blue]")
    page.click("[data-testid=menteur-2]")
    page.click("[data-testid=shown-orange]")
    page.wait_for_function("() => document.querySelector('#feed').innerText.includes('lied')")
    assert _attr(page, "player-1", "data-hand") == "4"
    assert "Cy" in page.locator("[data-testid=ppp-turn]").inner_text()


def test_swap_reveal_and_round_win_in_french(table, page):
    session, url = table
    _start(session)
    cells = [(r, c) for r in range(3) for c in range(3)]
    for turn, cell in enumerate(cells):  # every player drops all three tokens, one per cup
        seat = turn % 3
        _enter(session, action="Place", seat=seat, colour=None, cup=list(cell))
        _enter(session, action="Pass")
        _enter(session, action="AnnounceColour", seat=seat, colour="blue")
        _enter(session, action="Pass")
    assert session._adapter.g.phase == "swap_or_reveal"
    _open(page, url, lang="fr")
    page.click("[data-testid=cup-0-0]")
    page.click("[data-testid=cup-1-1]")
    assert page.locator("[data-testid=swap]").is_disabled()  # diagonal cups do not touch
    assert page.locator("[data-testid=reveal]").is_disabled()
    page.click("[data-testid=cup-1-1]")
    page.click("[data-testid=cup-0-1]")
    page.click("[data-testid=swap]")
    page.wait_for_function("() => document.querySelector('#feed').innerText.includes('intervertit')")
    for cell in ("0-0", "0-1", "0-2"):
        page.click(f"[data-testid=cup-{cell}]")
    page.click("[data-testid=reveal]")
    for cell, colour in (("0-0", "blue"), ("0-1", "green"), ("0-2", "orange")):
        page.click(f"[data-testid=more-{cell}-{colour}]")
        page.click(f"[data-testid=confirm-{cell}]")
        page.wait_for_selector(f"[data-testid=entry-{cell}]", state="detached")
    page.wait_for_selector("[data-testid=ppp-banner]")
    assert page.locator("[data-testid=ppp-banner]").inner_text() == (
        "Ann remporte la manche 1 ! Bob commence la suivante.")
    assert _attr(page, "player-0", "data-victory") == "1"
    page.click("[data-testid=next-round]")
    page.wait_for_function("() => document.querySelector('[data-testid=ppp-round]').innerText === 'Manche 2'")
    assert "Bob" in page.locator("[data-testid=ppp-turn]").inner_text()


def test_undo_takes_back_the_last_entry(table, page):
    session, url = table
    _start(session)
    _open(page, url)
    page.click("[data-testid=cup-2-2]")
    page.wait_for_selector("[data-testid=no-call]")
    page.click("[data-testid=undo]")
    page.wait_for_selector("[data-testid=no-call]", state="detached")
    assert session._adapter.g.phase == "name_cup" and session._adapter.entries == []


def test_new_game_form_sets_players_names_and_first(table, page):
    session, url = table
    page.goto(f"{url}?lang=en")
    log_in(page)
    page.select_option("#game-select", "ptipasspass")
    page.select_option("#setup-players", "5")
    page.fill("#setup-names-0", "Zoé")
    page.fill("#setup-names-3", "Dan")
    page.select_option("#setup-first", "3")
    page.click("#setup-start")
    page.click("#confirm-yes")                        # a game is on: asked first, then 10 s to cancel
    page.wait_for_selector("#grace")
    page.wait_for_selector("[data-testid=player-4]")
    assert "Dan" in page.locator("[data-testid=ppp-turn]").inner_text()
    assert page.locator("[data-testid=player-0]").inner_text().startswith("Zoé")
    assert page.locator("[data-testid=player-1]").inner_text().startswith("Player 2")
    # the form keeps what was typed across live updates, and refuses twin names
    page.click("#new-game")                           # the form folded once the game started
    page.fill("#setup-names-1", "zoé")
    page.click("#setup-start")
    page.wait_for_selector("#status .alert-box")
    assert "same name" in page.locator("#status").inner_text()
    assert session._adapter.names[0] == "Zoé" and session._adapter.g.players == 5


def test_seat_button_presses_show_on_the_page_until_they_make_a_step(table, page):
    """Real gpiozero pins (MockFactory) behind the seats' buttons: the page shows who has
    pressed OK and how many colour presses the active player made, then the step they make."""
    import time

    from gpiozero.pins.mock import MockFactory

    from hardware.gpio.seat_buttons import DEFAULT_SEAT_PINS, SeatButtonAttachment

    session, url = table
    factory = MockFactory()
    buttons = SeatButtonAttachment(session, [tuple(p) for p in DEFAULT_SEAT_PINS[:3]], pin_factory=factory)

    def press(seat):   # a finger on the seat's OK button, as long as a person holds it
        pin = factory.pin(DEFAULT_SEAT_PINS[seat][1])
        pin.drive_low()
        time.sleep(0.1)
        pin.drive_high()
        time.sleep(0.1)

    try:
        _start(session)
        _open(page, url)
        page.click("[data-testid=cup-1-1]")             # Ann's hand on a cup (a tap here)
        page.wait_for_selector("[data-testid=no-call]")  # the tap is in: the Doublon! window is open
        press(1)
        page.wait_for_selector("[data-testid=ppp-oks]")
        assert "Bob" in page.locator("[data-testid=ppp-oks]").inner_text()
        press(2)                                        # every other seat: no Doublon!, the colour next
        page.wait_for_selector("[data-testid=announce-green]")
        press(0)
        press(0)                                        # two presses: green
        page.wait_for_selector("[data-testid=ppp-colour-presses]")
        assert "2 (green)" in page.locator("[data-testid=ppp-colour-presses]").inner_text()
        press(1)                                        # the next seat's OK takes the colour...
        press(2)                                        # ...and no Menteur!: the token goes in
        _wait_attr(page, "cup-1-1", "data-count", "1")
        assert "Ann announces green." in _feed(page)
        assert "Bob" in page.locator("[data-testid=ppp-turn]").inner_text()
        assert not page.locator("[data-testid=ppp-colour-presses]").count()
        sources = {o.source for o in session.log.read() if o.kind == "seat_button"}
        assert sources == {"gpio"}
    finally:
        buttons.stop()
        factory.reset()
