"""Board model → faulty 115200-baud line → bridge logic, run in virtual time.

A discrete-event run with no threads and no clock: bytes take their real transmission
time on each direction of the line, faults come from seeded generators, and the run
checks, as it goes, what the session would have received:

* every observation is a position the slide or board really had, in the order it had
  them (no stale, invented or in-between position ever reaches the session);
* whenever the bridge says it is in sync, its view equals the board's true state as of
  the newest frame it accepted;
* after every gap, the time until the bridge is back in sync (``recoveries``);
* after each quiet period, the bridge's view equals the board's true state;
* top-hole drops reach the session exactly once: never more than the board counted in
  a hole (at any moment), and all of them after each quiet period.

    >>> report = VirtualLink(faults=Faults.corrupting(0.01), seed=3).run(min_frames=300)
    >>> report.wrong, report.quiet_mismatches, report.drop_mismatches
    ([], [], [])
"""

from __future__ import annotations

import heapq
import itertools
import random
from dataclasses import dataclass, field

from firmware_bridge.link import LinkState
from firmware_bridge.positions import NotchMap
from hardware.sim.board_model import BoardModel
from hardware.sim.faults import FaultInjector, Faults
from table.observations import Observation

KEYS = ("s1", "s2", "s3", "s4", "s5", "s6", "b")
MOVES = (*KEYS, "drop")


@dataclass
class VirtualRunReport:
    frames_sent: int = 0
    observations: int = 0
    wrong: list[str] = field(default_factory=list)             # observations no true history explains
    sync_mismatches: list[str] = field(default_factory=list)   # in sync, yet not the truth
    quiet_mismatches: list[str] = field(default_factory=list)  # after a quiet period
    recoveries: list[float] = field(default_factory=list)      # gap → in sync, virtual seconds
    drops: int = 0                                             # drops the board counted
    drop_observations: int = 0                                 # peg_drop observations (recovered ones too)
    drop_mismatches: list[str] = field(default_factory=list)   # more than counted, or missing after quiet
    virtual_s: float = 0.0
    health: dict[str, object] = field(default_factory=dict)


