"""The simulated PtiPassPass table seen by a camera and heard through the seats' buttons.

The players keep the whole table in their heads (a full-knowledge engine: every token's
colour) and pick random legal steps (``table.ptipasspass.playout.choose_action``). Each
step is carried out on the *physical* table only:

* the cup grid is drawn from above (:class:`vision.synth.cups.CupScene`: a hand on the
  named cup, cups lifted with their tokens showing, two cups slid away for a swap, a token
  held up over the cup on "Menteur !") and every frame goes through the real pipeline
  (calibration from the markers, :class:`vision.cups.CupWatcher` with its stability
  filter) into the session;
* what is said aloud is pressed on gpiozero ``MockFactory`` pins of
  :class:`hardware.gpio.seat_buttons.SeatButtons` (OK from every other seat, the active
  player's colour as 1–3 OK presses, a call button), stamped by the table's clock.

Nothing is typed: the session sees only ``camera`` and ``gpio`` facts (and the setup
form's ``game_start``). An alert the page raises is answered the way a player would tap
(``done``) and counted.

Faults (``faults="peek@0.1,race@0.5,burst@0.2"``): ``peek`` — before a turn, another player
lifts a cup and puts it back (the page alerts: one tap); ``race`` — on a call, a second
seat presses its call button 3 ms after the first (the earlier edge must win); ``burst``
— the camera drops the first frames of a change (it stalls); ``glare`` — a bright specular
spot (:class:`hardware.sim_cards.Glare`) lies over a cup the change is about (or another
cup of the grid) for the first frames of the change.

    >>> table = CameraPtiPassPassTable(session, seed=2)     # doctest: +SKIP
    >>> figures = table.play_round()                        # doctest: +SKIP
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from hardware.glare import GlareHold
from hardware.gpio.mock_pins import simulated_pins
from hardware.gpio.seat_buttons import DEFAULT_SEAT_PINS, SeatButtons
from hardware.sim_cards import Glare
from hardware.sim_cards import parse_faults as parse_camera_faults
from hardware.sim_page import PageTaps
from hardware.sim_thread import FilmedTableThread
from table.observations import Observation
from table.ptipasspass import new_game
from table.ptipasspass.playout import choose_action
from table.ptipasspass.presses import BUTTON, PRESS_COLOURS
from table.session import Session
from table.timers import ManualClock

log = logging.getLogger(__name__)

GAME = "ptipasspass"
NAMES = ("Ana", "Bruno", "Chloé", "David", "Emma", "Farid")
MAX_FRAMES = 30          # a second of frames at most per change: the players wait that long
FAULT_KINDS = ("peek", "race", "burst", "glare")
BURST_FRAMES = 8
PRESS_S, GAP_S = 0.12, 0.15


def parse_faults(spec: str | None) -> dict[str, float]:
    """``"peek@0.1,race"`` → {kind: probability}.

        >>> parse_faults("peek@0.1, race")
        {'peek': 0.1, 'race': 1.0}
    """
    return parse_camera_faults(spec, FAULT_KINDS, "PtiPassPass")


@dataclass
class RoundFigures:
    moves: int = 0             # engine steps of the truth
    untapped: int = 0          # moves the page showed right with no tap
    taps: int = 0              # alerts or questions answered on the page
    alerts: int = 0
    wrong: list[str] = field(default_factory=list)   # what the page showed that the truth contradicts
    frames: int = 0
    presses: int = 0
    pipeline_s: float = 0.0    # time spent in the vision pipeline (CupWatcher.process)
    glare_frames: int = 0      # frames shown with a glare spot (the ``glare`` fault)
    refused: list[str] = field(default_factory=list)   # answers the page refused (asked again after)


class CameraPtiPassPassTable:
    """Simulated players whose game only the camera and the seat buttons report."""

    def __init__(self, session: Session, *, seed: int = 1, players: tuple[int, ...] = (3, 4, 5, 6),
                 clock: ManualClock | None = None, faults: str | None = None):
        from vision.calibration import calibrate
        from vision.cups import CupColours, CupWatcher
        from vision.synth.cups import CupScene

        self.session, self.rng = session, random.Random(seed)
        self.faults = parse_faults(faults)
        self.players_choice = players
        self.clock = clock or ManualClock(1_700_000_000.0)
        self.factory = simulated_pins()
        self.buttons = SeatButtons([tuple(p) for p in DEFAULT_SEAT_PINS], on_press=self._pressed, clock=self.clock,
                                   pin_factory=self.factory)
        all_cells = [(r, c) for r in range(3) for c in range(6)]
        self.scene = CupScene(np.random.default_rng(seed), all_cells, t0=self.clock())
        cal = calibrate(self.scene.shot, self.scene.profile)
        self._watcher_args = (CupColours.from_shot(self.scene.shot, cal, self.scene.profile), cal, self.scene.profile)
        self._watcher_cls = CupWatcher
        self.watcher = None
        self.truth = None
        self.figures: list[RoundFigures] = []
        self.fig = RoundFigures()
        self.page = PageTaps()
        self.record: list | None = None   # when a list: every frame the pipeline saw, and every press, in order

    # ---------------------------------------------------------------- transports
    def _pressed(self, seat: int, role: str, t: float) -> None:
        if self.record is not None:
            self.record.append({"seat": seat, "button": role})
        self.session.submit(Observation(kind=BUTTON, t=t, source="gpio", data={"seat": seat, "button": role}))

    def press(self, seat: int, role: str) -> None:
        """A finger on a seat's button: the pin goes low, then high (edges on the table's clock)."""
        pin = DEFAULT_SEAT_PINS[seat][0 if role == "call" else 1]
        self.factory.pin(pin).drive_low()
        self.clock.advance(PRESS_S)
        self.factory.pin(pin).drive_high()
        self.clock.advance(GAP_S)
        self.fig.presses += 1

    def show(self, until: dict | None = None) -> None:
        """Camera frames of the grid as it stands until the watcher reports each cell of
        ``until`` in that state (``"open"``, ``"cup"``, ``"hand"``, ``"token"``)."""
        self.scene.t = self.clock()
        image = self.scene.image()
        lost = BURST_FRAMES if self._hit("burst") else 0
        glare = self._glare(until)
        spot = glare.layer(image.shape, self.scene.view) if glare is not None else None
        for i, frame in enumerate(self.scene.frames(MAX_FRAMES + lost, image)):
            if i < lost:
                continue   # a stalled camera: these frames never reach the pipeline
            if spot is not None and i < lost + glare.frames:
                frame = replace(frame, image=cv2.add(frame.image, spot))
                self.fig.glare_frames += 1
            if self.record is not None:
                self.record.append(frame.image)
            started = time.perf_counter()
            facts = self.watcher.process(frame)
            self.fig.pipeline_s += time.perf_counter() - started
            for obs in facts:
                self.session.submit(obs)
            self.fig.frames += 1
            if i >= lost + 3 and all(self.watcher.state[c][0] == s for c, s in (until or {}).items()):
                break
        self.clock.advance(max(0.0, self.scene.t - self.clock()))

    def _glare(self, until: dict | None) -> Glare | None:
        """The ``glare`` fault's spot for this change: over a cup it is about (half the
        time) or any cup of the grid, for at most two thirds of ``MAX_FRAMES``. Not over
        the grid being set out for a game (``until`` None: the camera has no clear look
        of the cups down yet)."""
        if until is None or not self._hit("glare"):
            return None
        cells = list(until) if until and self.rng.random() < 0.5 else list(self.scene.cells)
        x0, y0, x1, y1 = self.scene.profile.cell_rect_mm(*self.rng.choice(cells))
        spot = Glare.drawn(self.rng, ((x0 + x1) / 2, (y0 + y1) / 2))
        return replace(spot, frames=min(spot.frames, MAX_FRAMES * 2 // 3))

    def _hit(self, kind: str) -> bool:
        p = self.faults.get(kind, 0.0)
        return p > 0 and self.rng.random() < p

    # ---------------------------------------------------------------- games
    def new_game(self) -> None:
        players = self.rng.choice(self.players_choice)
        first = self.rng.randrange(players)
        self.session.start_game(GAME, {"players": players, "first": first, "names": list(NAMES[:players])},
                                source="dashboard", t=self.clock())   # the setup form: a person's tap
        self.truth = new_game(players, first=first)
        self.scene.cells = list(self.truth.layout.cells)
        self.scene.tokens, self.scene.lifted = {}, set()
        self.scene.hand = self.scene.held = None
        colours, cal, profile = self._watcher_args
        self.watcher = GlareHold(self._watcher_cls(colours, cal, profile, cells=self.scene.cells), cal, profile,
                                 self.scene.shot)   # as a real table's cup reader (hardware.camera.cup_watcher)
        self.show()

    def play_round(self) -> RoundFigures:
        """Play until the round (or the game) ends; a new game starts if none is running."""
        if self.truth is None or self.truth.is_over():
            self.new_game()
        self.fig = RoundFigures()
        self.figures.append(self.fig)
        start = self.truth.round
        while not self.truth.is_over() and self.truth.round == start:   # NextRound ends it
            self.step()
        return self.fig

    def tick(self) -> None:
        """One step of a live table (:class:`~hardware.sim_thread.FilmedTableThread`), its
        clock first brought to the wall's (the pause between steps)."""
        self.clock.advance(max(0.0, time.time() - self.clock()))
        self.step()

    def step(self) -> None:
        truth = self.truth
        action = choose_action(truth, self.rng)
        name = type(action).__name__
        getattr(self, "_do_" + name)(action)
        self.fig.moves += 1
        tapped = self._answer()
        self._check(tapped)

    # ---------------------------------------------------------------- each step, physically
    def _others(self) -> list[int]:
        seats = [s for s in range(self.truth.players) if s != self.truth.active]
        self.rng.shuffle(seats)
        return seats

    def _sync_tokens(self) -> None:
        self.scene.tokens = {cell: list(tokens) for cell, tokens in self.truth.cups.items()}

    def _do_Place(self, a) -> None:
        if self._hit("peek"):   # someone peeks under a cup out of turn, then puts it back
            cell = self.rng.choice(self.scene.cells)
            self._sync_tokens()
            self.scene.lifted.add(cell)
            self.show({cell: "open"})
            self.scene.lifted.discard(cell)
            self.show({cell: "cup"})
        self.scene.hand = a.cup
        self.show({a.cup: "hand"})
        self.scene.hand = None
        self.show({a.cup: "cup"})
        self.truth.apply(a)

    def _do_Pass(self, a) -> None:
        for seat in self._others():
            self.press(seat, "ok")
        self.truth.apply(a)
        self._sync_tokens()   # the token went in through the cup's pierced bottom: unseen

    def _do_AnnounceColour(self, a) -> None:
        for _ in range(PRESS_COLOURS.index(a.colour) + 1):
            self.press(a.seat, "ok")
        self.truth.apply(a)

    def _call(self, seat: int) -> None:
        """The caller's button; with ``race`` a second seat's 3 ms later (it must lose)."""
        rivals = [s for s in range(self.truth.players) if s not in (seat, self.truth.active)]
        if not rivals or not self._hit("race"):
            self.press(seat, "call")
            return
        first, second = (DEFAULT_SEAT_PINS[s][0] for s in (seat, self.rng.choice(rivals)))
        self.factory.pin(first).drive_low()
        self.clock.advance(0.003)
        self.factory.pin(second).drive_low()
        self.clock.advance(PRESS_S)
        self.factory.pin(first).drive_high()
        self.factory.pin(second).drive_high()
        self.clock.advance(GAP_S)
        self.fig.presses += 2

    def _do_CallDoublon(self, a) -> None:
        cup = self.truth.turn.cup
        self._call(a.seat)
        self._sync_tokens()
        self.scene.lifted.add(cup)
        self.show({cup: "open"})
        self.truth.apply(a)
        self._sync_tokens()             # the active player took what was there (or nothing)
        self.scene.lifted.discard(cup)
        self.show({cup: "cup"})

    def _do_CallMenteur(self, a) -> None:
        cup, held = self.truth.turn.cup, self.truth.turn.held
        self._call(a.seat)
        self.scene.held = (cup, held)
        self.show({cup: "token"})
        self.scene.held = None
        self.show({cup: "cup"})
        self.truth.apply(a)

    def _do_Swap(self, a) -> None:
        self._sync_tokens()
        for cell in (a.a, a.b):   # the tokens slide away under their cups: two bare cells
            self.scene.tokens.pop(cell, None)
        self.scene.lifted |= {a.a, a.b}
        self.show({a.a: "open", a.b: "open"})
        self.truth.apply(a)
        self._sync_tokens()
        self.scene.lifted -= {a.a, a.b}
        self.show({a.a: "cup", a.b: "cup"})

    def _do_Reveal(self, a) -> None:
        self._sync_tokens()
        cells = list(a.line)
        self.rng.shuffle(cells)
        for cell in cells:   # one cup after the other
            self.scene.lifted.add(cell)
            self.show({cell: "open"})
        self.truth.apply(a)
        if self.truth.phase not in ("round_over", "over"):
            self.scene.lifted -= set(cells)
            self.show({c: "cup" for c in cells})

    def _do_AbandonRound(self, a) -> None:
        for seat in range(self.truth.players):
            self.press(seat, "ok")
        self.truth.apply(a)

    def _do_NextRound(self, a) -> None:
        self.truth.apply(a)
        self._sync_tokens()   # tokens gathered, every cup down and empty
        self.scene.lifted = set()
        self.show({c: "cup" for c in self.scene.cells})
        self.press(self.rng.randrange(self.truth.players), "ok")

    # ---------------------------------------------------------------- the page
    def _answer(self) -> bool:
        """Tap away the page's open alerts as a player would; True if any was there."""
        tapped = False
        for alert in self.session.snapshot()["alerts"]:
            self.fig.alerts += self.page.first_look(alert)
            choice = alert["choices"][0]["id"] if alert.get("choices") else "done"
            if self.page.tap(self.session, alert, choice, source="dashboard", t=self.clock(), refused=self.fig.refused):
                self.fig.taps += 1
                tapped = True
        return tapped

    def _check(self, tapped: bool) -> None:
        """The page against the truth once the step is carried out: victory tokens, round,
        whose turn, the phase, every hand's size and every cup's count."""
        shown, truth = self.session.snapshot()["view"], self.truth
        wanted = {"victory_tokens": truth.victory_tokens, "round": truth.round, "active": truth.active,
                  "phase": truth.phase, "hands": [sum(h.values()) for h in truth.hands],
                  "cups": [len(truth.cups[c]) for c in truth.layout.cells]}
        got = {"victory_tokens": shown.get("victory_tokens"), "round": shown.get("round"),
               "active": shown.get("active"), "phase": shown.get("phase"),
               "hands": [h["size"] for h in shown.get("hands") or []],
               "cups": [c["count"] for c in shown.get("cups") or []]}
        if truth.phase == "menteur_window" and got["phase"] == "announce" and \
                shown["presses"]["colour_presses"] == PRESS_COLOURS.index(truth.turn.announced) + 1:
            got["phase"] = "menteur_window"   # the colour is pressed; it is taken at the next seat's press
        bad = {k: (got[k], v) for k, v in wanted.items() if got[k] != v}
        if bad:
            self.fig.wrong.append(f"{bad}")
        elif not tapped:
            self.fig.untapped += 1

    def close(self) -> None:
        self.buttons.close()
        self.factory.reset()


# --------------------------------------------------------------------------- passetable run --sim
def make_simulation(session: Session, *, pace: float = 2.0, seed: int | None = None,
                    restart_after: float | None = 20.0, camera: bool = False, **kw: Any) -> Any:
    """What ``passetable run --sim --game ptipasspass`` starts: the typed-entries table
    (``table/ptipasspass/sim.py``), or with ``--camera`` this filmed and buttoned one."""
    from table.ptipasspass.sim import make_simulation as typed_table

    if not camera:
        return typed_table(session, pace=pace, seed=seed, restart_after=restart_after, **kw)
    parse_faults(kw.get("faults"))   # an unknown fault fails at start, not in the players' thread
    seed = seed if seed is not None else random.randrange(2**31)
    faults = kw.get("faults") or ""
    return FilmedTableThread(session, lambda: CameraPtiPassPassTable(session, seed=seed, clock=_WallClock(),
                                                                     faults=faults),
                             pace=pace, restart_after=restart_after, name="sim-ptipasspass-camera",
                             what="PtiPassPass camera")


class _WallClock(ManualClock):
    """Live runs: the facts carry the wall clock, moved on by the presses and frames."""

    def __init__(self) -> None:
        super().__init__(time.time())
