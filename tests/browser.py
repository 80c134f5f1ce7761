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
