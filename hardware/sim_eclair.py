"""The simulated Passe Éclair table seen by a camera: cards slapped on the centre pile by
arms reaching in from the seats, rendered as frames.

The players keep the whole table in their heads (a full-knowledge Passe Éclair engine,
lenient, dealt from a seed: :func:`table.passe_eclair.playout_steps`). Each of its steps is
carried out on the *physical* table: a start card turned onto the pile, a card laid by the
arm of its player, a spotted wrong card taken back, the pile cleared when it goes to the
box or the round ends. Every frame is drawn by the scene renderer (markers, cloth, card
faces, a tilted camera; the arms by :func:`hardware.sim_cards.draw_arm`) and goes through
the real pipeline: the calibration from the markers of an empty-table shot,
:class:`vision.pipeline.TableWatcher` with its stability filter and a
:class:`vision.hands.HandWatcher` (who reached the pile). Only its observations (source
``camera``) put cards on the pile; what the camera asks ("who laid it?", "which card?") is
answered the way the players would tap, and what a camera cannot see (a wrong card
spotted, no one can play, the round's tokens) is tapped on the page (source
``dashboard``); nothing is entered as ``sim``. The players answer only from what they
know of the table (the cards laid, by whom, and what the page shows); a card the page
neither shows nor asks about once it has settled is tapped in by its player (the page's
entry for a card; counted ``tapped_in``: the camera lost it silently).

    >>> table = CameraPasseEclairTable(session, model_dir, seed=2)   # doctest: +SKIP
    >>> figures = table.play_round()                                  # doctest: +SKIP

Faults (``faults="hand@0.1,crooked@0.1,burst@0.1,unknown@0.1,glare@0.1,together@0.1,boxed@0.5"``): ``hand`` keeps the
player's hand (its arm from their edge, as a real hand) over the pile for a few frames
before the card shows; ``crooked`` lays the card turned and off
the pile's centre (then straightened once the page has asked); ``burst`` drops the frames
of a placement but its last ones (a camera that stalls: the arms may be lost with them);
``unknown`` has the recogniser abstain on the laid card while it lies on top; ``glare``
puts a light's glare spot over the pile while the card lands and for a moment after
(``GLARE_FRAMES``); ``together`` has that share of the cards laid with a second player's
card slapped on them within the together window (the engine's ``Simultaneous``: 1-4 frames
apart, both arms in, the upper card a little askew), left a moment, then taken back by its
player's arm (the engine's ``returned_to_hand``, reason ``together``); ``boxed`` has that
share of the "no one can play" moments played with no tap: the pile cleared into the box
and the coach's new card turned first (the players answer the page's question then).

Not simulated: a copy slapped together on its twin (laid alone), a late answer to a
covered card. The Gros Michi is laid by its player's arm;
the players answer the camera's questions about it (who they swap with; off anything but a
dog, that no one could play) and the pile goes to the box. At the round's end the players
correct a count of cards left the page shows wrong (``passe_eclair.count``) before the tokens.
"""

from __future__ import annotations

import logging
import random
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from hardware import sim_cards
from hardware.sim_cards import parse_faults
from hardware.sim_eclair_players import PERSON, PlayersAtThePage
from hardware.sim_eclair_rig import PileCameraRig
from hardware.sim_page import PageTaps
from hardware.sim_thread import FilmedTableThread, LiveCardTable
from table.errors import Refused
from table.passe_eclair import Game, PlayoutStyle, new_game, playout_steps
from table.passe_eclair.adapter import BLOCKED, COUNT, MICHI_SWAP, PLACE, ROUND, SPOT, START_CARD
from table.passe_eclair.sim import table_entries
from table.session import Session

log = logging.getLogger(__name__)

GAME = "passe-eclair"
NAMES = ("Léa", "Hugo", "Inès", "Tom")
FAULT_KINDS = ("hand", "crooked", "burst", "unknown", "glare", "together", "boxed")
# one card at a time on the pile unless the together fault is on; no late answer
STYLE = PlayoutStyle(together_rate=0.0, late_rate=0.0)
BURST_FRAMES = 4
GLARE_FRAMES = 15             # half a second of a glare spot over the pile (a lamp's reflection)


