"""Reading a card past a spot of glare: the cells of its description a glossy table's
reflection washed out are left out, on the card and on every face it is compared with.

A lamp's reflection adds light: the paper there turns brighter than the face it is read
as shows it (its *rise*), and the print fades. Dividing by the paper's level
(:func:`vision.features.flatten_light`) takes a lamp's level out, not an added light, so a
glared card reads short of its own face. A cell is taken for glared where the paper rises
past GLARE_RISE of its usual rise against the face it is read as *and* against each of its
closest rivals: a rival's light print where the card's is dark (a light pip, a pale
medallion) rises against that face alone and is kept. The rest of the card is compared as
it is with every enrolled face: the same cells for all, so a card whose telling print lies
under the glare is not told.

    >>> import numpy as np
    >>> face = np.full((88, 63, 3), 200, np.uint8); face[30:60, 20:40] = 40   # a card with one mark
    >>> lit = face.astype(np.float32) * 0.8
    >>> lit[:30] += 60                            # glare over its top third
    >>> keep = kept(np.clip(lit, 0, 255).astype(np.uint8), [face_paper(face)], inset=0.04)
    >>> round(float(1 - keep.mean()), 2)           # the share of the description left out
    0.42
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import features

# a cell whose paper rises this much over the card's median rise is under glare. Chosen on fresh set 10's 8 glossy
# cards read right but short (1.08, 1.15 and 1.3 tried, 1.1 taken between: at 1.3 no glare was found on 3 of
# them); at 1.1 a lamp's fall-off up to a quarter across a card leaves no cell out
GLARE_RISE = 1.1
MIN_SHARE = 0.05   # less than this under glare: read as it is
MAX_SHARE = 0.5    # more: too little of the card left to name it by
# the closest rivals a cell must rise against too. Against the named face alone, a green 8's light pips read
# as glare against the green 6's dark ones and were left out, and the 8 was read as the 6 (fresh scene 3,068,703)
RIVALS = 4


def face_paper(face: np.ndarray) -> np.ndarray:
    """The grey level of the paper around each pixel of an enrolled face (any size, lying as a card
    is to be read): what :func:`kept` judges a card's paper against, made once per face and turn."""
    return features.grey_paper(cv2.resize(face, features.RECT_SIZE, interpolation=cv2.INTER_AREA))


def kept(flat: np.ndarray, papers: list[np.ndarray], inset: float) -> np.ndarray | None:
    """Which elements of ``features.describe(flat, inset=inset)`` lie outside glare, judged against
    each of ``papers`` (:func:`face_paper` of the enrolled face ``flat`` is read as, then of its rivals,
    each lying as ``flat`` would show it): a bool array, or None when less than MIN_SHARE or more than
    MAX_SHARE of the card is under glare."""
    glared = None
    paper = features.grey_paper(flat)
    for level in papers:
        rise = paper / level
        h, w = rise.shape
        dx, dy = int(round(w * inset)), int(round(h * inset))
        cells = cv2.resize(rise[dy:h - dy, dx:w - dx], features.GRID_SIZE, interpolation=cv2.INTER_AREA)
        above = cells > GLARE_RISE * float(np.median(rise))
        glared = above if glared is None else glared & above
    if glared is None or not MIN_SHARE <= float(glared.mean()) <= MAX_SHARE:
        return None
    return np.repeat(~glared.ravel(), 3)   # a descriptor holds 3 colours a cell


def restricted(vector: np.ndarray, bank: np.ndarray, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``vector`` and each row of ``bank`` (descriptors) restricted to ``keep``, each again a zero-mean
    unit vector: their dot products are the normalised cross-correlations of those cells alone."""
    return _unit_rows(vector[keep][None])[0], _unit_rows(bank[:, keep])


def _unit_rows(rows: np.ndarray) -> np.ndarray:
    rows = rows - rows.mean(axis=1, keepdims=True)
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-6)
