"""The simulated Passe-Murailles table: a physical frame and two simulated players.

The players know the rules (they keep their own :class:`~table.passe_murailles.Game`,
as people do in their heads) and play legal moves at a human pace. Each move is carried
out on the *physical* frame (a :class:`~table.passe_murailles.Frame`, pure physics), and
what the physics does is reported the way the real sensors would report it, through a
:class:`SensorOutputs`: slide and board positions and pegs going into the top holes as
inputs of the simulated sensor board (the real protocol, read by the real bridge: source
``serial``), pegs passing the beams as pulses on GPIO pins (source ``gpio``). Nothing
reaches the session by any other way; the session turns those facts into moves by whose
turn it is and never looks at this object.

    >>> from hardware.sim.inline_board import InlineBoard
    >>> from table.timers import ManualClock
    >>> clock = ManualClock()
    >>> board = InlineBoard(session.submit, clock=clock)       # the board's protocol, in this thread
    >>> table = SimulatedTable(session, SerialBoardSensors(board), pace=0.0, seed=1, clock=clock)
    >>> clock.sleep(0.3); table._resume_or_start(); table.play_one()     # the first move is a drop
    >>> [(o.kind, o.source, o.data["column"]) for o in session.log.read() if o.kind == "peg_drop"]
    [('peg_drop', 'serial', 2)]

Faults can be switched on to see the session catch them (``faults="miss=3,jam@0.1"``,
see :class:`Faults`): a beam that misses pegs, a beam that chatters, a peg that jams in
a slide and falls late, and the top-hole sensors' faults (``hole_miss``,
``hole_chatter``, ``hole_overlap``: a sensor that misses a peg, one that chatters and
may count a flicker as a drop, a peg dropped while the previous one is still in view).
With a :class:`~table.timers.ManualClock` the table runs in virtual time
(``play_game()`` plays a whole game at once, as fast as the CPU goes).
"""

from __future__ import annotations

import copy
import logging
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Protocol

from hardware.sim.top_holes import HoleFaults
from table import observations as K
from table.observations import Observation
from table.passe_murailles import (
    DropPeg,
    Frame,
    Landed,
    MoveSlide,
    PushedOff,
    load_profile,
    new_game,
)
from table.passe_murailles.actions import action_from_dict
from table.passe_murailles.spec import SPEC
from table.session import Session
from table.simulation import PlayerThread
from table.timers import RealClock

log = logging.getLogger(__name__)

GAME = SPEC.id
SAME_HOLE_S = 1.0  # the least time between two pegs dropped into one top hole by the simulated hands
PEG_SEEN = K.PEG_SEEN  # the camera's kind (vision/pipeline.py): {column, colour}
SHADE_PER_SLIDE = 0.8  # light left on a peg head per slide it sits under the top one


class SensorOutputs(Protocol):
    """How the simulated frame's sensors report (:class:`SerialBoardSensors`, and
    :class:`hardware.gpio.sim_pins.GpioSensors` for the beams on mock pins)."""

    def slide(self, number: int, offset: int) -> None: ...
    def board(self, position: int) -> None: ...
    def peg_drop(self, column: int, *, rests: bool = False) -> None: ...
    def hole_cleared(self, column: int) -> None: ...
    def beam(self, column: int, *, bounces: int = 0) -> None: ...
    def side_spill(self, side: str) -> None: ...
    def advance(self) -> None: ...


