"""Naming the cards in a frame against an enrolled deck, or abstaining.

The detector (:mod:`vision.detect`) finds the cards' outlines: whole ones, and guesses where cards
overlap or a hand covers one. Each is read by the :class:`~vision.reader.OutlineReader` (named or
left unnamed, never guessed). A guess is first snapped to the edges it has, and if still unsure,
fitted to the face it most resembles (:mod:`vision.refine`; or, if it reads like no face, to the
deck's mean face) and read again. With the empty table known, an outline short of a card's length
or width (one end or side lost in the cloth, a shadow or under another card) is read drawn out to a
card's size (``TableBackground.cut_short``). A live camera's frames of a table at rest are answered
from the last reading, part by part, and a table of new cards is read over several frames
(:mod:`vision.repeat`). The thresholds and switches are :mod:`vision.rules`'.

    >>> rec = CardRecogniser(CardModel.load("models/pass-pass"))  # doctest: +SKIP
    >>> [(m.card, round(m.confidence, 2)) for m in rec.recognise(frame)]  # doctest: +SKIP
    [('purple-10', 0.97), (None, 0.41)]
"""

from __future__ import annotations

import time
from dataclasses import replace

import cv2
import numpy as np

from vision import rules
from vision.detect import CardDetector, CardQuad, quad_overlap, snap_past_shadow, snap_to_edges
from vision.model import CardModel
from vision.reader import CardMatch, Found, OutlineReader
from vision.refine import fitting_to_face
from vision.repeat import LastFrame, SpreadReading, StillFrame, StillParts
from vision.shrunk import full_px
from vision.steps import Steps, run_to_the_end

__all__ = ["CardMatch", "CardRecogniser", "Found", "quad_overlap"]


