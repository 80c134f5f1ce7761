#!/usr/bin/env python
"""Benchmark, run by hand (not collected by pytest): what one live update costs on each
game page, drawn the new way (``PT.redraw``: the game renders into a fresh tree, the keyed
patcher moves only what changed) and the old way (the renderer rebuilds the live view).

    .venv/bin/python tests/e2e/bench_redraw.py

Each game runs as ``passetable run --sim`` for a few seconds; the page then draws its
current state 300 times each way in Debian's chromium (1366×768). Two sources: the
browser's ``performance.now()`` around each draw (median and 90th percentile) and the
wall time of the whole loop seen from Python, divided by 300.
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
DRAWS = 300
LOOP = """(mode) => {
  const view = document.getElementById('table-view'), times = [];
  for (let i = 0; i < DRAWS; i++) {
    const s = JSON.parse(JSON.stringify(PT.state)), t0 = performance.now();
    if (mode === 'patch') { PT.state = s; PT.redraw(); } else { PT.renderers[s.game](s, view); }
    view.getBoundingClientRect();  // layout included
    times.push(performance.now() - t0);
  }
  return times;
}""".replace("DRAWS", str(DRAWS))


def serve(game: str, data: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "table.cli", "run", "--sim", "--game", game, "--port", "0",
                             "--data", data], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return proc, re.search(r"(http://\S+/)", proc.stdout.readline()).group(1)


def main() -> None:
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        for game in ("passe-murailles", "pass-pass", "passe-eclair", "ptipasspass"):
            proc, url = serve(game, f"{tmp}/{game}")
            try:
                context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
                page = context.new_page()
                page.goto(url + "?lang=fr")
                page.wait_for_timeout(3000)
                result: dict = {"nodes": page.evaluate("document.querySelectorAll('#table-view *').length")}
                for mode in ("patch", "rebuild"):
                    start = time.perf_counter()
                    times = sorted(page.evaluate(LOOP, mode))
                    wall = (time.perf_counter() - start) * 1000 / DRAWS
                    result[mode] = {"median_ms": round(statistics.median(times), 2),
                                    "p90_ms": round(times[int(DRAWS * 0.9)], 2), "wall_ms_per_draw": round(wall, 2)}
                print(game, json.dumps(result), flush=True)
                context.close()
            finally:
                proc.terminate()
                proc.wait(10)
        browser.close()


if __name__ == "__main__":
    main()
