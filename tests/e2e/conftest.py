"""Browser fixtures: Debian's chromium driven by Playwright (``playwright install``
cannot download browsers here, so the executable is given by path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import PIN
from tests.support import RunningService


@pytest.fixture
def page(browser):
    # Playwright evaluates the tests' wait_for_function strings with eval, which the pages'
    # Content-Security-Policy forbids; `strict_page` keeps the policy for the tests of it.
    context = browser.new_context(bypass_csp=True)
    pg = context.new_page()
    yield pg
    context.close()


@pytest.fixture
def strict_page(browser):
    """A page under the service's own Content-Security-Policy; ``csp_violations`` lists
    what the browser refused."""
    context = browser.new_context()
    pg = context.new_page()
    pg.csp_violations = []
    pg.on("console", lambda msg: pg.csp_violations.append(msg.text) if "Content Security Policy" in msg.text else None)
    yield pg
    context.close()


@pytest.fixture
def run_service(tmp_path):
    started: list[RunningService] = []

    def start(*args: str, data_dir: Path | None = None, trusted: bool = False) -> RunningService:
        """``trusted``: loopback needs no PIN (``passetable run --sim`` as the README starts it);
        otherwise the table asks :data:`~tests.browser.PIN` from every address, as on a LAN."""
        pin = [] if trusted or "--pin" in args else ["--pin", PIN, "--pin-everywhere"]
        service = RunningService([*args, *pin], data_dir or tmp_path / "data")
        started.append(service)
        return service

    yield start
    for s in started:
        s.stop()
