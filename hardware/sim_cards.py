"""The simulated Pass Pass table seen by a camera: the players' cards rendered as frames.

The players keep the whole table in their heads (a full-knowledge Pass Pass engine,
dealt from a seed) and pick random legal moves; each move is carried out on the
*physical* table (cards laid in the trick, taken to a seat's zone, the cards nobody took
put away, everything gathered at the end of a round). Every change is drawn by the scene
renderer (``vision.synth``: markers, cloth, card faces, a tilted camera) and the frames go
through the real pipeline: the calibration from the markers of an empty-table shot,
:class:`vision.pipeline.TableWatcher` with its stability filter. Only its ``card_seen`` /
``card_gone`` (source ``camera``) reach the session; what the camera asks (one-tap
questions) is answered the way the players would tap, and counted.

    >>> table = CameraPassPassTable(session, model_dir, seed=2)   # doctest: +SKIP
    >>> table.play_round()                                          # doctest: +SKIP

Faults (``faults="crooked@0.1,hand@0.2,burst@0.1"``): ``crooked`` lays a played card
half off the trick zone (the camera cannot say it is in the trick: a question), ``hand``
keeps a hand over the card for a few frames before it lands, ``burst`` drops the frames of
a change but the last ones (a camera that stalls), ``unknown`` has the recogniser abstain
on a played card while it lies where it was laid (a reflection over its face, or an owner's
``--partial`` enrolment without it; the abstention is injected at the recogniser's output,
since both rendered causes also misname or break the outline): the page asks which card;
``pile`` has it abstain on a taken card on its taker's pile (the take is then the card that
left the trick and the seat where an unnamed card came to rest); ``glare`` lays a bright
specular spot (``vision.synth.effects.glare``: a lamp's reflection on the cloth and the
card's face) over where the card moves — the trick for a play, the taker's pile for a take —
for the first ``GLARE_FRAMES`` frames of the change (the camera must not name what it cannot
see: a card named late, or asked about, never a wrong card).
"""

from __future__ import annotations

import logging
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from hardware.camera import CARD_UNKNOWN_FRAMES, FrameTimer
from hardware.sim_page import PageTaps
from hardware.sim_thread import FilmedTableThread, FrameClock, LiveCardTable
from table.observations import Observation
from table.pass_pass import new_game
from table.pass_pass.game import Game
from table.session import Session

log = logging.getLogger(__name__)

PERSON = "dashboard"   # a player tapping the page: the setup form, an answer to the camera's question

GAME = "pass-pass"
NAMES = ("Ana", "Bruno", "Chloé", "David", "Emma", "Farid")
TRICK_SLOTS = [(310, 178), (400, 178), (490, 178), (345, 290), (455, 290)]
SEAT_SPOTS = {1: (400, 402), 2: (80, 225), 3: (400, 50), 4: (715, 225), 5: (150, 402), 6: (650, 402)}
CROOKED_AT = (400, 322)       # a card pushed half out of the trick, its centre in no zone
FAULT_KINDS = ("crooked", "hand", "burst", "unknown", "pile", "glare")
QUESTION_KINDS = ("camera_play_question", "camera_take_question", "camera_unknown_question",
                  "camera_order_question", "camera_record_question")   # the page asking; the rest are alerts
GLARE_FRAMES = (8, 45)        # how long a glare spot lies over the change (frames, drawn at random)
GLARE_RADIUS_PX = (40, 80)    # the spot's size (a card is about 80 x 120 px in the frame)
GLARE_INTENSITY = (120, 220)  # grey levels added at its centre (a washed-out patch of the face)
RENDER_EVERY = 6              # frames drawn from one rendering before the scene is drawn again (0: once per scene)
UNKNOWN_FRAMES = CARD_UNKNOWN_FRAMES   # as a real table's camera: 0.5 s unnamed before the page asks


def parse_faults(spec: str | None, kinds: tuple[str, ...] = FAULT_KINDS, game: str = "") -> dict[str, float]:
    """``"crooked@0.1,hand@0.2"`` → {kind: probability}, for any simulated camera table's
    fault ``kinds`` (``game`` names the table in the error).

        >>> parse_faults("crooked@0.1, burst")
        {'crooked': 0.1, 'burst': 1.0}
    """
    out: dict[str, float] = {}
    for part in (spec or "").split(","):
        kind, _, p = part.strip().partition("@")
        if not kind:
            continue
        if kind not in kinds:
            raise ValueError(f"unknown {game + ' ' if game else ''}camera fault {kind!r}: "
                             f"expected one of {', '.join(kinds)}")
        out[kind] = float(p) if p else 1.0
    return out


