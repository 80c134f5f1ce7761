"""Passe Éclair: how long from a card landing on the pile to a phone's page showing it, on
the wall clock, with the real parts in between.

A rendered camera over the pile (``tests/pile_camera.py``: calibration, recogniser,
stability filter, hands) films cards laid one after another by the players' arms. The frames
are then played back **as a live 30 fps camera**: frame ``i`` exists from ``t0 + i/30`` on,
and the reader always takes the newest one (a reader slower than the camera skips frames,
as picamera2's ``capture_array`` does). Observations go into a session on a SQLite file,
served by the real web server to Debian's chromium, whose page notes (``Date.now()``, same
machine clock) when the pile on the page grows.

    .venv/bin/python tests/bench/bench_pile_to_page.py --cards 12

Per card: landing (the capture time of its first frame on the pile) → observation in the
session → pile shown on the page, in ms; medians and the worst, with the frames the reader
skipped and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

FPS = 30.0
REACH_FRAMES = 5     # a hand takes ~0.2 s to reach the pile and as long to go back
STILL_FRAMES = 25    # then the card lies alone, a little under a second
CARDS = ("marlon-fabi", "fabi-rocce", "rocce-leon", "leon-fabi", "fabi-marlon", "marlon-rocce",
         "rocce-fabi", "fabi-leon", "leon-rocce", "rocce-marlon", "marlon-leon", "leon-marlon")


def film(model: Path, cards: int, seed: int) -> tuple[list, list[int]]:
    """The frames of a start card and ``cards`` cards laid by the two seats in turn, and each card's landing frame."""
    from table.log import EventLog
    from table.session import Session
    from tests.pile_camera import PileCamera

    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 2}, source="bench")
    cam = PileCamera(session, model, seed=seed)
    cam.record = []
    cam.frames(count=3)
    cam.lay("leon-marlon", arms=[0])
    landings = []
    for k, card in enumerate(CARDS[:cards]):    # the two players in turn (7 cards each in hand)
        arm = [k % 2]
        cam.frames(arm, 0.6, REACH_FRAMES)          # an arm reaching in, as long as a real one takes
        cam.pile.append(card)
        cam.frames(arm, 1.0, 1)
        landings.append(len(cam.record) - 1)
        cam.frames(arm, 0.6, REACH_FRAMES)          # and going back
        cam.frames(count=STILL_FRAMES)
    session.log.close()
    return cam.record, landings


def play(model: Path, frames: list, seed: int, session, on_frame) -> None:
    """Feed ``frames`` to a fresh watcher as a live camera: newest frame at each read."""
    from tests.pile_camera import PileCamera
    from vision.sources import Frame

    watcher = PileCamera(session, model, seed=seed).watcher     # the same camera pose: same calibration
    t0 = time.time() + 0.5
    last = -1
    while last < len(frames) - 1:
        now = time.time()
        if now < t0:
            time.sleep(t0 - now)
            continue
        i = min(len(frames) - 1, int((now - t0) * FPS))
        if i == last:
            time.sleep(t0 + (i + 1) / FPS - now)
            continue
        on_frame(i, t0 + i / FPS, last)
        last = i
        for obs in watcher.process(Frame(frames[i], t0 + i / FPS, i)):
            session.submit(obs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=12)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--model", default="/tmp/passetable-bench-model")
    args = ap.parse_args(argv)
    from hardware.sim_cards import rendered_model
    from table.log import EventLog
    from table.session import Session
    from tests.browser import chromium, log_in, pin_guard
    from web.app import create_app
    from web.server import DashboardServer

    model = rendered_model(Path(args.model), deck="passe-eclair")
    frames, landings = film(model, min(args.cards, len(CARDS)), args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        session = Session(EventLog(Path(tmp) / "bench.sqlite3"))
        server = DashboardServer(create_app(session, guard=pin_guard()), port=0, max_streams=4)
        server.start()
        captured: dict[int, float] = {}
        skipped = [0]
        seen: list[tuple[float, float]] = []   # (landed, wall time the session applied the card)

        def on_frame(i, t, last):
            captured[i] = t
            skipped[0] += max(0, i - last - 1)

        def on_obs(obs, _session):
            if obs.kind == "card_seen" and obs.data.get("zone") == "pile":
                seen.append((float(obs.data.get("landed", obs.t)), time.time()))

        session.subscribe(on_obs)
        try:
            session.start_game("passe-eclair", {"players": 2, "names": ["Léa", "Hugo"]}, source="dashboard")
            with chromium() as browser:
                page = browser.new_page(viewport={"width": 390, "height": 844})
                page.goto(server.url + "?lang=en")
                log_in(page)
                page.wait_for_selector("[data-testid=pe-pile]", state="attached")
                page.evaluate("""() => { window.__pile = [];
                    const count = () => {   // the pile's size in its label: the strip shows the last cards only
                        const strip = document.querySelector('[data-testid=pe-pile]');
                        const m = strip && strip.previousElementSibling.textContent.match(/\\((\\d+)\\)/);
                        return m ? parseInt(m[1]) : 0; };
                    let n = count();
                    new MutationObserver(() => {
                        const c = count(); if (c > n) { n = c; window.__pile.push([Date.now(), c]); } })
                        .observe(document.body, {childList: true, subtree: true}); }""")
                feeder = threading.Thread(target=play, args=(model, frames, args.seed, session, on_frame))
                feeder.start()
                while feeder.is_alive():
                    page.wait_for_timeout(200)
                feeder.join()
                page.wait_for_timeout(1500)
                shown = page.evaluate("() => window.__pile")
            view = session.snapshot()["view"]
            on_page = {"pile": view["pile_size"], "alerts": [a["kind"] for a in session.snapshot()["alerts"]]}
        finally:
            server.stop()
            session.log.close()
    # landing times on the wall clock: the capture time of each card's first frame on the pile
    t0 = next(t - i / FPS for i, t in captured.items())     # the camera's clock: frame i exists from t0 + i/30
    land_wall = [t0 + i / FPS for i in landings]
    obs_ms, page_ms, per_card = [], [], []
    shown_times = [t / 1000.0 for t, _ in shown]
    for lw in land_wall:
        after = [w for landed, w in seen if lw - 0.01 <= landed < lw + 0.5]   # first frame the reader saw it in
        if after:
            obs_ms.append((after[0] - lw) * 1000)
        later = [s for s in shown_times if after and s >= after[0] - 0.001]   # the page moves after the session
        if later:
            page_ms.append((later[0] - lw) * 1000)
        per_card.append([round((after[0] - lw) * 1000) if after else None,
                         round((later[0] - lw) * 1000) if later else None])
    report = {
        "cards": len(landings), "observed": len(obs_ms), "shown": len(page_ms),
        "landing_to_observation_ms": {"median": round(statistics.median(obs_ms), 1), "worst": round(max(obs_ms), 1)}
        if obs_ms else None,
        "landing_to_page_ms": {"median": round(statistics.median(page_ms), 1), "worst": round(max(page_ms), 1)}
        if page_ms else None,
        "per_card_ms": per_card, "session": on_page, "pile_facts": len(seen), "page_changes": len(shown),
        "frames": len(frames), "frames_skipped": skipped[0], "load": round(os.getloadavg()[0], 1),
        "cpu": os.cpu_count(),
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
