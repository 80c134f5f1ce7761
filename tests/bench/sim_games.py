"""Simulated Passe-Murailles games through the real transports, with faults, checked
against the simulated truth after every move.

    .venv/bin/python tests/bench/sim_games.py --games 100 --faults "hole_miss@0.1,hole_chatter@0.2,hole_overlap@0.1"
    .venv/bin/python tests/bench/sim_games.py --games 100 --faults "..." --camera stand-in
    .venv/bin/python tests/bench/sim_games.py --games 20 --faults "..." --camera rendered

Each game runs on virtual time (pace 2 s of virtual time between moves): slides, board
and top-hole drops go through the simulated sensor board's protocol and the bridge's
logic (``InlineBoard``: frames encoded, parsed, sequence-checked, counts repaired),
beams as pulses on gpiozero ``MockFactory`` pins; ``--camera`` adds the camera's
``peg_seen`` (colour and the slide the peg sits in): ``rendered`` (frames rendered and
read by the real vision pipeline, as ``run --sim`` does; slow) or ``stand-in`` (the
colours and depths handed over directly, source ``sim-camera``: the adapter's side only,
fast).

Before every move (the previous move's beam windows have closed) the score the page
shows is compared with the truth (the simulated players' game):

* ``right``: shown = truth;
* ``held``: shown ≠ truth while an alert is open (the page asks a person to look);
* ``wrong``: shown ≠ truth with no alert open — a wrong score shown as if it were right;
* ``over``: a colour shown more points than it has (even with an alert open).

Then a simulated person settles every open alert by looking at the frame: of the
choices an alert offers, the one whose outcome matches the truth best (pegs, turn,
scores). The figures: drops and top-hole faults (from the simulated board), alerts by
kind, how they were settled, and the checks above.
"""

from __future__ import annotations

import argparse
import copy
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
from hardware.sim_table import GAME, CameraStandIn, Faults, RenderedCamera, SimulatedTable
from table.bench import machine
from table.log import EventLog
from table.observations import Observation
from table.session import Session
from table.timers import ManualClock


def _pegs(pegs) -> Counter:
    """Where the pegs are, by colour, whatever their numbers."""
    return Counter((p.colour, p.where, p.slide, p.column) for p in pegs)


def _closeness(adapter, table) -> tuple:
    g = adapter.g
    return (sum((_pegs(g.pegs()) & _pegs(table.frame.pegs())).values()),
            g.current_player == table.mind.current_player,
            -sum(abs(g.scores()[c] - s) for c, s in table.mind.scores().items()))


def settle(session: Session, table: SimulatedTable, settled: Counter) -> None:
    """A person at the frame answers every open alert the way the frame shows."""
    for _ in range(20):
        adapter = session._adapter
        alerts = [a for a in adapter.open_alerts() if a.choices]  # a part to put back has no choice: it waits
        if not alerts:
            return
        alert = alerts[0]
        best, best_key = None, None
        for choice in alert.choices:
            fields = choice.get("fields") or []
            options = [{}] if not fields else [{fields[0]["name"]: o["value"]} for o in fields[0]["options"]]
            for details in options:
                trial = copy.deepcopy(adapter)
                trial.observe(Observation("resolve", t=table.clock(), source="bench",
                                          data={**details, "alert": alert.id, "choice": choice["id"]}))
                if trial.find_alert(alert.id) is not None:
                    continue  # it could not be applied
                key = _closeness(trial, table)
                if best_key is None or key > best_key:
                    best, best_key = (choice["id"], details), key
        if best is None:
            best = (alert.choices[0]["id"], {})
        settled[f"{alert.kind}:{best[0]}"] += 1
        session.resolve(alert.id, best[0], best[1], source="bench", t=table.clock())


def check(session: Session, table: SimulatedTable, checks: Counter) -> None:
    snap = session.snapshot()
    shown, truth = snap["view"]["scores"], table.mind.scores()
    if any(shown[c] > truth[c] for c in truth):
        checks["over"] += 1
    if shown == truth:
        checks["right"] += 1
    elif snap["alerts"]:
        checks["held"] += 1
        checks["held_put_back"] += all(not a["choices"] for a in snap["alerts"])
    else:
        checks["wrong"] += 1


def play(table: SimulatedTable, session: Session, before: Counter, after: Counter, settled: Counter,
         max_moves: int = 5000) -> None:
    """One game; ``before``/``after``: the checks before and after the person settles."""
    session.start_game(GAME, table._options(), source="sim-table")
    table._reset_frame()
    for _ in range(max_moves):
        if table.mind.is_over():
            break
        table.wait(table.pace)
        check(session, table, before)
        settle(session, table, settled)
        check(session, table, after)
        table.play_one()
    table.wait(table.faults.jam_delay + 1.0)
    check(session, table, before)
    settle(session, table, settled)
    check(session, table, after)