@dataclass(frozen=True)
class Glare:
    """A specular spot over the table at ``centre_mm`` for the first ``frames`` frames of a change."""

    centre_mm: tuple[float, float]
    radius_px: float
    intensity: float
    frames: int
    seed: int   # the spot's shape (the same ellipse at every frame it lasts)

    @classmethod
    def drawn(cls, rng: random.Random, centre_mm: tuple[float, float]) -> Glare:
        x, y = centre_mm
        return cls((x + rng.uniform(-20, 20), y + rng.uniform(-20, 20)), rng.uniform(*GLARE_RADIUS_PX),
                   rng.uniform(*GLARE_INTENSITY), rng.randint(*GLARE_FRAMES), rng.randrange(2**31))

    def layer(self, shape: tuple[int, ...], table_to_image: np.ndarray) -> np.ndarray:
        """The spot alone (projected from the table's millimetres), to ``cv2.add`` onto each
        frame it lies over (drawn once: a blur of the whole frame is not free)."""
        from vision.synth import effects
        from vision.synth.scene import project

        centre = project(table_to_image, np.array([self.centre_mm]))[0]
        return effects.glare(np.zeros(shape, np.uint8), np.random.default_rng(self.seed), centre=centre,
                             radius=self.radius_px, intensity=self.intensity)


@dataclass
class RoundFigures:
    taps: int = 0              # resolves sent (questions and alerts answered)
    questions: int = 0
    alerts: int = 0
    wrong: list[str] = field(default_factory=list)   # what the page showed that the truth contradicts
    behind: int = 0            # steps after which the page had not caught up with the table yet
    steps: int = 0
    refused: list[str] = field(default_factory=list)   # true answers the page refused (asked again after)


class Abstaining:
    """A recogniser that abstains on the cards of ``unread`` (their outline kept whole): the
    simulated camera tables' ``unknown`` fault."""

    def __init__(self, recogniser: Any, unread: set[str]):
        self.inner, self.unread = recogniser, unread

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def recognise(self, image: np.ndarray, blank: bool = False) -> list:
        from dataclasses import replace

        return [replace(m, card=None) if m.card in self.unread else m for m in self.inner.recognise(image, blank)]


