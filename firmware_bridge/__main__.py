"""Watch the sensor board: ``python -m firmware_bridge PORT`` prints every observation
and, every few seconds, the link health. ``--sim`` starts the pure-Python simulated
board instead (moves a random slide each second, and now and then drops a peg into a
random top hole); ``--simavr`` the real firmware in simavr.

    python -m firmware_bridge /dev/ttyACM0
    python -m firmware_bridge --sim --faults 0.01
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time

from firmware_bridge.bridge import Bridge


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_bridge", description=__doc__.splitlines()[0])
    parser.add_argument("port", nargs="?", help="device path or pyserial URL, e.g. /dev/ttyACM0")
    parser.add_argument("--sim", action="store_true", help="use the pure-Python simulated board")
    parser.add_argument("--simavr", action="store_true", help="run the real firmware in simavr")
    parser.add_argument("--faults", type=float, default=0.0, help="share of damaged bytes (--sim only)")
    parser.add_argument("--health-every", type=float, default=5.0, help="seconds between health lines")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")

    board = None
    if args.sim:
        from hardware.sim.faults import Faults
        from hardware.sim_board import SimulatedBoard
        board = SimulatedBoard(faults=Faults.corrupting(args.faults)).start()
    elif args.simavr:
        from hardware.sim.simavr_board import SimavrBoard
        board = SimavrBoard().start()
    port = board.port if board is not None else args.port
    if not port:
        parser.error("give a PORT, or --sim / --simavr")

    def show(record: dict) -> None:
        sys.stdout.write(json.dumps(record) + "\n")  # one write: two threads print
        sys.stdout.flush()

    bridge = Bridge(port, lambda obs: show(obs.to_dict())).start()
    rng = random.Random()
    try:
        next_health = time.monotonic() + args.health_every
        while True:
            time.sleep(1.0)
            if board is not None:
                board.set_slide(rng.randint(1, 6), rng.randint(-2, 2))
                if rng.random() < 0.3:
                    board.drop_peg(rng.randrange(7))
            if time.monotonic() >= next_health:
                show({"health": bridge.health()})
                next_health += args.health_every
    except KeyboardInterrupt:
        return 0
    finally:
        bridge.stop()
        if board is not None:
            board.stop()


if __name__ == "__main__":
    raise SystemExit(main())