class CameraStandIn:
    """The camera's ``peg_seen`` for fast tests, **not** a real transport: it hands each
    colour newly in a top hole straight to the session, with its own source
    (``sim-camera``) so that a log shows it for what it is. ``passetable run --sim`` uses
    :class:`RenderedCamera` instead.

    ``delay``: how long after the peg came to rest the camera reports it (its stability
    filter waits a few frames)."""

    def __init__(self, session: Session, clock: Any, *, delay: float = 0.1, source: str = "sim-camera"):
        self.session = session
        self.clock = clock
        self.delay = delay
        self.source = source
        self.seen = 0
        self._shown: set[tuple[int, str, int]] = set()

    def show(self, pegs: dict[int, str], depths: dict[int, int] | None = None) -> None:
        """The colours now seen down the top holes (column → colour; ``depths``: the
        slide each is in, which the camera reads from how dark the peg head is, as
        ``vision.tokens.peg_depth`` does): a colour, or the same colour at another
        depth, is news (the stability filter keys on column, colour and depth)."""
        depths = depths or {}
        now = {(column, colour, depths.get(column, 1)) for column, colour in pegs.items()}
        new = sorted(now - self._shown)
        self._shown = now
        if new and self.delay:
            self.clock.sleep(self.delay)
        for column, colour, slide in new:
            self.seen += 1
            self.session.submit(Observation.now(PEG_SEEN, source=self.source, t=self.clock(), column=column,
                                                colour=colour, slide=slide))




class RenderedCamera:
    """The camera witness through the real vision code: each time the top holes change,
    frames of the frame are rendered (``vision.synth``: the table's markers, the holes,
    the peg heads, seen by a tilted camera with light and noise) and go through the
    calibration, colour model and :class:`vision.pipeline.TableWatcher` that a real
    camera's frames go through; its ``peg_seen`` (source ``camera``) reach the session.

        >>> from table.timers import ManualClock
        >>> clock = ManualClock()
        >>> camera = RenderedCamera(session, clock, seed=1)   # a calibration shot is rendered and fitted
        >>> camera.show({2: "red", 4: "blue"})
        >>> [(o.kind, o.source, o.data["column"], o.data["colour"]) for o in session.log.read()]
        [('peg_seen', 'camera', 2, 'red'), ('peg_seen', 'camera', 4, 'blue')]
        >>> camera.show({2: "red", 4: "blue"}); camera.frames      # nothing changed: no frame
        5
        >>> camera.show({4: "blue"}); camera.show({4: "blue", 2: "blue"})
        >>> [o.data["colour"] for o in session.log.read()]
        ['red', 'blue', 'blue']
    """

    CALIBRATION_TOKENS = {(0, 0): ["blue"], (0, 1): ["green"], (0, 2): ["orange"]}
    CALIBRATION_CUPS = frozenset({(0, 4)})
    CALIBRATION_PEGS = {0: "red", 1: "blue"}

    def __init__(self, session: Session, clock: Any, *, seed: int = 1, fps: float = 30.0, appear_frames: int = 3,
                 vanish_frames: int = 5):
        import numpy as np

        from hardware.sim.camera_rig import place_camera
        from vision.pipeline import TableWatcher
        from vision.profile import TableProfile
        from vision.synth.items import peg_discs, token_discs
        from vision.synth.scene import SceneStyle, render_table
        from vision.tokens import ColourModel

        self.session, self.clock, self.fps = session, clock, fps
        self.profile = TableProfile.load()
        self._rng = np.random.default_rng(seed)
        # the colour shot has a token of each colour and a peg of each player in place
        discs = token_discs(self.profile, self.CALIBRATION_TOKENS, self.CALIBRATION_CUPS)
        rig = place_camera(self._rng, self.profile, discs=discs + peg_discs(self.profile, self.CALIBRATION_PEGS))
        self._view, self.placings = rig.view, rig.placings
        shot, calibration, pictures, background = rig.shot, rig.calibration, rig.pictures, rig.background
        colours = ColourModel.from_shot(shot, calibration, self.profile)
        # The still part of every frame (markers, cloth, empty holes), drawn once and not yet lit: each frame
        # adds the peg heads, then its light, blur and noise fall on all of it at once (lit twice, the frame
        # around a hole was darker or brighter than a peg head in it, which no real camera sees).
        unlit = SceneStyle(gradient_max=0.0, cast_max=0.0, glare_prob=0.0, blur_max=0.0, motion_blur_prob=0.0,
                           noise_max=0.0, jpeg_quality=(100, 100))
        self._base = render_table([], self._view, self._rng, unlit, pictures=pictures, background=background,
                                  discs=peg_discs(self.profile, {})).image
        self._render, self._pegs, self._style = render_table, peg_discs, SceneStyle.clean()
        self.watcher = TableWatcher(None, calibration, self.profile, colours=colours, watch_holes=True,
                                    appear_frames=appear_frames, vanish_frames=vanish_frames)
        self._frames_per_change = max(appear_frames, vanish_frames)
        self._shown: dict[int, tuple[str, int]] | None = None
        self.frames = 0

    def show(self, pegs: dict[int, str], depths: dict[int, int] | None = None) -> None:
        """The colours now seen down the top holes (column → colour; ``depths``: the
        slide each peg is in, drawn darker the deeper it is): frames until the watcher
        has settled on them."""
        from vision.sources import Frame

        depths = depths or {}
        pegs = {c: colour for c, colour in pegs.items() if c < self.profile.frame_holes}
        shown = {c: (colour, depths.get(c, 1)) for c, colour in pegs.items()}
        if shown == self._shown:
            return
        self._shown = shown
        radius = self.profile.frame_hole_radius_mm
        heads = [self._shaded(d, depths.get(c, 1)) for c, d in
                 zip(sorted(pegs), (d for d in self._pegs(self.profile, pegs) if d.radius_mm < radius))]
        for _ in range(self._frames_per_change):
            self.clock.sleep(1.0 / self.fps)
            image = self._render([], self._view, self._rng, self._style, discs=heads, background=self._base).image
            self.frames += 1
            for obs in self.watcher.process(Frame(image, self.clock(), self.frames)):
                self.session.submit(obs)

    @staticmethod
    def _shaded(disc: Any, slide: int) -> Any:
        """A peg head down a hole: each slide above it takes away some light."""
        from dataclasses import replace

        keep = SHADE_PER_SLIDE ** (slide - 1)
        return replace(disc, bgr=tuple(int(v * keep) for v in disc.bgr))


