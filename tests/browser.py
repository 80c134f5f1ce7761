"""Debian's chromium through Playwright, one launch recipe for every browser test and bench
(``playwright install`` cannot download browsers here, so the executable is given by path)."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = os.environ.get("PASSETABLE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync", "--disable-quic"]


@contextmanager
def chromium():
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: run ./setup.sh (it installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


# The table's PIN in the browser tests: their services ask it from every address, as on a
# café's Wi-Fi, and the tests log in through the page's own lock button.
PIN = "2580"


def pin_guard():
    """The guard of a table that asks :data:`PIN` even from loopback (``--pin-everywhere``)."""
    from web.auth import TableGuard

    return TableGuard(PIN, pin_everywhere=True)


def log_in(page) -> None:
    """Log in as a scorekeeper the way a person does: the header's lock, the PIN, OK (nothing
    to do when this browser context is logged in already)."""
    page.wait_for_selector("#login:not([hidden])")  # shown once the page has asked who it is
    if page.get_attribute("#login", "data-state") == "in":
        return
    page.click("#login")
    page.fill("#pin-input", PIN)
    page.click("#pin-ok")
    page.wait_for_selector("#login[data-state=in]")
