"""PtiPassPass scored from the camera and the seat buttons alone, over simulated rounds
(``hardware/sim_cups.py``: the cup grid rendered from above through the real pipeline, the
calls, OKs and colours pressed on MockFactory pins): the share of moves and of rounds
scored with no tap, the alerts and taps per round, and every state the page showed
against the simulated truth after each move (victory tokens, round, whose turn, phase,
hand sizes, cup counts).

    nice .venv/bin/python tests/bench/bench_ptipasspass_camera.py --rounds 200 --minutes 30
    nice .venv/bin/python tests/bench/bench_ptipasspass_camera.py --faults peek@0.1,race@0.5,burst@0.2

Rounds stop at ``--rounds`` or after ``--minutes`` of wall time, whichever comes first;
the report says how many were played. Player counts 3 to 6 at random.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hardware.sim_cups import CameraPtiPassPassTable
from table.bench import machine
from table.log import EventLog
from table.session import Session


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--faults", default="")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="bench-ptipasspass-"))
    session = Session(EventLog(folder / "log.sqlite3"))
    table = CameraPtiPassPassTable(session, seed=args.seed, faults=args.faults)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    deadline = wall0 + args.minutes * 60
    figures, loads, resolved = [], [], set()
    load0 = os.getloadavg()[0]
    while len(figures) < args.rounds and time.perf_counter() < deadline:
        fig = table.play_round()
        figures.append(fig)
        loads.append(os.getloadavg()[0])
        adapter = session._adapter
        if adapter is not None:   # every alert answered, by a tap or by the camera itself
            resolved |= {(session.game_seq, a.id) for a in adapter.alerts if a.resolved is not None}
        print(f"round {len(figures)}: moves {fig.moves} untapped {fig.untapped} alerts {fig.alerts} taps {fig.taps} "
              f"wrong {len(fig.wrong)} frames {fig.frames} glare frames {fig.glare_frames} (load {loads[-1]:.1f})",
              flush=True)
        for w in fig.wrong:
            print("   WRONG", w, flush=True)
    table.close()
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    moves = sum(f.moves for f in figures)
    frames = sum(f.frames for f in figures)
    log = list(session.log.read())
    report = {
        "faults": args.faults or "none",
        "rounds": len(figures), "games": sum(1 for o in log if o.kind == "game_start"), "moves": moves,
        "moves_scored_without_tap": f"{sum(f.untapped for f in figures)}/{moves} "
                                    f"({100 * sum(f.untapped for f in figures) / max(1, moves):.2f}%)",
        "rounds_without_tap": f"{sum(1 for f in figures if not f.taps)}/{len(figures)}",
        "wrong_states_shown": sum(len(f.wrong) for f in figures),
        "answers_refused": sum(len(f.refused) for f in figures),
        "answers_refused_first": [r for f in figures for r in f.refused][:3],
        "alerts_per_round": round(sum(f.alerts for f in figures) / max(1, len(figures)), 3),
        "taps_per_round": round(sum(f.taps for f in figures) / max(1, len(figures)), 3),
        "one_tap_share": round(sum(f.taps for f in figures) / max(1, sum(f.alerts for f in figures)), 3),
        "alerts_withdrawn_by_the_camera": len(resolved) - sum(f.taps for f in figures),
        "glare_frames_per_round": round(sum(f.glare_frames for f in figures) / max(1, len(figures)), 1),
        "presses_per_round": round(sum(f.presses for f in figures) / max(1, len(figures)), 1),
        "frames_per_round": round(frames / max(1, len(figures)), 1),
        "pipeline_ms_per_frame": round(1000 * sum(f.pipeline_s for f in figures) / max(1, frames), 2),
        "fact_sources": sorted({o.source for o in log}),
        "typed_entries": sum(1 for o in log if o.kind == "ptipasspass.action"),
        "mean_round_s": round(wall / max(1, len(figures)), 2),
        "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
        "load_avg_1min": {"start": load0, "median": statistics.median(loads) if loads else None,
                          "max": max(loads) if loads else None},
        "machine": machine(),
    }
    session.log.close()
    print(json.dumps(report) if args.json else "\n".join(f"{k}: {v}" for k, v in report.items()))
    return 0 if report["wrong_states_shown"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
