"""Reading one outline of a frame against an enrolled deck: the card it shows, or an abstention.

The outline is rectified and compared with every face's template in both 180-degree turns (and
both ways round when the quad is too square on screen to tell its long side). The best score is
the card's confidence; the margin is how far it beats the best other card. Below either threshold
the answer is ``card=None``: an unknown card, never a guess. How an outline was found
(:class:`Found`) sets how surely it must read. A whole outline that reads a little under the
confidence threshold is read again blurred (``SOFT_BLUR``), and named only if that reading names
the same card, surely.
A second reading with the light taken out (``features.describe_contrast``, against the enrolled
faces) can only veto: if it clearly names another card than the colours do, neither is trusted.
A name is kept only if the full-size print lies on the named face's side of its closest rivals and
no patch of it is far from the named face (:mod:`vision.verify`), if its ink's hue is not a
closer rival's (:mod:`vision.ink`), and if it is not more like its twin, the same picture in another suit of
one ink, where the two differ once both are laid onto it (:mod:`vision.twins`).
The faces of a dark-bordered deck that were enrolled inside their border are first given the
deck's border back (:mod:`vision.border`), so that every face is read the same way; a deck printed with
a thin line round its edge is given its line back, and a whole outline found inside that line (a dark
cloth hides its outer edge) is moved out onto it before it is read.
With a deck enrolled in part, the faces of the cards not enrolled are pieced together from the
others (:mod:`vision.ghosts`): rivals that are never named; an enrolled card that a card neither
enrolled nor pieced together may look like is not named either.
The thresholds and switches are :mod:`vision.rules`'; finding the outlines and reading a whole
frame is :mod:`vision.recognise`'s.

    >>> reader = OutlineReader(CardModel.load("models/pass-pass"))  # doctest: +SKIP
    >>> m = reader.identify(frame, corners)  # doctest: +SKIP
    >>> m.card, round(m.confidence, 2)  # doctest: +SKIP
    ('purple-10', 0.97)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import cv2
import numpy as np

from vision import features, glare, rules
from vision.border import faces_and_line, rim_sides
from vision.decks import UnknownDeck, deck_card_ids
from vision.features import NEXT, OPPOSITE
from vision.ghosts import pieced_faces, unguarded
from vision.ink import DifferenceHue, InkCheck
from vision.model import CardModel
from vision.steps import Steps, run_to_the_end
from vision.tells import Tells
from vision.twins import Twins
from vision.verify import FineCheck, difference_focus, fine


class Found(enum.Enum):
    """How an outline was found, which sets how surely it must read to be named."""

    WHOLE = "whole"                 # seen whole: the model's thresholds; read a little short, read blurred too
    GUESSED = "guessed"             # guessed in a merged shape: the same thresholds, never read blurred
    FITTED = "fitted"               # fitted to a face, which it then reads more like: FITTED_EXTRA_CONFIDENCE more
    HARDLY_MOVED = "hardly moved"   # fitted, moved under SMALL_FIT: the same, or a whole one's if read blurred too


@dataclass
class CardMatch:
    """One card seen in a frame. ``card`` is None when the recogniser abstains;
    ``best`` is then still the closest template, for logs and confusion reports."""

    card: str | None
    best: str | None
    confidence: float
    margin: float
    corners: np.ndarray   # (4, 2) image px, clockwise from the template's top-left
    complete: bool = True
    blank: bool = False   # nothing printed inside: not a card (glare, a phone, a hand), only something covering
    like: str | None = None   # ``best`` when it is a card nobody enrolled (vision.ghosts): a hint, never a name

    def to_json(self) -> dict:
        return {"card": self.card, "confidence": round(float(self.confidence), 4),
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]}


class OutlineReader:
    """Names the card an outline of a frame shows, or abstains (:meth:`identify`), against ``model``'s
    faces; holds what those faces give, made once: the descriptor banks, the full-size, ink and tell
    checks, the faces pieced together for the deck's cards nobody enrolled. With ``in_play_only`` the
    enrolled faces are taken for every card that can lie on the table (a rig of a few faces): no face
    is pieced for the deck's other cards and none is held back.

        >>> reader = OutlineReader(model)  # doctest: +SKIP
        >>> reader.identify(frame, corners).card  # doctest: +SKIP
        'purple-10'
    """

    def __init__(self, model: CardModel, in_play_only: bool = False):
        self.model = model
        self._even: np.ndarray | None = None   # _even_bank, once made
        all_faces = len(model.faces) == len(model.cards)   # every enrolled card kept its rectified face
        # the faces of a dark-bordered deck enrolled inside their border (a close-up on a dark table)
        # given the deck's border back (vision.border), so that every face is read the same way
        # (and a lined deck's line: a whole outline found inside it is moved out onto it, _onto_line)
        self.faces, line = faces_and_line(model.faces) if all_faces else (model.faces, None)
        self._line = line.widths if line is not None and rules.ONTO_LINE else None
        # so only a model with faces missing (deleted from its folder, or enrolled without them) may hold
        # a template made inside its border, to be read from inside a dark rim (_part). Otherwise dark
        # rims are a border or print: read from inside, a full-bleed purple 7 was fitted to the purple 6's
        # face and named so (style-2 development seeds 700..1699, with a blurred descriptor since tried:
        # vision/README.md; with this one 3,920 -> 3,921 right, seeds 100..699 unchanged at 2,386, none wrong)
        self.read_inside = not all_faces
        deck = [] if in_play_only else _deck_ids(model.deck)
        # the faces of the deck's cards nobody enrolled (enroll --partial), pieced together from the
        # enrolled ones (vision.ghosts): rivals that are never named, so a card not enrolled is not
        # named as its enrolled look-alike
        self._ghosts = pieced_faces(deck, model.cards, self.faces)
        # and enrolled cards a card neither enrolled nor pieced together may look like are not named
        self._unnamed = set(self._ghosts) | unguarded(deck, model.cards, self._ghosts)
        self.cards = list(model.cards) + list(self._ghosts)
        faces = {**self.faces, **self._ghosts}
        n = len(self.cards)
        self._inset = features.deck_inset(self.faces.values()) if all_faces else features.INSET
        # the templates made again from the faces as read: a bordered deck's all (a wider rim left out), and
        # any face given its border or line back. Kept as enrolled, a face given its line back was still read
        # inside it by the bank (tango's 6 of spades, given back: named the 6 of clubs at 0.98, or not named)
        templates = np.array([features.describe(self.faces[c], inset=self._inset)
                              if self._inset != features.INSET or self.faces.get(c) is not model.faces.get(c) else t
                              for c, t in zip(model.cards, model.templates)], np.float32).reshape(model.templates.shape)
        if self._ghosts:
            templates = np.vstack([templates] + [features.describe(g, inset=self._inset)
                                                 for g in self._ghosts.values()])
        dim = model.templates.shape[1]
        # each bank: rows 0..n-1 the cards as enrolled, rows n..2n-1 the same turned by 180 degrees
        self._bank = _both_turns(templates, n, dim)
        # the same blurred (SOFT_BLUR): a card enrolled without its face keeps its sharp template there
        self._soft_bank = _both_turns([features.describe(faces[c], inset=self._inset, blur=rules.SOFT_BLUR)
                                       if c in faces else t for c, t in zip(self.cards, templates)], n, dim)
        # the same faces described with the light taken out (vision.features.describe_contrast);
        # a card enrolled without its rectified face has a zero row there and never passes it
        self._contrast_bank = _both_turns([features.describe_contrast(faces[c]) if c in faces
                                           else np.zeros(dim, np.float32) for c in self.cards], n, dim)
        self._fine = FineCheck(faces)
        self.ink = InkCheck(faces)
        self._hues = DifferenceHue(faces)
        self.tells = Tells(faces)
        self.twins = Twins(faces, self.ink, self.tells.faces)   # Tells' prints of the faces, not made again
        self._papers: dict[tuple[str, int], np.ndarray] = {}   # _face_paper's, made at a card's first glare
        # the enrolled faces averaged, both turns: the deck's layout (border, paper, where the print lies)
        # without any one card's print, to fit a guessed outline that reads like no face to
        flats = [cv2.resize(f, features.RECT_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)
                 for f in self.faces.values()]
        self.mean_face = np.mean(flats + [f[::-1, ::-1] for f in flats], axis=0).astype(np.uint8) if flats else None
        faintest = min((features.print_contrast(f) for f in self.faces.values()), default=0.0)
        self._min_print = rules.BLANK_SHARE * faintest

    @property
    def _even_bank(self) -> np.ndarray:
        """The faces described with their contrast evened, to read a card under glare (VEILED): made at
        the first such card or ahead (:meth:`preparing`), not with every reader. A card enrolled
        without its face keeps its sharp template there."""
        if self._even is None:
            self._even = run_to_the_end(self._making_even_bank())
        return self._even

    def _making_even_bank(self) -> Steps[np.ndarray]:
        """:attr:`_even_bank` made in steps, EVEN_FACES_A_STEP faces a step (the whole takes about 16 ms)."""
        faces = {**self.faces, **self._ghosts}
        n, dim = len(self.cards), self._bank.shape[1]
        rows = []
        for i, c in enumerate(self.cards):
            if i and i % rules.EVEN_FACES_A_STEP == 0:
                yield
            rows.append(features.describe(faces[c], inset=self._inset, even=True) if c in faces else self._bank[i])
        return _both_turns(rows, n, dim)

    def scores(self, frame: np.ndarray, corners: np.ndarray, onto_line: bool = False):
        """The quad's ways round, their flat faces, descriptors and scores (option, turn, card); with
        ``onto_line``, each way round moved out onto a lined deck's line where it lies inside it
        (:meth:`_onto_line`)."""
        quad = features.short_side_first(features.order_clockwise(corners))
        options = [quad] + ([quad[NEXT]] if features.aspect_ambiguous(quad) else [])
        flats = [features.rectify(frame, q) for q in options]
        if onto_line and self._line is not None:
            options, flats = self._onto_line(frame, options, flats)
        vectors = np.array([features.describe(f, inset=self._inset) for f in flats])
        return options, flats, vectors, self._against(vectors, self._bank)

    def _onto_line(self, frame: np.ndarray, options: list[np.ndarray],
                   flats: list[np.ndarray]) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """``options`` (ways round of an outline) and their ``flats``, each side whose rim reads as paper to the
        edge (vision.border.rim_sides: the outline lies inside the line there) moved out by the deck's line
        width. On a dark cloth the line's outer edge is lost in the cloth, and the steepest edge is the line's
        inner one: tango's whole outlines lay 0.7-0.9 px inside the card on dark, felt and photographed tables,
        its faces were given the line back, and its jacks of spades were read as its jacks of clubs."""
        moved, read = [], []
        for quad, flat in zip(options, flats):
            sides = rim_sides(flat)
            if "P" in sides:
                quad = features.grown(quad, np.where([k == "P" for k in sides], self._line, 0.0))
                flat = features.rectify(frame, quad)
            moved.append(quad)
            read.append(flat)
        return moved, read

    def _against(self, vectors: np.ndarray, bank: np.ndarray) -> np.ndarray:
        return (vectors @ bank.T).reshape(len(vectors), 2, len(self.cards))

    def quick_score(self, frame: np.ndarray, corners: np.ndarray) -> float:
        """The best score of any face for the quad read by the quick descriptor (features.describe_quick):
        to rank guesses before any is read."""
        quad = features.short_side_first(features.order_clockwise(corners))
        options = [quad] + ([quad[NEXT]] if features.aspect_ambiguous(quad) else [])
        return max(float((features.describe_quick(frame, q, inset=self._inset) @ self._bank.T).max()) for q in options)

    def identify(self, frame: np.ndarray, corners: np.ndarray, found: Found = Found.WHOLE,
                 seen_whole: bool | None = None, clear_fit: bool = True, uncovered: bool = False) -> CardMatch:
        """Name the card whose outline is ``corners`` (4 points, any order), found as ``found`` says
        (which sets how surely it must read to be named). ``seen_whole``: the card's outline was found
        whole (this one may be fitted to it; by default, when ``found`` is WHOLE). ``clear_fit``: a
        FITTED outline read clear but under the threshold may be named (CLEAR_FITTED); not when it was
        fitted to a face it did not read most like, which draws it onto that face's print. ``uncovered``:
        nothing found in the frame lies over the outline (UNCOVERED_CLEAR)."""
        complete = found is Found.WHOLE
        seen_whole = complete if seen_whole is None else seen_whole
        if not self.model.cards:
            return CardMatch(None, None, 0.0, 0.0, features.order_clockwise(corners), complete)
        # an outline found whole was snapped to the steepest edge: a lined deck's line's inner edge on a dark cloth
        options, flats, vectors, scores = self.scores(frame, corners, onto_line=found is Found.WHOLE)
        o, turn, idx, margin = self._decide(vectors, scores, self._bank)
        past: list[int] = []   # a card the colours told it from (HUE_NAMED): left out of its margin
        if rules.HUE_NAMED and margin < self.model.min_margin:
            told = self._told_by_hue(scores[o], flats[o], idx)
            if told is not None:
                past, (turn, idx) = [idx], told
                margin, _ = self._margin(vectors[o], scores[o], turn, idx, self._bank, past)
        best = float(scores[o, turn, idx])
        face_corners = options[o][OPPOSITE] if turn else options[o]
        name = self.cards[idx]
        need_conf, need_margin = self.model.min_confidence, self.model.min_margin
        need_cconf, need_cmargin = rules.CONTRAST_MIN_CONFIDENCE, rules.CONTRAST_MIN_MARGIN
        if found in (Found.FITTED, Found.HARDLY_MOVED):
            need_conf += rules.FITTED_EXTRA_CONFIDENCE
            need_cconf += rules.FITTED_EXTRA_CONFIDENCE
        sure = best >= need_conf and name not in self._unnamed
        if sure and margin < need_margin and rules.HUE_TELLS:
            margin = self._margin_past_hue(vectors[o], scores[o], turn, idx, _turned(flats[o], turn), need_margin,
                                           inks_only=found is not Found.WHOLE, skip=past)
        named = sure and margin >= need_margin
        narrow = sure and rules.NARROW_MARGIN <= margin < need_margin   # named only if its print is surely the card's
        # a reading a little short is read blurred: a whole outline's from SOFT_FROM, a hardly moved fit's
        # from a whole outline's threshold; other guesses and fits never
        soft_from = {Found.WHOLE: rules.SOFT_FROM, Found.HARDLY_MOVED: self.model.min_confidence}.get(found)
        if (not named and soft_from is not None and soft_from <= best and margin >= need_margin
                and name not in self._unnamed):
            soft, soft_margin = self._reading_again(flats, (o, turn, idx), self._soft_bank, blur=rules.SOFT_BLUR)
            if soft >= self.model.min_confidence and soft_margin >= need_margin:
                named, best = True, soft
        # a clear reading (below) is trusted on an outline seen whole or a face printed in one ink: a guess's
        # name may rest on a medallion another card covers
        may_clear = seen_whole or uncovered or (rules.CLEAR_ONE_INK and self.ink.one_ink(name))
        # a card under a veil of glare is read again with its print's contrast evened (VEILED); read a little
        # short so but clear of every rival, it is named as a clear reading is (VEILED_CLEAR)
        veiled_clear = False
        if (not named and rules.VEILED and found in (Found.WHOLE, Found.HARDLY_MOVED) and name not in self._unnamed
                and name in self.faces and features.veiled(_turned(flats[o], turn), self.faces[name])):
            even, even_margin = self._reading_again(flats, (o, turn, idx), self._even_bank, even=True)
            if even >= self.model.min_confidence and even_margin >= need_margin:
                named, best = True, even
            veiled_clear = (rules.VEILED_CLEAR and not named and may_clear
                            and even >= rules.SOFT_FROM and even_margin >= rules.CLEAR_MARGIN)
        # a card under a spot of glare is read again without the cells the glare washed out (vision.glare);
        # refused below, it reads as before (``plain``), so that its outline's fit and guesses are still tried
        plain = best
        unglared_clear = False
        if (not named and found.name in rules.UNGLARED and name not in self._unnamed and name in self.faces):
            unglared, unglared_margin = self._reading_unglared(vectors[o], scores[o], _turned(flats[o], turn),
                                                               (turn, idx))
            if unglared >= need_conf and unglared_margin >= need_margin:
                named, best = True, unglared
            unglared_clear = (rules.UNGLARED_CLEAR and not named and may_clear
                              and (found is Found.HARDLY_MOVED or clear_fit)
                              and unglared >= rules.SOFT_FROM and unglared_margin >= rules.CLEAR_MARGIN)
        # a clear reading, named only if its print is surely the card's as a narrow one's: under the threshold
        # where a fit placed it (CLEAR, CLEAR_FITTED) or a guess nothing covers (UNCOVERED_CLEAR), or at a whole
        # outline's threshold on any fit, clear by far (FIT_CLEAR)
        clear = not named and not narrow and name not in self._unnamed and (
            veiled_clear or unglared_clear
            or (rules.CLEAR and (found is Found.HARDLY_MOVED or uncovered
                           or (rules.CLEAR_FITTED and clear_fit and found is Found.FITTED))
                and rules.SOFT_FROM <= best and margin >= rules.CLEAR_MARGIN and may_clear)
            or (rules.FIT_CLEAR and found in (Found.FITTED, Found.HARDLY_MOVED) and best >= self.model.min_confidence
                and margin >= rules.FIT_CLEAR_MARGIN))
        m = CardMatch(name if named or narrow or clear else None, name, best, margin, face_corners, complete,
                      like=name if name in self._ghosts else None)
        if m.card is None:
            return m   # the checks below can only take a name away
        # the light-free reading only vetoes: naming on its own, it misread a purple 8 laid on a
        # pile as a purple 9 in the Pass Pass camera test (tests/hardware/test_sim_cards.py)
        contrast = np.array([features.describe_contrast(f) for f in flats])
        cscores = self._against(contrast, self._contrast_bank)
        co, cturn, cidx, cmargin = self._decide(contrast, cscores, self._contrast_bank)
        if (float(cscores[co, cturn, cidx]) >= need_cconf and cmargin >= need_cmargin and cidx != idx
                # but for its twin, on an outline whose print shows whole: the twins' check decides there
                and not (rules.TWINS_PAST_CONTRAST and rules.TWINS and (seen_whole or uncovered)
                         and self.cards[cidx] in self.twins.of(name))):
            m.card, m.confidence = None, plain   # it clearly names another card than the colours do
            return m
        near = np.maximum(scores.max(axis=(0, 1)), cscores.max(axis=(0, 1)))
        rivals = [self.cards[i] for i in np.argsort(-near)[:rules.RIVALS + 1]]
        if self._told_out_of_view(frame.shape, options[o], turn, m.card, rivals):
            m.card, m.confidence = None, plain
            return m
        flat = _turned(flats[o], turn)
        twin = self.twins.rival(flat, m.card) if rules.TWINS else None
        if twin is not None:
            # more like its twin where the two differ (vision.twins): the twin if it reads as surely, else nothing
            m.card, m.confidence = None, plain
            named_twin = rules.TWIN_NAMED and seen_whole and self._as_twin(
                twin, name, (options[o], vectors[o], scores[o], flats[o]), rivals, (need_conf, need_margin),
                frame.shape, complete)
            return named_twin or m
        if rules.TWINS and rules.TWINS_TOLD:   # told from its twins just now, where they differ
            rivals = [r for r in rivals if r not in self.twins.of(m.card)]
        if self._refused(flat, m.card, rivals, narrow or clear, seen_whole,
                         clear_by=rules.MISMATCH_CLEAR and margin >= rules.MISMATCH_CLEAR_MARGIN):
            m.card, m.confidence = None, plain
        return m

    def _as_twin(self, twin: str, card: str, reading: tuple, rivals: list[str], need: tuple[float, float],
                 shape: tuple, complete: bool) -> CardMatch | None:
        """``twin``'s match for an outline read as ``card`` but more like ``twin`` where the two differ (TWIN_NAMED),
        ``reading`` its (corners, descriptor, scores, flat) the way round it was read, if it reads as surely (the
        model's confidence, its margin over every card but ``card``) and passes the full-size checks against every
        rival but ``card``, which the twins' check has told it from (unless they differ where a frame of ``shape``
        cuts the card off, MAX_UNSEEN); else None."""
        quad, vector, scores, flat = reading
        t = self.cards.index(twin)
        turn = int(np.argmax(scores[:, t]))
        best = float(scores[turn, t])
        margin, _ = self._margin(vector, scores, turn, t, self._bank, skip=[self.cards.index(card)])
        corners = quad[OPPOSITE] if turn else quad
        flat = _turned(flat, turn)
        if (twin in self._unnamed or best < need[0] or margin < need[1]
                or self._told_out_of_view(shape, quad, turn, twin, [*rivals, card])
                or self._refused(flat, twin, [r for r in rivals if r != card], False, True)
                or self.twins.rival(flat, twin) is not None):
            return None
        return CardMatch(twin, twin, best, margin, corners, complete)

    def _told_out_of_view(self, shape, quad: np.ndarray, turn: int, card: str, rivals: list[str]) -> bool:
        """Whether ``card``, its outline ``quad`` (read ``turn``-ed) running past the edge of a frame of
        ``shape``, differs from one of ``rivals`` mostly out of view (MAX_UNSEEN)."""
        h, w = shape[:2]
        if np.all((quad >= 0) & (quad <= [w - 1, h - 1])):
            return False   # the whole card in the frame (the common case: nothing to work out)
        seen = _turned(features.in_view(quad, shape), turn)
        return any(self._hues.hidden_share(seen, card, r) > rules.MAX_UNSEEN for r in rivals if r != card)

    def _margin_past_hue(self, v: np.ndarray, scores: np.ndarray, turn: int, idx: int, flat: np.ndarray,
                         need_margin: float, inks_only: bool = False, skip=()) -> float:
        """The margin of card ``idx`` (``v`` read as its face lies in ``flat``) against its closest rivals,
        leaving out a rival whose face differs from it in colour the card's own colours clearly
        lean from (:meth:`vision.ink.DifferenceHue.favours`): a washed-out blue 9 read as near the
        green 9 as its own face in the coarse reading, its ink still blue. ``skip``: rivals left out
        already (not counted in HUE_TOLD_RIVALS)."""
        told: list[int] = []
        margin, rival = self._margin(v, scores, turn, idx, self._bank, skip)
        while margin < need_margin and rival is not None and len(told) < rules.HUE_TOLD_RIVALS:
            card, other = self.cards[idx], self.cards[rival]
            if (inks_only and not self.ink.other_ink(card, other)) or not self._hues.favours(flat, card, [other]):
                break
            told.append(rival)
            margin, rival = self._margin(v, scores, turn, idx, self._bank, [*skip, *told])
        return margin

    def _told_by_hue(self, scores: np.ndarray, flat: np.ndarray, idx: int) -> tuple[int, int] | None:
        """(turn, card) of the closest of card ``idx``'s rivals (``scores`` the reading's, by turn and card;
        ``flat`` the card rectified as its outline lies) printed in a near ink (vision.ink.InkCheck.near_ink),
        towards whose face the card's colours lean clearly against ``idx``'s (HUE_NAMED), or None."""
        card = self.cards[idx]
        per_card = scores.max(axis=0)
        for rival in (int(c) for c in np.argsort(-per_card)[:rules.RIVALS + 1] if int(c) != idx):
            if not self.ink.near_ink(card, self.cards[rival]):
                continue
            rturn = int(np.argmax(scores[:, rival]))
            if self._hues.favours(_turned(flat, rturn), self.cards[rival], [card]):
                return rturn, rival
        return None

    def _reading_again(self, flats: list[np.ndarray], decided: tuple[int, int, int], bank: np.ndarray,
                       **how) -> tuple[float, float]:
        """The confidence and margin of another reading of ``flats`` (described ``how``: blurred, evened)
        against ``bank`` (the faces described so), or (0.0, 0.0) if it does not name the card ``decided``
        (way round, turn, card) by the first reading."""
        vectors = np.array([features.describe(f, inset=self._inset, **how) for f in flats])
        scores = self._against(vectors, bank)
        o, turn, idx, margin = self._decide(vectors, scores, bank)
        return (float(scores[o, turn, idx]), margin) if (o, turn, idx) == decided else (0.0, 0.0)

    def _reading_unglared(self, vector: np.ndarray, scores: np.ndarray, flat: np.ndarray,
                          decided: tuple[int, int]) -> tuple[float, float]:
        """The confidence and margin of ``vector`` (a card's descriptor, ``scores`` its readings by turn and
        card) read without the cells under glare, judged against the face of the card ``decided`` (turn, card)
        and its closest rivals' as ``flat`` shows each (``flat`` turned as ``decided`` lies), and the faces the
        cells left out read most like (GLARED_RIVALS), or (0.0, 0.0) if no glare is found or that reading does not
        name the same card the same way round."""
        turn, idx = decided
        rivals = [(i, int(np.argmax(scores[:, i]))) for i in np.argsort(-scores.max(axis=0)) if i != idx][:glare.RIVALS]
        keep = self._outside_glare(flat, decided, rivals)
        if keep is not None and rules.GLARED_RIVALS:
            # the cells left out, read alone: the faces they read most like must see them rise too, or what rose
            # is print the named face lacks (a purple 12's third column of pale pips, left out, read purple-8)
            v, bank = glare.restricted(vector, self._bank, ~keep)
            there = (bank @ v).reshape(2, len(self.cards))
            near = {i for i, _ in rivals}
            rivals += [(i, int(np.argmax(there[:, i]))) for i in np.argsort(-there.max(axis=0))
                       if i != idx and i not in near][:rules.GLARED_RIVALS]
            keep = self._outside_glare(flat, decided, rivals)
        if keep is None:
            return 0.0, 0.0
        v, bank = glare.restricted(vector, self._bank, keep)
        scores = (bank @ v).reshape(1, 2, len(self.cards))
        _, t, i, margin = self._decide(v[None], scores, bank)
        return (float(scores[0, t, i]), margin) if (t, i) == decided else (0.0, 0.0)

    def _outside_glare(self, flat: np.ndarray, decided: tuple[int, int],
                       rivals: list[tuple[int, int]]) -> np.ndarray | None:
        """The descriptor's elements (read as the outline lies) outside glare on ``flat`` (turned as ``decided``,
        (turn, card), lies), judged against that card's face and each of ``rivals`` ((card, turn as read)), or
        None (vision.glare.kept)."""
        turn, idx = decided
        papers = [self._face_paper(self.cards[idx], 0)] + [
            self._face_paper(self.cards[i], t ^ turn) for i, t in rivals if self.cards[i] in self.faces]
        keep = glare.kept(flat, papers, self._inset)
        if keep is not None and turn:   # the cells as the descriptor (read as the outline lies) holds them
            keep = features.rotate_descriptor(keep)
        return keep

    def _face_paper(self, card: str, turn: int) -> np.ndarray:
        """The paper level of ``card``'s enrolled face, ``turn``-ed (vision.glare.face_paper), made once."""
        key = (card, turn)
        if key not in self._papers:
            self._papers[key] = glare.face_paper(_turned(self.faces[card], turn))
        return self._papers[key]

    def _refused(self, flat: np.ndarray, card: str, rivals: list[str], narrow: bool,
                 seen_whole: bool, clear_by: bool = False) -> bool:
        """Whether the full-size checks refuse ``card`` for ``flat`` (rectified as ``card``'s face lies);
        ``narrow``: read by a narrow margin (NARROW_MARGIN), the print must be surely the card's;
        ``seen_whole``: a card whose outline was found whole (else, but for a face of one ink, every patch
        must be nearer the face, MAX_MISMATCH_NOT_WHOLE); ``clear_by``: read clear of every rival (MISMATCH_CLEAR;
        on a guessed outline, a face of one ink: MISMATCH_CLEAR_GUESS_ONE_INK)."""
        seen = fine(flat)
        floor = rules.FINE_SURE_MARGIN if narrow else rules.FINE_MIN_MARGIN
        nearer = [r for r, fm in self._fine.margins(flat, card, rivals, seen).items() if fm < floor]
        if nearer:
            # nearer a rival where the two faces differ, unless its colour says otherwise (never enough
            # for a narrow reading; for a rival of the same one ink, the print is still checked whole)
            if narrow or not self._hues.favours(flat, card, nearer):
                return True
            if not (rules.SAME_INK_STILL_CHECKED and any(self.ink.same_ink(card, r) for r in nearer)):
                return False
        # a patch of the print not the named face's (a medallion look-alike, a card not enrolled);
        # its ink a rival's hue (a washed-out blue read as green by amount of colour); a faded orange
        # medallion read as a rival's green one (style 2: leon-fabi as leon-rocce)
        one_ink = self.ink.one_ink(card)
        whole_limit = seen_whole or (rules.MISMATCH_ONE_INK and one_ink)
        limit = rules.MAX_MISMATCH if whole_limit else rules.MAX_MISMATCH_NOT_WHOLE
        if clear_by and (seen_whole or one_ink or not rules.MISMATCH_CLEAR_GUESS_ONE_INK):
            limit = max(limit, rules.MAX_MISMATCH_CLEAR)
        return (self._fine.mismatch(flat, card, seen) > limit
                or self.ink.rival_hue(flat, card, rivals) is not None
                or self._hues.rival(flat, card, [r for r in rivals if rules.HUE_VETO_SAME_INK
                                                 or not self.ink.same_ink(card, r)]) is not None
                or self._hues.rival(flat, card, [r for r in rivals if self.ink.near_ink(card, r)],
                                    below=rules.OTHER_INK_LEAN) is not None)

    def _decide(self, vectors: np.ndarray, scores: np.ndarray, bank: np.ndarray) -> tuple[int, int, int, float]:
        """(way round, turn, card, margin) of the best card for one descriptor."""
        o, turn, idx = (int(x) for x in np.unravel_index(int(np.argmax(scores)), scores.shape))
        margin, rival = self._margin(vectors[o], scores[o], turn, idx, bank)
        for _ in range(2):
            # the best score can go to a card whose face shares most of the picture with the
            # right one; the pairwise test looks only where they differ, so it has the last word
            if margin >= 0 or rival is None:
                break
            idx = rival
            turn = int(np.argmax(scores[o, :, idx]))
            margin, rival = self._margin(vectors[o], scores[o], turn, idx, bank)
        return o, turn, idx, margin

    def _margin(self, v: np.ndarray, scores: np.ndarray, turn: int, idx: int,
                bank: np.ndarray, skip=()) -> tuple[float, int | None]:
        """How clearly ``v`` sits on the side of the best card against its closest rivals.

        For each rival c, ``v`` is projected on the line from the rival's template to the
        best one: 0.5 is exactly the best template, 0 halfway, negative nearer the rival.
        Unlike a difference of scores, this does not shrink when two faces differ only
        in a small area (a 5 and a 6 of the same colour). Only the clear differences
        between the two templates are looked at (:func:`vision.verify.difference_focus`):
        the faint ones are mostly the two enrolment photos' own noise.
        Returns the smallest such margin and the rival that gave it; ``skip``: cards not counted as rivals."""
        n = len(self.cards)
        per_card = scores.max(axis=0).copy()
        left_out = [idx, *skip]
        per_card[left_out] = -np.inf
        # those left out sort last: only that many more are taken before they are dropped
        nearest = np.argsort(-per_card)[:rules.RIVALS + len(left_out)]
        rivals = [int(c) for c in nearest if int(c) not in left_out][:rules.RIVALS]
        tb = bank[turn * n + idx]
        margin, worst = 1.0, None
        for c in rivals:
            tc = bank[int(np.argmax(scores[:, c])) * n + c]
            d = tb - tc
            focus = difference_focus(d)
            dd = float(d @ focus)
            if dd > 1e-9:
                m = float((v - (tb + tc) / 2) @ focus) / dd
                if m < margin:
                    margin, worst = m, int(c)
        return margin, worst

    def blank(self, frame: np.ndarray, corners: np.ndarray) -> bool:
        """Nothing printed inside ``corners``: glare, a phone, a hand (BLANK_SHARE)."""
        return features.print_contrast(features.rectify(frame, corners)) < self._min_print

    def preparing(self) -> Steps[None]:
        """What naming each enrolled card makes the first time (its look-alikes' scale for the full-size
        check, its ink hue and colours, its tells and twins, its paper level for glare), a card a step of about 4 ms,
        then the evened faces' bank (VEILED; about 16 ms, in steps), made ahead. A live camera's recogniser
        (``CardRecogniser.frame_budget``) works on it in the spare time of frames it answers as the table last
        read, so that the first cards laid are not read at the cost of making it (style 1, 5 new cards: 72 ms read
        by a fresh recogniser, 35 ms once it is made). The same values as made at need: no reading changes."""
        for card in self.model.cards:
            if card in self.faces:
                yield
                for check in (self._fine, self.ink, self._hues, self.tells, self.twins):
                    check.prepare(card)
                for turn in (0, 1):
                    self._face_paper(card, turn)
        if self._even is None:
            yield
            self._even = yield from self._making_even_bank()   # the same bank, if made at need meanwhile


def _both_turns(rows, n: int, dim: int) -> np.ndarray:
    """A bank of ``n`` descriptors (``rows``) followed by the same turned by 180 degrees, (2n, dim)
    float32; shaped by ``dim``, not -1, as a model may have no card yet."""
    rows = np.asarray(rows, np.float32).reshape(n, dim)
    turned = np.array([features.rotate_descriptor(r) for r in rows], np.float32).reshape(n, dim)
    return np.vstack([rows, turned])


def _turned(flat: np.ndarray, turn: int) -> np.ndarray:
    """A rectified card turned by 180 degrees ``turn`` times: the same as rectifying its outline turned."""
    return np.ascontiguousarray(flat[::-1, ::-1]) if turn else flat


def _deck_ids(deck: str) -> list[str]:
    """The deck's card ids, or none for a deck no installed game describes."""
    try:
        return deck_card_ids(deck)
    except UnknownDeck:
        return []