@dataclass
class RoundFigures:
    placements: int = 0        # cards laid by a player's arm
    start_cards: int = 0
    no_tap: int = 0            # placements the page showed with no question
    questions: int = 0         # "who laid it?" / "which card?" answered
    alerts: int = 0            # other alerts (refusals...) closed with one tap
    typed: int = 0             # what no camera sees, tapped: spot, blocked, round tokens, spend
    together: int = 0          # pairs slapped together (the together fault), the upper card taken back
    tapped_in: int = 0         # cards laid that the camera lost with no question, tapped in by their player
    wrong: list[str] = field(default_factory=list)   # shown and contradicted by the truth
    behind: int = 0            # steps after which the page had not caught up yet
    steps: int = 0
    frames: int = 0
    asked: dict[str, int] = field(default_factory=dict)   # questions and alerts by kind
    refused: list[str] = field(default_factory=list)      # true answers the page refused (asked again after)


class CameraPasseEclairTable(PlayersAtThePage, LiveCardTable):
    """Simulated players whose pile only the camera reports (see the module docstring)."""

    Figures = RoundFigures

    def __init__(self, session: Session, model_dir: str | Path, *, seed: int = 1, faults: str | None = None,
                 players: tuple[int, ...] = (2, 3, 4), rig: PileCameraRig | None = None, clock: Any = None):
        self.session = session
        self.rng = random.Random(seed)
        self.faults = parse_faults(faults, FAULT_KINDS, "Passe Éclair")
        self.players_choice = players
        self.rig = rig or PileCameraRig(session, model_dir, seed=seed, clock=clock)
        self.mind: Game | None = None
        self.pile: list[tuple[str, float, float, float]] = []   # what lies on the pile (card, angle, dx, dy)
        self.by: list[int | None] = []                            # who laid each (truth)
        self.when: list[float] = []                               # the frame time each showed on the pile
        self._counted: list[int] = []                             # the cards left at the last round's end (truth)
        self.figures: list[RoundFigures] = []
        self._fig = RoundFigures()
        self._steps: Any = None
        self._michi_target: int | None = None                     # who the Michi player swaps with (truth)
        self.returned: list[tuple[str, int, float]] = []          # laid together on top, taken back (card, by, when)
        self._boxing = False                                      # the pile boxed with no "no one can play" tap
        self.page = PageTaps()

    # ---------------------------------------------------------------- setup
    def new_game(self) -> None:
        players = self.rng.choice(self.players_choice)
        coach = self.rng.randrange(players)
        self.session.start_game(GAME, {"players": players, "names": list(NAMES[:players]), "coach": coach},
                                source=PERSON, t=self.rig.t)   # the setup form
        self.mind = new_game(players, coach=coach, strict=False, rng=random.Random(self.rng.getrandbits(64)))
        # the together fault: that share of the cards get a second card slapped on them
        # within the window (one Simultaneous: the engine says which goes back)
        style = replace(STYLE, together_rate=self.faults.get("together", 0.0), explicit_together_rate=1.0)
        self._steps = playout_steps(self.rng, style=style, game=self.mind)
        self._clear()

    def _clear(self) -> None:
        if self.pile:
            self.pile, self.by, self.when, self.returned = [], [], [], []
            self.rig.unread.clear()
            self.rig.settle(self.pile)

    # ---------------------------------------------------------------- play
    def play_round(self) -> RoundFigures:
        """Play until the round (or the game) ends; a new game starts if none is running."""
        if self.mind is None or self.mind.is_over():
            self.new_game()
        fig = RoundFigures()
        self.figures.append(fig)
        start = self.mind.round
        while self.mind is not None and not self.mind.is_over() and self.mind.round == start:
            if not self.step(fig):
                break
        return fig

    def step(self, fig: RoundFigures) -> bool:
        """One engine action carried out on the table; False when the game has no more."""
        self._fig = fig
        self.rig.catch_up()
        mind = self.mind
        phase, pile = mind.phase, [e.card for e in mind.pile]
        try:
            action, outcome, _ = next(self._steps)
        except StopIteration:
            return False
        fig.steps += 1
        self._counted = next((e["hand_sizes"] for e in outcome.events if e["type"] == "round_won"), self._counted)
        before = self.rig.frames
        for kind, data in table_entries(action, outcome, phase_before=phase, pile_before=pile):
            if kind == START_CARD:
                fig.start_cards += 1
                self._lay(data["card"], None)
            elif kind == PLACE:
                fig.placements += 1
                back = next((e for e in outcome.events if e["type"] == "returned_to_hand"
                             and e["reason"] == "together"), None)
                if back is None or back["card"] == data["card"]:   # a copy on its twin: not simulated
                    self._lay(data["card"], data["seat"])
                else:
                    landed = next(e["t"] for e in outcome.events if e["type"] == "placed")
                    self._lay_together(data["card"], data["seat"], back["card"], back["seat"], back["t"] - landed)
            elif kind == MICHI_SWAP:   # laid by its player's arm (unless on the pile already), asked, boxed
                self._michi_target = data["target"]
                if phase == "playing":
                    fig.placements += 1
                    self._lay("michi", data["seat"])
                self._answer_all()   # "which card?" may raise "under it or on it?", then the Michi's own
                self._clear()
                self._michi_target = None
            elif kind == BLOCKED and any(e["type"] == "start_card" for e in outcome.events) and self._hit("boxed"):
                self._boxing = True   # boxed with no tap: the coach's new card comes next, the page asks
                self._clear()
            else:
                if kind == ROUND:
                    self._count(outcome)
                self._type(kind, data)
                if kind == SPOT:
                    self._take_back(data["seat"], outcome)
                elif kind in (BLOCKED, ROUND):
                    self._clear()
        if mind.phase == "round_won" or mind.is_over():
            self._clear()
        fig.frames += self.rig.frames - before
        self._answer()
        self._check(fig)
        return True

    def _lay(self, card: str, seat: int | None) -> None:
        """A card slapped on the pile by ``seat``'s arm (None: the turner turns a start card)."""
        arms = [seat if seat is not None else self.mind.coach]
        crooked = seat is not None and self._hit("crooked")
        self.rig.unread.clear()   # the card unread on top is covered now (its copies are readable)
        if seat is not None and not crooked and self._hit("unknown"):
            self.rig.unread.add(card)
        lie = (card, self.rng.uniform(-25, 25), self.rng.uniform(-15, 15), self.rng.uniform(-10, 10)) if crooked \
            else (card, 0.0, 0.0, 0.0)
        shown_before = self._shown_pile()
        before = list(self.pile)
        self.pile.append(lie)
        self.by.append(seat)
        images = []
        if self._hit("glare"):
            self.rig.glare = GLARE_FRAMES
        if self._hit("hand"):   # the player's hand hovers over the pile (their arm from their edge)
            images += [self.rig._image(before, arms, 1.0, hand=True)] * 3
        images += [self.rig._image(before, arms, 0.5), self.rig._image(before, arms, 0.8),
                   self.rig._image(self.pile, arms, 1.0), self.rig._image(self.pile, arms, 0.6)]
        skip = len(images) - 1 if self._hit("burst") else 0
        self.when.append(self.rig.t + (len(images) - 1) / self.rig.fps)   # the frame the card shows in
        self.rig.show(images, skip=skip)
        self.rig.settle(self.pile, card=card)
        asked = self._answer()
        if crooked:   # straightened once the page has asked (or shown it)
            self.pile[-1] = (card, 0.0, 0.0, 0.0)
            self.rig.settle(self.pile, card=card)
            asked += self._answer()
        if seat is not None and not asked and self._shown_pile() == shown_before + 1:
            self._fig.no_tap += 1
        snap = self.session.snapshot()
        if card != "michi" and not snap["alerts"] and snap["view"]["phase"] in (("playing",) if seat is not None
                                                                             else ("dealt", "turning")) \
                and self._laid_by(self.when[-1]) == len(self.pile) - 1 and not self._on_top(card, seat, shown_before):
            self._tap_in(card, seat)

    def _lay_together(self, card: str, seat: int, other: str, other_seat: int, gap: float) -> None:
        """The together fault: ``card`` slapped on the pile by ``seat``, ``other`` by
        ``other_seat`` on it ``gap`` s later (a few frames, both arms in), left there a
        moment, then taken back by its player (the upper card goes back to hand)."""
        rig, a, b = self.rig, seat, other_seat
        self._fig.together += 1
        frames = min(4, max(1, round(gap * rig.fps)))   # the window is 4-5 frames at 30 fps
        shown_before = self._shown_pile()
        before = list(self.pile)
        self.rig.unread.clear()
        self.pile.append((card, 0.0, 0.0, 0.0))
        self.by.append(seat)
        images = [rig._image(before, [(a, 0.5), (b, 0.3)]), rig._image(before, [(a, 0.8), (b, 0.5)])]
        self.when.append(rig.t + (len(images) + 1) / rig.fps)   # the frame the lower card shows in
        images += [rig._image(self.pile, [(a, 1.0 - 0.2 * i), (b, 0.6 + 0.1 * i)]) for i in range(frames)]
        lower = list(self.pile)
        self.pile.append((other, self.rng.choice((-1, 1)) * self.rng.uniform(3, 8), self.rng.uniform(-4, 4),
                          self.rng.uniform(-3, 3)))   # slapped on it, a little askew
        self.by.append(other_seat)
        self.when.append(rig.t + (len(images) + 1) / rig.fps)
        images += [rig._image(self.pile, [(a, 0.5), (b, 1.0)]), rig._image(self.pile, [(a, 0.3), (b, 0.6)])]
        rig.show(images)
        rig.settle(self.pile, card=other)
        asked = self._answer_all()
        # its player sees it went on too late and takes it back
        taken = [rig._image(self.pile, [b], 1.0)]
        self.returned.append((other, other_seat, self.when[-1]))
        del self.pile[-1], self.by[-1], self.when[-1]
        rig.show(taken + [rig._image(lower, [b], 0.8), rig._image(lower, [b], 0.5)])
        rig.settle(self.pile, card=card)
        asked += self._answer_all()
        if not asked and self._shown_pile() == shown_before + 1:
            self._fig.no_tap += 1

    def _answer_all(self) -> int:
        """The page's questions and those an answer raises (who laid the card named)."""
        asked = n = self._answer()
        for _ in range(3):
            if not n:
                break
            n = self._answer()
            asked += n
        return asked

    def _tap_in(self, card: str, seat: int | None) -> None:
        """The page does not show the card just laid and asks nothing: its player taps it in
        (the page's entry for a card, as on a table with no camera)."""
        kind, data = (START_CARD, {"card": card}) if seat is None else (PLACE, {"seat": seat, "card": card})
        try:
            self.session.enter(kind, data, source=PERSON, t=self.rig.t)
            self._fig.tapped_in += 1
        except Refused as exc:
            self._fig.wrong.append(f"{kind} {data} refused: {exc.en}")

    def _take_back(self, seat: int, outcome: Any) -> None:
        """The spotted wrong card leaves the pile (its player takes it back)."""
        card = next((e["card"] for e in outcome.events if e["type"] == "returned_to_hand"), None)
        for i in range(len(self.pile) - 1, -1, -1):
            if self.pile[i][0] == card and self.by[i] == seat:
                del self.pile[i], self.by[i], self.when[i]
                break
        self.rig.unread.discard(card)
        self.rig.settle(self.pile)

    def _type(self, kind: str, data: dict[str, Any]) -> None:
        """What no camera sees, tapped on the page."""
        try:
            self.session.enter(kind, data, source=PERSON, t=self.rig.t)
            self._fig.typed += 1
        except Refused as exc:
            self._fig.wrong.append(f"{kind} {data} refused: {exc.en}")

    def _hit(self, kind: str) -> bool:
        p = self.faults.get(kind, 0.0)
        return p > 0 and self.rng.random() < p

    def _shown_pile(self) -> int:
        return int(self.session.snapshot()["view"]["pile_size"])

    def _count(self, outcome: Any) -> None:
        """At the round's end the players check the cards left the page shows, and tap each
        count that is wrong (one tap per count) before the tokens."""
        won = next((e for e in outcome.events if e["type"] == "round_won"), None)
        shown = (self.session.snapshot()["view"].get("round_over") or {}).get("hand_sizes")
        if won is None or shown is None:
            return
        for seat, (cards, seen) in enumerate(zip(won["hand_sizes"], shown, strict=True)):
            if cards != seen:
                self._type(COUNT, {"seat": seat, "cards": cards})

    # ---------------------------------------------------------------- truth
    def _check(self, fig: RoundFigures) -> None:
        """What the page shows against the truth: a pile card with another card or player
        than the truth's at its place, other hand sizes or goal points when the pile is in
        step, are *wrong*; a pile not caught up yet is *behind*."""
        view = self.session.snapshot()["view"]
        truth = self.mind
        shown = [(e["card"], e["by"]) for e in view["pile"]]
        real = _without_turned_twins([(e.card, e.by) for e in truth.pile], len(truth.pile) - view["pile_size"])
        if view["pile_size"] == len(real):
            if shown != real[len(real) - len(shown):]:
                fig.wrong.append(f"pile: shown {shown} truth {real[-len(shown):]}")
            # at the game's end the hands go to the box; the page keeps the last round's counts
            sizes = self._counted if truth.is_over() else truth.hand_sizes()
            if list(view["hand_sizes"]) != list(sizes):
                fig.wrong.append(f"hands: shown {view['hand_sizes']} truth {sizes}")
        else:
            fig.behind += 1
        if list(view["goal_points"]) != list(truth.goal_points()):
            if view["phase"] == truth.phase:
                fig.wrong.append(f"goal points: shown {view['goal_points']} truth {truth.goal_points()}")