def _camera(kind: str, session: Session, clock: ManualClock, seed: int):
    if kind == "rendered":
        return RenderedCamera(session, clock, seed=seed)
    return CameraStandIn(session, clock) if kind == "stand-in" else None


def run(games: int, faults: str, seed: int, camera: str) -> dict:
    parsed = Faults.parse(faults)
    totals: Counter = Counter()
    holes: Counter = Counter()
    alerts: Counter = Counter()
    settled: Counter = Counter()
    checks: Counter = Counter()
    after: Counter = Counter()
    finals: Counter = Counter()
    seconds = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(games):
            clock = ManualClock()
            factory = MockFactory()
            session = Session(EventLog(Path(tmp) / f"game-{n}.sqlite3"), clock=clock)
            gpio = attach_gpio(session, {}, pin_factory=factory, clock=clock, columns=7)
            gpio.start()
            sensors = GpioSensors(session, factory, gpio.pins, clock, hole_faults=parsed.hole_faults(), seed=seed + n)
            table = SimulatedTable(session, sensors, pace=2.0, seed=seed + n, clock=clock, faults=parsed,
                                   camera=_camera(camera, session, clock, seed + n))
            clock.sleep(0.3)  # the top holes are blind for 200 ms after the board boots
            started = time.perf_counter()
            play(table, session, checks, after, settled)
            seconds.append(time.perf_counter() - started)
            totals.update(table.stats)
            holes.update(sensors.serial_board.hole_stats)
            alerts.update(a.kind for a in session._adapter.alerts)
            g = session._adapter.g
            finals["same_scores"] += g.scores() == table.mind.scores()
            finals["same_pegs"] += _pegs(g.pegs()) == _pegs(table.frame.pegs())
            finals["over"] += g.is_over()
            sources = Counter(o.source for o in session.log.read() if o.kind in (
                "slide", "board", "peg_drop", "beam", "side_spill", "peg_seen"))
            totals.update({f"source_{k}": v for k, v in sources.items()})
            gpio.stop()
            factory.reset()
            session.log.close()
    return {"games": games, "faults": parsed.describe(), "camera": camera, "totals": totals, "holes": holes,
            "alerts": alerts, "settled": settled, "checks": checks, "after_settling": after,
            "finals": finals, "median_game_s": statistics.median(seconds), "seconds": seconds}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--faults", default="", help='e.g. "hole_miss@0.1,hole_chatter@0.2,hole_overlap@0.1,miss=3"')
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--camera", choices=("none", "stand-in", "rendered"), default="none",
                        help="the camera's peg_seen as a second witness")
    args = parser.parse_args()
    try:
        r = run(args.games, args.faults, args.seed, args.camera)
    except ValueError as exc:
        print(f"sim_games: {exc}", file=sys.stderr)
        return 2
    t, h = r["totals"], r["holes"]
    print(f"machine: {machine()}")
    print(f"games {r['games']}  faults {r['faults']}  camera {r['camera']}")
    print("sources " + ", ".join(f"{k[7:]} {v}" for k, v in sorted(t.items()) if k.startswith("source_")))
    print(f"landings {t['landings']}  beam faults: missed {t['missed']} jammed {t['jammed']} "
          f"chattered {t['chattered']} flickers {t['flickers']}")
    print(f"top holes: drops {h['drops']}  missed {h['missed']}  merged {h['merged']}  extra {h['extra']}  "
          f"(chattered {h['chattered']}, flickers {h['flickers']}, overlapped {h['overlapped']})")
    print("alerts " + (", ".join(f"{k} {v}" for k, v in sorted(r["alerts"].items())) or "none")
          + f"  ({sum(r['alerts'].values()) / r['games']:.1f} per game)")
    print("settled " + (", ".join(f"{k} {v}" for k, v in sorted(r["settled"].items())) or "nothing"))
    c, a = r["checks"], r["after_settling"]
    print(f"checks before settling: right {c['right']}  held (alert open) {c['held']}  WRONG {c['wrong']}  "
          f"over-shown {c['over']}")
    print(f"checks after settling:  right {a['right']}  held {a['held']} (of which only a put-back alert "
          f"{a['held_put_back']})  WRONG {a['wrong']}  over-shown {a['over']}")
    f = r["finals"]
    print(f"end of game: same scores as the truth {f['same_scores']}/{r['games']}, same pegs {f['same_pegs']}, "
          f"engine saw the end {f['over']}")
    print(f"wall time per game: median {r['median_game_s'] * 1000:.0f} ms, "
          f"min {min(r['seconds']) * 1000:.0f}, max {max(r['seconds']) * 1000:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