FAULT_KINDS = ("miss", "chatter", "jam")
HOLE_FAULT_KINDS = ("hole_miss", "hole_chatter", "hole_overlap")


@dataclass(frozen=True)
class Fault:
    """One switched-on fault: ``kind`` over ``column`` (0-based; None: every column),
    happening to each peg passing there with ``probability``."""

    kind: str
    column: int | None
    probability: float


@dataclass(frozen=True)
class Faults:
    """The faults of a simulated table, parsed from a short text.

    ``"miss=3"``: the beam under column 3 (numbered from 1, as on the frame) misses every
    peg; ``"chatter=2@0.5"``: the beam under column 2 bounces on half its pegs, and after
    half of those it also flickers by itself a moment later (a dirty beam); ``"jam@0.1"``: one peg in ten, any column,
    jams in a slide and falls ``jam_delay`` seconds late. The top-hole sensors:
    ``"hole_miss@0.1"`` (a drop not seen), ``"hole_chatter@0.2"`` (a bouncing reading,
    half of them followed by a flicker the firmware counts as a drop),
    ``"hole_overlap@0.1"`` (a peg dropped while the previous one is still in view). The
    probability defaults to 1 with a column and 0.2 without.

        >>> Faults.parse("miss=3, jam@0.1").items[0]
        Fault(kind='miss', column=2, probability=1.0)
        >>> Faults.parse("hole_miss=4@0.5, hole_chatter@0.1").hole_faults()
        HoleFaults(miss=0.5, chatter=0.1, overlap=0.0, holes=None)
    """

    items: tuple[Fault, ...] = ()
    jam_delay: float = 2.0

    @classmethod
    def parse(cls, spec: Faults | str | None, jam_delay: float = 2.0) -> Faults:
        if isinstance(spec, Faults):
            return spec
        items = []
        for part in (spec or "").replace(";", ",").split(","):
            part = part.strip()
            if part:
                items.append(_parse_fault(part))
        return cls(tuple(items), jam_delay)

    def hits(self, kind: str, column: int, rng: random.Random) -> bool:
        """Whether fault ``kind`` strikes a peg passing over ``column`` (draws from ``rng``)."""
        return any(f.kind == kind and f.column in (None, column) and rng.random() < f.probability
                   for f in self.items)

    def hole_faults(self) -> HoleFaults:
        """The top-hole faults for the simulated sensor board (``holes``: the columns
        named, or None when any item names no column)."""
        rates = {kind: 0.0 for kind in HOLE_FAULT_KINDS}
        columns: set[int] | None = set()
        for f in self.items:
            if f.kind in rates:
                rates[f.kind] = max(rates[f.kind], f.probability)
                if f.column is None:
                    columns = None
                elif columns is not None:
                    columns.add(f.column)
        return HoleFaults(miss=rates["hole_miss"], chatter=rates["hole_chatter"], overlap=rates["hole_overlap"],
                          holes=None if not columns else frozenset(columns))

    def describe(self) -> str:
        return ", ".join(f"{f.kind}{'' if f.column is None else f'={f.column + 1}'}@{f.probability:g}"
                         for f in self.items) or "none"


