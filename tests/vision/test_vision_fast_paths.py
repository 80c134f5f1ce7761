"""The live pipeline's shortcuts give what the long way gives, to the bit: the hand strips
remapped alone (vs the whole top view warped), the foreground with the caller's edges, the
holes filled by OpenCV's flood fill, the full-size check's face pairs made once; and, when
asked for, a frame identical to the last one answered as it was, or on a camera a table at
rest under the sensor's noise or in motion (vision.repeat)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from hardware.sim_cards import draw_arm
from vision.background import SMOOTH, TableBackground, smooth
from vision.calibration import Calibration, calibrate
from vision.detect import CardDetector
from vision.hands import HandWatcher
from vision.markers import marker_pictures
from vision.model import CardModel
from vision.outline import edge_mask, fill_holes
from vision.pipeline import TableWatcher
from vision.profile import TableProfile
from vision.recognise import CardRecogniser
from vision.repeat import MOTION_LEVEL, MOTION_SHARE, SPREAD_PATIENCE, STILL_LEVEL, StillFrame, StillParts, _in_motion
from vision.sides import colour_step, darkest
from vision.sources import Frame
from vision.synth.effects import draw_hand, hand_polygons
from vision.synth.scene import Placement, SceneStyle, _background, random_camera, random_scene, render_table
from vision.verify import FIT_BLURS, FineCheck, fine


def _rig(seed: int):
    prof = TableProfile.load()
    rng = np.random.default_rng(seed)
    view = random_camera(rng, SceneStyle(fill=(0.8, 0.85), turn_max_deg=6))
    shot = render_table([], view, rng, SceneStyle.clean(), pictures=marker_pictures(prof),
                        background=_background(rng, (1280, 720))).image
    return prof, view, shot, calibrate(shot, prof), rng


@pytest.mark.parametrize("seed", [3, 11])
def test_hand_strips_remapped_alone_are_the_top_views_strips(seed):
    prof, _, shot, cal, rng = _rig(seed)
    hands = HandWatcher(cal, prof, shot)
    assert hands._maps is not None            # the play area's edges lie inside this frame
    for _ in range(3):
        frame = cv2.add(shot, rng.integers(0, 40, shot.shape, dtype=np.uint8))
        top = hands._top_view(frame)
        for strip, part in zip(hands.strips, hands._parts(frame)):
            assert np.array_equal(part, top[strip])


def test_hand_strips_partly_outside_the_frame_take_the_whole_warp():
    prof = TableProfile.load()
    w, h = (int(round(v)) for v in prof.play_area_mm)
    shift = np.array([[1, 0, 20], [0, 1, 0], [0, 0, 1]], np.float64)   # the table's left edge 20 px off the frame
    cal = Calibration(shift, (w, h))
    empty = np.full((h, w, 3), 90, np.uint8)
    hands = HandWatcher(cal, prof, empty)
    assert hands._maps is None
    arm = empty.copy()
    arm[200:240, 500:800] = (120, 160, 210)             # from the right edge
    assert hands.update(arm, 1.0) == [3] and hands.update(empty, 2.0) == []


def test_foreground_with_the_callers_edges_is_the_same_mask():
    prof, view, shot, cal, rng = _rig(5)
    bg = TableBackground.from_shot(shot, table_to_image=cal.table_to_image)
    scene = render_table([Placement("blue-9", (300.0, 200.0), 30.0)], view, rng, SceneStyle(), background=shot)
    small = cv2.resize(scene.image, (640, 360), interpolation=cv2.INTER_AREA)
    mask = bg.foreground(small)
    assert 0 < cv2.countNonZero(mask) < mask.size // 4
    assert np.array_equal(bg.foreground(small, edge_mask(small)), mask)


def test_fill_holes_fills_what_is_enclosed_only():
    m = np.zeros((60, 80), np.uint8)
    cv2.rectangle(m, (10, 10), (40, 40), 255, 2)       # a ring: its inside is filled
    cv2.rectangle(m, (50, -5), (70, 30), 7, 2)          # open to the frame's edge: not
    out = fill_holes(m)
    assert out.dtype == np.uint8 and out.shape == m.shape
    assert out[25, 25] == 255 and out[10, 10] == 255 and out[5, 60] == 0 and out[50, 60] == 0
    assert out[29, 60] == 255                            # a non-255 mark counts as mask
    assert fill_holes(np.zeros((1, 1), np.uint8)).tolist() == [[0]]
    assert fill_holes(np.full((1, 1), 3, np.uint8)).tolist() == [[255]]


def _margin_written_out(check: FineCheck, flat, card, rivals) -> float:
    """FineCheck.margin with each pair made at each call: the named face blurred and scaled
    to fit the card best, the rival blurred alike."""
    v, face, out = fine(flat), check._faces[card][0], 0.5
    fits = []
    for sigma in FIT_BLURS:
        t = cv2.GaussianBlur(face, (0, 0), sigma) if sigma else face
        gain = min(max(float((v * t).sum()) / float((t * t).sum()), 0.5), 1.5)
        fits.append((float(((v - gain * t) ** 2).sum()), sigma, gain, t))
    _, sigma, gain, tb = min(fits, key=lambda f: f[0])
    v = v / gain
    for rival in rivals:
        tc = max(check._faces[rival], key=lambda t: float((t * v).sum()))
        tc = cv2.GaussianBlur(tc, (0, 0), sigma) if sigma else tc
        d = tb - tc
        mag = np.abs(d)
        focus = np.sign(d) * np.maximum(mag - 0.3 * float(mag.max()), 0.0)
        dd = float((d * focus).sum())
        if dd > 1e-9:
            out = min(out, float(((v - (tb + tc) / 2) * focus).sum()) / dd)
    return out


def test_fine_margin_with_its_pairs_kept_is_the_margin_worked_out_each_time():
    rng = np.random.default_rng(1)
    faces = {}
    for name, colour in (("a", (40, 40, 200)), ("b", (200, 40, 40)), ("c", (40, 200, 40))):
        face = np.full((88, 63, 3), 200, np.uint8)
        cv2.circle(face, (45, 70), 6, colour, -1)          # off centre: the two turns differ
        cv2.putText(face, name, (8, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (30, 30, 30), 2)
        faces[name] = face
    check = FineCheck(faces)
    for k in range(12):   # the rivals seen either way round, in turn: a pair kept for one turn is not the other's
        face = faces["bca"[k % 3]]
        flat = face[::-1, ::-1] if k % 2 else face
        flat = cv2.add(flat, rng.integers(0, 20, flat.shape, dtype=np.uint8))
        want = _margin_written_out(check, flat, "a", ["b", "c"])
        assert check.margin(flat, "a", ["b", "c"]) == pytest.approx(want, abs=1e-5)


class _Counting(CardDetector):
    calls = 0

    def detecting(self, frame):
        self.calls += 1
        return super().detecting(frame)


def test_a_repeated_frame_gets_the_same_matches_without_the_work(model_dirs):
    scene = random_scene(50_001, "pass-pass", 4)
    model = CardModel.load(model_dirs["pass-pass"])
    plain, det = CardRecogniser(model), _Counting()
    rec = CardRecogniser(model, det, same_frames=True)
    want = [(m.card, m.confidence, m.corners.tolist()) for m in plain.recognise(scene.image)]
    assert sum(1 for c, _, _ in want if c) >= 3
    frame = scene.image.copy()
    first = rec.recognise(frame)
    first[0].card, first[0].corners[0] = "changed by the caller", (0, 0)
    again = rec.recognise(frame.copy())
    assert det.calls == 1 and [(m.card, m.confidence, m.corners.tolist()) for m in again] == want
    frame[300, 600] += 1                      # one pixel differs (as the camera's noise would): looked at anew
    rec.recognise(frame)
    assert det.calls == 2
    assert [(m.card, m.confidence, m.corners.tolist()) for m in CardRecogniser(model).recognise(frame)] == \
        [(m.card, m.confidence, m.corners.tolist()) for m in rec.recognise(frame)]


def _filming_camera(seed: int = 5) -> np.ndarray:
    return random_camera(np.random.default_rng(seed), SceneStyle(fill=(0.85, 0.95), turn_max_deg=6))


def _filmed(placements, seed: int = 5, noise: int = 0) -> np.ndarray:
    """One still table (camera, cloth and light drawn from ``seed``) with a camera's fresh noise.
    The cards' inks are not varied (drawn from the same generator, they would change the light
    whenever a card is laid or taken)."""
    view = _filming_camera(seed)
    bg = _background(np.random.default_rng(seed), (1280, 720))
    style = replace(SceneStyle.clean(), print_jitter=0)
    image = render_table(placements, view, np.random.default_rng(seed), style, background=bg).image
    grain = np.random.default_rng(1000 + noise).normal(0, 3.0, image.shape)   # a camera sensor's noise, new each frame
    return np.clip(image + grain, 0, 255).astype(np.uint8)


LYING = [Placement("purple-4", (150, 300), 10), Placement("green-9", (330, 310), 95),
         Placement("blue-12", (520, 290), 200)]


def test_a_still_table_under_a_cameras_noise_is_answered_without_the_work(model_dirs):
    model = CardModel.load(model_dirs["pass-pass"])
    det = _Counting()
    rec = CardRecogniser(model, det, still_frames=True)
    first = sorted(m.card for m in rec.recognise(_filmed(LYING)) if m.card)
    assert first == ["blue-12", "green-9", "purple-4"]
    for k in range(1, 6):   # new noise each frame, as a camera gives
        assert sorted(m.card for m in rec.recognise(_filmed(LYING, noise=k)) if m.card) == first
    assert det.calls == 1 and rec.reused_frames == 5


@pytest.mark.parametrize("change, untouched, motion", [("laid", 3, True), ("slid", 2, True), ("taken", 2, True),
                                                       ("swapped", 2, False)])
def test_a_card_laid_slid_taken_or_swapped_on_a_still_table_is_worked_on_the_rest_kept(model_dirs, change, untouched,
                                                                                      motion):
    model = CardModel.load(model_dirs["pass-pass"])
    det = _Counting()
    rec = CardRecogniser(model, det, still_frames=True)
    rec.recognise(_filmed(LYING))
    if change == "laid":
        now = LYING + [Placement("yellow-7", (420, 120), 30)]
    elif change == "slid":   # 1.5 mm: about 2 px on this camera
        now = LYING[:2] + [Placement("blue-12", (521.5, 290), 200)]
    elif change == "taken":
        now = LYING[:2]
    else:                    # another card laid exactly where blue-12 lay: the same outline
        now = LYING[:2] + [Placement("blue-11", (520, 290), 200)]
    # the frame a card comes, goes or slides in shows the table in motion: answered as the table last read,
    # and read the frame after. A print changed in place (vision.repeat.MOTION_SHARE) is read at once
    first = rec.recognise(_filmed(now, noise=1))
    assert rec.in_motion is motion and rec.waited_frames == motion
    if motion:
        assert sorted(m.card for m in first) == sorted(p.card for p in LYING) and det.calls == 1
    seen = rec.recognise(_filmed(now, noise=2)) if motion else first
    assert det.calls == 2 and rec.reused_frames == motion
    # the cards whose part of the table did not change keep what was made of them (vision.repeat.StillParts)
    assert rec.reused_parts == untouched
    fresh = CardRecogniser(model).recognise(_filmed(now, noise=2))
    assert sorted(m.card for m in seen) == sorted(m.card for m in fresh) == sorted(p.card for p in now)
    for m in seen:   # their outlines from the frame they were worked on: under the noise, the same
        twin = next(f for f in fresh if f.card == m.card)
        assert np.abs(m.corners - twin.corners).max() < 1.0


def _with_hand(image: np.ndarray, at: tuple[int, int]) -> np.ndarray:
    """``image`` with a hand reaching over the point ``at`` (px; the same hand each time)."""
    out, labels = image.copy(), np.zeros(image.shape[:2], np.uint8)
    x, y = at
    target = np.float32([[x - 60, y - 80], [x + 60, y - 80], [x + 60, y + 80], [x - 60, y + 80]])
    rng = np.random.default_rng(3)
    draw_hand(out, labels, hand_polygons(rng, target, 0.4), rng)
    return out


# a hand coming in from the bottom right, laying a card at the top (holding still there, frames 4 and 5) and
# going back
REACH = [(900, 450), (800, 350), (700, 250), (650, 170), (650, 170), (750, 300), (900, 450)]


def test_a_table_in_motion_is_read_once_it_settles(model_dirs):
    """A hand laying a card on a still table: while it moves, the frames are answered with the table
    as last read (no detection); a frame like the one before it is read (the hand holding still
    over the card it lays, the table once the hand has gone)."""
    model = CardModel.load(model_dirs["pass-pass"])
    det = _Counting()
    rec = CardRecogniser(model, det, still_frames=True)
    rec.recognise(_filmed(LYING))
    now = LYING + [Placement("yellow-7", (420, 120), 30)]
    film = [_with_hand(_filmed(LYING if k < 4 else now, noise=k), at) for k, at in enumerate(REACH, 1)]
    film += [_filmed(now, noise=8), _filmed(now, noise=9), _filmed(now, noise=10)]   # the hand gone, then still
    read = [sorted(m.card for m in rec.recognise(frame) if m.card) for frame in film]
    lying = sorted(p.card for p in LYING)
    # frames 1-4 in motion; the 5th, the hand holding still as it lays the card, read; 6-8 in motion again
    # (the 8th the hand gone); the 9th read; the 10th the same still table
    assert read == [lying] * 4 + [sorted(p.card for p in now)] * 6
    assert rec.waited_frames == 7 and rec.reused_frames == 8 and det.calls == 3


def test_a_card_laid_by_a_hand_is_seen_from_frames_read_still_not_from_frames_in_motion(model_dirs):
    """The table watcher as the camera part runs it: the frames in motion are no news either way
    (blue-12, under the moving hand, never goes; the card laid counts only the frames read)."""
    model = CardModel.load(model_dirs["pass-pass"])
    cal = Calibration(np.linalg.inv(_filming_camera()), (1280, 720))
    watcher = TableWatcher(CardRecogniser(model, still_frames=True), cal, TableProfile.load(), appear_frames=3)
    now = LYING + [Placement("yellow-7", (420, 120), 30)]
    film = [_filmed(LYING, noise=k) for k in range(3)]
    film += [_with_hand(_filmed(LYING if k < 4 else now, noise=k), at) for k, at in enumerate(REACH, 3)]
    film += [_filmed(now, noise=k) for k in range(10, 13)]
    seen = [(o.kind, o.data["card"], k) for k, image in enumerate(film)
            for o in watcher.process(Frame(image, k / 30, k)) if o.kind in ("card_seen", "card_gone")]
    # the three lying cards at the third frame; nothing while the hand moves; yellow-7 from the frames read:
    # 7 (the hand holding still), 11 and 12 (green-9, on a zone's edge, may be given its zone again there)
    assert sorted(e for e in seen if e[2] < 3) == sorted(("card_seen", p.card, 2) for p in LYING)
    assert [e for e in seen if e[2] >= 3 and e[1] != "green-9"] == [("card_seen", "yellow-7", 12)]


def test_a_table_that_never_stops_moving_is_read_at_least_every_patience_frames():
    still = StillFrame(patience=4)
    # a light flickering: each frame unlike the one before and the first
    flicker = [np.full((72, 128, 3), (10 + 50 * k) % 250, np.uint8) for k in range(9)]
    assert still.get(flicker[0]) is None
    still.keep(flicker[0], "seen")
    got = []
    for frame in flicker[1:]:
        got.append(still.get(frame))
        if got[-1] is None:
            still.keep(frame, "seen")
    assert got == ["seen"] * 3 + [None] + ["seen"] * 3 + [None]
    assert still.waited == 6


def test_the_parts_of_a_still_table_are_worked_on_again_in_turn():
    table = np.full((72, 128, 3), 90, np.uint8)
    parts = StillParts(refresh=3)
    boxes = [(8, 8, 30, 30), (50, 8, 70, 30), (90, 8, 110, 30)]
    parts.begin(table)
    for b in boxes:
        parts.keep(b, b)
    parts.end()
    redone = []
    for _ in range(8):
        parts.begin(table)
        for b in boxes:
            if parts.get(b) is None:   # worked on again
                redone.append(b)
                parts.keep(b, b)
        parts.end()
    # each part given again twice, then worked on again, never two in one frame (frames 3 to 8)
    assert redone == [boxes[0], boxes[1], boxes[2], boxes[0], boxes[1], boxes[2]]
    parts.begin(table)
    assert parts.get((60, 40, 80, 60)) is None      # no part there
    parts.end()
    parts.begin(table)
    assert parts.get(boxes[2]) is None               # forgotten: the last frame did not ask for it


def test_parts_given_or_made_in_a_frame_left_before_its_end_are_kept_for_the_next():
    """A reading spread over frames and begun again on a changed frame (vision.repeat.SpreadReading) calls
    ``begin`` again without ``end``: what that frame was given and made is not forgotten."""
    table = np.full((72, 128, 3), 90, np.uint8)
    parts = StillParts()
    parts.begin(table)
    parts.keep((8, 8, 30, 30), "first")
    parts.end()
    parts.begin(table)
    assert parts.get((8, 8, 30, 30)) == "first"
    parts.keep((50, 8, 70, 30), "second")
    parts.begin(table)   # left before its end
    assert parts.get((8, 8, 30, 30)) == "first" and parts.get((50, 8, 70, 30)) == "second"


def test_a_part_whose_light_drifts_slowly_is_worked_on_again():
    table = np.full((72, 128, 3), 90, np.uint8)
    parts = StillParts(refresh=100)
    parts.begin(table)
    parts.keep((8, 8, 30, 30), "seen")
    parts.end()
    got = []
    for k in range(1, int(STILL_LEVEL) + 2):   # the light going down, a level a frame
        parts.begin(np.full_like(table, 90 - k))
        got.append(parts.get((8, 8, 30, 30)))
        parts.end()
    assert got[:-1] == ["seen"] * int(STILL_LEVEL) and got[-1] is None   # against when it was worked on


def test_a_slow_change_adds_up_and_the_work_is_done_again_at_least_every_refresh():
    table = np.full((72, 128, 3), 90, np.uint8)
    still = StillFrame(refresh=4)
    still.keep(table, "seen")
    assert [still.get(table) for _ in range(4)] == ["seen", "seen", "seen", None]   # the 4th frame is worked on
    still.keep(table, "seen")
    # the light going down, a level a frame
    dimmer = [np.full_like(table, 90 - k) for k in range(1, int(STILL_LEVEL) + 2)]
    assert [still.get(f) for f in dimmer[:2]] == ["seen", "seen"]
    assert still.get(dimmer[-1]) is None      # against the frame worked on, not the one before


def test_a_repeated_frame_gets_the_same_seats(monkeypatch):
    prof, view, shot, cal, _ = _rig(3)
    hands = HandWatcher(cal, prof, shot, same_frames=True)
    looked = []
    real = hands._seats
    monkeypatch.setattr(hands, "_seats", lambda image: looked.append(1) or real(image))
    arm = draw_arm(shot, view, 2, tone=1)
    assert [hands.update(arm, 0.0), hands.update(arm.copy(), 0.033), hands.update(shot, 0.066)] == [[2], [2], []]
    assert len(looked) == 2 and hands.recent(0.05) == [2]


@pytest.mark.parametrize("seed", [2, 50_002])
def test_smoothing_from_8_bits_is_gaussian_blur_of_the_float_image(seed):
    image = cv2.resize(random_scene(seed, "passe-eclair", 5).image, (640, 360), interpolation=cv2.INTER_AREA)
    assert np.array_equal(smooth(image), cv2.GaussianBlur(image.astype(np.float32), (0, 0), SMOOTH))


def test_channel_by_channel_max_and_min_are_numpys():
    prof = np.random.default_rng(4).uniform(0, 255, (4, 16, 21, 3)).astype(np.float32)
    assert np.array_equal(colour_step(prof), np.abs(prof[:, :, 2:] - prof[:, :, :-2]).max(axis=3))
    assert np.array_equal(darkest(prof), prof.min(axis=3))


@pytest.mark.parametrize("channels", [3, 1])
def test_motion_is_numpys_count_of_cells_changed_past_the_level(channels):
    # the count that decides motion (vision.repeat._in_motion), written out: cells whose largest channel
    # changed by more than MOTION_LEVEL, at least MOTION_SHARE of them; frames near that share either way
    rng = np.random.default_rng(channels)
    need = MOTION_SHARE * 180 * 320
    seen = set()
    for _ in range(60):
        before = rng.integers(0, 256, (180, 320, 3)).astype(np.int16)
        now = before.copy()
        y, x, h, w = rng.integers(0, 150), rng.integers(0, 300), rng.integers(4, 30), rng.integers(4, 12)
        now[y:y + h, x:x + w] = np.clip(now[y:y + h, x:x + w] + rng.integers(-90, 90, 3), 0, 255)
        if channels == 1:
            before, now = before[..., 0].copy(), now[..., 0].copy()
        change = np.abs(now - before)
        written_out = np.count_nonzero((change.max(axis=2) if channels == 3 else change) > MOTION_LEVEL) >= need
        assert _in_motion(now, before) == written_out
        seen.add(written_out)
    assert seen == {True, False}


# --------------------------------------------------------------------------- a reading spread over frames
ONE_STEP = 1e-9   # a frame_budget every step overruns: one step of the reading a frame


def _spread_until_read(rec, frames) -> tuple[list, int]:
    """The matches of the first of ``frames`` (the last repeated) that is not answered as the table last
    read, and how many frames were answered so before it."""
    for k in range(200):
        got = rec.recognise(frames[min(k, len(frames) - 1)])
        if not rec.no_news:
            return got, k
    raise AssertionError("the reading never finished")


def _read(matches) -> list:
    return sorted((m.card, round(m.confidence, 6), np.round(m.corners, 3).tolist()) for m in matches)


def test_a_table_of_new_cards_read_over_frames_gives_the_whole_readings_matches(model_dirs):
    """With a frame budget, a still table's new cards are read a step a frame, on the frame the reading
    began in: meanwhile no news; then the very matches of that frame read whole."""
    model = CardModel.load(model_dirs["pass-pass"])
    table = LYING + [Placement("yellow-7", (420, 120), 30)]
    frames = [_filmed(table, noise=k) for k in range(40)]
    whole = CardRecogniser(model, still_frames=True).recognise(frames[0])
    assert sorted(m.card for m in whole if m.card) == sorted(p.card for p in table)
    rec = CardRecogniser(model, still_frames=True, frame_budget=ONE_STEP)
    got, waited = _spread_until_read(rec, frames)
    assert _read(got) == _read(whole)
    # the detection's two stages, then each card's outline and each named card's tells: a step each
    assert waited >= 2 + 2 * len(table) - 1 and rec.spread_frames == waited
    # the table at rest since: answered as read, no work, news again
    assert _read(rec.recognise(frames[-1])) == _read(whole) and not rec.no_news
    assert rec.spread_frames == waited


def test_a_table_changed_while_it_is_read_over_frames_is_read_again_from_the_change(model_dirs):
    model = CardModel.load(model_dirs["pass-pass"])
    rec = CardRecogniser(model, still_frames=True, frame_budget=ONE_STEP)
    before = [_filmed(LYING, noise=k) for k in range(3)]
    now = LYING + [Placement("yellow-7", (420, 120), 30)]
    for frame in before:   # a few steps of the three lying cards' reading
        assert rec.recognise(frame) == [] and rec.no_news
    # a fourth card (a change too small to be motion: vision.repeat.MOTION_SHARE): read anew from that frame
    got, _ = _spread_until_read(rec, [_filmed(now, noise=k) for k in range(3, 40)])
    assert sorted(m.card for m in got if m.card) == sorted(p.card for p in now)


def test_a_table_that_never_holds_still_is_read_whole_after_a_few_new_beginnings(model_dirs):
    """A reading begun again SPREAD_PATIENCE times in a row (the light flickering, say) is done whole
    in the next frame that needs it: a table that never holds still is still read."""
    model = CardModel.load(model_dirs["pass-pass"])
    rec = CardRecogniser(model, still_frames=True, frame_budget=ONE_STEP)
    light = [_filmed(LYING, noise=k).astype(np.int16) for k in range(SPREAD_PATIENCE + 1)]
    flicker = [np.clip(f + 12 * (k % 2 * 2 - 1), 0, 255).astype(np.uint8) for k, f in enumerate(light)]
    answers = [rec.recognise(frame) for frame in flicker]
    assert all(a == [] for a in answers[:-1])   # each frame a new beginning, one step of it
    assert sorted(m.card for m in answers[-1] if m.card) == sorted(p.card for p in LYING) and not rec.no_news


def test_the_table_watcher_takes_a_reading_under_way_as_no_news(model_dirs):
    """Cards lying do not go while the table is read again over frames, and the card laid is seen once the
    reading ends, counted from the frames read."""
    model = CardModel.load(model_dirs["pass-pass"])
    cal = Calibration(np.linalg.inv(_filming_camera()), (1280, 720))
    rec = CardRecogniser(model, still_frames=True, frame_budget=ONE_STEP)
    watcher = TableWatcher(rec, cal, TableProfile.load(), appear_frames=3)
    now = LYING + [Placement("yellow-7", (420, 120), 30)]
    film = [_filmed(LYING, noise=k) for k in range(30)] + [_filmed(now, noise=k) for k in range(30, 70)]
    events, no_news = [], []
    for k, image in enumerate(film):
        events += [(o.kind, o.data["card"], k) for o in watcher.process(Frame(image, k / 30, k))
                   if o.kind in ("card_seen", "card_gone")]
        no_news.append(rec.no_news)
    assert not any(e[0] == "card_gone" for e in events)
    first_read = no_news.index(False)
    assert sorted(e[1] for e in events if e[2] < 30) == sorted(p.card for p in LYING)
    assert [e for e in events if e[1] == "yellow-7"] and all(e[2] > 30 for e in events if e[1] == "yellow-7")
    laid_read = 30 + no_news[30:].index(False)
    seen_at = next(e[2] for e in events if e[1] == "yellow-7")
    # seen at the third frame read with it: the reading's end, then two frames at rest (answered as read)
    assert first_read > 3 and laid_read > 31 and seen_at == laid_read + 2


def test_a_frame_budget_needs_a_still_table(model_dirs):
    with pytest.raises(ValueError, match="still_frames"):
        CardRecogniser(CardModel.load(model_dirs["pass-pass"]), frame_budget=0.01)


def test_a_live_cameras_reader_makes_the_cards_checks_ahead_while_the_table_rests_and_reads_the_same(model_dirs):
    """In the spare time of frames answered as the table last read, a reader with a frame budget makes
    what naming each enrolled card makes the first time; the card laid then is read, to the bit, as a
    recording's reader (no budget), which makes nothing ahead, reads it."""
    model = CardModel.load(model_dirs["pass-pass"])
    now = LYING + [Placement("yellow-7", (420, 120), 30)]
    laid = [_filmed(now, noise=k) for k in range(100, 103)]   # the last one repeated as long as needed
    rec = CardRecogniser(model, still_frames=True, frame_budget=0.05)
    recording = CardRecogniser(model, still_frames=True)
    assert not rec.prepared
    for k in range(100):
        frame = _filmed(LYING, noise=k)
        rec.recognise(frame)
        recording.recognise(frame)
        if rec.prepared:
            break
    assert rec.prepared and not recording.prepared
    got, _ = _spread_until_read(rec, laid)
    assert sorted(m.card for m in got if m.card) == sorted(p.card for p in now)
    # the card laid read as the recording's reader reads it (the lying cards' readings are kept from the frames
    # each reader read them in)
    new = next(m for m in got if m.card == "yellow-7").corners.mean(axis=0)
    again, _ = _spread_until_read(recording, laid)
    assert _read([m for m in got if np.linalg.norm(m.corners.mean(axis=0) - new) < 20]) == \
        _read([m for m in again if np.linalg.norm(m.corners.mean(axis=0) - new) < 20])