class CardRecogniser:
    """Detects and identifies cards: the detector finds the outlines, the :attr:`reader` (an
    :class:`~vision.reader.OutlineReader`) names each. Not thread-safe (the detector keeps its last mask).
    With ``in_play_only`` the enrolled faces are taken for every card that can lie on the table
    (a rig of a few faces): no face is pieced for the deck's other cards and none is held back.

        >>> rec = CardRecogniser(model)  # doctest: +SKIP
        >>> matches = rec.recognise(frame)  # doctest: +SKIP
        >>> known = [m.card for m in matches if m.card]  # doctest: +SKIP
    """

    def __init__(self, model: CardModel, detector: CardDetector | None = None, *, same_frames: bool = False,
                 still_frames: bool = False, in_play_only: bool = False, frame_budget: float | None = None):
        self.model = model
        self.reader = OutlineReader(model, in_play_only)
        self.detector = detector or CardDetector()
        # a frame identical to the last one (simulated tables), or with ``still_frames`` one that differs
        # from the last worked on only by a camera's noise or shows the table in motion (read once it
        # settles), gets its matches again (vision.repeat)
        self._last = StillFrame() if still_frames else LastFrame() if same_frames else None
        # and then, part by part: the cards of the parts of the frame that did not change (vision.repeat)
        self._parts = StillParts() if still_frames else None
        self._spread: SpreadReading | None = None
        self.frame_budget = frame_budget
        self._reading_on = False   # the last frame was answered as the table last read, its reading under way
        self._preparing: Steps[None] | None = None   # the cards' checks made ahead (OutlineReader.preparing), begun
        self.prepared = False      # every enrolled card's checks made ahead of need

    def identify(self, frame: np.ndarray, corners: np.ndarray, found: Found = Found.WHOLE, **how) -> CardMatch:
        """The card whose outline is ``corners`` in ``frame``, or an abstention (:meth:`OutlineReader.identify`)."""
        return self.reader.identify(frame, corners, found, **how)

    @property
    def reused_frames(self) -> int:
        """Frames answered with an earlier frame's matches (``still_frames``), for benchmarks."""
        return getattr(self._last, "reused", 0)

    @property
    def waited_frames(self) -> int:
        """Of those, frames of a table in motion (``still_frames``), for benchmarks."""
        return getattr(self._last, "waited", 0)

    @property
    def in_motion(self) -> bool:
        """The last frame showed the table in motion and was answered as the table last read
        (``still_frames``): a stability filter takes it as no news either way."""
        return getattr(self._last, "moving", False)

    @property
    def frame_budget(self) -> float | None:
        """Seconds of reading a frame (with ``still_frames``; None: every frame read to its end). A table with
        new cards is then read over several frames, that much of it a frame, on the frame its reading began
        in while the table stays still (vision.repeat.SpreadReading); the frames meanwhile are answered as the
        table last read (:attr:`no_news`). A live camera's frames are not left unread for a whole reading. The
        spare budget of frames answered as the table last read makes the cards' checks ahead of need
        (``OutlineReader.preparing``; :attr:`prepared` once all are made)."""
        return self._spread.budget if self._spread is not None else None

    @frame_budget.setter
    def frame_budget(self, seconds: float | None) -> None:
        if seconds and not isinstance(self._last, StillFrame):
            raise ValueError("a reading is spread over the frames of a still table: still_frames=True is needed")
        self._spread = SpreadReading(self._reading, seconds) if seconds else None

    @property
    def no_news(self) -> bool:
        """The last frame was answered as the table last read, either in motion (:attr:`in_motion`) or
        while a reading spread over frames goes on (``frame_budget``): a stability filter takes it as no
        news either way."""
        return self.in_motion or self._reading_on

    @property
    def spread_frames(self) -> int:
        """Frames answered before their reading finished (``frame_budget``), for tests and benchmarks."""
        return getattr(self._spread, "waited", 0)

    @property
    def reused_parts(self) -> int:
        """Parts of frames answered with an earlier frame's cards (``still_frames``), for benchmarks."""
        return getattr(self._parts, "reused", 0)

    def recognise(self, frame: np.ndarray, blank: bool = False) -> list[CardMatch]:
        """Every card in ``frame``: complete outlines first, then the best non-overlapping
        guesses from merged outlines (overlapping cards, a hand on a card), each snapped
        to the edges it has and, if still unsure, fitted to the face it most resembles (or, if it
        reads like no face, to the deck's mean face).
        With ``blank``, also the outlines with nothing printed inside (``blank=True``: glare,
        a phone, a hand): not cards, but they cover what lay there. An unnamed outline showing
        the empty table's own pattern (``TableBackground.shows_table``) is never reported.
        With ``frame_budget``, a frame whose reading goes on past it is answered as the table last
        read (:attr:`no_news`)."""
        start = time.perf_counter()
        self._reading_on = False
        if self._last is None:
            out = self._recognise(frame)
        else:
            out = self._last.get(frame)
            if out is not None and self._spread is not None and not self.prepared:
                self._prepare_until(start + self._spread.budget)
            if out is None and self._spread is None:
                out = self._recognise(frame)
                self._last.keep(frame, out)
            elif out is None:
                out = self._spread.advance(frame, start, self._last.shrunk)
                if out is not None:
                    self._last.keep(self._spread.frame, out)   # what was read belongs to the frame it began in
                else:
                    out, self._reading_on = self._last.result or [], True
            out = [replace(m, corners=m.corners.copy()) for m in out]   # copies: a caller may change them
        return out if blank else [m for m in out if not m.blank]

    def _prepare_until(self, deadline: float) -> None:
        """Works on the reader's checks made ahead (``OutlineReader.preparing``) until ``deadline`` (a
        ``time.perf_counter()``) or its end."""
        if self._preparing is None:
            self._preparing = self.reader.preparing()
        step = 0.0   # the last step's length: a step that would end past the deadline waits for the next frame
        while (now := time.perf_counter()) + step < deadline:
            try:
                next(self._preparing)
            except StopIteration:
                self.prepared = True
                return
            step = time.perf_counter() - now

    def _recognise(self, frame: np.ndarray) -> list[CardMatch]:
        """The matches of ``frame``, read whole now."""
        return run_to_the_end(self._reading(frame))

    def _reading(self, frame: np.ndarray) -> Steps[list[CardMatch]]:
        """The work of reading ``frame``, in steps: it yields between the detection's stages, before each
        reading of an outline, each ECC round of a fit and each named card's tells, and returns the matches.
        Run to its end at once, or a step at a time over the frames of a table at rest (``frame_budget``;
        vision.repeat.SpreadReading): the same matches."""
        out: list[CardMatch] = []
        if self._parts is not None:
            self._parts.begin(frame)
        quads = yield from self.detector.detecting(frame)
        parts = _split_into_parts(quads, self.detector.settings.scale)
        for box, quads in parts:
            # kept as they are: with still_frames, recognise() hands out copies only
            found = self._parts.get(box) if self._parts is not None else None
            if found is None:
                found = yield from self._part(frame, quads)
                if self._parts is not None:
                    self._parts.keep(box, found)
            out += found
        if self._parts is not None:
            self._parts.end()
        out = _without_stray_guesses(out)
        if rules.UNCOVERED_CLEAR:
            for k, m in enumerate(out):
                if self._uncovered_clear(frame, m, out):
                    yield
                    again = self.reader.identify(frame, m.corners, Found.GUESSED, uncovered=True)
                    if again.card is not None:
                        out[k] = again
        # a card whose tell (what tells it from its look-alikes) lies under a card on top of it, or does not
        # show its own print, is not named: another card's print or a token lies where its own would be
        told = []
        for m in out:
            if m.card is not None:
                yield
                if self._tell_not_shown(frame, m, out):
                    m = replace(m, card=None)
            told.append(m)
        return told

    def _uncovered_clear(self, frame: np.ndarray, m: CardMatch, out: list[CardMatch]) -> bool:
        """Whether ``m``, a guess read clear but unnamed, may be read again as one nothing covers
        (UNCOVERED_CLEAR): in the frame, no other outline of ``out`` over it, not a card cut short (UNCOVERED_UNCUT)."""
        h, w = frame.shape[:2]
        background = self.detector.background
        return (m.card is None and not m.complete and not m.blank and m.best is not None and m.like is None
                and m.confidence >= rules.SOFT_FROM and m.margin >= rules.CLEAR_MARGIN
                and bool(np.all((m.corners >= 0) & (m.corners <= [w - 1, h - 1])))
                and all(k is m or quad_overlap(m.corners, k.corners) <= rules.UNCOVERED_OVERLAP for k in out)
                and not (rules.UNCOVERED_UNCUT and background is not None and background.cut_short(m.corners)))

    def _tell_not_shown(self, frame: np.ndarray, m: CardMatch, out: list[CardMatch]) -> bool:
        """Whether what tells ``m`` from its look-alikes lies under a card of ``out`` on top of it (TELLS_HIDDEN)
        or does not show ``m``'s own print (TELLS_UNSEEN; vision.tells)."""
        return bool((rules.TELLS_HIDDEN and self.reader.tells.hidden(frame, m, out))
                    or (rules.TELLS_UNSEEN and self.reader.tells.unseen(frame, m)))

    def _part(self, frame: np.ndarray, quads: list[CardQuad]) -> Steps[list[CardMatch]]:
        """The cards in one part of the frame (:func:`_split_into_parts`): the quads the detector found in one
        outline (a lone card's, or the guesses from a merged shape) and in outlines meeting it. Steps of
        :meth:`_reading`: yields before each outline read or fitted."""
        out, doubtful, guesses = [], [], []
        for q in quads:
            if not q.complete:
                guesses.append(q.corners)
                continue
            yield
            m = self.reader.identify(frame, q.corners)
            sure = self.model.min_confidence   # an outline reading this much and named nothing is one card
            if self.reader.read_inside and _dark_rim(frame, q.corners):
                # a dark border: its face may have been enrolled from inside the border (on a dark
                # table the border cannot be told from the cloth); a reading that names, else the surer, wins
                centre = q.corners.mean(axis=0)
                yield
                inner = self.reader.identify(frame, centre + (q.corners - centre) / rules.BORDER_GROW)
                if (inner.card is not None, inner.confidence) > (m.card is not None, m.confidence):
                    m = inner
            if m.card is None and m.confidence < self.model.min_confidence:
                # perhaps only the printed field inside a border as dark as the table was seen
                centre = q.corners.mean(axis=0)
                yield
                wider = self.reader.identify(frame, centre + (q.corners - centre) * rules.BORDER_GROW)
                if wider.card is not None:
                    m = wider
            if m.card is not None and m.confidence < rules.CONFIRM_WHOLE_BELOW and m.card in self.reader.faces:
                # a whole outline a few px off names a card barely: fitted to that face, it may read surely as
                # another value of the same ink (fresh scene 3,076,787: a green 5 named green 3 at 0.902, 6 px
                # off). A fit that names nothing or the same card leaves the name as it was
                yield
                again = yield from self._fitted(frame, m, self.reader.faces[m.card], seen_whole=True)
                if again is not None and again.card is not None and again.card != m.card:
                    m = replace(again, complete=True)
                elif rules.NEXT_FACES_CHECK_WHOLE:
                    # the fit to the named face can draw the outline onto that face's print: the next faces
                    # too, one that names another card surer wins (NEXT_FACES_CHECK_WHOLE)
                    other = yield from self._surer_by_next_faces(frame, m, m)
                    if other is not None:
                        m = replace(other, complete=True)
            if m.card is None and m.best in self.reader.faces and m.confidence >= rules.FIT_MIN_CONFIDENCE:
                # an outline a few px off (a dark border lost in its own shadow) reads badly: fit it to the
                # face. Moved towards that face, it must read surer (FITTED_EXTRA_CONFIDENCE;
                # a second fit to the closest rival's face, which had to read as the same name, still let
                # 4 more wrong names through in 2,000 scenes: 9 instead of 5, for 47 more names)
                yield
                again = yield from self._fitted(frame, m, self.reader.faces[m.best], seen_whole=True)
                if again is not None and (again.card is not None, again.confidence) > (False, m.confidence):
                    m = replace(again, complete=True)
                    # a fitted outline's own threshold
                    sure = self.model.min_confidence + rules.FITTED_EXTRA_CONFIDENCE
            if m.card is None and m.confidence < sure and q.outline is not None:
                # perhaps two nearly stacked cards whose union looked like one: try guesses
                more = [g.corners for g in (yield from self.detector.guessing(q.outline, frame))]
                if more:
                    guesses += more
                    doubtful.append(m)
                    continue
            m = yield from self._whole_length(frame, m)
            m.blank = m.card is None and self.reader.blank(frame, m.corners)
            out.append(m)
        if guesses and self.model.cards:
            # cheap ranking first: the best score of each guess, then one per place. A place whose
            # guesses so far named nothing is tried with the next guess, and the first that names wins
            yield
            ranked = sorted(guesses, key=lambda c: self.reader.quick_score(frame, c), reverse=True)
            unnamed: list[CardMatch] = []
            for corners in ranked:
                here = [k for k in out if quad_overlap(corners, k.corners) >= rules.SAME_CARD_OVERLAP]
                if here and not all(any(k is u for u in unnamed) for k in here):
                    continue
                yield
                m = yield from self._read_guess(frame, corners)
                m = yield from self._whole_length(frame, m)
                m.blank = m.card is None and self.reader.blank(frame, m.corners)
                # where nothing is named, a blank reading wins: something covering the place, not a card
                if here and m.card is None and not (m.blank and not any(h.blank for h in here)):
                    continue
                out = [k for k in out if not any(k is h for h in here)]
                if m.card is None:
                    unnamed.append(m)
                out.append(m)
        for m in doubtful:
            if all(quad_overlap(m.corners, k.corners) < rules.SAME_CARD_OVERLAP for k in out):
                m.blank = m.card is None and self.reader.blank(frame, m.corners)
                out.append(m)
        background = self.detector.background
        if background is not None:
            # an unnamed outline showing the empty table's own pattern is the table under glare or
            # shade, nothing laid on it (style-2 development seeds 100..1699: vision/README.md); here,
            # so that a part answered from an earlier frame is not looked at again
            out = [m for m in out if m.card is not None or not background.shows_table(frame, m.corners)]
        return out

    def _whole_length(self, frame: np.ndarray, m: CardMatch) -> Steps[CardMatch]:
        """``m``, unless its outline is a card cut short at one end or one side (the table known: the end
        lost in the cloth or a shadow or under another card, or a fit to a look-alike's print): then the
        first reading of the outline drawn out to a card's size, at one end (side) or the other, that names
        a card of a card's size; else ``m`` unnamed. Cut short, a full-bleed purple 8 showed the print of
        the 6 and was named so (style-2 fresh seeds 3,014,500..3,016,499: 3 of the 5 wrong names); a French
        9 of diamonds a third under a card, the print of the 7 (TableBackground.cut_short). Steps of
        :meth:`_reading`."""
        background = self.detector.background
        if background is None or not background.cut_short(m.corners):
            return m
        for corners in background.drawn_out(m.corners):
            again = yield from self._read_guess(frame, corners)
            if again.card is not None and not background.cut_short(again.corners):
                return replace(again, complete=m.complete)
        return replace(m, card=None)

    def _fitted(self, frame: np.ndarray, m: CardMatch, face: np.ndarray, seen_whole: bool = False,
                clear_fit: bool = True, give_up_below: float | None = None) -> Steps[CardMatch | None]:
        """``m``'s outline fitted to ``face`` (vision.refine) and read again at a fitted outline's
        thresholds (or, if the fit hardly moved it, SMALL_FIT), or None if the fit fails or its first round
        correlates under ``give_up_below``. ``seen_whole``: ``m``'s outline was found whole (not guessed);
        ``clear_fit`` as :meth:`identify` takes it. Steps of :meth:`_reading`: yields between the fit's
        rounds and before the reading."""
        fitted = yield from fitting_to_face(frame, m.corners, face, rules.FIT_ROUNDS, give_up_below)
        if fitted is None:
            return None
        moved = np.linalg.norm(fitted - m.corners, axis=1).max() / np.linalg.norm(m.corners[0] - m.corners[2])
        yield
        found = Found.HARDLY_MOVED if moved <= rules.SMALL_FIT else Found.FITTED
        return self.reader.identify(frame, fitted, found, seen_whole, clear_fit)

    def _read_guess(self, frame: np.ndarray, corners: np.ndarray) -> Steps[CardMatch]:
        """A guessed outline snapped to the edges it has (the paper's, else past a shadow) and read; if named,
        confirmed by a fit to that face (:meth:`_confirmed`); if unnamed, fitted to the faces it most resembles
        in turn (or, if it reads like no face, to the deck's mean face) and read again; named by a clear reading
        of its fit, also fitted to the next faces (NEXT_FACES_CHECK_CLEAR). Steps of :meth:`_reading`: yields
        before each reading and fit."""
        m = self.reader.identify(frame, snap_to_edges(frame, corners), Found.GUESSED)
        if m.card is None and self.detector.background is not None:
            # the difference from the empty table takes in the card's shadow: a guess made from it can lie
            # up to SHADOW_REACH outside the card, past the paper snap's reach (style-2 development seeds
            # 100..399: 10 more right names, none wrong)
            yield
            past = self.reader.identify(frame, snap_past_shadow(frame, corners), Found.GUESSED)
            # kept if it names, or reads surer and enough like a face to be fitted to it (what reads like
            # no face keeps the paper's edge)
            if past.card is not None or past.confidence > max(m.confidence, rules.GUESS_FIT_MIN_CONFIDENCE):
                m = past
        if m.card is not None:
            yield
            return (yield from self._confirmed(frame, m))
        if m.best in self.reader.faces and m.confidence >= rules.GUESS_FIT_MIN_CONFIDENCE:
            yield
            guess = m
            again = yield from self._fitted(frame, m, self.reader.faces[m.best])
            # a fit that names is kept though it reads a hair less sure than the guess (a clear reading
            # named where the fit held: 0.852 against 0.855, development scene 2029)
            if again is not None and (again.card is not None or again.confidence > m.confidence):
                m = again
            if m.card is None:
                # a guess 10-30 % off can read best as a look-alike: fitted to the next closest faces too,
                # it is named only if one of them reads sure (style-2 development seeds 100..399: 17 more
                # right names, none wrong)
                again = yield from self._named_by_next_faces(frame, m, m, m.best)
                if again is not None:
                    return again
            elif (rules.NEXT_FACES_CHECK_CLEAR
                  and m.confidence < self.model.min_confidence + rules.FITTED_EXTRA_CONFIDENCE):
                # named by a clear reading of a fit to the face it read most like: the fit can draw a partly
                # hidden card onto that face's print (fresh scene 3,092,263: a yellow 12 under a yellow 4 fitted
                # to yellow-9, named 0.85). The guess fitted to the next closest faces too, one that names
                # another card surer wins
                again = yield from self._surer_by_next_faces(frame, guess, m)
                if again is not None:
                    return again
        elif self.reader.mean_face is not None:
            # a guess 3-12 px off read 0.16-0.5 (dark-bordered cards in merged outlines): too unlike
            # any face to fit to one, it is fitted to the deck's mean face, which names no card
            yield
            again = yield from self._fitted(frame, m, self.reader.mean_face, give_up_below=rules.HOPELESS_FIT)
            if again is not None and again.card is not None:
                m = again
        return m

    def _named_by_next_faces(self, frame: np.ndarray, start: CardMatch, read: CardMatch, skip: str | None,
                             other_than: str | None = None,
                             doubt_above: float | None = None) -> Steps[CardMatch | None]:
        """The first reading that names a card (other than ``other_than``) of the outline ``start`` (a guess or a
        whole one) fitted to each of the FIT_FACES faces ``read``'s outline reads most like, but ``skip``'s, at a
        fit's thresholds and never as a clear reading (fitted to a face it read less like than another: fresh
        scene 3,054,099, a guess read as green-2, fitted to green-6, was named so at 0.88; it was a green 7); or
        None. With ``doubt_above``, a fit read as the card of the face it was fitted to, surer than that and by
        a whole outline's margin, but not named (the checks refused it), is returned unnamed before any later
        one (NEXT_FACES_DOUBT).
        Steps of :meth:`_reading`: yields before each fit."""
        near = self.reader.scores(frame, read.corners)[3].max(axis=(0, 1))
        for i in np.argsort(-near)[:rules.FIT_FACES]:
            card = self.reader.cards[int(i)]
            if card == skip or card not in self.reader.faces or near[i] < rules.GUESS_FIT_MIN_CONFIDENCE:
                continue
            yield
            again = yield from self._fitted(frame, start, self.reader.faces[card], clear_fit=False,
                                            give_up_below=rules.HOPELESS_FIT)
            if again is not None and again.card is not None and again.card != other_than:
                return again
            if (doubt_above is not None and again is not None and again.card is None and again.best == card
                    and again.confidence > doubt_above and again.margin >= self.model.min_margin):
                return again
        return None

    def _surer_by_next_faces(self, frame: np.ndarray, start: CardMatch, named: CardMatch) -> Steps[CardMatch | None]:
        """A reading of the outline ``start`` fitted to the next faces ``named``'s outline reads most like that
        names another card than ``named`` does, and surer (NEXT_FACES_CHECK_CLEAR, NEXT_FACES_CHECK_WHOLE: a
        fit to the named face can draw the outline onto that face's print); ``named`` unnamed if such a fit reads
        the card of its face surer but is refused (NEXT_FACES_DOUBT); or None. Steps of :meth:`_reading`."""
        doubt = named.confidence if rules.NEXT_FACES_DOUBT else None
        other = yield from self._named_by_next_faces(frame, start, named, named.card, other_than=named.card,
                                                     doubt_above=doubt)
        if other is None or other.confidence <= named.confidence:
            return None
        return other if other.card is not None else replace(named, card=None)

    def _confirmed(self, frame: np.ndarray, m: CardMatch) -> Steps[CardMatch]:
        """A guess named as it was snapped, fitted to the named face and read again: the name stands if
        the fitted outline names it too (a card printed in one ink: at a guess's thresholds,
        CONFIRM_AT_GUESS); the fitted reading's name, if another (it aligned the print the faces share
        and saw where they differ); else none.
        A guess a few px off on a small card reads the look-alikes' medallion out of place (style-2
        fresh seeds 3,024,700..3,026,699: four full-bleed `vanessa-fabi` and `leon-fabi` named as their
        `-rocce` look-alikes, 5-9 px off). Steps of :meth:`_reading`."""
        if m.card not in self.reader.faces:
            return m
        again = yield from self._fitted(frame, m, self.reader.faces[m.card])
        if again is None or again.card == m.card:
            return m
        if again.card is not None:
            return again
        if (rules.CONFIRM_AT_GUESS and self.reader.ink.one_ink(m.card)
                and self.reader.identify(frame, again.corners, Found.GUESSED).card == m.card):
            return m
        return replace(m, card=None)