def _parse_fault(part: str) -> Fault:
    where, _, chance = part.partition("@")
    kind, _, column = where.partition("=")
    kind = kind.strip()
    if kind not in FAULT_KINDS + HOLE_FAULT_KINDS:
        raise ValueError(f"unknown fault {kind!r} in {part!r} (faults: {', '.join(FAULT_KINDS + HOLE_FAULT_KINDS)})")
    try:
        col = int(column) - 1 if column.strip() else None
        probability = float(chance) if chance.strip() else (1.0 if col is not None else 0.2)
    except ValueError:
        raise ValueError(f"fault {part!r}: write kind[=column][@probability], e.g. miss=3@0.5") from None
    if col is not None and col < 0:
        raise ValueError(f"fault {part!r}: columns are numbered from 1")
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"fault {part!r}: a probability is between 0 and 1")
    return Fault(kind, col, probability)


class SerialBoardSensors:
    """Slide and board positions and top-hole drops go out through a simulated sensor
    board: ``SimulatedBoard`` (the real protocol on a pseudo-terminal, read by the real
    bridge in its thread) or ``InlineBoard`` (the same protocol and bridge logic in the
    caller's thread, for virtual time); the beams through ``rest`` (GPIO pins).

        >>> from hardware.sim_board import SimulatedBoard
        >>> board = SimulatedBoard().start()        # the firmware's protocol on a pty
        >>> sensors = SerialBoardSensors(board)
        >>> sensors.slide(3, 1); sensors.board(3)   # to the board, which reports them on its port
        >>> board.positions()
        {'slides': {1: 0, 2: 0, 3: 1, 4: 0, 5: 0, 6: 0}, 'board': 3}
        >>> import time; time.sleep(0.25)           # the top holes are blind for 200 ms after boot
        >>> sensors.peg_drop(4, rests=True); sensors.hole_cleared(4)   # the sensor over column 4 sees a peg
        >>> board.drop_counts()
        (0, 0, 0, 0, 1, 0, 0)
        >>> board.stop()
    """

    def __init__(self, board: Any, rest: Any = None):
        self.serial_board = board
        self.rest = rest

    def slide(self, number: int, offset: int) -> None:
        self.serial_board.set_slide(number, offset)

    def board(self, position: int) -> None:
        self.serial_board.set_board(position)

    def peg_drop(self, column: int, *, rests: bool = False) -> None:
        self.serial_board.drop_peg(column, rests=rests)

    def hole_cleared(self, column: int) -> None:
        self.serial_board.clear_hole(column)

    def advance(self) -> None:
        advance = getattr(self.serial_board, "advance", None)  # the pty board keeps its own time
        if advance is not None:
            advance()

    def beam(self, column: int, **kwargs: Any) -> None:
        if self.rest is None:
            raise RuntimeError("no beams attached to this simulated table / aucun faisceau branché")
        self.rest.beam(column, **kwargs)

    def side_spill(self, side: str) -> None:
        if self.rest is None:
            raise RuntimeError("no side beams attached to this simulated table / aucun faisceau latéral branché")
        self.rest.side_spill(side)