class CardCamera(FrameClock):
    """A fixed camera over the table: renders the cards where they lie and feeds the
    frames through calibration and :class:`TableWatcher` into ``session``."""

    def __init__(self, session: Session, model_dir: str | Path, *, seed: int = 1, fps: float = 30.0,
                 appear_frames: int = 3, vanish_frames: int = 5, clock: Any = None):
        from hardware.sim.camera_rig import place_camera
        from vision.model import CardModel
        from vision.pipeline import TableWatcher
        from vision.profile import TableProfile
        from vision.recognise import CardRecogniser
        from vision.synth.scene import Placement, SceneStyle, render_table

        self.session, self.fps = session, fps
        self.start_clock(clock)
        self.profile = TableProfile.load()
        self._rng = np.random.default_rng(seed)
        rig = place_camera(self._rng, self.profile)
        self._view, shot, calibration = rig.view, rig.shot, rig.calibration
        pictures, background = rig.pictures, rig.background
        self.shot = shot
        self._base = render_table([], self._view, self._rng, SceneStyle.clean(), pictures=pictures,
                                  background=background).image
        self._render, self._placement, self._style = render_table, Placement, SceneStyle.clean()
        # same_frames: one rendering is shown for several frames; an identical frame gets the same
        # answer without the work (vision/repeat.py)
        recogniser = CardRecogniser(CardModel.load(model_dir), same_frames=True)
        self.watcher = TableWatcher(recogniser, calibration, self.profile,
                                    appear_frames=appear_frames, vanish_frames=vanish_frames, empty_table=shot,
                                    unknown_frames=UNKNOWN_FRAMES)
        self.timer = FrameTimer(session)   # the game's deadlines (a take window) on this camera's clock
        self.unread: set[str] = set()   # the cards the recogniser abstains on (the ``unknown`` fault)
        self.watcher.recogniser = Abstaining(self.watcher.recogniser, self.unread)
        self.settle_frames = max(appear_frames, vanish_frames) + 1
        self.max_frames = 90   # 3 s: how long the players leave a card before the next move
        self.noise = False
        self.render_every = RENDER_EVERY
        self._noise = [self._rng.integers(0, 6, self._base.shape, dtype=np.uint8) for _ in range(4)]
        self.frames = 0
        self.glare_frames = 0   # frames shown with a glare spot (the ``glare`` fault)
        self.seen: list[Observation] = []
        self.record: list[np.ndarray] | None = None   # when a list, every frame shown is kept

    def show(self, cards: list[tuple[str, tuple[float, float], float]], *, hand: bool = False, skip: int = 0,
             expect: set | None = None, gone: set | None = None, unknown: int = 0,
             in_step: Any = None, glare: Glare | None = None) -> list[Observation]:
        """Frames of ``cards`` (id, centre mm, angle; later ones on top) until the watcher
        holds every ``(card, zone)`` of ``expect``, ``unknown`` unnamed cards, and none of ``gone``,
        or until ``in_step()`` says the page shows the move and none of ``gone`` is held (at most
        ``max_frames``: the players wait that long for the page); returns the
        observations submitted. ``hand``: a hand over the last card for the first frames;
        ``skip``: frames lost before the camera sees the change (a stalled camera);
        ``glare``: a bright spot over the first frames the camera sees.
        A card lying squarely under a later one (a pile) is hidden: one drop shadow for the
        pile (drawing each card's would darken the pile's shadow once per card, 0.55^n)."""
        from vision.sources import Frame

        cards = [c for i, c in enumerate(cards) if not any(o[1:] == c[1:] for o in cards[i + 1:])]
        placements = [self._placement(c, centre, angle) for c, centre, angle in cards]
        image = self._render(placements, self._view, self._rng, self._style, background=self._base).image
        covered = None
        if hand and placements:
            covered = self._render(placements, self._view, self._rng, self._style, background=self._base,
                                   hand_over=len(placements) - 1, hand_reach=0.6).image
        out: list[Observation] = []
        expect, gone = expect or set(), gone or set()
        spot = glare.layer(image.shape, self._view) if glare is not None else None
        for i in range(self.max_frames + skip + (3 if covered is not None else 0)):
            self.t += 1.0 / self.fps
            self.frames += 1
            if i < skip:
                continue
            if self.render_every and i > skip and (i - skip) % self.render_every == 0:   # light and print vary a little
                image = self._render(placements, self._view, self._rng, self._style, background=self._base).image
            img = covered if covered is not None and i < skip + 3 else image
            if spot is not None and i < skip + glare.frames:
                img = cv2.add(img, spot)
                self.glare_frames += 1
            if self.noise:
                img = cv2.add(img, self._noise[self.frames % len(self._noise)])   # sensor noise, new each frame
            if self.record is not None:
                self.record.append(img)
            for obs in self.watcher.process(Frame(img, self.t, self.frames)):
                out.append(self.session.submit(obs))
            self.timer.at(self.t)
            present = self.watcher.cards.present
            if i >= skip + self.settle_frames - 1 and not any(k in present for k in gone) and (
                    (all(k in present for k in expect) and len(self.watcher.unknown.present) >= unknown)
                    or (in_step is not None and in_step())):
                break
        self.seen += out
        return out


