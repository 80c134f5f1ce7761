"""Simulated Passe-Murailles games scored from MockFactory beam pins, with faults.

    .venv/bin/python tests/bench/sim_games.py --games 20 --faults "miss@0.1,chatter=4@0.5,jam@0.1"

Runs N games on virtual time (no real waiting: pace 2 s of virtual time between moves),
each with the GPIO layer on gpiozero's MockFactory pins and the deadline timer, and
prints games, landings, confirmed landings and alerts by kind, and the wall time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from gpiozero.pins.mock import MockFactory

from hardware.gpio import attach_gpio
from hardware.gpio.sim_pins import GpioSensors
from hardware.sim_table import Faults, SimulatedTable
from table.log import EventLog
from table.session import Session
from table.timers import ManualClock


def run(games: int, faults: str, seed: int) -> dict:
    totals: Counter = Counter()
    alerts: Counter = Counter()
    wrong_scores = 0
    seconds = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(games):
            clock = ManualClock()
            factory = MockFactory()
            session = Session(EventLog(Path(tmp) / f"game-{n}.sqlite3"), clock=clock)
            gpio = attach_gpio(session, {}, pin_factory=factory, clock=clock, columns=7)
            gpio.start()
            table = SimulatedTable(session, GpioSensors(session, factory, gpio.pins, clock), pace=2.0,
                                   seed=seed + n, clock=clock, faults=faults)
            started = time.perf_counter()
            table.play_game()
            seconds.append(time.perf_counter() - started)
            snap = session.snapshot()
            totals.update(table.stats)
            totals.update({f"beams_{k}": v for k, v in snap["health"]["beams"].items() if isinstance(v, int)})
            alerts.update(a.kind for a in session._adapter.alerts)
            truth = table.mind.scores()
            shown, pending = snap["view"]["scores"], snap["view"]["pending"]
            # never wrong: what is shown plus what is held back is the truth, and nothing more is shown
            if any(shown[c] + pending[c] != truth[c] for c in truth):
                wrong_scores += 1
            gpio.stop()
            factory.reset()
            session.log.close()
    return {"games": games, "faults": Faults.parse(faults).describe(), "totals": totals, "alerts": alerts,
            "wrong_scores": wrong_scores, "median_game_s": statistics.median(seconds)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--faults", default="", help='e.g. "miss=3", "chatter=4@0.5", "jam@0.1"')
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        r = run(args.games, args.faults, args.seed)
    except ValueError as exc:
        print(f"sim_games: {exc}", file=sys.stderr)
        return 2
    t = r["totals"]
    print(f"games {r['games']}  faults {r['faults']}")
    print(f"landings {t['landings']}  confirmed {t['beams_confirmed']}  late beams {t['beams_late']}  "
          f"missed-by-beam {t['missed']}  jammed {t['jammed']}  chattered {t['chattered']}  flickers {t['flickers']}")
    print("alerts " + (", ".join(f"{k} {v}" for k, v in sorted(r["alerts"].items())) or "none"))
    print(f"games with a wrong score shown: {r['wrong_scores']}")
    print(f"median wall time per game: {r['median_game_s'] * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
