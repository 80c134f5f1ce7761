"""One live loop for every simulated table the camera films (``passetable run --sim --game G
--camera``): the Pass Pass, Passe Éclair and PtiPassPass camera tables step at a human pace
in a background thread, and leave alone a game someone else started on the page.

    >>> thread = FilmedTableThread(session, lambda: CameraPassPassTable(session, model),  # doctest: +SKIP
    ...                            pace=2.0, restart_after=20.0, name="sim-pp-camera", what="Pass Pass camera")
    >>> thread.start()                                                                     # doctest: +SKIP
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from table.simulation import PlayerThread

log = logging.getLogger(__name__)


class FilmedTableThread(PlayerThread):
    """A filmed simulated table at a human pace: a step every ``pace`` seconds, a new game
    ``restart_after`` seconds after one ends; a game someone else started is left alone until
    it ends.

    ``make()`` builds the table inside the thread (enrolling a rendered deck takes seconds).
    The table has ``new_game()``, ``truth`` (its players' game; None before the first),
    ``tick()`` (one step) and, if it holds pins, ``close()``."""

    def __init__(self, session: Any, make: Callable[[], Any], *, pace: float, restart_after: float | None,
                 name: str, what: str):
        super().__init__()
        self.session, self.make, self.pace, self.restart_after = session, make, pace, restart_after
        self.thread_name, self.what = name, what
        self.table: Any = None
        self._game_seq = -1

    def _run(self) -> None:
        try:
            self.table = self.make()
        except Exception:  # a simulated table must never take the service down
            log.exception("the simulated %s table could not start", self.what)
            return
        try:
            while not self._stop.is_set():
                try:
                    self._step()
                except Exception:
                    log.exception("simulated %s table failed", self.what)
                    self._stop.wait(1.0)
                self._stop.wait(self.pace)
        finally:
            close = getattr(self.table, "close", None)
            if close is not None:
                close()

    def _step(self) -> None:
        table, truth = self.table, self.table.truth
        if truth is None or (truth.is_over() and self.session.game_seq == self._game_seq):
            if truth is not None and self._stop.wait(self.restart_after or 0.0):
                return
            table.new_game()
            self._game_seq = self.session.game_seq
        elif self.session.game_seq != self._game_seq:
            self._stop.wait(0.5)   # someone else's game
            return
        table.tick()


class LiveCardTable:
    """What :class:`FilmedTableThread` needs of a card table that steps with figures
    (``step(figures)``) and keeps its players' game in ``mind``."""

    mind: Any
    Figures: type   # the table's figures (a bench keeps one per round; a live table none)

    @property
    def truth(self) -> Any:
        """The simulated players' game (None before the first)."""
        return self.mind

    def tick(self) -> None:
        """One step of a live table; its figures are not kept."""
        self.step(self.Figures())   # type: ignore[attr-defined]


class FrameClock:
    """A simulated camera's clock: each frame 1/fps after the last (a bench's start at 0 and
    never look at the wall, so a run is the same on a slow machine); a live table's
    (``clock``: the session's) start at the wall's time and catch up with it between moves."""

    t: float = 0.0
    clock: Callable[[], float] | None = None

    def start_clock(self, clock: Callable[[], float] | None) -> None:
        self.clock = clock
        self.t = 0.0 if clock is None else clock()

    def catch_up(self) -> None:
        """Rendering is slower than 30 frames a second, and a person's tap on the page is
        stamped with the wall's time: the camera's facts must not fall behind it."""
        if self.clock is not None:
            self.t = max(self.t, self.clock())