class CameraPassPassTable(LiveCardTable):
    """Simulated players whose cards only the camera reports (see the module docstring)."""

    Figures = RoundFigures

    def __init__(self, session: Session, model_dir: str | Path, *, seed: int = 1, faults: str | None = None,
                 setups=((3, False), (4, False), (5, False)), camera: CardCamera | None = None,
                 clock: Any = None):
        self.session = session
        self.rng = random.Random(seed)
        self.faults = parse_faults(faults)
        self.setups = setups
        self.camera = camera or CardCamera(session, model_dir, seed=seed, clock=clock)
        self.mind: Game | None = None
        self.where: dict[str, tuple[str, tuple[float, float], float]] = {}   # card -> (zone, centre, angle)
        self.order: list[str] = []                                          # drawing order (later on top)
        self.taken_to: dict[str, str] = {}   # card -> the seat zone it was taken to (the players remember)
        self.page = PageTaps()
        self.figures: list[RoundFigures] = []
        self._fig = RoundFigures()   # the round being played (where taps are counted)

    # ---------------------------------------------------------------- setup
    def new_game(self) -> None:
        players, teams = self.rng.choice(self.setups)
        seed = self.rng.randrange(2**31)
        first = self.rng.randrange(players)
        self.session.start_game(GAME, {"players": players, "teams": teams, "names": list(NAMES[:players]),
                                       "first": first, "deal_seed": seed}, source=PERSON, t=self.camera.t)
        self.mind = new_game(players, teams=teams, first=first, seed=seed, deal=True)
        self._clear()

    def _clear(self) -> None:
        if self.where:
            self.where, self.order = {}, []
            self.camera.show([])

    # ---------------------------------------------------------------- play
    def play_round(self) -> RoundFigures:
        """Play until the round (or the game) ends; a new game starts if none is running."""
        if self.mind is None or self.mind.is_over():
            self.new_game()
        fig = RoundFigures()
        self.figures.append(fig)
        self._fig = fig
        start_round = self.mind.round
        while not self.mind.is_over() and self.mind.round == start_round:
            self.step(fig)
        return fig

    def step(self, fig: RoundFigures) -> None:
        mind = self.mind
        self._fig = fig
        self.camera.catch_up()
        fig.steps += 1
        if mind.phase == "record":   # the teams choose; the camera reader records or asks
            self._answer(fig)
            self._check(fig)
            return
        action = self.rng.choice(mind.legal_actions())
        before_round = mind.round
        outcome = mind.apply(action)
        for event in outcome.events:
            if event["type"] == "card_played":
                self._lay(event["card"], fig)
            elif event["type"] == "card_taken":
                for card in event["cards"]:
                    self._move(card, f"seat{event['seat'] + 1}")
        # the cards nobody took are put away; at a round's end everything is gathered
        kept = {c.id for c in mind.table_cards} | {c.id for s in range(mind.players) for c in mind.in_front(s)}
        if mind.round != before_round or mind.is_over():
            kept = set()
        gone = [c for c in self.where if c not in kept]
        if gone and mind.phase != "record":
            keys = {(c, self.camera.profile.zone_of(self.where[c][1])) for c in gone}
            for c in gone:
                if self.where[c][0] == "trick":   # put away from the trick: nobody took it
                    self.taken_to.pop(c, None)
                del self.where[c]
                self.camera.unread.discard(c)   # put away: read afresh if it comes back
            self.order = [c for c in self.order if c in self.where]
            self._show(gone=keys)
        self._answer(fig)
        self._check(fig)

    def _lay(self, card: str, fig: RoundFigures) -> None:
        in_trick = sum(1 for z, _, _ in self.where.values() if z == "trick")
        centre: tuple[float, float] = TRICK_SLOTS[in_trick % len(TRICK_SLOTS)]
        crooked = self._hit("crooked")
        if not crooked and self._hit("unknown"):
            self.camera.unread.add(card)   # unreadable where it lies: the page asks which card
        if crooked:
            centre = CROOKED_AT
        self.where[card] = ("trick", centre, self.rng.uniform(-4, 4))
        self.taken_to.pop(card, None)   # played again: not taken yet
        self.order.append(card)
        self._show(hand=self._hit("hand"))
        if crooked:   # the player straightens it once the page has asked
            self.where[card] = ("trick", TRICK_SLOTS[in_trick % len(TRICK_SLOTS)], 0.0)
            self._answer(fig)
            self._show()

    def _move(self, card: str, zone: str) -> None:
        """A taken card goes on its taker's pile (a pile per seat, each card squarely on the last)."""
        if self._hit("pile"):
            self.camera.unread.add(card)       # unreadable on the pile
        else:
            self.camera.unread.discard(card)   # picked up: read again where it lands
        x, y = SEAT_SPOTS[int(zone[4:])]
        self.where[card] = (zone, (x, y), 0.0)
        self.taken_to[card] = zone
        self.order = [c for c in self.order if c != card] + [card]
        self._show(hand=self._hit("hand"))

    def _show(self, hand: bool = False, gone: set | None = None) -> None:
        skip = self.camera.settle_frames if self._hit("burst") else 0
        top = self.order[-1:] if self.order else []
        # a glare spot over the change: the card just moved, or the trick the cards were put away from
        spot = TRICK_SLOTS[1] if gone else self.where[top[0]][1] if top else None
        glare = Glare.drawn(self.rng, spot) if spot is not None and self._hit("glare") else None
        expect = {(c, self.camera.profile.zone_of(self.where[c][1])) for c in top if c not in self.camera.unread}
        cards = [(c, self.where[c][1], self.where[c][2]) for c in self.order]
        seen = [c for i, c in enumerate(cards) if not any(o[1:] == c[1:] for o in cards[i + 1:])]   # not under a pile
        self.camera.show(cards, hand=hand, skip=skip, expect=expect, gone=gone,
                         unknown=sum(c in self.camera.unread for c, _, _ in seen), in_step=self._in_step,
                         glare=glare)
        self._answer(self._fig)   # the page asks at once; someone taps before the next card moves

    def _in_step(self) -> bool:
        """The page shows what the players did, with no question open: they move on."""
        snap = self.session.snapshot()
        if snap["alerts"]:
            return False
        shown, mind = snap["view"], self.mind
        return (shown["sheet"] == [line.to_dict() for line in mind.round_scores]
                and [p["card"] for p in shown["current_trick"]] == [c.id for _, c in mind.current_trick]
                and all(sorted(shown["seats"][s]["in_front"]) == sorted(c.id for c in mind.in_front(s))
                        for s in range(mind.players)))

    def _hit(self, kind: str) -> bool:
        p = self.faults.get(kind, 0.0)
        return p > 0 and self.rng.random() < p

    # ---------------------------------------------------------------- people at the page
    def _answer(self, fig: RoundFigures) -> None:
        """Tap the page's open questions the way the players would, and count each once."""
        for alert in self.session.snapshot()["alerts"]:
            kind = alert.get("kind", "")
            ids = [c["id"] for c in alert.get("choices") or []]
            if kind == "camera_play_question":
                choice = "played"
            elif kind == "camera_take_question":
                card = alert["expected"]["card"]
                zone = self.where.get(card, ("", None, 0.0))[0]   # where the card lies now, as the players see,
                if not zone.startswith("seat") and card not in self.where:   # or, gathered at the round's end,
                    zone = self.taken_to.get(card, "")                       # the seat they saw it taken to
                choice = zone if zone.startswith("seat") else "back"
            elif kind == "camera_unknown_question":
                laid = [c.id for s, c in self.mind.current_trick if s == alert["expected"]["seat"]]
                choice = next((c for c in laid if c in ids and c in self.where), "none")   # the card they laid
            elif kind == "camera_order_question":
                seat, cards = alert["expected"]["seat"], alert["expected"]["cards"]
                choice = next((c.id for s, c in self.mind.current_trick if s == seat and c.id in cards), cards[0])
            elif kind == "camera_record_question":
                choice = str(self._record_choice(alert["expected"]["team"]))
            else:
                choice = self.page.plain_choice(alert)
            if self.page.first_look(alert):
                question = kind in QUESTION_KINDS
                fig.questions += question
                fig.alerts += not question
            fig.taps += self.page.tap(self.session, alert, choice, source=PERSON, t=self.camera.t, refused=fig.refused)
        mind = self.mind
        if mind.phase == "record":
            record = self.session.current_game()
            done = []
            for a in reversed(record.extra["actions"]):   # this round's records: the trailing ones
                if type(a).__name__ != "RecordMember":
                    break
                done.insert(0, a)
            for a in done:
                if mind.phase == "record" and mind.round_scores[-1].recorded[a.team] is None:
                    mind.apply(a)
            if mind.phase != "record":
                self._clear()

    def _record_choice(self, team: int) -> int:
        return self.mind.suggested_member(team)

    # ---------------------------------------------------------------- truth
    def _check(self, fig: RoundFigures) -> None:
        """What the page shows against the simulated truth: a score line or a card in
        front of a seat that the truth does not have is *wrong*; a move not shown yet
        (the camera still unsure, a question open) is only *behind*."""
        shown = self.session.snapshot()["view"]
        mind = self.mind
        truth = [line.to_dict() for line in mind.round_scores]
        if shown["sheet"] != truth[:len(shown["sheet"])]:
            fig.wrong.append(f"sheet: shown {shown['sheet']} truth {truth}")
        behind = shown["sheet"] != truth
        if mind.phase != "record" and len(shown["sheet"]) == len(truth):
            for seat in range(mind.players):
                want = {c.id for c in mind.in_front(seat)}
                got = set(shown["seats"][seat]["in_front"])
                if got - want:
                    fig.wrong.append(f"seat {seat}: shown {sorted(got)} truth {sorted(want)}")
                behind = behind or got != want
        fig.behind += int(behind)