class SimulatedTable(PlayerThread):
    """Two simulated players on a simulated frame, in a background thread.

    ``pace`` is the pause between moves in seconds (0: as fast as possible);
    ``restart_after`` the pause before a finished game is followed by a new one
    (None: never). The players prefer moves that score for them and avoid gifts to the
    opponent, with some randomness, so games look like games.

    ``faults``: see :class:`Faults`; ``clock``: a ``ManualClock`` runs the table in
    virtual time (pauses and falls take no real time); ``game_options`` are merged into
    the games it starts (e.g. ``{"beam_window_ms": 500}``). ``stats`` counts landings and
    the faults that struck."""

    def __init__(self, session: Session, sensors: SensorOutputs, *, pace: float = 2.0, seed: int | None = None,
                 profile: Any = None, restart_after: float | None = 20.0, fall_time: float = 0.05,
                 faults: Faults | str | None = None, clock: Any = None, game_options: dict[str, Any] | None = None,
                 camera: Any = None):
        super().__init__()
        self.camera = camera
        self.session = session
        self.sensors = sensors
        self.pace = pace
        self.restart_after = restart_after
        self.clock = clock if clock is not None else RealClock()
        self.virtual = bool(getattr(self.clock, "virtual", False))
        self.fall_time = fall_time if (pace > 0 or self.virtual) else 0.0
        self.faults = Faults.parse(faults)
        self.game_options = dict(game_options or {})
        self.stats: Counter[str] = Counter()
        self._later: list[tuple[float, str, int]] = []  # (due, "late" | "flicker", column)
        self.rng = random.Random(seed)
        self.fault_rng = random.Random(None if seed is None else seed + 1)  # faults do not change the play
        self.profile = load_profile(profile)
        self.frame = Frame(self.profile)       # the truth: where every part physically is
        self.mind = new_game(profile=self.profile)  # what the players know of the game
        self.moves = 0
        self._dropped_at: dict[int, float] = {}  # column -> when a peg last went into its top hole
        self._new_game = threading.Event()
        session.subscribe(self._on_observation)

    # ---------------------------------------------------------------- control
    thread_name = "sim-table"

    def _before_start(self) -> None:
        self._resume_or_start()

    def _interrupt(self) -> None:
        self._new_game.set()

    def _on_observation(self, obs: Observation, session: Session) -> None:
        if obs.kind == K.GAME_START and obs.source != "sim-table":
            self._new_game.set()  # someone pressed "new game": set the frame up again

    # ---------------------------------------------------------------- play
    def _resume_or_start(self) -> None:
        """Pick up the game the log holds (the frame is where the game left it), or
        start one."""
        record = self.session.current_game()
        if record is not None and record.game == GAME and not record.engine.is_over():
            self.mind = record.engine  # a private copy: the players' memory of the game
            self.frame = record.engine.frame.copy()
        else:
            self.session.start_game(GAME, self._options(), source="sim-table")
            self._reset_frame()

    def _options(self) -> dict[str, Any]:
        return {"profile": self.profile.to_dict(), **self.game_options}

    def play_game(self, max_moves: int = 5000) -> None:
        """Start a game and play it to the end in the calling thread (tests, the bench),
        then wait until late pegs have fallen and the beam windows have closed."""
        self.session.start_game(GAME, self._options(), source="sim-table")
        self._reset_frame()
        for _ in range(max_moves):
            if self.mind.is_over():
                break
            self.wait(self.pace)
            self.play_one()
        self.wait(self.faults.jam_delay + 1.0)

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` pass (virtual or real), letting late pegs and flickers happen."""
        end = self.clock() + seconds
        while True:
            self._emit_due()
            left = end - self.clock()
            if left <= 0 or self._stop.is_set():
                return
            step = min(left, 0.25)
            if self.virtual:
                self.clock.sleep(step)
            else:
                self._stop.wait(step)
            self.sensors.advance()

    def _reset_frame(self) -> None:
        """Put every part back to its start position, as players do before a game."""
        self.mind = new_game(profile=self.profile)
        start = Frame(self.profile)
        for column in sorted(self._top_holes()):
            self.sensors.hole_cleared(column)  # the pegs are gathered up first
        if self.camera is not None:
            self.camera.show({})
        for n in range(1, 7):
            # one notch at a time, as a hand does (the pegs were gathered up first)
            position = self.frame.offset(n)
            while position != start.offset(n):
                position += 1 if position < start.offset(n) else -1
                self.sensors.slide(n, position)
        position = self.frame.board_position
        while position != start.board_position:
            position += 1 if position < start.board_position else -1
            self.sensors.board(position)
        self.frame = start  # pegs back in the players' hands
        self._later.clear()  # a jammed peg was freed when the frame was gathered up

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._new_game.is_set():
                self._new_game.clear()
                self._reset_frame()
            if self.mind.is_over():
                if self.restart_after is None:
                    self._new_game.wait(timeout=0.5)
                    continue
                if not self._new_game.wait(timeout=self.restart_after):
                    self.session.new_game(GAME, self._options(), source="sim-table")
                    self._new_game.set()
                continue
            if self.pace:
                self.wait(self.pace)
            if self._stop.is_set() or self._new_game.is_set():
                continue
            try:
                self.play_one()
            except Exception:  # a simulated player must never take the service down
                log.exception("simulated player failed")
                self._stop.wait(1.0)

    def choose(self) -> Any:
        """A legal move, weighted towards scoring and away from gifts."""
        me = self.mind.current_player
        other = "blue" if me == "red" else "red"
        best, best_value = None, None
        for action in self.mind.legal_actions():
            trial = copy.deepcopy(self.mind)
            before = trial.scores()
            trial.apply(action)
            after = trial.scores()
            value = (after[me] - before[me]) - 1.2 * (after[other] - before[other]) + self.rng.random() * 2.5
            if isinstance(action, DropPeg):
                value += 0.8  # get pegs into play
            if best_value is None or value > best_value:
                best, best_value = action, value
        return best

    def bot_asks(self, player: str, wait_s: float = 5.0) -> Any:
        """The move the bot's seat asked ``player`` to make, when the machine plays that
        colour (the simulated hand then makes it on the frame, as a person would), else None."""
        deadline = time.monotonic() + wait_s
        while not self._stop.is_set():
            view = self.session.snapshot().get("view") or {}
            seat, asked = view.get("bot_seat"), view.get("bot")
            if not seat or seat["player"] != player:
                return None
            if asked and asked["player"] == player:
                action = action_from_dict(asked["action"])
                return action if self.mind.refusal(action) is None else None
            if time.monotonic() > deadline:  # the bot is silent (no seat running): play on
                return None
            self._stop.wait(0.05)
        return None

    def play_one(self) -> None:
        """One move: decide (or do what the bot asked), do it physically, let the sensors report it."""
        player = self.mind.current_player
        action = self.bot_asks(player) or self.choose()
        self.mind.apply(action)
        self.moves += 1
        before = self._top_holes()
        shift = 0
        if isinstance(action, DropPeg):
            # a hand takes a moment to bring the next peg to the same hole (and the sensors
            # take a second peg within EXTRA_DROP_S of a fall-through for a flicker)
            since = self.clock() - self._dropped_at.get(action.column, float("-inf"))
            if since < SAME_HOLE_S:
                self.wait(SAME_HOLE_S - since)
            self._dropped_at[action.column] = self.clock()
            peg = self.frame.next_in_hand(player)
            events = self.frame.drop(peg, action.column)
            rests = action.column in self._top_holes()
            self.sensors.peg_drop(action.column, rests=rests)
        elif isinstance(action, MoveSlide):
            events = self.frame.move_slide(action.slide, action.step)
            self.sensors.slide(action.slide, self.frame.offset(action.slide))  # the board carries resting pegs
            shift = action.step if action.slide == 1 else 0
        else:
            events = self.frame.move_board(action.step)
            self.sensors.board(self.frame.board_position)
        dropped = {action.column: peg} if isinstance(action, DropPeg) else {}
        self._top_holes_changed(before, shift, dropped)
        self._report_falls(events)

    def _top_holes(self) -> dict[int, str]:
        """Column → the peg resting in the top slide's hole over it (in the window)."""
        return {c: peg for c in range(self.profile.columns) if (peg := self.frame.peg_at(1, c)) is not None}

    def _top_holes_changed(self, before: dict[int, str], shift: int, dropped: dict[int, str]) -> None:
        """Tell the top-hole sensors which resting pegs left their view (the board
        itself moves the ones the top slide carried), and the camera which colour it now
        sees in a top hole where it saw none (its stability filter keys on column and
        colour)."""
        after = self._top_holes()
        carried = {c + shift: peg for c, peg in before.items() if 0 <= c + shift < self.profile.columns}
        for column, peg in dropped.items():
            if after.get(column) == peg:
                carried[column] = peg   # the sensor reported it resting: it saw it stay
        for column in sorted(carried):
            if after.get(column) != carried[column]:
                self.sensors.hole_cleared(column)
        if self.camera is not None:
            self._show_camera()

    def _show_camera(self) -> None:
        """What the camera sees down each top hole: the first peg through aligned holes
        (``Frame.seen_from_top``), and how deep it is."""
        seen = {c: self.frame.peg(p) for c in range(self.profile.columns) if (p := self.frame.seen_from_top(c))}
        self.camera.show({c: v.colour for c, v in seen.items()}, depths={c: v.slide for c, v in seen.items()})

    def _report_falls(self, events: list[Any]) -> None:
        falling = False
        for event in events:
            if isinstance(event, PushedOff):
                self.sensors.side_spill(event.side)
            elif isinstance(event, Landed):
                if self.fall_time and not falling:
                    # the pegs one move lets go fall together: one fall time, not one each
                    # (one each pushed the last beam of a big move past the landing window)
                    self.clock.sleep(self.fall_time)
                falling = True
                self._landed(event.column)

    def _landed(self, column: int) -> None:
        """One peg passes the beam over ``column``, as the switched-on faults let it."""
        self.stats["landings"] += 1
        if self.faults.hits("miss", column, self.fault_rng):
            self.stats["missed"] += 1
            return
        if self.faults.hits("jam", column, self.fault_rng):
            self.stats["jammed"] += 1
            self._later.append((self.clock() + self.faults.jam_delay, "late", column))
            return
        bounces = 0
        if self.faults.hits("chatter", column, self.fault_rng):
            bounces = 3
            self.stats["chattered"] += 1
            if self.fault_rng.random() < 0.5:
                # between this move and the next, well away from both windows
                self._later.append((self.clock() + max(self.pace / 2, 0.6), "flicker", column))
        self.sensors.beam(column, bounces=bounces)

    def _emit_due(self) -> None:
        now = self.clock()
        due = sorted(x for x in self._later if x[0] <= now)
        for item in due:
            self._later.remove(item)
            _, what, column = item
            self.stats["late_falls" if what == "late" else "flickers"] += 1
            self.sensors.beam(column, bounces=2 if what == "flicker" else 0)
