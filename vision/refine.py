"""Fitting a card's outline to its enrolled face when the outline was only guessed.

A card lying partly over another has one or two sides that show no clear edge, so its
outline is first guessed from the card's proportions (:mod:`vision.partial`). Once the
recogniser knows which face it most resembles, the ECC image alignment of OpenCV moves
the four corners until the photo lines up with that face.

    >>> from vision.enrol import describe_photo
    >>> from vision.synth.scene import card_photo, random_scene
    >>> scene = random_scene(7, "pass-pass", n_cards=3)
    >>> truth = scene.cards[1].corners                         # where purple-10 really is
    >>> scene.cards[1].card
    'purple-10'
    >>> _, face = describe_photo(card_photo("purple-10"))     # its enrolled face
    >>> guessed_corners = truth.astype(np.float32)             # long sides guessed 12 % too long
    >>> guessed_corners[2] = truth[1] + (truth[2] - truth[1]) * 1.12
    >>> guessed_corners[3] = truth[0] + (truth[3] - truth[0]) * 1.12
    >>> better = fit_to_face(scene.image, guessed_corners, face)
    >>> better.shape
    (4, 2)
    >>> round(float(np.abs(guessed_corners - truth).max())), round(float(np.abs(better - truth).max()))  # px off
    (13, 1)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import features
from vision.steps import Steps, run_to_the_end

_CRITERIA = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 20, 1e-3)


def fit_to_face(frame: np.ndarray, corners: np.ndarray, face: np.ndarray, rounds: int = 1,
                give_up_below: float | None = None) -> np.ndarray | None:
    """Corners (clockwise, corner 0 = the face's top-left) that align the photo with
    ``face`` (a rectified enrolment photo), or None if the alignment does not converge.
    Each further round starts again from the card rectified at the last round's corners
    (more iterations of one round stall where the first view held a strip of table).
    ``give_up_below``: None too if the first round leaves the photo and the face correlated
    less than this (ECC's correlation, 1 = the same picture): a fit to the wrong face."""
    return run_to_the_end(fitting_to_face(frame, corners, face, rounds, give_up_below))


def fitting_to_face(frame: np.ndarray, corners: np.ndarray, face: np.ndarray, rounds: int = 1,
                    give_up_below: float | None = None) -> Steps[np.ndarray | None]:
    """:func:`fit_to_face` in steps (:mod:`vision.steps`): it yields between its rounds (one ECC
    alignment, about 2 ms, each)."""
    start = np.asarray(corners, np.float32)
    quad = None
    for r in range(rounds):
        if r:
            yield
        fitted, correlation = _fit_once(frame, start if quad is None else quad, face)
        if fitted is None:
            break
        if not r and give_up_below is not None and correlation < give_up_below:
            return None
        quad = fitted
    # a fit that moved a corner by more than a third of the card is a different card
    if quad is None or np.abs(quad - start).max() > 0.35 * np.linalg.norm(start[0] - start[2]):
        return None
    return quad


def _fit_once(frame: np.ndarray, corners: np.ndarray, face: np.ndarray) -> tuple[np.ndarray | None, float]:
    """One ECC alignment: the corners it moves ``corners`` to (None if it fails) and the correlation reached."""
    w, h = features.RECT_SIZE
    quad = np.asarray(corners, np.float32)
    flat = features.rectify(frame, quad)
    tpl = cv2.cvtColor(cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY).astype(np.float32)
    img = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(np.float32)
    warp = np.eye(3, dtype=np.float32)
    try:
        correlation, warp = cv2.findTransformECC(tpl, img, warp, cv2.MOTION_HOMOGRAPHY, _CRITERIA, None, 5)
    except cv2.error:
        return None, 0.0
    edges = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - 0.5
    in_flat = cv2.perspectiveTransform(edges.reshape(-1, 1, 2), warp).reshape(-1, 2)
    to_flat = cv2.getPerspectiveTransform(quad, edges)
    out = cv2.perspectiveTransform(in_flat.reshape(-1, 1, 2), np.linalg.inv(to_flat)).reshape(-1, 2)
    if not np.all(np.isfinite(out)) or not cv2.isContourConvex(out.reshape(-1, 1, 2).astype(np.float32)):
        return None, correlation
    return out.astype(np.float32), correlation
