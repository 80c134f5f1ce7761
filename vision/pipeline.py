"""From frames to observations: cards, tokens and pegs, each debounced.

    >>> watcher = TableWatcher(CardRecogniser(model), calibration, profile)  # doctest: +SKIP
    >>> for frame in source:  # doctest: +SKIP
    ...     for obs in watcher.process(frame):
    ...         session.submit(obs)

Kinds (``source="camera"``):

* ``card_seen`` {card, zone, corners_mm} once a card has been named in the same zone for
  ``appear_frames`` frames (with a ``hands`` watcher, a card on the ``pile`` also has
  ``landed``, the time of its first frame, and ``hands``, the seats that reached in just
  before); ``card_gone`` {card, zone} after ``vanish_frames`` frames
  without it (on the ``pile`` with a ``hands`` watcher also ``left``, its first frame
  missing, ``hands``, the seats that reached in then, and ``bare``: part of its last
  outline shows the empty table, it was taken away). A card whose last outline is now
  mostly under another card or a hand, none of it bare cloth, is covered, not gone.
* ``token_seen`` {cell: [row, col], colours} when a cup grid cell shows a new stable
  content with no cup on it (colours sorted, one per token, maybe empty).
* ``peg_seen`` {column, colour, slide} when a peg stays in view down a frame top hole;
  ``slide``: how deep it sits (1: in the top slide), from how dark its head is next to the
  hole seen empty (``vision.tokens.peg_depth``); left out when it cannot be told. The same
  colour at another depth is news (a peg come to rest above it, or the one above gone).

* ``card_unknown`` {zone, corners_mm, unknown} when a whole card outline (not a guess
  inside a merged blob, but on the ``pile`` every card is one) in a zone stays unnamed
  in one place for ``unknown_frames`` frames (default ``appear_frames``: more gives the
  recogniser more looks before a person is asked; on the pile also ``landed`` and ``hands``):
  once per resting place (``unknown`` is its id); also ``like`` (a card id) when it read
  nearest a card of the deck nobody enrolled (``vision.ghosts``): a hint for the person asked,
  never a name. ``card_unknown_gone`` {zone, unknown} withdraws it when the outline leaves or
  gets a name (then ``card_seen``).

With ``empty_table`` (a
frame of the table without cards, e.g. the calibration shot) cards are found by how they
differ from it, on any cloth, and only card-sized outlines count.
"""

from __future__ import annotations

import cv2
import numpy as np

from table.observations import Observation
from vision import features
from vision.background import TableBackground
from vision.calibration import Calibration
from vision.hands import HandWatcher
from vision.profile import TableProfile
from vision.recognise import CardRecogniser, quad_overlap
from vision.stability import StabilityFilter
from vision.tokens import ColourModel, hole_reading, peg_depth, read_cell

PILE_ZONE = "pile"    # Passe Éclair's centre pile: its card_seen carry ``landed`` and ``hands``
COVERED_SHARE = 0.3   # a card whose last outline is this much under something now seen is covered
SAME_PLACE_MM = 20.0  # an unnamed outline this close to the last one is the same card resting there
SAME_LOOK = 0.9       # a place still this alike its last good reading: nothing new lies there (the same
                      # card under noise 0.99; two Pass Pass faces up to 0.996: the score floor matters too)
SAME_CARD_MIN_SCORE = 0.6   # an unnamed reading this close to the named card there is that card read badly
PILE_HIDDEN_FRAMES = 1  # a pile card hidden this long, then back on top: reported again (a twin laid on it?)
GONE_REACH_S = 0.1    # a pile card gone: the reach seen up to this long after its first frame missing
LIES_THERE_SHARE = 0.93   # a covered pile card's last outline at least this much not bare cloth: it may lie there
SAME_OUTLINE_PX = 3.0   # image px: an unnamed card's outline read again (corners jitter by about 1 px)
SAME_PICTURE = 0.99     # looks (below) of one card read twice: 0.998-0.999 seen
LOOK_SIZE = (16, 22)  # the thumbnail that likeness is measured on (a few px per pip)


