"""The last look before a card is named: the whole rectified face against its closest rivals.

The descriptors of :mod:`vision.features` are coarse (21×29): two Passe Éclair faces that
differ only in the small footballer's medallion, or two inks of one value under a
coloured lamp, can score alike. Here the card is compared at the full rectified size
(63×88), with the light taken out like ``describe_contrast`` (log colours minus their
blur), and only where the named face and a rival's face clearly differ: the card must lie
on the named face's side of every rival, once brought to the named face's sharpness and
contrast. The answer is the smallest such margin: +0.5 is exactly the named face, 0 halfway,
−0.5 or less the rival (less when fitting the named face took its contrast up).

    >>> face_a = np.full((88, 63, 3), 200, np.uint8); face_b = face_a.copy()
    >>> _ = cv2.circle(face_a, (45, 70), 6, (40, 40, 200), -1); _ = cv2.circle(face_b, (45, 70), 6, (200, 40, 40), -1)
    >>> check = FineCheck({"a": face_a, "b": face_b})
    >>> round(check.margin(face_a, "a", ["b"]), 2), round(check.margin(face_b, "a", ["b"]), 2)
    (0.5, -1.36)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.features import CHROMA_GAIN, CONTRAST_INSET, RECT_SIZE

LIGHT_SIGMA = 12.0   # px at 63×88: slower changes are the light's
ALIGN_SIGMA = 1.0    # px: a corner half a pixel off must not look like a different print
DIFF_SHRINK = 0.3    # differences below this share of the largest are the photos' own noise
# the absolute check (FineCheck.mismatch): the named face blurred and shifted to fit the card best,
# then the worst patch of what is left, against what the face's closest enrolled look-alikes leave
FIT_BLURS = (0.0, 0.8, 1.5, 2.5)   # px: the camera's focus and the rectification's resampling
PATCH_SIGMA = 4.0    # px: about a value's figure or a medallion at 63×88
LOOKALIKES = 6       # enrolled faces nearest the named one that set its scale
EDGE_PX = 4          # patches centred this close to the rim are not looked at


def fine(flat: np.ndarray) -> np.ndarray:
    """The print of a rectified card (RECT_SIZE), light taken out, as an array (h, w, 3)."""
    if flat.shape[1::-1] != RECT_SIZE:
        flat = cv2.resize(flat, RECT_SIZE, interpolation=cv2.INTER_AREA)
    h, w = flat.shape[:2]
    dx, dy = int(round(w * CONTRAST_INSET)), int(round(h * CONTRAST_INSET))
    log = np.log(flat[dy:h - dy, dx:w - dx].astype(np.float32) + 4.0)
    log -= cv2.GaussianBlur(log, (0, 0), LIGHT_SIGMA)
    log = cv2.GaussianBlur(log, (0, 0), ALIGN_SIGMA)
    grey = log.mean(axis=2, keepdims=True)
    return grey + CHROMA_GAIN * (log - grey)


class FineCheck:
    """The enrolled faces, prepared once (both turns)."""

    def __init__(self, faces: dict[str, np.ndarray]):
        self._faces = {}
        for card, face in faces.items():
            f = fine(face)
            self._faces[card] = (f, f[::-1, ::-1])
        self._scale: dict[str, float] = {}
        self._blurs: dict[str, list[np.ndarray]] = {}
        self._pairs: dict[tuple[str, str, int], tuple[np.ndarray, np.ndarray, float]] = {}

    def mismatch(self, flat: np.ndarray, card: str, seen: np.ndarray | None = None) -> float:
        """How much of ``flat`` (the card rectified as ``card``'s face lies) the named face
        does not explain, in its worst patch, as a share of what the named face's closest
        enrolled look-alikes leave unexplained there (their median). About 0.2 for the card
        itself; a card nobody enrolled that shares most of the named face's print (the next
        value, another footballer's medallion) leaves its figure, about 0.35 and more on style 1.
        0 when ``card`` has no face to compare with. ``seen``: ``fine(flat)`` if already computed.

        The recogniser drops a name above 0.9 on an outline seen whole (vision.rules.MAX_MISMATCH; 0.75
        until 2026-11-29; fitted or not), above 0.75 on a guessed one (MAX_MISMATCH_NOT_WHOLE), above 1.1 on
        a reading clear of every rival (MISMATCH_CLEAR): on style 1 a right naming reaches 0.35 one time
        in six, a Passe Éclair card laid squarely on a pile 0.54–0.67, so this cannot yet tell every card
        nobody enrolled (issue 12)."""
        if card not in self._faces:
            return 0.0
        self.prepare(card)
        return _worst_patch(fine(flat) if seen is None else seen, self._blurred(card)) / self._scale[card]

    def prepare(self, card: str) -> None:
        """Makes what :meth:`mismatch` needs of ``card``'s face (the scale its look-alikes set, about 3 ms,
        and its blurred faces), if not made yet: the first time it is needed, or ahead of it."""
        if card in self._faces and card not in self._scale:
            self._scale[card] = self._lookalike_scale(card)

    def _blurred(self, card: str) -> list[np.ndarray]:
        """The face as enrolled and blurred by each of FIT_BLURS (made once)."""
        out = self._blurs.get(card)
        if out is None:
            tb = self._faces[card][0]
            out = self._blurs[card] = [cv2.GaussianBlur(tb, (0, 0), s) if s else tb for s in FIT_BLURS]
        return out

    def _pair(self, card: str, rival: str, turn: int, blur: int) -> tuple[np.ndarray, np.ndarray, float]:
        """(halfway face, focus, its weight) of ``card`` against ``rival`` turned ``turn``
        times, both blurred by ``FIT_BLURS[blur]``: where and how much the two faces
        clearly differ (made once per pair)."""
        key = (card, rival, turn, blur)
        out = self._pairs.get(key)
        if out is None:
            tb, tc = self._blurred(card)[blur], self._faces[rival][turn]
            if FIT_BLURS[blur]:
                tc = cv2.GaussianBlur(tc, (0, 0), FIT_BLURS[blur])
            d = tb - tc
            focus = difference_focus(d)
            if len(self._pairs) >= PAIRS_KEPT:
                self._pairs.clear()
            out = self._pairs[key] = ((tb + tc) / 2, focus, float((d * focus).sum()))
        return out

    def _fit_blur(self, seen: np.ndarray, card: str) -> tuple[int, float]:
        """(index in FIT_BLURS, gain) of the named face that fits ``seen`` best."""
        ss = float(np.vdot(seen, seen))
        fits = [_fit(seen, ss, t) for t in self._blurred(card)]
        i = min(range(len(fits)), key=lambda k: fits[k][0])
        return i, fits[i][1]

    def _lookalike_scale(self, card: str) -> float:
        tb = self._faces[card][0]
        near = []
        for other, turns in self._faces.items():
            if other != card:
                tc = max(turns, key=lambda t: float((t * tb).sum()))
                near.append((float((tc * tb).sum()), other, tc))
        near.sort(key=lambda x: -x[0])
        left = sorted(_worst_patch(tc, self._blurred(card)) for _, _, tc in near[:LOOKALIKES])
        # a face enrolled alone: about what a Pass Pass value leaves against the next (style 1)
        return left[len(left) // 2] if left else LONE_FACE_SCALE

    def margin(self, flat: np.ndarray, card: str, rivals, seen: np.ndarray | None = None) -> float:
        """Smallest margin of ``flat`` (the card rectified as ``card``'s face lies) for
        ``card`` against each of ``rivals``; 0.5 when there is nothing to compare.
        ``seen``: ``fine(flat)`` if already computed."""
        return min([0.5, *self.margins(flat, card, rivals, seen).values()])

    def margins(self, flat: np.ndarray, card: str, rivals, seen: np.ndarray | None = None) -> dict[str, float]:
        """The margin of ``flat`` for ``card`` against each of ``rivals`` it can be compared with."""
        if card not in self._faces:
            return {}
        v = fine(flat) if seen is None else seen
        # a card seen small is blurred and its colours washed out (the lens, a phone's chroma
        # subsampling): both faces are blurred like it and it is brought to the named face's
        # contrast, else a washed-out orange medallion lies nearer a green one than its own
        blur, gain = self._fit_blur(v, card)
        v = v / gain
        out = {}
        for rival in rivals:
            if rival not in self._faces or rival == card:
                continue
            # the rival's face the way round it resembles the card best
            turns = self._faces[rival]
            turn = max(range(len(turns)), key=lambda i: float((turns[i] * v).sum()))
            mid, focus, dd = self._pair(card, rival, turn, blur)
            if dd > 1e-9:
                out[rival] = float(((v - mid) * focus).sum()) / dd
        return out


LONE_FACE_SCALE = 1.0


def difference_focus(d: np.ndarray) -> np.ndarray:
    """Where two faces clearly differ: their difference ``d`` with its faint part (under
    ``DIFF_SHRINK`` of the largest: the two photos' own noise) taken off, signs kept."""
    mag = np.abs(d)
    return np.sign(d) * np.maximum(mag - DIFF_SHRINK * float(mag.max()), 0.0)

PAIRS_KEPT = 256   # FineCheck's prepared (card, rival) pairs (~100 kB each): forgotten all at once beyond this


def _worst_patch(seen: np.ndarray, blurred: list[np.ndarray]) -> float:
    """Worst patch of ``seen`` (a :func:`fine` array) left unexplained by the face (given
    blurred by each of FIT_BLURS) blurred and shifted (up to a pixel) to fit it best, over
    the face's own contrast."""
    h, w = seen.shape[:2]
    ss = float(np.vdot(seen, seen))
    best = None
    for t in blurred:
        fit = _fit(seen, ss, t)
        if best is None or fit[0] < best[0]:
            best = fit + (t,)
    padded = cv2.copyMakeBorder(best[2], 1, 1, 1, 1, cv2.BORDER_REPLICATE)
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            if dx != 1 or dy != 1:
                t = np.ascontiguousarray(padded[dy:dy + h, dx:dx + w])
                fit = _fit(seen, ss, t)
                if fit[0] < best[0]:
                    best = fit + (t,)
    _, gain, t = best
    model = gain * t
    r = seen - model
    patch = np.sqrt(cv2.GaussianBlur((r * r).sum(axis=2), (0, 0), PATCH_SIGMA))
    contrast = float(np.sqrt((model * model).sum(axis=2).mean()))
    e = EDGE_PX   # patches centred on the rim see mostly the outline's own error (a shadow, the card beneath)
    return float(patch[e:h - e, e:w - e].max()) / max(contrast, 1e-6)


def _fit(seen: np.ndarray, ss: float, t: np.ndarray) -> tuple[float, float]:
    """(squared residual, gain) of ``seen`` (whose squared sum is ``ss``) against ``gain * t``,
    the gain kept within 0.5..1.5."""
    tt = float(np.vdot(t, t))
    st = float(np.vdot(seen, t))
    gain = min(max(st / max(tt, 1e-9), 0.5), 1.5)
    return ss - 2 * gain * st + gain * gain * tt, gain
