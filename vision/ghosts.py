"""Faces of cards nobody enrolled, pieced together from enrolled ones (``enroll --partial``).

A deck learned over several evenings lacks some faces, and the recogniser's margins are
measured against enrolled faces only: a card nobody enrolled was named as its enrolled
look-alike, a purple 1 as the purple 2 (issue 12). But both decks are made of parts. Their
ids are ``<a>-<b>`` (Pass Pass colour-value, Passe Éclair big-small footballer), and the
faces of one ``a`` differ among themselves only where ``b`` is printed (a value's figure and
pips, the small footballer's medallion). So the face of a missing ``a-b`` is drawn as an
enrolled ``a-b'`` with that varying part taken from the enrolled ``a'-b`` faces, their colours
mapped onto ``a``'s (an affine colour fit where ``a'-w`` and ``a-w`` are both enrolled).
The roles of ``a`` and ``b`` are swapped if that pieces enrolled faces, each left out in turn,
nearer their real look (:func:`ghost_faces`).

Such a "ghost" face is never a name: the recogniser uses it as a rival only, so a card
nearer a ghost than any enrolled face is left unnamed (:mod:`vision.recognise`).

    >>> paper = np.full((88, 63, 3), 235, np.uint8)
    >>> def face(ink, value):   # a value's figure: `value` bars in the card's ink
    ...     f = paper.copy()
    ...     for i in range(value):
    ...         _ = cv2.rectangle(f, (14 + 9 * i, 30), (18 + 9 * i, 58), ink, -1)
    ...     return f
    >>> inks = {"blue": (160, 60, 20), "red": (30, 40, 190)}
    >>> faces = {f"{c}-{v}": face(ink, v) for c, ink in inks.items() for v in (1, 2, 3)}
    >>> del faces["red-3"]                                  # not enrolled
    >>> ghosts = ghost_faces(["blue-1", "blue-2", "blue-3", "red-1", "red-2", "red-3"], faces)
    >>> list(ghosts), float(np.abs(ghosts["red-3"].astype(int) - face(inks["red"], 3)).mean()) < 3
    (['red-3'], True)
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

LIGHT_SIGMA = 12.0   # px at 63x88: slower changes are the light's, when comparing prints (as vision.verify)
PART_DIFF = 0.3      # a pixel varies within a family where some face differs by this share of the largest difference
PART_GROW_PX = 2     # the varying part is grown by this much (ink's soft edges, a face enrolled a pixel off)
PART_FEATHER = 1.0   # px: the seam between the kept face and the part put in
SEAM = (0.1, 0.9)    # the feathered edge of the part, where the part put in is levelled to the base
RIM_PX = 4           # the face's rim is never a varying part
MAX_PART = 0.8       # a varying part over this share of the face: the card has no separate parts to piece together
COLOUR_RIDGE = 0.1   # how strongly a family's colour map is held to no change
TURN_ROUNDS = 2      # faces turned towards the most typical face, then towards their mean
CHECKED_FACES = 6    # enrolled faces left out in turn to choose how to piece
MAX_PIECING_SHARE = 0.9   # a ghost must leave less than this share of its base's distance to the real face


def id_parts(card: str) -> tuple[str, str] | None:
    """``("purple", "12")`` for ``"purple-12"``; None for an id not made of two parts (``dog``)."""
    parts = card.split("-")
    return (parts[0], parts[1]) if len(parts) == 2 and all(parts) else None


def one_family(card: str, other: str) -> bool:
    """Whether two cards are of one family, the same ``a`` of ``a-b`` (one ink's values, one player's
    medallions): look-alikes told apart by where their print lies."""
    a, b = id_parts(card), id_parts(other)
    return a is not None and b is not None and a[0] == b[0]


def ghost_faces(deck_ids, faces: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A face (as enrolled faces are: rectified, uint8) for each card of ``deck_ids`` not in
    ``faces`` that can be pieced together from the enrolled ones; cards that cannot are left out.

    The part of the id kept (colour or value, big or small footballer) is the one whose ghosts
    come nearest the real faces of enrolled cards each left out in turn (:meth:`Pieces.error`),
    among those that bring them clearly nearer than the faces they are pieced on."""
    parts = {c: p for c in faces if (p := id_parts(c)) is not None}
    missing = [(c, p) for c in deck_ids if c not in faces and (p := id_parts(c)) is not None]
    if not missing or len(parts) < 3:
        return {}
    pieces = Pieces(faces, parts)
    errors = {keep: pieces.error(keep) for keep in (0, 1)}
    useful = [keep for keep, (share, _) in errors.items() if share < MAX_PIECING_SHARE]
    if not useful:
        return {}   # neither way brings a ghost nearer the real faces than the faces it is pieced on
    keep = min(useful, key=lambda k: errors[k][1])
    return {c: g for c, p in missing if (g := pieces.ghost(p, keep)) is not None}