# --------------------------------------------------------------------------- passetable run --sim
def make_simulation(session: Session, *, pace: float = 2.0, seed: int | None = None,
                    restart_after: float | None = 20.0, settings: Any = None, faults: str = "",
                    camera: bool = False, **kw: Any) -> Any:
    """What ``passetable run --sim --game pass-pass`` starts: the typed-entries table
    (``table/pass_pass/sim.py``), or with ``--camera`` this camera-filmed table."""
    from table.pass_pass.sim import make_simulation as typed_table

    if not camera:
        return typed_table(session, pace=pace, seed=seed, restart_after=restart_after, **kw)
    parse_faults(faults)   # an unknown fault fails at start, not in the players' thread
    data = Path(settings.service.data_dir) if settings is not None else Path(tempfile.gettempdir())
    seed = seed if seed is not None else random.randrange(2**31)
    return FilmedTableThread(session, lambda: CameraPassPassTable(session, rendered_model(data / "sim-camera"),
                                                                  seed=seed, faults=faults, clock=session.clock),
                             pace=pace, restart_after=restart_after, name="sim-pass-pass-camera",
                             what="Pass Pass camera")


def rendered_model(folder: Path, seed: int = 900_000, deck: str = GAME) -> Path:
    """A deck (Pass Pass unless said) enrolled from rendered photos, made once in ``folder``."""
    from vision.decks import deck_card_ids
    from vision.enrol import enrol_directory
    from vision.synth.scene import card_photo

    model = folder / f"{deck}-model"
    if (model / "model.json").exists():
        return model
    photos = folder / f"{deck}-photos"
    photos.mkdir(parents=True, exist_ok=True)
    for i, card in enumerate(deck_card_ids(deck)):
        cv2.imwrite(str(photos / f"{card}.png"), card_photo(card, seed + i))
    enrol_directory(deck, photos, model)
    return model