class VirtualLink:
    """One run of the protocol over a simulated line (see the module docstring)."""

    def __init__(self, *, faults: Faults, seed: int = 0, baud: int = 115200,
                 latency_s: float = 0.002, tick_s: float = 0.01, snapshot_retry_s: float = 0.05):
        self.faults = faults
        self.rng = random.Random(seed)
        self.byte_s = 10.0 / baud  # start + 8 data + stop bits
        self.latency_s = latency_s
        self.tick_s = tick_s
        self.map = NotchMap()
        self.frames_made = 0
        self._by_seq: dict[int, tuple] = {}  # board state as of each frame sent
        self.model = BoardModel(on_frame=self._record)
        self.down = FaultInjector(faults, random.Random(seed * 2 + 1))
        self.up = FaultInjector(faults, random.Random(seed * 2 + 2))
        self.link = LinkState(notch_map=self.map, snapshot_retry_s=snapshot_retry_s)
        self.report = VirtualRunReport()
        self._events: list = []
        self._order = itertools.count()
        self._free_at = {"down": 0.0, "up": 0.0}
        self._history: dict[str, list[tuple[float, int]]] = {}
        self._matched = dict.fromkeys(KEYS, -1)
        self._gaps_open: list[float] = []
        self._gaps_seen = 0
        self._drops_seen = [0] * len(self.model.drops)
        self.now = 0.0

    # ---- the run --------------------------------------------------------------------

    def run(self, *, min_frames: int = 10_000, moves_per_burst: int = 60, burst_s: float = 0.6,
            quiet_s: float = 1.5, settle_s: float = 1.0) -> VirtualRunReport:
        """Bursts of random moves, each followed by ``quiet_s`` without any; the truth is
        checked ``settle_s`` after each burst's last possible move."""
        notches, board = self.model.state()
        for i, n in enumerate(notches, 1):
            self._history[f"s{i}"] = [(0.0, self.map.to_offset(n))]
        self._history["b"] = [(0.0, board)]
        self._send_down(self.model.boot(0))
        self.link.on_connect(0.0)
        self._send_up(self.link.take_outgoing())
        self._push(self.tick_s, "tick", None)
        t = 0.2
        while self.frames_made < min_frames:
            for _ in range(moves_per_burst):
                self._push(t + self.rng.uniform(0, burst_s), "move", None)
            self._push(t + burst_s + settle_s, "quiet_check", None)
            t += burst_s + quiet_s
            self._run_until(t)
        self.report.frames_sent = self.frames_made
        self.report.virtual_s = self.now
        self.report.health = self.link.health.to_dict(self.now, self.link.parser.counters())
        return self.report

    def _run_until(self, t_end: float) -> None:
        while self._events and self._events[0][0] <= t_end:
            when, _, kind, payload = heapq.heappop(self._events)
            self.now = when
            getattr(self, "_on_" + kind)(payload)

    def _push(self, when: float, kind: str, payload) -> None:
        heapq.heappush(self._events, (when, next(self._order), kind, payload))

    # ---- events ---------------------------------------------------------------------

    def _on_tick(self, _) -> None:
        self._send_down(self.model.tick(self._ms()))
        held = self.down.flush()
        if held:
            self._deliver("down", held)
        self.link.tick(self.now)
        self._send_up(self.link.take_outgoing())
        self._push(self.now + self.tick_s, "tick", None)

    def _on_move(self, _) -> None:
        key = self.rng.choice(MOVES)
        if key == "drop":
            frames = self.model.drop(self.rng.randrange(len(self.model.drops)), self._ms())
            self.report.drops += 1
        elif key == "b":
            position = self.model.board + self.rng.choice((-1, 1))
            if position not in (1, 2, 3):
                return
            frames = self.model.set_board(position, self._ms())
            self._history["b"].append((self.now, position))
        else:
            slide = int(key[1])
            notch = self.model.notches[slide - 1] + self.rng.choice((-1, 1))
            if not 0 <= notch < self.map.notches:
                return
            frames = self.model.set_slide(slide, notch, self._ms())
            self._history[key].append((self.now, self.map.to_offset(notch)))
        self._send_down(frames)

    def _on_host_rx(self, data: bytes) -> None:
        for obs in self.link.feed(data, self.now):
            self._check_observation(obs)
        self._check_sync()
        self._send_up(self.link.take_outgoing())

    def _on_board_rx(self, data: bytes) -> None:
        self._send_down(self.model.receive(data, self._ms()))

    def _on_quiet_check(self, _) -> None:
        truth = self._offsets(self.model.state())
        if self.link.positions() != truth:
            self.report.quiet_mismatches.append(f"t={self.now:.3f}: host {self.link.positions()} != {truth}")
        if self._drops_seen != self.model.drops:
            self.report.drop_mismatches.append(f"t={self.now:.3f}: drops {self._drops_seen} != {self.model.drops}")

    # ---- the line -------------------------------------------------------------------

    def _send_down(self, frames: list[bytes]) -> None:
        if frames:
            self._deliver("down", self.down.transmit(frames))

    def _send_up(self, data: bytes) -> None:
        if data:
            self._deliver("up", self.up.transmit([data]))

    def _deliver(self, direction: str, data: bytes) -> None:
        if not data:
            return
        start = max(self.now, self._free_at[direction])
        self._free_at[direction] = start + len(data) * self.byte_s
        kind = "host_rx" if direction == "down" else "board_rx"
        self._push(self._free_at[direction] + self.latency_s, kind, data)

    # ---- checks ---------------------------------------------------------------------

    def _record(self, seq: int, state: tuple) -> None:
        # The board boots once per run, so seq → state is unique over the last 65536
        # frames, all the bridge can still be comparing against.
        self.frames_made += 1
        self._by_seq[seq] = state

    def _offsets(self, state: tuple) -> dict[str, object]:
        notches, board = state
        return {"slides": {i: self.map.to_offset(n) for i, n in enumerate(notches, 1)}, "board": board}

    def _check_observation(self, obs: Observation) -> None:
        self.report.observations += 1
        if obs.kind == "peg_drop":
            column = obs.data["column"]
            self.report.drop_observations += 1
            self._drops_seen[column] += 1
            if self._drops_seen[column] > self.model.drops[column]:
                self.report.drop_mismatches.append(
                    f"t={obs.t:.3f}: drop {self._drops_seen[column]} in hole {column}, "
                    f"the board counted {self.model.drops[column]}")
            return
        if obs.kind == "board":
            key, value = "b", obs.data["position"]
        else:
            key, value = f"s{obs.data['slide']}", obs.data["offset"]
        history = self._history[key]
        for j in range(self._matched[key] + 1, len(history)):
            if history[j][0] > obs.t:
                break
            if history[j][1] == value:
                self._matched[key] = j
                return
        self.report.wrong.append(f"t={obs.t:.3f}: {key}={value} never true since entry {self._matched[key]}")

    def _check_sync(self) -> None:
        h = self.link.health
        while self._gaps_seen < h.gaps:
            self._gaps_seen += 1
            self._gaps_open.append(self.now)
        if not self.link.in_sync:
            return
        self.report.recoveries += [self.now - t for t in self._gaps_open]
        self._gaps_open.clear()
        expected = self._offsets(self._by_seq[self.link.last_seq])
        if self.link.positions() != expected:
            self.report.sync_mismatches.append(
                f"t={self.now:.3f} seq {self.link.last_seq}: host {self.link.positions()} != {expected}")

    def _ms(self) -> int:
        return int(self.now * 1000)