def _without_turned_twins(pile: list[tuple[str, Any]], n: int) -> list[tuple[str, Any]]:
    """``pile`` without up to ``n`` cards turned squarely on their twin before play (a
    Gros Michi on a Gros Michi: the camera cannot tell one from two when it lost the frames
    of the hand, and no score depends on it): the page one such card short is neither wrong
    nor behind, and is still checked.

    >>> _without_turned_twins([("michi", None), ("michi", None), ("rocce-fabi", None), ("dog", 1), ("dog", 2)], 1)
    [('michi', None), ('rocce-fabi', None), ('dog', 1), ('dog', 2)]
    >>> _without_turned_twins([("michi", None), ("rocce-fabi", None), ("dog", 1), ("dog", 2)], 1)   # no twin turned
    [('michi', None), ('rocce-fabi', None), ('dog', 1), ('dog', 2)]
    """
    out: list[tuple[str, Any]] = []
    for entry in pile:
        if n > 0 and out and entry == out[-1] and entry[1] is None:
            n -= 1
            continue
        out.append(entry)
    return out


# --------------------------------------------------------------------------- passetable run --sim
def rendered_model(folder: Path, seed: int = 900_000) -> Path:
    """The Passe Éclair deck enrolled from rendered photos (made once in ``folder``)."""
    return sim_cards.rendered_model(folder, seed, deck=GAME)


def make_simulation(session: Session, *, pace: float = 2.0, seed: int | None = None,
                    restart_after: float | None = 20.0, settings: Any = None, faults: str = "",
                    camera: bool = False, **kw: Any) -> Any:
    """What ``passetable run --sim --game passe-eclair`` starts: the typed-entries table
    (``table/passe_eclair/sim.py``), or with ``--camera`` this camera-filmed one."""
    from table.passe_eclair.sim import make_simulation as typed_table

    if not camera:
        return typed_table(session, pace=pace, seed=seed, restart_after=restart_after, **kw)
    parse_faults(faults, FAULT_KINDS, "Passe Éclair")   # an unknown fault fails at start, not in the thread
    data = Path(settings.service.data_dir) if settings is not None else Path(tempfile.gettempdir())
    seed = seed if seed is not None else random.randrange(2**31)
    return FilmedTableThread(session, lambda: CameraPasseEclairTable(session, rendered_model(data / "sim-camera"),
                                                                     seed=seed, faults=faults,
                                                                     clock=session.clock),
                             pace=pace, restart_after=restart_after, name="sim-passe-eclair-camera",
                             what="Passe Éclair camera")