# --------------------------------------------------------------------------- Passe Éclair: hands at the pile
EDGE_POINTS_MM = {0: (400.0, 470.0), 1: (-20.0, 225.0), 2: (400.0, -20.0), 3: (820.0, 225.0)}   # seat -> arm start
PILE_CENTRE_MM = (570.0, 225.0)
SKIN_BGR = ((110, 150, 205), (80, 120, 175), (60, 90, 140), (125, 170, 225))


def draw_arm(image: np.ndarray, table_to_image: np.ndarray, seat: int, *, reach: float = 1.0,
             target: tuple[float, float] = PILE_CENTRE_MM, width_mm: float = 75.0, tone: int = 0) -> np.ndarray:
    """``image`` with the arm of the player at ``seat`` reaching from their edge of the
    table towards ``target`` (``reach`` 1.0: the hand over it)."""
    from vision.synth.scene import project

    a = np.array(EDGE_POINTS_MM[seat], np.float64)
    b = a + (np.array(target, np.float64) - a) * reach
    d = b - a
    n = np.array([-d[1], d[0]]) / max(1e-6, float(np.hypot(*d))) * width_mm / 2
    quad = np.array([a + n * 1.3, b + n, b - n, a - n * 1.3])
    pts = project(table_to_image, quad)
    out = image.copy()
    cv2.fillPoly(out, [np.round(pts).astype(np.int32).reshape(-1, 1, 2)], SKIN_BGR[tone % len(SKIN_BGR)],
                 cv2.LINE_AA)
    return out