def unguarded(deck_ids, enrolled, ghosts) -> set[str]:
    """The enrolled cards that share a part of their id with a card neither enrolled nor pieced
    together (in ``ghosts``): that card, never seen, may look more like them than anything the
    recogniser knows (a deck of which two faces were enrolled), so they are not named either.

        >>> sorted(unguarded(["a-1", "a-2", "b-1", "b-2", "dog"], ["a-1", "a-2", "dog"], {"b-1": None}))
        ['a-2']
    """
    lone = [p for c in deck_ids if c not in enrolled and c not in ghosts and (p := id_parts(c)) is not None]
    return {c for c in enrolled if (p := id_parts(c)) is not None and any(p[0] == q[0] or p[1] == q[1] for q in lone)}


def pieced_faces(deck_ids, cards, faces: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """:func:`ghost_faces` for a model whose enrolled ``cards`` have these ``faces``; none when an
    enrolled card kept no face (a model enrolled before faces were saved): nothing to piece on."""
    return ghost_faces(deck_ids, faces) if len(faces) == len(cards) else {}


def held_back(deck_ids, cards, faces: dict[str, np.ndarray]) -> list[str]:
    """The enrolled ``cards`` not named until more of the deck is enrolled: :func:`unguarded` once
    the faces that can be pieced together are. For the enrolment page and ``enroll --partial``;
    the recogniser works it out as it starts."""
    return sorted(unguarded(deck_ids, cards, pieced_faces(deck_ids, cards, faces)))


class Pieces:
    """The enrolled faces by id part, turned alike, and where each part is printed (made once).

    Faces are pieced in log colours with each photo's lamp (its mean log colour) taken out:
    enrolment photos are taken under other lamps (a warm-lit purple 1's paper is tan, a cold-lit
    one's blue)."""

    def __init__(self, faces: dict[str, np.ndarray], parts: dict[str, tuple[str, str]]):
        logs = {c: np.log(faces[c].astype(np.float32) + 4.0) for c in parts}
        self._parts = parts
        # every face turned the way round it lies nearest the others (the deck's shared layout):
        # first towards the face nearest all others either way round, then towards their mean
        details = {c: _detail(g) for c, g in logs.items()}
        ref = details[_medoid(list(details), details)]
        for _ in range(TURN_ROUNDS):
            logs = {c: _turned_like(g, ref) for c, g in logs.items()}
            ref = np.mean([_detail(g) for g in logs.values()], axis=0)
        self._lamp = {c: g.mean(axis=(0, 1)) for c, g in logs.items()}
        self._unlit = {c: g - self._lamp[c] for c, g in logs.items()}   # log colours less the lamp
        self._print = {c: _print(g) for c, g in logs.items()}
        self._varying: dict[int, np.ndarray | None] = {}
        self._bases: dict[tuple[int, str, str | None], str | None] = {}

    def ghost(self, card: tuple[str, str], keep: int, leave_out: str | None = None) -> np.ndarray | None:
        """The face of ``card`` pieced together keeping part ``keep`` of its id (without the
        enrolled ``leave_out``), or None."""
        own, other = card[keep], card[1 - keep]
        base = self._base(card, keep, leave_out)
        donors = [c for c, p in self._parts.items() if p[1 - keep] == other and p[keep] != own]
        alpha = self._varying_part(keep)
        if base is None or not donors or alpha is None:
            return None
        put_in = np.mean([self._mapped(d, keep, own, alpha, leave_out) for d in donors], axis=0)
        # brought to the base's level where the two meet (the grown part's edge: mostly paper), so
        # donors photographed under other lamps or framed with more of their border leave no seam
        seam = (alpha > SEAM[0]) & (alpha < SEAM[1])
        if seam.any():
            put_in = put_in + np.median(self._unlit[base][seam] - put_in[seam], axis=0)
        a = alpha[..., None]
        log = self._lamp[base] + self._unlit[base] * (1 - a) + put_in * a
        return np.clip(np.exp(np.minimum(log, 6.0)) - 4.0, 0, 255).round().astype(np.uint8)   # e^6 > 255

    def error(self, keep: int) -> tuple[float, float]:
        """How far ghosts made keeping part ``keep`` lie from the real faces, for up to
        ``CHECKED_FACES`` enrolled cards each left out in turn, in light-free print: (the median
        share of the distance from the enrolled face it was pieced on that is left: under 1 the
        piecing brought it nearer; the median distance). ``inf`` when none can be made. (The
        varying part is found with the card in: a small head start.)"""
        cards = sorted(self._parts)
        shares, gaps = [], []
        for card in cards[:: max(1, len(cards) // CHECKED_FACES)][:CHECKED_FACES]:
            ghost = self.ghost(self._parts[card], keep, leave_out=card)
            if ghost is not None:
                real, base = self._print[card], self._print[self._base(self._parts[card], keep, card)]
                gaps.append(_distance(real, _print(np.log(ghost.astype(np.float32) + 4.0))))
                shares.append(gaps[-1] / max(_distance(real, base), 1e-9))
        return (float(np.median(shares)), float(np.median(gaps))) if shares else (float("inf"), float("inf"))

    def _base(self, card: tuple[str, str], keep: int, leave_out: str | None = None) -> str | None:
        """The enrolled face a ghost of ``card`` keeping part ``keep`` is pieced on: the one of its
        family nearest the others (a photo framed with or without its border is not)."""
        key = (keep, card[keep], leave_out)
        if key not in self._bases:
            family = [c for c, p in self._parts.items() if p[keep] == card[keep] and c != leave_out]
            self._bases[key] = _medoid(family, self._print) if family else None
        return self._bases[key]

    def _varying_part(self, keep: int) -> np.ndarray | None:
        """Where the faces sharing their part ``keep`` differ among themselves, in at least half the
        families that can tell (one blurred or glared enrolment photo marks its own family only),
        grown and feathered (0..1): the place part ``1 - keep`` is printed. None if none can tell."""
        if keep not in self._varying:
            families: dict[str, list[str]] = {}
            for c, p in self._parts.items():
                families.setdefault(p[keep], []).append(c)
            votes, voters = 0, 0
            for members in families.values():
                if len(members) >= 2:
                    prints = [self._print[c] for c in members]
                    diff = np.max([np.linalg.norm(b - prints[0], axis=2) for b in prints[1:]], axis=0)
                    votes = votes + (diff > PART_DIFF * float(diff.max()))
                    voters += 1
            part = None
            if voters:
                varies = (2 * np.asarray(votes) >= voters).astype(np.uint8)
                e = RIM_PX   # the rim differs with each photo's outline (a border a pixel off), not with the card
                varies[:e], varies[-e:], varies[:, :e], varies[:, -e:] = 0, 0, 0, 0
                k = 2 * PART_GROW_PX + 1
                part = cv2.dilate(varies, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
            self._varying[keep] = np.clip(cv2.GaussianBlur(part.astype(np.float32), (0, 0), PART_FEATHER), 0, 1) \
                if part is not None and 0 < part.mean() <= MAX_PART else None
        return self._varying[keep]

    def _mapped(self, donor: str, keep: int, own: str, alpha: np.ndarray, leave_out: str | None) -> np.ndarray:
        """``donor``'s log colours (lamp taken out) mapped onto family ``own``'s colours: an affine
        colour fit over the varying part, from the faces both families have enrolled."""
        theirs = self._parts[donor][keep]
        pairs = [(c, d) for c, p in self._parts.items() if p[keep] == theirs
                 for d, q in self._parts.items() if q[keep] == own and q[1 - keep] == p[1 - keep] and d != leave_out]
        face = self._unlit[donor]
        if not pairs:
            return face
        w = alpha.reshape(-1) > 0.5
        src = np.vstack([self._unlit[c].reshape(-1, 3)[w] for c, _ in pairs])
        dst = np.vstack([self._unlit[d].reshape(-1, 3)[w] for _, d in pairs])
        x = np.hstack([src, np.ones((len(src), 1), np.float32)]).astype(np.float64)
        # pulled towards no change: two families sharing only two or three colours leave most of
        # the map free (a Passe Éclair medallion needs none; a Pass Pass ink a whole one)
        ridge = COLOUR_RIDGE * float(np.trace(x.T @ x)) / 4 * np.eye(4)
        coef = np.linalg.solve(x.T @ x + ridge, x.T @ dst + ridge @ np.vstack([np.eye(3), np.zeros((1, 3))]))
        flat = np.hstack([face.reshape(-1, 3), np.ones((face.size // 3, 1), np.float32)]) @ coef
        return flat.reshape(face.shape).astype(np.float32)


def _detail(log: np.ndarray) -> np.ndarray:
    """Log colours less the light they were photographed under (their blur)."""
    return log - cv2.GaussianBlur(log, (0, 0), LIGHT_SIGMA)


def _print(log: np.ndarray) -> np.ndarray:
    """A face's print from its log colours: the light of its photo taken out, a pixel's blur,
    so that faces photographed under other lamps compare."""
    return cv2.GaussianBlur(_detail(log), (0, 0), 1.0)


def _medoid(names: list[str], prints: dict[str, np.ndarray]) -> str:
    """The one of ``names`` whose print lies nearest all the others' (either way round); each
    pair measured once."""
    total = dict.fromkeys(names, 0.0)
    for a, b in itertools.combinations(names, 2):
        d = _distance(prints[a], prints[b])
        total[a] += d
        total[b] += d
    return min(names, key=total.__getitem__)


def _distance(a: np.ndarray, b: np.ndarray) -> float:
    """Between two light-free prints, the nearer way round."""
    return min(float(np.linalg.norm(a - b)), float(np.linalg.norm(a - b[::-1, ::-1])))


def _turned_like(log: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """``log`` (a face's log colours) or it turned by 180 degrees, whichever's print lies nearer ``ref``."""
    d = _detail(log)
    return log[::-1, ::-1] if np.linalg.norm(d[::-1, ::-1] - ref) < np.linalg.norm(d - ref) else log
