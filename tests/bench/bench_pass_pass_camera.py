"""Pass Pass scored from the camera alone, over simulated rounds rendered through the real
vision pipeline (``hardware/sim_cards.py``): the share of rounds with no tap, the taps,
questions and alerts per round, and every score the page showed against the truth.

    .venv/bin/python tests/bench/bench_pass_pass_camera.py --rounds 200 --minutes 10 --procs 2
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
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hardware.sim_cards import CameraPassPassTable
from table.bench import machine
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


def _play(job: tuple) -> dict:
    """One process's rounds (its own seed, table and session): figures, frames and times."""
    model, seed, faults, rounds, deadline, render_every, tag = job
    session = Session(EventLog(":memory:"))
    table = CameraPassPassTable(session, model, seed=seed, faults=faults)
    table.camera.render_every = render_every
    wall0, cpu0 = time.perf_counter(), time.process_time()
    per_round, frames, loads, withdrawn = [], [], [], set()
    while len(table.figures) < rounds and time.time() < deadline:
        t0, f0 = time.perf_counter(), table.camera.frames
        fig = table.play_round()
        per_round.append(time.perf_counter() - t0)
        frames.append(table.camera.frames - f0)
        loads.append(os.getloadavg()[0])
        adapter = session._adapter
        if adapter is not None:   # questions the camera withdrew by itself (a later sighting answered them)
            withdrawn |= {(session.game_seq, a.id, a.kind) for a in adapter.alerts if a.resolved in ("seen", "gone")}
        print(f"[{tag}] round {len(table.figures)}: taps {fig.taps} questions {fig.questions} alerts {fig.alerts} "
              f"wrong {len(fig.wrong)} behind {fig.behind}/{fig.steps} frames {frames[-1]} "
              f"({per_round[-1]:.1f} s, load {loads[-1]:.1f})", flush=True)
        for w in fig.wrong[:3]:
            print(f"[{tag}]   WRONG", w, flush=True)
    return {"figs": [vars(f) | {"wrong": list(f.wrong), "refused": list(f.refused)} for f in table.figures],
            "per_round": per_round,
            "frames": frames, "loads": loads, "wall": time.perf_counter() - wall0,
            "cpu": time.process_time() - cpu0, "withdrawn": len(withdrawn),
            "withdrawn_kinds": sorted(kind for _, _, kind in withdrawn)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--faults", default="")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--procs", type=int, default=1, help="processes, each playing its share of the rounds")
    ap.add_argument("--render-every", type=int, default=6,
                    help="frames shown from one rendering of an unchanged scene (0: one rendering per scene)")
    ap.add_argument("--model", default="/tmp/passetable-bench-model")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    model = ensure_model(Path(args.model))
    deadline = time.time() + args.minutes * 60
    share = [args.rounds // args.procs + (1 if i < args.rounds % args.procs else 0) for i in range(args.procs)]
    jobs = [(model, args.seed + 1000 * i, args.faults, share[i], deadline, args.render_every, f"p{i}")
            for i in range(args.procs)]
    wall0 = time.perf_counter()
    load0 = os.getloadavg()
    if args.procs == 1:
        parts = [_play(jobs[0])]
    else:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(args.procs) as pool:
            parts = pool.map(_play, jobs)
    wall = time.perf_counter() - wall0
    figs = [f for p in parts for f in p["figs"]]
    per_round = [x for p in parts for x in p["per_round"]]
    frames = [x for p in parts for x in p["frames"]]
    loads = [x for p in parts for x in p["loads"]]
    n = len(figs)
    nframes = sum(frames)
    report = {
        "faults": args.faults or "none",
        "rounds": n,
        "procs": args.procs,
        "no_tap_share": sum(1 for f in figs if f["taps"] == 0) / n if n else None,
        "rounds_with_no_tap": sum(1 for f in figs if f["taps"] == 0),
        "taps_per_round": sum(f["taps"] for f in figs) / n if n else None,
        "questions_per_round": sum(f["questions"] for f in figs) / n if n else None,
        "alerts_per_round": sum(f["alerts"] for f in figs) / n if n else None,
        "taps_per_question_or_alert": sum(f["taps"] for f in figs) / max(1, sum(f["questions"] + f["alerts"]
                                                                              for f in figs)),
        "wrong_shown": sum(len(f["wrong"]) for f in figs),
        "answers_refused": sum(len(f["refused"]) for f in figs),
        "answers_refused_first": [r for f in figs for r in f["refused"]][:3],
        "steps_behind_share": sum(f["behind"] for f in figs) / max(1, sum(f["steps"] for f in figs)),
        "questions_withdrawn_by_the_camera": sum(p["withdrawn"] for p in parts),
        "withdrawn_by_kind": {k: sum(p["withdrawn_kinds"].count(k) for p in parts)
                              for k in sorted({k for p in parts for k in p["withdrawn_kinds"]})},
        "frames": nframes,
        "frames_per_round": nframes / n if n else None,
        "median_round_s": statistics.median(per_round) if per_round else None,
        "ms_per_frame_wall_per_proc": 1000 * sum(p["wall"] for p in parts) / max(1, nframes),
        "ms_per_frame_cpu": 1000 * sum(p["cpu"] for p in parts) / max(1, nframes),
        "wall_s": wall,
        "load_avg_1min": {"start": load0[0], "median": statistics.median(loads) if loads else None,
                          "max": max(loads) if loads else None},
        "render_every": args.render_every,
        "machine": machine(),
    }
    print(json.dumps(report) if args.json else "\n".join(f"{k}: {v}" for k, v in report.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
