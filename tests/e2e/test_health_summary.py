"""The health panel tells everything in its summary line: every warning a part reports
(not only a lost link), the figures named in the page's language (the serial bridge's
drop counters too), and a log that cannot be written in red."""

from __future__ import annotations

import pytest

from table.log import EventLog, LogWriteError
from table.session import Session
from tests.browser import pin_guard
from web.app import create_app
from web.server import DashboardServer

pytestmark = pytest.mark.browser

CHATTER = {"en": "The beam of the column 3 chatters (40 edges for 2 pegs): clean or realign it.",
           "fr": "Le faisceau de la colonne 3 clignote (40 fronts pour 2 pions) : nettoyez-le ou réalignez-le."}


@pytest.fixture
def served(tmp_path):
    session = Session(EventLog(tmp_path / "log.sqlite3"))
    session.new_game("passe-murailles")
    serial = {"alive": True, "crc_errors": 2, "drops": 14, "recovered_drops": 3, "stale_drops": 1, "refused": 0}
    gpio = {"running": True, "warnings": []}
    session.health_sources["serial"] = lambda: dict(serial)
    session.health_sources["gpio"] = lambda: dict(gpio)
    server = DashboardServer(create_app(session, guard=pin_guard()), port=0, max_streams=4)
    server.start()
    yield session, server.url, gpio
    server.stop()
    session.log.close()


def test_every_warning_reaches_the_summary_and_figures_are_named(served, page):
    session, url, gpio = served
    page.goto(url + "?lang=fr")
    summary = page.locator("#health-panel summary")
    page.wait_for_function("() => document.querySelector('#health-panel summary').dataset.state === 'ok'")
    assert "Capteurs OK" in summary.inner_text()
    gpio["warnings"] = [CHATTER]
    session.touch()
    page.wait_for_function("() => document.querySelector('#health-panel summary').dataset.state === 'warn'")
    assert "1 avertissement" in summary.inner_text() and "Capteurs OK" not in summary.inner_text()
    page.click("#health-panel summary")
    health = page.locator("#health").inner_text()
    assert CHATTER["fr"] in health                                   # the warning itself, on top
    for words in ("Chutes rattrapées", "Chutes périmées", "Erreurs de somme de contrôle", "Liaison vivante"):
        assert words in health
    assert page.locator("#health tr[data-key=alive] td").inner_text() == "oui"


def test_a_log_that_cannot_be_written_is_red(served, page, monkeypatch):
    session, url, _ = served
    page.goto(url + "?lang=en")
    page.wait_for_function("() => document.querySelector('#health-panel summary').dataset.state === 'ok'")
    # the disk fills: every write fails, the server's keeper retrying too (a single failure
    # reported while the log could still be written was cleared by the keeper's next retry,
    # sometimes before the page was read: the test failed under load)
    full = LogWriteError("database or disk is full")

    def refuse(*_a, **_k):
        raise full

    monkeypatch.setattr(session.log, "probe", refuse)
    monkeypatch.setattr(session.log, "append", refuse)
    session._write_failed(full)  # as the session's own example does
    page.wait_for_function("() => document.querySelector('#health-panel summary').dataset.state === 'log'")
    summary = page.locator("#health-panel summary")
    assert "Log cannot be written" in summary.inner_text()
    assert "bad" in summary.get_attribute("class")
    assert page.locator(".alert-box[data-alert=log-unwritable]").count() == 1
    page.click("#health-panel summary")
    # the panel's rows come with the next live update: under load a moment after the summary's
    page.wait_for_function("() => document.querySelector('#health').innerText.includes('storage is full')")
    monkeypatch.undo()   # space freed: the keeper's next retry (every second) writes, and the page says so
    page.wait_for_function("() => document.querySelector('#health-panel summary').dataset.state === 'ok'")
    assert page.locator(".alert-box[data-alert=log-unwritable]").count() == 0
