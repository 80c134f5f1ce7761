"""How strong the Passe-Murailles bot's levels are: matches between players, with win rates.

    .venv/bin/python tests/bench/bot_strength.py --games 40 --match 5:random --match 5:3
    .venv/bin/python tests/bench/bot_strength.py --games 400 --nodes 3000 --out /tmp/strength.json

Players: ``random`` (uniform among legal moves), ``greedy`` (the move scoring most for
itself minus the opponent right now, random among equals) and the bot's levels ``1``..``5``.
Each match alternates the shipped profile and a fresh random geometry
(``profile.random_profile``), and swaps seats every other game of each (the first player
is always red, so each player starts half the games). Both players first make
``--opening`` uniform random moves between them so that games on the shipped profile
differ. A game still running after ``--max-plies`` is decided on points so far.

Levels 4 and 5 search with a time budget in play (0.2 s); here they are bounded by
``--nodes`` positions per move instead (``--budget`` seconds as well, if given), which
gives the same moves whatever else the machine is doing: state the figure with results.
Win rates come with a 95 % Wilson interval; a draw counts half in the score.

Results of 2026-11-26 (commit 2212baf, 400 games a match, --nodes 3000, about what a Pi 4
searches in 0.2 s; wins/draws/losses of the first player named):
5:random 400/0/0, 5:greedy 400/0/0, 5:3 267/132/1 (66.8 %, CI 62.0-71.2 %),
2:1 380/19/1, 3:2 168/227/5, 4:3 208/173/19, 5:4 187/195/18. Most draws are games
stalled at equal scores until --max-plies (nobody will drop or release pegs first).
5:3 with --nodes 20000 over 40 games: 29/11/0 (72.5 %, CI 57.2-83.9 %).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from table.passe_murailles import COLOURS, Game, load_profile
from table.passe_murailles.bot import bot_turn
from table.passe_murailles.position import Position, action_of
from table.passe_murailles.profile import random_profile
from table.passe_murailles.search import Searcher

DEFAULT_MATCHES = ["5:random", "5:greedy", "5:3", "2:1", "3:2", "4:3", "5:4"]


class Player:
    def __init__(self, name: str, rng: random.Random, nodes: int | None, budget: float):
        self.name, self.rng, self.nodes, self.budget = name, rng, nodes, budget
        self.searcher = Searcher()
        self.depths: list[int] = []

    def move(self, game: Game):
        if self.name == "random":
            return self.rng.choice(game.legal_actions())
        if self.name == "greedy":
            return greedy(game, self.rng)
        turn = bot_turn(game, level=int(self.name), budget_s=self.budget, rng=self.rng, searcher=self.searcher,
                        max_nodes=self.nodes)
        self.depths.append(turn.depth)
        return turn.action


def greedy(game: Game, rng: random.Random):
    pos = Position.from_game(game)
    me = pos.cur
    best, best_gain = [], None
    for move in pos.legal_moves():
        before = pos.score
        pos.push(move)
        gain = (pos.score[me] - before[me]) - (pos.score[1 - me] - before[1 - me])
        pos.pop()
        if best_gain is None or gain > best_gain:
            best, best_gain = [move], gain
        elif gain == best_gain:
            best.append(move)
    return action_of(rng.choice(best))


def play(a: Player, b: Player, profile, a_is_red: bool, rng: random.Random, opening: int, max_plies: int) -> dict:
    game = Game(profile, "red")
    seats = {"red": a, "blue": b} if a_is_red else {"red": b, "blue": a}
    a_colour = "red" if a_is_red else "blue"
    for _ in range(opening):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    while not game.is_over() and len(game.history) < max_plies:
        game.apply(seats[game.current_player].move(game))
    scores = game.scores()
    b_colour = "blue" if a_is_red else "red"
    diff = scores[a_colour] - scores[b_colour]
    return {"result": 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5, "plies": len(game.history),
            "capped": not game.is_over(), "a_points": scores[a_colour], "b_points": scores[b_colour]}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def match(spec: str, games: int, seed: int, nodes: int | None, budget: float, opening: int, max_plies: int) -> dict:
    name_a, name_b = spec.split(":")
    rng = random.Random(f"{seed}:{spec}")
    a, b = Player(name_a, random.Random(rng.random()), nodes, budget), Player(name_b, random.Random(rng.random()),
                                                                                nodes, budget)
    shipped = load_profile(None)
    rows, started = [], time.perf_counter()
    for n in range(games):
        # Games come in fours: shipped / random profile, each with a seated red and blue.
        profile = shipped if n % 4 < 2 else load_profile(random_profile(random.Random(f"{seed}:{n // 4}")))
        row = play(a, b, profile, a_is_red=n % 2 == 0, rng=random.Random(f"{seed}:{spec}:{n}"),
                   opening=opening, max_plies=max_plies)
        row["profile"] = "shipped" if n % 4 < 2 else "random"
        rows.append(row)
    wins = sum(r["result"] == 1.0 for r in rows)
    draws = sum(r["result"] == 0.5 for r in rows)
    score = sum(r["result"] for r in rows)
    out = {"match": spec, "games": games, "wins": wins, "draws": draws, "losses": games - wins - draws,
           "win_rate": wins / games, "win_ci95": wilson(wins, games), "score_rate": score / games,
           "score_ci95": wilson(score, games), "capped": sum(r["capped"] for r in rows),
           "seconds": round(time.perf_counter() - started, 1)}
    for part in ("shipped", "random"):
        sub = [r for r in rows if r["profile"] == part]
        out[f"{part}_wins"] = f"{sum(r['result'] == 1.0 for r in sub)}/{len(sub)}"
    for label, player in (("a", a), ("b", b)):
        if player.depths:
            out[f"{label}_mean_depth"] = round(sum(player.depths) / len(player.depths), 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games per match (a multiple of 4 keeps it balanced)")
    parser.add_argument("--match", action="append", help="A:B, e.g. 5:random, 5:greedy, 5:3 (default: all)")
    parser.add_argument("--nodes", type=int, default=3000, help="positions per move for levels 4-5 (0: no limit)")
    parser.add_argument("--budget", type=float, default=0.2, help="seconds per move for levels 2-5")
    parser.add_argument("--opening", type=int, default=4, help="random moves before the players take over")
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", help="write the results as JSON here")
    args = parser.parse_args()
    results = []
    print(f"{COLOURS} games={args.games} nodes/move={args.nodes} budget={args.budget}s opening={args.opening}",
          flush=True)
    for spec in args.match or DEFAULT_MATCHES:
        r = match(spec, args.games, args.seed, args.nodes or None, args.budget, args.opening, args.max_plies)
        results.append(r)
        lo, hi = r["win_ci95"]
        print(f"{spec:>10}: wins {r['wins']}/{r['games']} = {r['win_rate']:.1%} (95% CI {lo:.1%}-{hi:.1%}), "
              f"draws {r['draws']}, losses {r['losses']}, score {r['score_rate']:.1%}, "
              f"shipped {r['shipped_wins']}, random {r['random_wins']}, capped {r['capped']}, "
              f"depth {r.get('a_mean_depth', '-')}/{r.get('b_mean_depth', '-')}, {r['seconds']} s", flush=True)
        if args.out:
            Path(args.out).write_text(json.dumps({"args": vars(args), "results": results}, indent=1))


if __name__ == "__main__":
    main()
