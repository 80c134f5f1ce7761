"""Serial link benchmark: parser speed, recovery after gaps, sensor-to-session latency.

    .venv/bin/python tests/bench/bench_serial.py            # everything (~30 s)
    .venv/bin/python tests/bench/bench_serial.py --quick    # fewer samples

Prints medians and 99th percentiles, with the machine they ran on. Figures:

* frames parsed per second and CPU per frame: the bare frame parser, and the whole host
  side (parse, decode, sequence checks, observations) on a realistic mix of frames;
* gap → in sync: virtual time on a 115200-baud line with 1 % damaged bytes;
* latency from a ladder voltage change in simavr (real firmware, paced to real time) to
  the observation in the session callback, with the default 50 ms settle time and with
  none; the same from the Python simulated board; the harness's CPU use;
* top-hole drops: exactly-once delivery at 1 % damaged bytes (virtual time), latency
  from a sensor pin pulse (simavr) or ``drop_peg`` (Python board) to the ``peg_drop``
  observation, and what each top-hole fault of the simulated board does to the counts.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from firmware_bridge import Bridge
from firmware_bridge.link import LinkState
from firmware_bridge.messages import encode_change, encode_drop, encode_state
from firmware_bridge.protocol import FrameParser
from hardware.sim.faults import Faults
from hardware.sim.top_holes import HoleFaults, TopHoles
from hardware.sim.virtual_link import VirtualLink
from hardware.sim_board import SimulatedBoard
from table.bench import machine


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def line(name: str, values: list[float], unit: str, scale: float = 1.0) -> None:
    print(f"  {name:<46} median {statistics.median(values) * scale:10.2f} {unit:<9}"
          f" p99 {pct(values, 0.99) * scale:10.2f} {unit}  (n={len(values)})")


def frame_mix(count: int, seed: int = 0) -> bytes:
    rng = random.Random(seed)
    out = bytearray()
    counts = [0] * 7
    for seq in range(count):
        if seq % 10 == 9:
            out += encode_state("HB", seq, mcu_ms=seq * 7, notches=tuple(rng.randrange(5) for _ in range(6)), board=2,
                                drops=tuple(counts))
        elif seq % 10 == 4:
            column = rng.randrange(7)
            counts[column] += 1
            out += encode_drop(seq, mcu_ms=seq * 7, column=column, count=counts[column])
        else:
            out += encode_change(seq, mcu_ms=seq * 7, slide=rng.randint(1, 6), notch=rng.randrange(5))
    return bytes(out)


def bench_parser(repeats: int) -> None:
    frames = 20_000
    data = frame_mix(frames)
    chunks = [data[i:i + 256] for i in range(0, len(data), 256)]
    print(f"parsing ({frames} frames, {len(data) / frames:.0f} bytes each on average, fed 256 bytes at a time)")
    for name, make in (("frame parser", FrameParser), ("host side (parse + decode + observations)", None)):
        rates, cpu = [], []
        for _ in range(repeats):
            if make is not None:
                target = make()
                feed = target.feed
            else:
                target = LinkState()
                target.on_connect(0.0)
                feed = lambda chunk, link=target: link.feed(chunk, 1.0)
            t0, c0 = time.perf_counter(), time.process_time()
            for chunk in chunks:
                feed(chunk)
            t1, c1 = time.perf_counter(), time.process_time()
            rates.append(frames / (t1 - t0))
            cpu.append((c1 - c0) / frames)
        line(name + ": frames/s", rates, "frames/s")
        line(name + ": CPU per frame", cpu, "µs", 1e6)


def bench_recovery(seeds: int) -> None:
    recoveries: list[float] = []
    wrong = drops = seen = recovered = bad_drops = 0
    for seed in range(seeds):
        report = VirtualLink(faults=Faults(drop_byte=0.005, flip_bit=0.005), seed=seed).run(min_frames=10_000)
        recoveries += report.recoveries
        wrong += len(report.wrong) + len(report.sync_mismatches) + len(report.quiet_mismatches)
        drops += report.drops
        seen += report.drop_observations
        recovered += report.health["recovered_drops"]
        bad_drops += len(report.drop_mismatches)
    print(f"recovery at 1 % damaged bytes, 115200 baud, virtual time ({seeds} × 10,000 frames)")
    line("gap detected → in sync again", recoveries, "ms", 1e3)
    print(f"  {'worst':<46} {max(recoveries) * 1e3:10.2f} ms; wrong positions reported: {wrong}")
    print(f"  {'top-hole drops':<46} {drops} counted by the board, {seen} reported ({recovered} made up"
          f" from counts after their frame was lost); doubled or missing: {bad_drops}")


def bench_drop_faults(drops: int) -> None:
    """What each top-hole fault does to the counts, in virtual time at a human pace: one
    peg every 2 s in a random hole, a third of them staying in the hole for 1.5 s."""
    print(f"top-hole faults of the simulated board ({drops} drops each, virtual time)")
    cases = {"none": HoleFaults(), "miss@0.1": HoleFaults(miss=0.1), "chatter@0.2": HoleFaults(chatter=0.2),
             "overlap@0.1": HoleFaults(overlap=0.1), "all three": HoleFaults(miss=0.1, chatter=0.2, overlap=0.1)}
    for name, faults in cases.items():
        rng = random.Random(1)
        holes = TopHoles(7, faults=faults, rng=random.Random(2))
        counted = 0
        for i in range(drops):
            t, column = i * 2000, rng.randrange(7)
            rests = rng.random() < 1 / 3
            counted += len(holes.drop(column, t, rests=rests))
            counted += len(holes.tick(t + 1000))
            if rests:
                counted += len(holes.clear(column, t + 1500))
        counted += len(holes.tick(drops * 2000 + 5000))
        st = holes.stats
        assert counted == drops - st["missed"] - st["merged"] + st["extra"]
        print(f"  {name:<12} counted {counted:6d} of {drops}: missed {st['missed']:5d}, merged {st['merged']:4d}"
              f" (overlaps {st['overlapped']:4d}), extra {st['extra']:4d} (flickers {st['flickers']:4d},"
              f" chattered {st['chattered']:4d})")


class Latency:
    """Times from a change to the observation reaching the session callback."""

    def __init__(self):
        self.event = threading.Event()
        self.at = 0.0

    def __call__(self, obs):
        self.at = time.perf_counter()
        self.event.set()

    def measure(self, change, timeout: float = 2.0) -> float | None:
        self.event.clear()
        t0 = time.perf_counter()
        change()
        if not self.event.wait(timeout):
            return None
        return self.at - t0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench_latency(samples: int) -> None:
    print(f"latency, change → observation in the session callback ({samples} moves each)")
    board = SimulatedBoard().start()
    probe = Latency()
    bridge = Bridge(board.port, probe).start()
    time.sleep(0.5)
    times = [probe.measure(lambda i=i: board.set_slide(1, (i % 2) * 2 - 1)) for i in range(samples)]
    line("python simulated board", [t for t in times if t is not None], "ms", 1e3)
    drop_times = []
    for i in range(samples):
        drop_times.append(probe.measure(lambda i=i: board.drop_peg(i % 7)))
        time.sleep(0.05)  # each hole is back in use 7 drops later, after its 200 ms re-arm
    line("python simulated board: drop_peg → peg_drop", [t for t in drop_times if t is not None], "ms", 1e3)
    bridge.stop()
    board.stop()

    from hardware.sim.simavr_board import SimavrBoard, notch_millivolts, tools_missing
    missing = tools_missing()
    if missing:
        print(f"  simavr: skipped ({missing})")
        return
    board = SimavrBoard().start()
    probe = Latency()
    bridge = Bridge(board.port, probe).start()
    try:
        time.sleep(0.5)
        pid = board._proc.pid
        for settle in (50, 0):
            bridge.set_thresholds(settle=settle)
            time.sleep(0.2)
            c0, w0 = cpu_seconds(pid), time.perf_counter()
            times = [probe.measure(lambda i=i: board.set_voltage(1, notch_millivolts(1 + 2 * (i % 2))))
                     for i in range(samples)]
            load = (cpu_seconds(pid) - c0) / (time.perf_counter() - w0)
            lost = sum(t is None for t in times)
            line(f"simavr firmware, settle {settle} ms", [t for t in times if t is not None], "ms", 1e3)
            print(f"  {'':<46} harness CPU {load * 100:.0f} % of one core; missed {lost}")
        drop_times = []
        for i in range(samples):
            drop_times.append(probe.measure(lambda i=i: board.pulse_hole(i % 7, 12)))
            time.sleep(0.05)
        line("simavr firmware: sensor pin pulse → peg_drop", [t for t in drop_times if t is not None], "ms", 1e3)
        print(f"  {'':<46} missed {sum(t is None for t in drop_times)}; board counted "
              f"{sum(bridge.drop_counts() or [])}")
        c0, w0, m0 = cpu_seconds(pid), time.perf_counter(), board.mcu_ms()
        time.sleep(2.0)
        m1, w1 = board.mcu_ms(), time.perf_counter()
        print(f"  {'simavr harness, idle':<46} CPU {(cpu_seconds(pid) - c0) / (w1 - w0) * 100:.0f} % of one core;"
              f" simulated/real time {(m1 - m0) / 1000 / (w1 - w0):.3f}")
    finally:
        bridge.stop()
        board.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    args = parser.parse_args()
    print(f"machine: {machine()}, {platform.platform()}")
    bench_parser(3 if args.quick else 7)
    bench_recovery(1 if args.quick else 3)
    bench_drop_faults(1000 if args.quick else 10_000)
    bench_latency(30 if args.quick else 100)


if __name__ == "__main__":
    main()