def _without_stray_guesses(matches: list[CardMatch]) -> list[CardMatch]:
    """``matches`` without the unnamed, printed guesses lying partly (STRAY_OVERLAP) on a named card, a
    whole outline or an unnamed guess ranked before them: more guesses are read at a place since the
    sixteenth session, and those left unnamed beside a card were pieces of it, not cards (style-2
    development seeds 100..399: false detections 17 -> 12, 11 before). Blank ones (a hand, a phone)
    stay: the table watcher holds a card they cover."""
    kept: list[CardMatch] = []
    for m in sorted(matches, key=lambda m: (m.card is None, not m.complete)):   # stable: guesses keep their rank
        stray = m.card is None and not m.complete and not m.blank
        if stray and any(quad_overlap(m.corners, k.corners) >= rules.STRAY_OVERLAP for k in kept):
            continue
        kept.append(m)
    return kept


def _split_into_parts(quads: list, scale: int) -> list[tuple[tuple[int, int, int, int], list]]:
    """The detector's quads grouped into parts of the frame, each with its box in full-frame px
    (x0, y0, x1, y1): the quads found in one outline (a lone card's, or a merged shape's guesses),
    and together those whose outlines' boxes meet (a card found by its own edges inside a merged
    shape is one of that shape's cards)."""
    by_outline: dict[int, list] = {}
    for q in quads:
        by_outline.setdefault(id(q.outline) if q.outline is not None else id(q), []).append(q)
    parts: list[tuple[np.ndarray, list]] = []
    for group in by_outline.values():
        outline = group[0].outline
        pts = full_px(outline, scale) if outline is not None else group[0].corners
        box = np.concatenate([np.floor(pts.min(axis=0)), np.ceil(pts.max(axis=0))])
        while meeting := [p for p in parts if _boxes_meet(box, p[0])]:   # the grown box may meet more
            for other in meeting:
                box = np.concatenate([np.minimum(box[:2], other[0][:2]), np.maximum(box[2:], other[0][2:])])
                group = other[1] + group
            parts = [p for p in parts if not any(p is m for m in meeting)]
        parts.append((box, group))
    return [(tuple(int(v) for v in box), group) for box, group in parts]


def _boxes_meet(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3])


def _dark_rim(frame: np.ndarray, corners: np.ndarray) -> bool:
    """True when the outer 5 % of the card's outline is dark all round (a dark border)."""
    c = np.asarray(corners, np.float32)
    centre = c.mean(axis=0)
    x0, y0 = np.maximum(np.floor(c.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(c.max(axis=0)).astype(int) + 1
    roi = frame[y0:y1, x0:x1]
    if roi.size == 0:
        return False
    ring = np.zeros(roi.shape[:2], np.uint8)
    cv2.fillConvexPoly(ring, np.round(c - [x0, y0]).astype(np.int32), 255)
    cv2.fillConvexPoly(ring, np.round(centre + (c - centre) * 0.95 - [x0, y0]).astype(np.int32), 0)
    if cv2.countNonZero(ring) < 16:
        return False
    return float(cv2.mean(cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY), ring)[0]) < rules.DARK_RIM
