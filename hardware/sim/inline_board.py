"""The simulated board, its serial line and the bridge's protocol logic in the caller's
thread, on the caller's clock: a stand-in for ``SimulatedBoard`` + pty + ``Bridge`` when a
table runs in virtual time (a hundred games in seconds), with the same real transport
code on the way (frames encoded, damaged by the line faults, parsed, sequence-checked,
turned into observations by :class:`~firmware_bridge.link.LinkState`).

Every call runs the exchange until the line is quiet and hands the observations to
``on_observation`` before it returns, so the caller's next move sees their effect.

    >>> seen, now = [], [100.0]
    >>> board = InlineBoard(seen.append, clock=lambda: now[0])
    >>> [o.kind for o in seen]                       # the start position, once
    ['slide', 'slide', 'slide', 'slide', 'slide', 'slide', 'board']
    >>> now[0] += 1.0                                # (the top holes arm 200 ms after boot)
    >>> board.set_slide(2, 1); board.drop_peg(3)
    >>> [(o.kind, o.source) for o in seen[7:]]
    [('slide', 'serial'), ('peg_drop', 'serial')]

Surface of :class:`hardware.sim_board.SimulatedBoard` (``set_slide``, ``set_board``,
``drop_peg``, ``clear_hole``, ``positions``, ``drop_counts``, ``faults``,
``hole_faults``, ``hole_stats``, ``reset``), plus ``advance()`` to let the board's time
pass (heartbeats, a flickering sensor) and ``health()`` like the bridge's. Line faults:
dropped bytes, flipped bits, duplicated and reordered frames (stalls and disconnects
need the pty board).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from firmware_bridge.link import LinkState
from firmware_bridge.positions import NotchMap, check_board_position
from hardware.sim.board_model import BoardModel
from hardware.sim.faults import FaultInjector, Faults
from hardware.sim.top_holes import HoleFaults, TopHoles
from table.observations import Observation

MAX_ROUNDS = 50  # exchanges per call; a healthy line is quiet after two or three
STEP_S = 0.1     # when the clock jumped, the board and the bridge live through it in steps


class InlineBoard:
    """Board model + top-hole sensors + faulty line + bridge logic, run synchronously."""

    def __init__(self, on_observation: Callable[[Observation], None], *, clock: Callable[[], float] = time.monotonic,
                 faults: Faults | None = None, hole_faults: HoleFaults | None = None, seed: int = 0,
                 slides_start: tuple[int, ...] = (0,) * 6, board_start: int = 2, notch_offset: int = -2,
                 notches: int = 5, holes: int = 7, known_positions: dict[str, object] | None = None):
        if len(slides_start) != 6:
            raise ValueError(f"slides_start needs 6 offsets, got {len(slides_start)}")
        self.notch_map = NotchMap(notch_offset=notch_offset, notches=notches)
        self.faults = faults if faults is not None else Faults()
        self.hole_faults = hole_faults if hole_faults is not None else HoleFaults()
        self._on_observation = on_observation
        self._clock = clock
        rng = random.Random(seed)
        self._down = FaultInjector(self.faults, random.Random(rng.random()))
        self._up = FaultInjector(self.faults, random.Random(rng.random()))
        self._holes = TopHoles(holes, faults=self.hole_faults, rng=random.Random(rng.random()))
        self._model = BoardModel(notches=tuple(self.notch_map.to_notch(o) for o in slides_start),
                                 board=check_board_position(board_start), notch_count=notches, holes=holes)
        self.link = LinkState(notch_map=self.notch_map, holes=holes, known_positions=known_positions)
        self._made_at = self._boot_at = self._last = clock()
        self._holes.reboot(0)
        self.link.on_connect(self._now())
        self._exchange(self._model.boot(0, "p"))

    # ---- what happens to the board --------------------------------------------------

    def set_slide(self, slide: int, offset: int) -> None:
        notch = self.notch_map.to_notch(offset)
        frames = []
        if slide == 1 and self._model.notches[0] is not None:
            frames += self._count(self._holes.carry(notch - self._model.notches[0], self._sensor_ms()))
        self._exchange(frames + self._model.set_slide(slide, notch, self._ms()))

    def set_board(self, position: int) -> None:
        self._exchange(self._model.set_board(check_board_position(position), self._ms()))

    def drop_peg(self, column: int, *, rests: bool = False) -> None:
        """A peg goes into the top hole over ``column``; ``rests``: it stays in view
        until :meth:`clear_hole` or a move of the top slide (as ``SimulatedBoard``)."""
        self._exchange(self._count(self._holes.drop(column, self._sensor_ms(), rests=rests)))

    def clear_hole(self, column: int) -> None:
        self._exchange(self._count(self._holes.clear(column, self._sensor_ms())))

    def reset(self) -> None:
        """The MCU restarts: HELLO why=boot, then a full state."""
        self._boot_at = self._clock()
        self._holes.reboot(self._sensor_ms())
        self._down.discard_held()
        self._exchange(self._model.boot(0, "e"))

    def advance(self) -> None:
        """Let the board's time pass up to the clock's now: scheduled sensor readings,
        heartbeats, the bridge's retries. Call it whenever the clock moved."""
        self._exchange([])

    # ---- what is known --------------------------------------------------------------

    def positions(self) -> dict[str, object]:
        """The true positions (``SimulatedBoard.positions``); the bridge's view is
        ``link.positions()``."""
        notches, board = self._model.state()
        return {"slides": {i: self.notch_map.to_offset(n) for i, n in enumerate(notches, 1)}, "board": board}

    def drop_counts(self) -> tuple[int, ...]:
        """Drops the firmware counted per top hole since boot."""
        return tuple(self._model.drops)

    @property
    def hole_stats(self) -> dict[str, int]:
        return dict(self._holes.stats)

    def health(self) -> dict[str, object]:
        return self.link.health.to_dict(self._now(), self.link.parser.counters())

    # ---- inside ---------------------------------------------------------------------

    def _now(self) -> float:
        return self._clock()

    def _ms(self, at: float | None = None) -> int:
        return int(((self._clock() if at is None else at) - self._boot_at) * 1000)

    def _sensor_ms(self, at: float | None = None) -> int:
        return int(((self._clock() if at is None else at) - self._made_at) * 1000)

    def _count(self, columns: list[int], at: float | None = None) -> list[bytes]:
        return [frame for column in columns for frame in self._model.drop(column, self._ms(at))]

    def _exchange(self, frames: list[bytes]) -> None:
        """What the caller's event sends, after the time since the last call has passed
        (heartbeats, sensor readings and the bridge's timers at their own moments)."""
        now = self._now()
        t = self._last + STEP_S
        while t < now:
            self._round(t, self._count(self._holes.tick(self._sensor_ms(t)), t) + self._model.tick(self._ms(t)))
            t += STEP_S
        self._last = max(self._last, now)
        # The event itself was stamped with the clock's now by its caller.
        self._round(now, frames + self._count(self._holes.tick(self._sensor_ms(now)), now)
                    + self._model.tick(self._ms(now)))

    def _round(self, now: float, frames: list[bytes]) -> None:
        for _ in range(MAX_ROUNDS):
            data = self._down.transmit(frames) + self._down.flush()
            for obs in self.link.feed(data, now, now) if data else []:
                self._on_observation(obs)
            self.link.tick(now)
            out = self.link.take_outgoing()
            if not out:
                return
            frames = self._model.receive(self._up.transmit([out]) + self._up.flush(), self._ms(now))
