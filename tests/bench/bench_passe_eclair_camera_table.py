"""The simulated Passe Éclair camera table (``hardware/sim_eclair.py``, what ``passetable run
--sim --game passe-eclair --camera`` plays) for a few minutes: rounds through the real
pipeline into a session, with and without faults.

    .venv/bin/python tests/bench/bench_passe_eclair_camera_table.py --minutes 6 --faults hand@0.1,burst@0.1
    .venv/bin/python tests/bench/bench_passe_eclair_camera_table.py --minutes 4 --settings "none;glare@0.2;hand@0.2"
    .venv/bin/python tests/bench/bench_passe_eclair_camera_table.py --minutes 6 --seed 41 --settings "together@0.2"

Per run: rounds and placements played, the share of placements shown with no tap, the
questions and other alerts per round (each answered by one tap), the entries typed for
what no camera sees (spot, blocked, round tokens), the cards the camera lost with no
question that their player tapped in (``tapped_in``), the steps after which the page was
behind the truth, and every wrong thing shown (must be none).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hardware.sim_eclair import CameraPasseEclairTable, RoundFigures, rendered_model
from table.log import EventLog
from table.session import Session


def run(model: Path, minutes: float, faults: str, seed: int, rounds: int = 0) -> dict:
    session = Session(EventLog(":memory:"))
    table = CameraPasseEclairTable(session, model, seed=seed, faults=faults)
    end = time.perf_counter() + minutes * 60
    # rounds, the last one cut at the end (a round can take minutes)
    while time.perf_counter() < end and not (rounds and len(table.figures) >= rounds):
        if table.figures:   # progress on stderr: a 200-round run takes an hour
            f = table.figures[-1]
            print(f"round {len(table.figures)}: {f.placements} placed, {f.questions} asked, "
                  f"{len(f.wrong)} wrong", file=sys.stderr, flush=True)
        if table.mind is None or table.mind.is_over():
            table.new_game()
        fig = RoundFigures()
        table.figures.append(fig)
        start = table.mind.round
        while not table.mind.is_over() and table.mind.round == start and time.perf_counter() < end:
            if not table.step(fig):
                break
    figs = table.figures
    placed = sum(f.placements for f in figs)
    wrong = [w for f in figs for w in f.wrong]
    return {"faults": faults or "none", "rounds": len(figs), "placements": placed,
            "start_cards": sum(f.start_cards for f in figs),
            "placements_no_tap": sum(f.no_tap for f in figs) / max(1, placed),
            # the measure: a round with no tap but setup and what no camera sees
            "rounds_no_question": sum(1 for f in figs if not (f.questions or f.alerts or f.tapped_in)),
            "questions_per_round": sum(f.questions for f in figs) / max(1, len(figs)),
            "alerts_per_round": sum(f.alerts for f in figs) / max(1, len(figs)),
            "typed_per_round": sum(f.typed for f in figs) / max(1, len(figs)),
            "tapped_in": sum(f.tapped_in for f in figs), "together": sum(f.together for f in figs),
            "steps_behind": sum(f.behind for f in figs), "steps": sum(f.steps for f in figs),
            "asked": {k: sum(f.asked.get(k, 0) for f in figs) for k in sorted({k for f in figs for k in f.asked})},
            "answers_refused": sum(len(f.refused) for f in figs),
            "answers_refused_first": [r for f in figs for r in f.refused][:3],
            "frames": sum(f.frames for f in figs), "wrong": len(wrong), "wrong_first": wrong[:3],
            "open_alerts_at_end": len(session.snapshot()["alerts"]), "load": os.getloadavg()[0]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=5.0, help="per run")
    ap.add_argument("--faults", default="", help="a second run with these faults (e.g. hand@0.1,burst@0.1)")
    ap.add_argument("--model", default="/tmp/passetable-bench-model")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=0, help="stop each run after this many rounds (0: minutes only)")
    ap.add_argument("--settings", default=None, help="runs one after another, ';'-separated (none: no fault)")
    args = ap.parse_args(argv)
    model = rendered_model(Path(args.model))
    runs = [""] + ([args.faults] if args.faults else [])
    if args.settings is not None:
        runs = ["" if f.strip() == "none" else f.strip() for f in args.settings.split(";")]
    for faults in runs:
        print(json.dumps(run(model, args.minutes, faults, args.seed, args.rounds)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
