"""Twins (vision.twins): one picture in two suits of one ink, told apart by their suit signs once laid on the image."""

from __future__ import annotations

import cv2
import numpy as np

from vision import twins as T
from vision.ink import InkCheck
from vision.tells import Tells
from vision.twins import Twins

INK = (40, 40, 40)


def _face(suit: str, down: float = 0.0) -> np.ndarray:
    """A court card at 63x88: a large figure and four suit signs (a spade's point or a club's three leaves),
    drawn at 4x and shrunk, the whole print ``down`` px lower (an enrolment photo's outline a little off)."""
    k = 4
    big = np.full((88 * k, 63 * k, 3), 225, np.uint8)
    cv2.rectangle(big, (18 * k, 22 * k), (45 * k, 66 * k), (60, 60, 150), -1)      # the figure's coat
    cv2.circle(big, (31 * k, 18 * k), 7 * k, (90, 150, 210), -1)                   # its head
    for x, y in ((9, 12), (54, 76), (9, 40), (54, 48)):
        x, y = x * k, y * k
        if suit == "spade":
            cv2.fillConvexPoly(big, np.int32([[x, y - 4 * k], [x + 4 * k, y + 2 * k], [x - 4 * k, y + 2 * k]]), INK)
        else:
            for dx, dy in ((0, -2), (-2, 1), (2, 1)):
                cv2.circle(big, (x + dx * k, y + dy * k), int(1.8 * k), INK, -1)
        cv2.rectangle(big, (x - k // 2, y + k), (x + k // 2, y + 4 * k), INK, -1)  # the stem
    if down:
        big = cv2.warpAffine(big, np.float32([[1, 0, 0], [0, 1, down * k]]), big.shape[1::-1],
                             borderMode=cv2.BORDER_REPLICATE)
    return cv2.resize(big, (63, 88), interpolation=cv2.INTER_AREA)


def _seen(face: np.ndarray, seed: int) -> np.ndarray:
    """``face`` as a camera sees it: a little blurred, with the sensor's noise."""
    rng = np.random.default_rng(seed)
    f = cv2.GaussianBlur(face, (0, 0), 0.8).astype(np.float32) + rng.normal(0, 3, face.shape)
    return np.clip(f, 0, 255).astype(np.uint8)


def _twins() -> Twins:
    faces = {"blue-11": _face("spade"), "purple-11": _face("club", down=1.2), "blue-10": _face("spade")[::-1].copy()}
    return Twins(faces, InkCheck(faces), Tells(faces).faces)


def test_one_picture_in_two_suits_of_one_ink_are_twins_and_nothing_else_is():
    twins = _twins()
    assert twins.of("blue-11") == ["purple-11"] and twins.of("purple-11") == ["blue-11"]
    assert twins.of("blue-10") == []   # another value is never a twin, whatever its print


def test_the_image_is_told_by_its_suit_signs_though_its_twin_s_face_lies_more_like_it():
    """The club's face was enrolled with its print 1.2 px lower than the spade's; a spade seen 1.2 px low (its
    outline a little off) lies nearer the club's face as the two faces lie, where they differ most (the
    figure's edges). Each face laid onto the image first, the signs tell: the spade is not the club."""
    twins = _twins()
    for seed in range(4):
        spade = _seen(_face("spade", down=1.2), seed)
        club = _seen(_face("club"), seed)
        assert twins.rival(spade, "blue-11") is None
        assert twins.rival(spade, "purple-11") == "blue-11"
        assert twins.rival(club, "blue-11") == "purple-11"
        assert twins.rival(club, "purple-11") is None
    # as the faces lie, without laying them: the spade seen low is more like the club
    seen = T._grey(_seen(_face("spade", down=1.2), 0))
    ours, theirs = T._grey(_face("spade")), T._grey(_face("club", down=1.2))
    assert T.margin(seen, ours, theirs, twins._inside) < 0
