"""Shared fixtures: a session on a real SQLite file, a running dashboard server, the decks
enrolled from rendered photos."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from table.log import EventLog
from table.session import Session
from tests.browser import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture
def log_path(tmp_path):
    return tmp_path / "passetable.sqlite3"


@pytest.fixture
def session(log_path):
    s = Session(EventLog(log_path))
    yield s
    s.log.close()


# One Playwright for the whole run: a second sync_playwright() in the same process fails
# ("Sync API inside the asyncio loop"), so the browser tests of every folder share this one.
@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run ./setup.sh (it installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def rendered_decks(tmp_path_factory):
    """``copy(deck)``: a fresh copy of ``deck``'s model folder, enrolled once for the whole run from
    rendered close-up photos (:func:`hardware.sim_cards.rendered_model`, seed 900 000; many folders of
    tests read cards with it, and enrolling a deck takes seconds).

        >>> model_dir = rendered_decks("passe-eclair")    # doctest: +SKIP
    """
    from hardware.sim_cards import rendered_model

    made = tmp_path_factory.mktemp("rendered-decks")

    def copy(deck: str) -> Path:
        pristine = rendered_model(made, deck=deck)   # made on first use, then found there
        return Path(shutil.copytree(pristine, tmp_path_factory.mktemp(f"{deck}-model") / "model"))

    return copy
