"""Issue 12's second-style scenes as the evaluation makes them, for detection tests.

    >>> scene, background = evaluation_scene(626)            # doctest: +SKIP
    >>> quads = CardDetector(background=background).detect(scene.image)   # doctest: +SKIP
"""

from __future__ import annotations

import numpy as np

from tests.bench.eval_vision_style2 import deck_for, design_for, enrol_cards
from vision import askew
from vision.background import TableBackground
from vision.detect import CardDetector
from vision.recognise import CardRecogniser
from vision.synth2.render import calibration_shot, table_scene


def evaluation_scene(seed: int):
    """Scene ``seed`` with the deck, design and card count the style-2 evaluation gives it, and its
    empty table learnt from its calibration shot."""
    deck, design, count = deck_for(seed), design_for(seed), 1 + seed % 10
    scene = table_scene(seed, deck, design, count)
    background = TableBackground.from_shot(calibration_shot(seed, deck, design, count),
                                           table_to_image=scene.table_to_image)
    return scene, background


def corner_error(found, truth) -> float:
    """Largest corner distance (px), over the ways the found corners can be numbered."""
    f, t = np.asarray(found, np.float32), np.asarray(truth, np.float32)
    return min(float(np.abs(np.roll(g, k, axis=0) - t).max()) for g in (f, f[::-1]) for k in range(4))


def detected_near(seed: int, card: str):
    """Evaluation scene ``seed``, ``card``'s truth there (fully visible), and ``nearest(whole_only=False)``:
    the detector run afresh on the scene (a test may patch between calls), giving the corner error (px) of the
    quad nearest the truth and that quad (``whole_only``: of the whole outlines, not the guesses).

        >>> scene, truth, nearest = detected_near(127, "blue-4")   # doctest: +SKIP
        >>> error, quad = nearest()                                  # doctest: +SKIP
    """
    scene, background = evaluation_scene(seed)
    truth = next(t for t in scene.cards if t.card == card)
    assert truth.fully_visible

    def nearest(whole_only: bool = False):
        quads = [q for q in CardDetector(background=background).detect(scene.image) if q.complete or not whole_only]
        return min(((corner_error(q.corners, truth.corners), q) for q in quads), key=lambda eq: eq[0],
                   default=(np.inf, None))

    return scene, truth, nearest


def reading_where(seed: int, card: str):
    """Scene ``seed``'s truth for ``card``, and a function that reads the scene whole (its deck enrolled from
    the evaluation's close-up photos, its empty table known) and gives what is named where ``card`` lies. The
    recogniser is made afresh at each reading, so a module setting patched in between counts.

        >>> truth, read_there = reading_where(3_087_122, "leon-rocce")   # doctest: +SKIP
        >>> read_there()                                                 # doctest: +SKIP
        ['leon-rocce']
    """
    scene, background = evaluation_scene(seed)
    model = enrol_cards(deck_for(seed), design_for(seed))
    truth = next(t for t in scene.cards if t.card == card)

    def read_there():
        matches = CardRecogniser(model, CardDetector(background=background)).recognise(scene.image)
        return [m.card for m in matches if np.abs(m.corners.mean(axis=0) - truth.corners.mean(axis=0)).max() < 12]

    return truth, read_there


def strict_sides_only(monkeypatch) -> None:
    """Hold back askew's looser search for a card's sides (LOOSE_SIDE_SUPPORT): a test that says "without X
    this card is not found" where the looser search is a second way to find it."""
    monkeypatch.setattr(askew, "LOOSE_SIDE_SUPPORT", askew.MIN_SIDE_SUPPORT)
    monkeypatch.setattr(askew, "LOOSE_ANGLE_TOLERANCE", askew.ANGLE_TOLERANCE)
