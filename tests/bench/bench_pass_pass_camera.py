"""Pass Pass scored from the camera alone, over simulated rounds rendered through the real
vision pipeline (``hardware/sim_cards.py``): the share of rounds with no tap, the taps,
questions and alerts per round, and every score the page showed against the truth.

    .venv/bin/python tests/bench/bench_pass_pass_camera.py --rounds 200 --minutes 10
    .venv/bin/python tests/bench/bench_pass_pass_camera.py --faults crooked@0.1,hand@0.2,burst@0.1

The enrolled model is made once from rendered enrolment photos (``--model DIR``, kept).
Rounds stop at ``--rounds`` or after ``--minutes`` of wall time, whichever comes first;
the report says how many were played. Times are medians; wall time is checked against
the process's CPU time (a second clock).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hardware.sim_cards import CameraPassPassTable
from table.log import EventLog
from table.session import Session

ENROL_SEED = 900_000   # the photos of tests/vision/conftest.py and eval_vision.py


def ensure_model(folder: Path) -> Path:
    import cv2

    from vision.decks import deck_card_ids
    from vision.enrol import enrol_directory
    from vision.synth.scene import card_photo

    if (folder / "model").is_dir():
        return folder / "model"
    photos = folder / "photos"
    photos.mkdir(parents=True, exist_ok=True)
    for i, card in enumerate(deck_card_ids("pass-pass")):
        cv2.imwrite(str(photos / f"{card}.png"), card_photo(card, ENROL_SEED + i))
    enrol_directory("pass-pass", photos, folder / "model")
    return folder / "model"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--faults", default="")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--model", default="/tmp/passetable-bench-model")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    model = ensure_model(Path(args.model))
    session = Session(EventLog(":memory:"))
    table = CameraPassPassTable(session, model, seed=args.seed, faults=args.faults)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    per_round: list[float] = []
    deadline = wall0 + args.minutes * 60
    while len(table.figures) < args.rounds and time.perf_counter() < deadline:
        t0 = time.perf_counter()
        fig = table.play_round()
        per_round.append(time.perf_counter() - t0)
        print(f"round {len(table.figures)}: taps {fig.taps} questions {fig.questions} alerts {fig.alerts} "
              f"wrong {len(fig.wrong)} behind {fig.behind}/{fig.steps} ({per_round[-1]:.1f} s)", flush=True)
        for w in fig.wrong[:3]:
            print("   WRONG", w, flush=True)
    figs = table.figures
    n = len(figs)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    report = {
        "faults": args.faults or "none",
        "rounds": n,
        "no_tap_share": sum(1 for f in figs if f.taps == 0) / n if n else None,
        "taps_per_round": sum(f.taps for f in figs) / n if n else None,
        "questions_per_round": sum(f.questions for f in figs) / n if n else None,
        "alerts_per_round": sum(f.alerts for f in figs) / n if n else None,
        "taps_per_question_or_alert": sum(f.taps for f in figs) / max(1, sum(f.questions + f.alerts for f in figs)),
        "wrong_shown": sum(len(f.wrong) for f in figs),
        "steps_behind_share": sum(f.behind for f in figs) / max(1, sum(f.steps for f in figs)),
        "frames": table.camera.frames,
        "median_round_s": statistics.median(per_round) if per_round else None,
        "ms_per_frame_wall": 1000 * wall / max(1, table.camera.frames),
        "ms_per_frame_cpu": 1000 * cpu / max(1, table.camera.frames),
        "machine": f"{platform.machine()} {platform.processor() or ''} {os.cpu_count()} cores, "
                   f"Python {platform.python_version()}",
    }
    print(json.dumps(report) if args.json else "\n".join(f"{k}: {v}" for k, v in report.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
