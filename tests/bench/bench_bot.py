"""Speed of the Passe-Murailles search core and bot, on this machine and estimated on a Pi 4.

    .venv/bin/python tests/bench/bench_bot.py                 # about a minute
    .venv/bin/python tests/bench/bench_bot.py --load --moves 100 --out /tmp/bench_bot.json

Prints (medians over repeats):

* ``Position.push``+``pop`` pairs per second over every legal move of positions met in
  random games (shipped and random profiles), and the same for the reference ``Game``
  (``apply``+``pop``, whose pop is a snapshot restore now, no longer a replay);
* the time of a level-5 move (``bot.choose``, 0.2 s budget) over ``--moves`` positions from
  level-5-against-level-3 games: median, 90th percentile, maximum, and the depth reached;
* a single-core score (the classic n-body loop, in CPU time) to set this machine against a Pi 4, and
  from it the Pi 4 figures: pairs per second divided by the ratio; a level-5 move keeps
  its time budget there, so what changes is the depth, measured here with the node count
  a Pi 4 would get through in 0.2 s.

``--load`` runs, beside the measurement, a process doing what the vision loop does at
30 frames a second on 1280×720 images (threshold, contours, ArUco detection), to see the
figures with OpenCV busy. The dashboard itself is not started by this script.

Results of 2026-11-26 on the shared 2-core Xeon (load average about 10 from other work):
push+pop 589,000 pairs per CPU second (163,000-264,000 per wall second under that load);
level-5 move 190 ms median, 195 ms p90, 200 ms max, depth 6; with --load 191/211/527 ms.
Pi 4 (ratio 8.6-9.7 from n-body, an upper bound, see the report): about 65,000 pairs
a second, a level-5 move still within its 0.2 s, about 5,000 positions, depth 4.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from table.bench import machine as bench_machine
from table.passe_murailles import Game, load_profile, random_playout
from table.passe_murailles.bot import bot_turn, choose
from table.passe_murailles.position import Position
from table.passe_murailles.profile import random_profile
from table.passe_murailles.search import Searcher

# A Pi 4 (Cortex-A72, 1.5 GHz, performance governor) ran 5 million steps of the n-body
# benchmark in Python in 158.3 s (chaitanyamehta.github.io, "Performance Analysis of
# Languages on Raspberry Pi"; Raspberry Pi OS of 2020, so Python 3.7). The same loop runs
# here for NBODY_STEPS and is scaled: the ratio is an estimate, see the report.
PI4_NBODY_SECONDS_PER_5M = 158.3
NBODY_STEPS = 200_000
BUDGET_S = 0.2


def machine() -> str:
    """The machine, as ``passetable bench`` names it, with the load the figures were taken under."""
    return f"{bench_machine()}, load {os.getloadavg()[0]:.2f}"


def sample_games(count: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    games = []
    while len(games) < count:
        profile = load_profile(None) if len(games) % 2 else load_profile(random_profile(rng))
        game = random_playout(random.Random(rng.random()), profile, max_actions=rng.randrange(0, 80))
        if not game.is_over():
            games.append(game)
    return games


def push_pop_rate(positions: list[Position], seconds: float) -> tuple[float, float]:
    """Pairs per wall-clock second and per second of this process's CPU time (the latter
    is what one core can do, whatever else the shared machine runs meanwhile)."""
    pairs, started, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - started < seconds:
        for pos in positions:
            for move in pos.legal_moves():
                pos.push(move)
                pos.pop()
                pairs += 1
    return pairs / (time.perf_counter() - started), pairs / (time.process_time() - cpu)


def game_apply_pop_rate(games: list[Game], seconds: float) -> float:
    pairs, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for game in games:
            for action in game.legal_actions():
                game.apply(action)
                game.pop()
                pairs += 1
    return pairs / (time.perf_counter() - started)


def bot_positions(count: int, seed: int) -> list[Game]:
    """Positions met when level 5 (node-bounded, for speed) plays level 3."""
    rng = random.Random(seed)
    found: list[Game] = []
    while len(found) < count:
        profile = load_profile(None) if len(found) % 2 == 0 else load_profile(random_profile(rng))
        game = Game(profile)
        searcher = Searcher()
        while not game.is_over() and len(found) < count and len(game.history) < 300:
            if len(game.history) % 3 == 0:
                found.append(Game.from_dict(game.to_dict()))
            level = 5 if game.current_player == "red" else 3
            game.apply(bot_turn(game, level, searcher=searcher, max_nodes=3000).action)
    return found


def level5_times(games: list[Game]) -> dict:
    times, depths, nodes = [], [], []
    for game in games:
        started = time.perf_counter()
        choose(game, level=5, budget_s=BUDGET_S)
        times.append(time.perf_counter() - started)
        cpu = time.process_time()
        result = Searcher().search(Position.from_game(game), budget_s=BUDGET_S)
        depths.append(result.depth)
        nodes.append(result.nodes / max(1e-6, time.process_time() - cpu))  # per CPU second
    times.sort()
    return {"moves": len(times), "median_ms": round(statistics.median(times) * 1000, 1),
            "p90_ms": round(times[int(0.9 * (len(times) - 1))] * 1000, 1), "max_ms": round(times[-1] * 1000, 1),
            "median_depth": statistics.median(depths), "min_depth": min(depths),
            "median_nodes_per_cpu_s": int(statistics.median(nodes))}


def depth_at_nodes(games: list[Game], nodes: int) -> dict:
    depths = [Searcher().search(Position.from_game(g), max_nodes=nodes).depth for g in games]
    return {"nodes": nodes, "median_depth": statistics.median(depths), "min_depth": min(depths)}


def nbody_seconds(steps: int) -> float:
    """The classic n-body loop (Sun and the four giant planets), pure Python floats."""
    pi, days = 3.141592653589793, 365.24
    mass = 4 * pi * pi
    bodies = [
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, mass],
        [4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
         1.66007664274403694e-03 * days, 7.69901118419740425e-03 * days, -6.90460016972063023e-05 * days,
         9.54791938424326609e-04 * mass],
        [8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
         -2.76742510726862411e-03 * days, 4.99852801234917238e-03 * days, 2.30417297573763929e-05 * days,
         2.85885980666130812e-04 * mass],
        [1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
         2.96460137564761618e-03 * days, 2.37847173959480950e-03 * days, -2.96589568540237556e-05 * days,
         4.36624404335156298e-05 * mass],
        [1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
         2.68067772490389322e-03 * days, 1.62824170038242295e-03 * days, -9.51592254519715870e-05 * days,
         5.15138902046611451e-05 * mass],
    ]
    pairs = [(bodies[i], bodies[j]) for i in range(5) for j in range(i + 1, 5)]
    dt = 0.01
    started = time.process_time()  # CPU time: a busy shared machine does not inflate it
    for _ in range(steps):
        for a, b in pairs:
            dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
            mag = dt * (dx * dx + dy * dy + dz * dz) ** -1.5
            bm, am = b[6] * mag, a[6] * mag
            a[3] -= dx * bm
            a[4] -= dy * bm
            a[5] -= dz * bm
            b[3] += dx * am
            b[4] += dy * am
            b[5] += dz * am
        for body in bodies:
            body[0] += dt * body[3]
            body[1] += dt * body[4]
            body[2] += dt * body[5]
    return time.process_time() - started


def vision_load(stop) -> None:
    """What the camera loop costs: 30 frames a second of thresholding, contours and ArUco."""
    import cv2
    import numpy as np

    # A table-like scene: a grey cloth with a few light cards and pegs, plus sensor noise.
    rng = np.random.default_rng(0)
    frame = np.full((720, 1280), 90, np.uint8)
    for i in range(6):
        cv2.rectangle(frame, (100 + 180 * i, 200), (220 + 180 * i, 370), 230, -1)
        cv2.circle(frame, (160 + 180 * i, 500), 18, 40, -1)
    frame = cv2.add(frame, rng.integers(0, 12, frame.shape, dtype=np.uint8))
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                                       cv2.aruco.DetectorParameters())
    while not stop.is_set():
        started = time.perf_counter()
        _, binary = cv2.threshold(frame, 128, 255, cv2.THRESH_BINARY)
        cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        detector.detectMarkers(frame)
        time.sleep(max(0.0, 1 / 30 - (time.perf_counter() - started)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=60, help="level-5 moves to time")
    parser.add_argument("--seconds", type=float, default=2.0, help="per push/pop measurement")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--load", action="store_true", help="run an OpenCV vision load beside it")
    parser.add_argument("--out")
    args = parser.parse_args()

    stop = multiprocessing.Event()
    loader = None
    if args.load:
        loader = multiprocessing.Process(target=vision_load, args=(stop,), daemon=True)
        loader.start()
        time.sleep(1.0)
    try:
        out = run(args)
    finally:
        stop.set()
        if loader is not None:
            loader.join(timeout=5)
    out["vision_load"] = args.load
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1))
    print(json.dumps(out, indent=1))


def run(args) -> dict:
    out: dict = {"machine": machine()}
    games = sample_games(40, seed=1)
    positions = [Position.from_game(g) for g in games]
    rates = [push_pop_rate(positions, args.seconds) for _ in range(args.repeats)]
    out["position_push_pop_per_s"] = int(statistics.median(r[0] for r in rates))
    out["position_push_pop_per_cpu_s"] = int(statistics.median(r[1] for r in rates))
    out["game_apply_pop_per_s"] = int(statistics.median(
        [game_apply_pop_rate(games[:10], args.seconds / 2) for _ in range(3)]))
    print(f"push+pop: {out['position_push_pop_per_s']}/s wall, {out['position_push_pop_per_cpu_s']}/s of CPU "
          f"(Game apply+pop: {out['game_apply_pop_per_s']}/s)", flush=True)

    nbody = statistics.median(nbody_seconds(NBODY_STEPS) for _ in range(3))
    here_5m = nbody * 5_000_000 / NBODY_STEPS
    ratio = PI4_NBODY_SECONDS_PER_5M / here_5m
    out["nbody_5M_s_here"] = round(here_5m, 1)
    out["pi4_single_core_ratio"] = round(ratio, 2)
    print(f"n-body 5M here {here_5m:.1f} s vs Pi 4 {PI4_NBODY_SECONDS_PER_5M} s: ratio {ratio:.2f}", flush=True)

    level5 = level5_times(bot_positions(args.moves, seed=2))
    out["level5"] = level5
    print(f"level 5: {level5}", flush=True)
    # On the Pi the bot has a core to itself (4 cores; the camera loop takes another one).
    pi_nodes = int(level5["median_nodes_per_cpu_s"] * BUDGET_S / ratio)
    out["pi4_estimate"] = {
        "position_push_pop_per_s": int(out["position_push_pop_per_cpu_s"] / ratio),
        "level5_budget_ms": BUDGET_S * 1000,
        "level5_nodes_per_move": pi_nodes,
        **{f"depth_{k}": v for k, v in depth_at_nodes(bot_positions(20, seed=3), pi_nodes).items()},
    }
    return out


if __name__ == "__main__":
    main()
