"""Guesses inside a merged outline whose corners the smoothed difference has rounded.

Issue 12's second style, development scene 236: a Passe Eclair card lying over another on a
photographed table. The difference from the empty table is smoothed, so the two cards'
blob has cut corners; simplified to a polygon, no vertex was a right angle and no card
was guessed there: the top card, fully visible, was not found at all."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.style2 import corner_error, detected_near, evaluation_scene
from vision.partial import _square_chamfers, card_hypotheses


def two_cards_with_cut_corners(cut: int) -> np.ndarray:
    # at the detector's half scale a card is about 42 x 59 px (1280 x 720, a table seen whole)
    mask = np.zeros((150, 200), np.uint8)
    for x0, y0 in ((30, 40), (65, 55)):          # the second card lies partly over the first
        x1, y1 = x0 + 42, y0 + 59
        pts = np.array([[x0 + cut, y0], [x1 - cut, y0], [x1, y0 + cut], [x1, y1 - cut],
                        [x1 - cut, y1], [x0 + cut, y1], [x0, y1 - cut], [x0, y0 + cut]], np.int32)
        cv2.fillPoly(mask, [pts], 255)
    return mask


def boxes(mask):
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hyps = card_hypotheses(contours[0].reshape(-1, 2), mask)
    return [tuple(int(v) for v in np.r_[h.min(axis=0), h.max(axis=0)].round()) for h in hyps]


def near(box, target, tol=3):
    return any(max(abs(a - b) for a, b in zip(b_, target)) <= tol for b_ in box)


def test_both_cards_are_guessed_when_their_corners_are_cut():
    found = boxes(two_cards_with_cut_corners(cut=6))
    assert near(found, (30, 40, 72, 99)) and near(found, (65, 55, 107, 114))


def test_a_cut_corner_becomes_square_and_a_real_side_is_kept():
    square = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    cut = np.array([[0, 0], [90, 0], [100, 10], [100, 140], [0, 140]], np.float32)
    assert np.allclose(_square_chamfers(cut), square)
    # a notch where one card meets another is two long sides: nothing to merge
    notch = np.array([[0, 0], [100, 0], [100, 60], [160, 60], [160, 140], [0, 140]], np.float32)
    assert np.array_equal(_square_chamfers(notch), notch)


def test_a_dark_bordered_card_on_top_of_another_is_found_by_its_print_field():
    """Development scene 105 of the second style: a dark-bordered purple 6 over a green 11 on a dark
    table. Their outline is one blob; the purple 6's border is lost in the cloth, but the edges round
    its print field close (their rounded corners put 89.8 % of the loop on a quad's sides, under
    the 90 % asked of a lone outline), so it is found whole, not only guessed (guesses from the blob
    were 10 % of the card's diagonal off)."""
    from vision.background import TableBackground
    from vision.detect import CardDetector
    from vision.synth2.render import calibration_shot, table_scene

    scene = table_scene(105, "pass-pass", "dark", 6)
    background = TableBackground.from_shot(calibration_shot(105, "pass-pass", "dark", 6),
                                           table_to_image=scene.table_to_image)
    truth = next(c for c in scene.cards if c.card == "purple-6")
    assert truth.fully_visible
    whole = [q for q in CardDetector(background=background).detect(scene.image) if q.complete]
    centre = truth.corners.mean(axis=0)
    on_it = [q for q in whole if np.linalg.norm(q.corners.mean(axis=0) - centre) < 8]
    assert len(on_it) == 1
    area = cv2.contourArea(on_it[0].corners.astype(np.float32)) / cv2.contourArea(truth.corners.astype(np.float32))
    assert 0.6 < area < 1.1   # its print field, or the card itself


def test_a_card_the_tables_grey_lying_across_another_is_found_by_its_colour_edges():
    """A card as grey as the table (an olive card on tan: only the hue changes at its sides) lies
    across another card end to end, their blob 1.9 card lengths long: vision/askew.py looks at a blob
    that long and at the edges of the colour channel that changes most."""
    from vision.askew import top_card

    frame = np.full((300, 400, 3), (120, 150, 180), np.uint8)            # tan, grey 155
    under = cv2.boxPoints(((140.0, 150.0), (63.0, 88.0), 90.0))           # lying long side across
    top = cv2.boxPoints(((212.0, 150.0), (63.0, 88.0), 75.0))             # over its end, askew
    for card, colour in ((under, (200, 90, 40)), (top, (60, 175, 150))):  # blue; olive, grey 154
        _ = cv2.fillPoly(frame, [(card * 16).round().astype(np.int32)], colour, cv2.LINE_AA, 4)
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert abs(int(grey[150, 212]) - int(grey[20, 20])) <= 2               # no step in grey at its sides
    blob = np.vstack([under, top]).astype(np.float32)
    assert np.ptp(blob[:, 0]) > 1.6 * 88                                   # longer than a pile
    found = top_card(frame, blob, np.eye(3), (63.0, 88.0))                # 1 px = 1 mm here
    assert found is not None and corner_error(found, top) < 2.5


@pytest.mark.parametrize(("seed", "index"), [(159, 9), (319, 5), (495, 1), (558, 1)])
def test_a_card_lying_across_another_on_a_busy_table_is_guessed_by_its_four_sides(seed, index):
    """Development scenes of the second style, not found at all before: a full-bleed card lying
    across another on brick (159), on a striped cloth (319, the two cards 1.7 card lengths long)
    and on photographed gravel (495, 558). The blob's guesses from its corners were 38-111 px off; the
    card's four sides, seen in colour, place it within a few px (then snapped to its edges and read)."""
    from vision.detect import CardDetector

    scene, background = evaluation_scene(seed)
    truth = scene.cards[index]
    assert truth.fully_visible
    quads = CardDetector(background=background).detect(scene.image)
    assert min(corner_error(q.corners, truth.corners) for q in quads) < 8


@pytest.mark.parametrize(("seed", "card"), [(626, "marlon-rocce"), (807, "yellow-8")])
def test_two_cards_whose_union_has_four_corners_are_guessed_from(seed, card, monkeypatch):
    """Development scenes of the second style: a card lying over another so that their blob is
    solid and four-cornered (626: two full-bleed Passe Eclair cards on a white table; 807: a yellow
    card half over a blue one on light wood). The blob was taken for one card, then dropped as two
    cards' size, and the top card, fully visible, was not looked for at all; now a four-cornered
    outline that is not a card's size is guessed from like any merged one."""
    from vision import detect

    _, _, nearest = detected_near(seed, card)
    assert nearest()[0] < 8
    monkeypatch.setattr(detect, "LONE_SIZED", False)   # a four-cornered outline is one card, whatever its size
    monkeypatch.setattr(detect, "LEFTOVERS", False)    # (dropped, its blob is looked at again as a leftover)
    assert nearest()[0] > 50


@pytest.mark.parametrize(("seed", "card"),
                         [(3_098_423, "green-10"), (3_101_909, "blue-5"), (388, "vanessa-marlon")])
def test_a_card_on_another_is_guessed_from_the_edge_loop_round_both(seed, card, monkeypatch):
    """A fully visible card lying over another, their edges closing one loop round both, in a blob too long to be
    looked at for a card on top (askew.MAX_SPAN). Glossy tables, where a glare spot joined the cards' blob: fresh
    set 26's 3,098,423 (a green 10 over a blue 1; the blob 2.8 card lengths), set 27's 3,101,909 (a blue 5; 2.7);
    development scene 388 (white table; 6.0): the top card's guesses from the blob's corners lay far off. The
    card whose four sides show in the loop is guessed too (detect.LOOP_TOPS)."""
    from vision import detect

    _, _, nearest = detected_near(seed, card)
    assert nearest()[0] < 8
    monkeypatch.setattr(detect, "LOOP_TOPS", False)
    monkeypatch.setattr(detect, "LONG_BLOBS", False)   # the long blob's pieces are a second way to these cards
    assert nearest()[0] > 40


def test_the_edge_loop_finds_a_card_the_pieces_of_a_long_blob_miss(monkeypatch):
    """Fresh set 27's 3,102,039 (white table): a full-bleed green 7 on another card, in a blob 6.2 card lengths
    long. The search in the blob's pieces (detect.LONG_BLOBS) places no card there; the search in the loop of
    edges round it and the card under it does (detect.LOOP_TOPS)."""
    from vision import detect

    _, _, nearest = detected_near(3_102_039, "green-7")
    assert nearest()[0] < 8
    monkeypatch.setattr(detect, "LOOP_TOPS", False)
    assert nearest()[0] > 40


def test_a_loop_is_not_searched_again_inside_a_blob_searched_whole(monkeypatch):
    """The edge loops' search (detect.LOOP_TOPS) costs as much again as the blob's own, a quarter of a ten-card
    frame's detection: it looks only in blobs too long for that (askew.within_reach). Development scene 1027 (ten
    cards): the four loops of a card area or more lie in blobs searched whole (up to 1.6 card lengths); before,
    each was searched again."""
    from vision import askew, detect

    scene, background = evaluation_scene(1027)
    searched = []
    original = detect.CardDetector._card_on_top

    def recorded(self, frame, points_px, grow_mm=0):
        searched.append(np.asarray(points_px).copy())
        return (yield from original(self, frame, points_px, grow_mm))

    monkeypatch.setattr(detect.CardDetector, "_card_on_top", recorded)
    detector = detect.CardDetector(background=background)
    loops_seen = []
    original_loops = detect.CardDetector._on_top_in_loops

    def counted(self, frame, loops, found, searched):
        before = len(searched)
        out = yield from original_loops(self, frame, loops, found, searched)
        loops_seen.append(len(searched) - before)
        return out

    monkeypatch.setattr(detect.CardDetector, "_on_top_in_loops", counted)
    detector.detect(scene.image)
    assert loops_seen == [0] and len(searched) > 0                        # the blobs were searched, the loops not
    for points in searched:
        assert askew.within_reach(points, background.table_to_image, background.card_mm)


@pytest.mark.parametrize(("seed", "card"), [(3_098_104, "marlon-fabi"), (3_102_296, "vanessa-marlon")])
def test_a_card_on_top_in_a_blob_too_long_to_search_whole_is_found_in_a_piece_of_it(seed, card, monkeypatch):
    """Fresh scenes of sets 26 (3,098,104, light wood) and 27 (3,102,296, felt): a fully visible card lies in a
    blob of the difference from the empty table too long for the search for a card on top (askew.MAX_SPAN), its
    edges closing no loop of their own. The blob is cut where it narrows, then into windows on the table
    (vision.longblobs), and the card is found in a piece (detect.LONG_BLOBS)."""
    from vision import detect

    _, _, nearest = detected_near(seed, card)
    assert nearest()[0] < 8
    monkeypatch.setattr(detect, "LONG_BLOBS", False)
    assert nearest()[0] > 40


def test_a_blob_is_within_reach_of_the_search_for_a_card_on_top_up_to_max_span():
    """askew.within_reach: the blob's width and height on the table, each at most MAX_SPAN card lengths."""
    from vision import askew

    card = (63.0, 88.0)                                                   # 1 px = 1 mm here
    two_long = np.array([[0, 0], [63, 0], [63, 176], [0, 176]], np.float32)
    assert askew.within_reach(two_long, np.eye(3), card)
    assert not askew.within_reach(two_long * [1, 1.3], np.eye(3), card)  # 229 mm: 2.6 card lengths
