"""Browser fixtures: Debian's chromium driven by Playwright (``playwright install``
cannot download browsers here, so the executable is given by path)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest


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


class RunningService:
    """``passetable run`` in a child process, as a person starts it."""

    def __init__(self, args: list[str], data_dir: Path):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "table.cli", "run", "--port", "0", "--data", str(data_dir), *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        first = self.proc.stdout.readline()
        match = re.search(r"(http://\S+/)", first)
        if not match:
            self.stop()
            raise RuntimeError(f"service did not print its address: {first!r} {self.proc.stderr.read()}")
        self.first_line = first
        self.url = match.group(1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def run_service(tmp_path):
    started: list[RunningService] = []

    def start(*args: str, data_dir: Path | None = None) -> RunningService:
        service = RunningService(list(args), data_dir or tmp_path / "data")
        started.append(service)
        return service

    yield start
    for s in started:
        s.stop()