class TableWatcher:
    """Turns frames into stable observations. One per camera; not thread-safe."""

    def __init__(self, recogniser: CardRecogniser | None, calibration: Calibration, profile: TableProfile, *,
                 colours: ColourModel | None = None, watch_cells: bool = False, watch_holes: bool = False,
                 appear_frames: int = 3, vanish_frames: int = 5, source: str = "camera",
                 empty_table: np.ndarray | None = None, hands: HandWatcher | None = None,
                 unknown_frames: int | None = None):
        if empty_table is not None and recogniser is not None:
            # the calibration shot of the empty table: cards are what differs from it
            det = recogniser.detector
            det.background = TableBackground.from_shot(empty_table, det.settings.scale, calibration.table_to_image)
        self.recogniser, self.cal, self.profile, self.colours = recogniser, calibration, profile, colours
        self.watch_cells = watch_cells and colours is not None
        self.watch_holes = watch_holes and colours is not None
        self.source = source
        self.hands = hands   # who reached the pile (vision/hands.py); card_seen on the pile says it
        self.cards = StabilityFilter(appear_frames, vanish_frames)
        self.unknown = StabilityFilter(unknown_frames or appear_frames, vanish_frames)   # unnamed, keyed by place
        self._unknown_ids = 0
        self._unknown_look: dict = {}     # unknown key -> its look (:func:`_look`) when first seen
        self._unknown_buried: set = set()  # unknown keys on the pile another card was reported on since
        self.cells = StabilityFilter(appear_frames, vanish_frames)
        self.holes = StabilityFilter(appear_frames, vanish_frames)
        self._empty_holes: dict[int, float] = {}   # top hole -> its brightness seen empty
        self._last_px: dict = {}          # card key -> outline in image px, last time it was seen
        self._last_image: dict = {}       # card key -> the frame it was last named in (a reference, not a copy)
        self._cell_reported: dict = {}
        self._pile_hidden: dict = {}      # pile card key -> frames it has been covered in a row
        self._pile_back: dict = {}        # pile card key seen again after that -> (frames, first t)

    def process(self, frame) -> list[Observation]:
        """Observations confirmed by this frame (``frame`` has ``.image`` and ``.t``)."""
        out: list[Observation] = []
        if self.hands is not None:
            self.hands.update(frame.image, frame.t)
        if self.recogniser is not None:
            out += self._cards(frame)
        if self.watch_cells:
            out += self._tokens(frame)
        if self.watch_holes:
            out += self._pegs(frame)
        return out

    def _cards(self, frame) -> list[Observation]:
        # blank outlines too (a hand, glare): they hold a card they cover, as they always have
        matches = self.recogniser.recognise(frame.image, blank=True)
        if self.recogniser.no_news:
            # a hand or a card moving (read once it settles), or a reading spread over frames under way:
            # meanwhile no card came or went
            return []
        current = {}
        # a pile card hidden under others since (another card laid on it) is not what shows at
        # its place now: a reading like it there is that card back on top or a copy of it laid
        # (news either way), not it read less well
        named = [k for k in self.cards.present if k in self._last_px
                 and not (k[1] == PILE_ZONE and self._pile_hidden.get(k, 0) >= PILE_HIDDEN_FRAMES)]
        # at a named card's place, clearly closest to its face, the place looking as it did: that
        # card read less well, not news. A new card laid squarely on it (a pile) read from a
        # wrong outline is "closest" to anything at a low score (0.25-0.4 seen), and changes the look
        unnamed = [m for m in matches if m.card is None
                   and not any(m.best == k[0] and m.confidence >= SAME_CARD_MIN_SCORE
                               and quad_overlap(self._last_px[k], m.corners) >= 0.5
                               and self._looks_as_named(frame.image, k) for k in named)]
        for m in matches:
            if m.card is None:
                continue
            corners_mm = self.cal.to_table(m.corners)
            zone = self.profile.zone_of(corners_mm.mean(axis=0))
            key = (m.card, zone)
            current[key] = [[round(float(x), 1), round(float(y), 1)] for x, y in corners_mm]
            self._last_px[key] = np.asarray(m.corners, np.float32)
            self._last_image[key] = frame.image   # its look is made only if a bad reading is ever judged
        hold = [k for k in self.cards.present if k not in current and k in self._last_px
                and any(quad_overlap(self._last_px[k], m.corners) >= COVERED_SHARE for m in matches)
                and self._lies_there(k, frame.image.shape)]
        obs = []
        for ch in self.cards.update(current, frame.t, hold):
            card, zone = ch.key
            if ch.kind == "seen":
                extra = {} if self.hands is None or zone != PILE_ZONE else \
                    {"landed": ch.first_t, "hands": self.hands.recent(ch.first_t)}   # when it landed, who reached
                obs.append(Observation.now("card_seen", source=self.source, t=ch.t, card=card, zone=zone,
                                           corners_mm=ch.payload, **extra))
            else:
                extra = {} if self.hands is None or zone != PILE_ZONE else \
                    {"left": ch.first_t, "hands": self.hands.recent(ch.first_t + GONE_REACH_S),   # who covered it
                     "bare": not self._lies_there(ch.key, frame.image.shape)}   # cloth where it lay: taken away
                self._last_px.pop(ch.key, None)
                self._last_image.pop(ch.key, None)
                obs.append(Observation.now("card_gone", source=self.source, t=ch.t, card=card, zone=zone, **extra))
        obs += self._pile_again(current, frame.t)
        self._bury(frame.image, [self._last_px[(o.data["card"], PILE_ZONE)] for o in obs
                                 if o.kind == "card_seen" and o.data["zone"] == PILE_ZONE])
        return obs + self._unknown(unnamed, matches, frame.image, frame.t)

    def _bury(self, image: np.ndarray, outlines: list[np.ndarray]) -> None:
        """Cards just reported on the pile at ``outlines`` (image px) lie over the unnamed
        cards reported there before (unless it is that card, named at last): an unnamed
        outline with the look of a buried one is not it back but another card (a copy of it,
        or a card that merely looks alike), news."""
        for quad in outlines:
            centre = self.cal.to_table(quad).mean(axis=0)
            look = _look(image, quad)
            self._unknown_buried.update(
                k for k in self.unknown.present if self.unknown.present[k][0] == PILE_ZONE
                and np.hypot(centre[0] - k[1], centre[1] - k[2]) <= SAME_PLACE_MM
                and not _alike(look, self._unknown_look[k]))

    def shown_on_pile(self, card: str) -> bool:
        """Is ``card`` in view on the pile and reported there? Not when the only copy held
        is one buried under others (or back on top but not yet reported again): a copy of it
        just laid is not reported yet."""
        key = (card, PILE_ZONE)
        return key in self.cards.present and key not in self._pile_hidden and key not in self._pile_back

    def _lies_there(self, key, shape) -> bool:
        """May the pile card ``key``, unseen now, still lie under what covers it? Not when
        part of its last outline shows the bare cloth (the card over it was taken away and
        it with it: a card laid together on another and taken back)."""
        det = getattr(self.recogniser, "detector", None)
        mask = getattr(det, "last_mask", None)
        if key[1] != PILE_ZONE or mask is None or getattr(det, "background", None) is None:
            return True
        k = shape[1] / mask.shape[1]
        inside = np.zeros(mask.shape, np.uint8)
        cv2.fillConvexPoly(inside, np.round(self._last_px[key] / k).astype(np.int32), 1)
        area = int(inside.sum())
        return area == 0 or np.count_nonzero(mask[inside > 0]) >= LIES_THERE_SHARE * area

    def _pile_again(self, current: dict, t: float) -> list[Observation]:
        """Passe Éclair's pile holds copies of one card: a pile card that stayed covered
        (held, not gone) for ``PILE_HIDDEN_FRAMES`` frames and is seen on top again for
        ``appear_frames`` is reported again (``again``), with when it came back (another copy
        laid on it, or the cards over it taken away, or a hand lifted off it: the game tells
        which). A copy slapped on its twin hides it for a frame or two only (the hand that lays
        it): one frame is enough."""
        out = []
        appear = self.cards.appear_frames
        for key in [k for k in self.cards.present if k[1] == PILE_ZONE]:
            if key not in current:
                self._pile_hidden[key] = self._pile_hidden.get(key, 0) + 1
                self._pile_back.pop(key, None)
                continue
            if self._pile_hidden.pop(key, 0) < PILE_HIDDEN_FRAMES and key not in self._pile_back:
                continue
            n, first = self._pile_back.get(key, (0, t))
            if n + 1 < appear:
                self._pile_back[key] = (n + 1, first)
                continue
            self._pile_back.pop(key, None)
            extra = {} if self.hands is None else {"landed": first, "hands": self.hands.recent(first)}
            out.append(Observation.now("card_seen", source=self.source, t=t, card=key[0], zone=PILE_ZONE,
                                       corners_mm=current[key], again=True, **extra))
        for key in [k for k in [*self._pile_hidden, *self._pile_back] if k not in self.cards.present]:
            self._pile_hidden.pop(key, None)
            self._pile_back.pop(key, None)
        return out

    def _looks_as_named(self, image: np.ndarray, key) -> bool:
        """Does the named card's place look as it did when it was last named?"""
        before = self._last_image.get(key)
        px = self._last_px[key]
        return before is not None and _alike(_look(image, px), _look(before, px))

    def _as_read_before(self, image: np.ndarray, corners: np.ndarray) -> np.ndarray:
        """An unnamed card's ``corners``, turned by half if a card already reported lies
        exactly there read the other way round and looks, read that way, the very same: an
        unnamed card's corners follow the face it looked most like, and that can turn from
        one frame to the next; its look must not turn with them. Another card laid squarely
        on it turned is alike at most (a Pass Pass 1 on an 8 of its colour: 0.965), and
        compared as it reads."""
        turned = corners[features.OPPOSITE]
        for key, (_, _, before, _) in self.unknown.present.items():
            if (np.abs(before - turned).max() <= SAME_OUTLINE_PX < np.abs(before - corners).max()
                    and float((_look(image, turned) * self._unknown_look[key]).sum()) >= SAME_PICTURE):
                return turned
        return corners

    def _unknown(self, unnamed, matches, image: np.ndarray, t: float) -> list[Observation]:
        """Whole outlines the recogniser would not name, debounced like named cards; a key
        is a resting place (an id and its centre) and the look it had there, so a card is
        reported once, not each frame, and another unnamed card laid on it is news."""
        tracked = list(self.unknown.present) + list(self.unknown._seen_run)
        current = {}
        # on the pile, an unnamed outline while a hand is at an edge is the top card under
        # that hand (or a card still on its way): only once the hands are out is it a card
        # the page may ask about, and the hands that laid it the last reach before then
        hands_in = self.hands is not None and bool(self.hands.history) and bool(self.hands.history[-1][1])
        waiting = []
        for m in unnamed:
            m.corners = self._as_read_before(image, m.corners)
            corners_mm = self.cal.to_table(m.corners)
            centre = corners_mm.mean(axis=0)
            look = _look(image, m.corners)
            # a card reported keeps its look; one still settling (a hand leaving it) takes the
            # latest, and keeps the moment it first lay there
            key = next((k for k in tracked if k not in current and k not in self._unknown_buried
                        and np.hypot(centre[0] - k[1], centre[1] - k[2]) <= SAME_PLACE_MM
                        and (k not in self.unknown.present or _alike(look, self._unknown_look[k]))), None)
            if key is None:
                self._unknown_ids += 1
                key = (self._unknown_ids, float(centre[0]), float(centre[1]))
            if key not in self.unknown.present:
                self._unknown_look[key] = look
            zone = self.profile.zone_of(centre)
            if zone is None or not (m.complete or zone == PILE_ZONE):
                # off every zone: nothing a game could ask about; a guess inside a merged
                # blob is only a card on the pile, where each card lies on the last one
                continue
            if zone == PILE_ZONE and hands_in:
                waiting.append(key)
                continue
            current[key] = (zone, [[round(float(x), 1), round(float(y), 1)] for x, y in corners_mm], m.corners, m.like)
        # covered by a hand or another card (its place no longer looks as it did): neither
        # seen nor gone, as named cards; the same look under a name is the card named at last
        hold = [k for k in self.unknown.present if k not in current
                and any(quad_overlap(self.unknown.present[k][2], m.corners) >= COVERED_SHARE
                        and ((m.card is None and not m.complete)
                             or not _alike(_look(image, self.unknown.present[k][2]), self._unknown_look[k]))
                        for m in matches)] + [k for k in waiting if k in self.unknown.present]
        obs = []
        for ch in self.unknown.update(current, t, hold):
            zone, corners_mm, _, like = ch.payload
            if ch.kind == "seen":
                extra = {} if self.hands is None or zone != PILE_ZONE else \
                    {"landed": ch.first_t, "hands": self.hands.recent(ch.first_t)}
                if like is not None:
                    extra["like"] = like
                obs.append(Observation.now("card_unknown", source=self.source, t=ch.t, zone=zone,
                                           corners_mm=corners_mm, unknown=ch.key[0], **extra))
            else:
                self._unknown_look.pop(ch.key, None)
                obs.append(Observation.now("card_unknown_gone", source=self.source, t=ch.t, zone=zone,
                                           unknown=ch.key[0]))
        self._bury(image, [self.unknown.present[k][2] for k in self.unknown.present
                           if k in current and self.unknown.present[k][0] == PILE_ZONE
                           and any(o.kind == "card_unknown" and o.data["unknown"] == k[0] for o in obs)])
        tracked = set(self.unknown.present) | set(self.unknown._seen_run)
        for k in [k for k in self._unknown_look if k not in tracked]:
            del self._unknown_look[k]   # a sighting that never lasted
        self._unknown_buried &= set(self.unknown.present)
        return obs

    def _tokens(self, frame) -> list[Observation]:
        current = {}
        for r in range(self.profile.cup_rows):
            for c in range(self.profile.cup_cols):
                reading = read_cell(frame.image, self.cal, self.profile, self.colours, (r, c))
                if not reading.covered:
                    current[((r, c), tuple(reading.colours))] = reading.colours
        obs = []
        for ch in self.cells.update(current, frame.t):
            cell, colours = ch.key
            if ch.kind == "seen" and self._cell_reported.get(cell) != colours:
                self._cell_reported[cell] = colours
                obs.append(Observation.now("token_seen", source=self.source, t=ch.t, cell=list(cell),
                                           colours=list(colours)))
            elif ch.kind == "gone" and self._cell_reported.get(cell) == colours:
                del self._cell_reported[cell]   # the cup went back: a later lift is news again
        return obs

    def _pegs(self, frame) -> list[Observation]:
        current = {}
        for col in range(self.profile.frame_holes):
            what, brightness = hole_reading(frame.image, self.cal, self.profile, self.colours, col)
            if what == "hole":
                self._empty_holes[col] = brightness   # each hole's own light, for the depth of a peg in it
            elif what is not None:
                depth = peg_depth(self.colours, what, col, brightness, self._empty_holes)
                if depth is None:   # a reading between two slides is no news: it counts for the depth seen
                    depth = next((k[2] for k in [*self.holes.present, *self.holes._seen_run]
                                  if k[0] == col and k[1] == what), None)
                current[(col, what, depth)] = what
        obs = []
        for ch in self.holes.update(current, frame.t):
            if ch.kind != "seen":
                continue
            col, colour, depth = ch.key
            extra = {} if depth is None else {"slide": depth}
            obs.append(Observation.now("peg_seen", source=self.source, t=ch.t, column=col, colour=colour, **extra))
        return obs


def _look(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """A card place's colour thumbnail, zero-mean per channel and unit-length (its dot
    product with another is their correlation): grey is not enough, two Passe Éclair faces
    differ mostly by a shirt's colour (grey 0.89 alike, colour 0.57; the same card 0.999)."""
    flat = cv2.resize(features.rectify(image, quad), LOOK_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)
    flat -= flat.mean(axis=(0, 1))
    return flat / max(float(np.linalg.norm(flat)), 1e-6)


def _alike(a: np.ndarray, b: np.ndarray) -> bool:
    """Two looks of one place (:func:`_look`) that nothing new came between."""
    return float((a * b).sum()) >= SAME_LOOK
