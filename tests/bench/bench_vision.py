"""Speed of the camera pipeline at 1280x720 with OpenCV held to one thread (a script).

    .venv/bin/python tests/bench/bench_vision.py [--scenes 60] [--style 2]

Prints, for scenes of 1, 5 and 10 cards (default scene style: tilt, overlaps, hands,
glare...), the median time per frame of detection alone and of detection plus
recognition, as frames per second, and the process's CPU time per frame of the latter
(the load average is printed: on a shared machine the wall time is longer); then the
latency from a card landing in view to its ``card_seen`` observation on a 30 fps camera,
for 2, 3 and 4 frames of stability. Last, a table at rest as a camera films it: each scene
for STILL_FRAMES frames, each with fresh sensor noise, through a recogniser with
``still_frames`` (vision.repeat.StillFrame, as the service runs it): frames per second over
all those frames (the frames worked on again included), and how many were worked on. And a
card laid on a table of 4 or 9 at rest: the time of the frame it lands in when the parts of the
table that did not change keep their cards (vision.repeat.StillParts), against the same frame
worked on whole; and a hand filmed laying a card on a table of 4 or 9 through the table watcher
(``filmed_laying``): frames per second over the film and its slowest frame, with the frames in
motion answered as the table last read (vision.repeat.StillFrame, as the service runs) and with
every one of them read, and with the reading spread over frames as the camera part runs it (``frame_budget``),
and the time from the card landing to its ``card_seen``. Last, a table of 5 or 10 new cards filmed at rest by a
60 fps camera (the camera coming on over a laid table): read whole in its first frame, or spread over frames at
``FRAME_BUDGET_SHARE`` of a frame's interval, by a fresh reader or by one that watched the empty table first (and
made the cards' checks ahead meanwhile), with the frames each took, the camera's frames dropped meanwhile and
the time until the cards are given.

``--style 2``: the second scene style (:mod:`vision.synth2`: dark-bordered and full-bleed
cards on every table kind), with the detector using each scene's calibration shot (the
empty-table model), and models enrolled from close-up photos: every frame new, a table at rest and a
table of new cards; no latency part.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hardware.camera import FRAME_BUDGET_SHARE
from table.bench import machine
from tests.bench.eval_vision import enrol_all
from vision.calibration import Calibration
from vision.pipeline import TableWatcher
from vision.profile import TableProfile
from vision.recognise import CardRecogniser
from vision.sources import Frame
from vision.synth.scene import Placement, SceneStyle, random_camera, random_scene, render_table

FPS = 30.0
STILL_FRAMES = 60     # frames of one table at rest (two seconds at 30 fps)
STILL_SCENES = 10     # scenes per card count for the still-table part
SENSOR_NOISE = 3.0    # grey levels: a camera sensor's noise, fresh each frame


def time_frames(rec: CardRecogniser, images, cpu: list | None = None) -> tuple[float, float]:
    """Median wall time per frame of detection and of detection + recognition; with ``cpu``,
    the process's CPU time per frame of the latter is added to it (the second clock: on a
    shared machine the wall time counts the other jobs' turns too)."""
    det_t, rec_t = [], []
    for img in images:
        t0 = time.perf_counter()
        rec.detector.detect(img)
        t1 = time.perf_counter()
        c1 = time.process_time()
        rec.recognise(img)
        c2 = time.process_time()
        t2 = time.perf_counter()
        det_t.append(t1 - t0)
        rec_t.append(t2 - t1)
        if cpu is not None:
            cpu.append(c2 - c1)
    return statistics.median(det_t), statistics.median(rec_t)


def time_still(rec: CardRecogniser, images) -> tuple[float, float, float]:
    """(mean seconds per frame, share of frames worked on, mean seconds per frame after each
    table's first) over STILL_FRAMES frames of each of ``images`` at rest, each frame with fresh
    sensor noise (drawn before the clock runs)."""
    rng = np.random.default_rng(0)
    noise = [rng.normal(0, SENSOR_NOISE, images[0].shape).astype(np.int16) for _ in range(8)]
    spent, later, frames, reused = 0.0, 0.0, 0, rec.reused_frames
    for img in images:
        wide = img.astype(np.int16)
        shots = [np.clip(wide + noise[k % len(noise)], 0, 255).astype(np.uint8) for k in range(STILL_FRAMES)]
        t0 = time.perf_counter()
        rec.recognise(shots[0])   # the table's first frame: all of it worked on
        t1 = time.perf_counter()
        for shot in shots[1:]:
            rec.recognise(shot)
        t2 = time.perf_counter()
        spent += t2 - t0
        later += t2 - t1
        frames += len(shots)
    return spent / frames, 1 - (rec.reused_frames - reused) / frames, later / (frames - len(images))


def _still_line(n: int, per_frame: float, worked: float, later: float, label: str = "") -> str:
    return (f"{n:2d} cards{label}, table at rest: {per_frame * 1000:5.2f} ms per frame ({1 / per_frame:5.0f} fps), "
            f"{worked:.1%} of frames worked on ({STILL_FRAMES} a scene)  [mean over all frames]; after its first "
            f"frame {later * 1000:5.2f} ms ({1 / later:5.0f} fps)")


def landing_latency(models, appear_frames: int, trials: int = 12) -> list[float]:
    """Seconds from the first frame showing a new card to its card_seen, processing included."""
    profile = TableProfile.load()
    out = []
    for trial in range(trials):
        rnd = random.Random(7000 + trial)
        nprng = np.random.default_rng(7000 + trial)
        deck = "pass-pass" if trial % 2 else "passe-eclair"
        model = models[deck]
        cam = random_camera(nprng, SceneStyle(fill=(0.85, 0.95), turn_max_deg=8))
        cal = Calibration(np.linalg.inv(cam), (1280, 720))
        cards = rnd.sample(model.cards, 4)
        lying = [Placement(c, (150 + 170 * i, 380), rnd.uniform(0, 360)) for i, c in enumerate(cards[:3])]
        newcomer = Placement(cards[3], (400, 225), rnd.uniform(0, 360))   # into the trick zone
        watcher = TableWatcher(CardRecogniser(model), cal, profile, appear_frames=appear_frames)
        landed_at = 10
        for k in range(landed_at + appear_frames + 6):
            placements = lying + ([newcomer] if k >= landed_at else [])
            img = render_table(placements, cam, np.random.default_rng(k), SceneStyle()).image
            t = k / FPS
            t0 = time.perf_counter()
            obs = watcher.process(Frame(img, t, k))
            spent = time.perf_counter() - t0
            hit = [o for o in obs if o.kind == "card_seen" and o.data["card"] == newcomer.card]
            if hit:
                out.append(hit[0].t - landed_at / FPS + spent)
                break
        else:
            out.append(float("nan"))
    return out


LAID_TRIALS = 10


def laid_card(models, n: int) -> tuple[float, float, int]:
    """Median seconds of the first frame read after a card is laid on a table of ``n - 1`` at rest
    (the frame it lands in shows the table in motion and is answered as last read), with the
    unchanged parts' cards kept (``still_frames``, as the service runs), and of the same frame
    worked on whole; and how many trials named all ``n`` cards both ways."""
    kept, whole, named = [], [], 0
    for trial in range(LAID_TRIALS):
        rnd = random.Random(8000 + trial)
        deck = "pass-pass" if trial % 2 else "passe-eclair"
        model = models[deck]
        cam = random_camera(np.random.default_rng(8000 + trial), SceneStyle(fill=(0.85, 0.95), turn_max_deg=8))
        cards = rnd.sample(model.cards, n)
        spots = [Placement(c, (100 + 150 * (i % 5), 130 + 190 * (i // 5)), rnd.uniform(0, 360))
                 for i, c in enumerate(cards)]
        style = replace(SceneStyle.clean(), print_jitter=0)   # inks not varied: the light stays when a card lands
        before, after = (render_table(p, cam, np.random.default_rng(trial), style).image for p in (spots[:-1], spots))
        grain = np.random.default_rng(trial).normal(0, SENSOR_NOISE, (2,) + after.shape)   # the camera's noise, new
        landing, after = (np.clip(after + g, 0, 255).astype(np.uint8) for g in grain)
        rec, fresh = CardRecogniser(model, still_frames=True), CardRecogniser(model)
        rec.recognise(before)
        rec.recognise(landing)   # the table in motion (vision.repeat.StillFrame)
        t0 = time.perf_counter()
        a = rec.recognise(after)
        t1 = time.perf_counter()
        b = fresh.recognise(after)
        t2 = time.perf_counter()
        kept.append(t1 - t0)
        whole.append(t2 - t1)
        named += sorted(m.card for m in a if m.card) == sorted(m.card for m in b if m.card) == sorted(cards)
    return statistics.median(kept), statistics.median(whole), named


HAND_IN, HAND_HOLD, HAND_OUT, AT_REST = 8, 2, 6, 30   # frames of the filmed card laying


def hand_film(models, n: int, trial: int) -> tuple[list[np.ndarray], str, int, Calibration]:
    """A hand laying a card on a table of ``n - 1`` at rest, filmed at 30 fps with fresh sensor
    noise each frame: AT_REST frames, the hand coming in (HAND_IN), holding still over the card it
    lays (HAND_HOLD), going (HAND_OUT), AT_REST frames. (frames, the card laid, the frame it lands
    in, the calibration)."""
    from vision.synth.effects import draw_hand, hand_polygons
    from vision.synth.scene import project

    rnd = random.Random(9000 + trial)
    model = models["pass-pass" if trial % 2 else "passe-eclair"]
    cam = random_camera(np.random.default_rng(9000 + trial), SceneStyle(fill=(0.85, 0.95), turn_max_deg=8))
    cards = rnd.sample(model.cards, n)
    spots = [Placement(c, (100 + 150 * (i % 5), 130 + 190 * (i // 5)), rnd.uniform(0, 360))
             for i, c in enumerate(cards)]
    style = replace(SceneStyle.clean(), print_jitter=0)   # the light stays when a card lands
    before, after = (render_table(p, cam, np.random.default_rng(trial), style).image for p in (spots[:-1], spots))
    aim = project(cam, [spots[-1].centre_mm])[0]
    start = np.array([1400.0, 900.0])                      # from beyond the bottom right corner
    path = [start + (aim - start) * (k + 1) / HAND_IN for k in range(HAND_IN)] + [aim] * HAND_HOLD
    path += [aim + (start - aim) * (k + 1) / (HAND_OUT + 1) for k in range(HAND_OUT)]
    frames = [before] * AT_REST
    for k, at in enumerate(path):
        img = (before if k < HAND_IN else after).copy()
        target = np.float32([at + d for d in ((-50, -70), (50, -70), (50, 70), (-50, 70))])
        hand_rng = np.random.default_rng(trial)            # the same hand in every frame
        draw_hand(img, np.zeros(img.shape[:2], np.uint8), hand_polygons(hand_rng, target, 0.4), hand_rng)
        frames.append(img)
    frames += [after] * AT_REST
    filmed = _with_sensor_noise(frames, np.random.default_rng(trial))
    return filmed, spots[-1].card, AT_REST + HAND_IN, Calibration(np.linalg.inv(cam), (1280, 720))


def _with_sensor_noise(frames: list, rng: np.random.Generator) -> list:
    """``frames`` as a camera gives them: each with a sensor noise of SENSOR_NOISE grey levels (8 drawn
    from ``rng``, in turn)."""
    noise = [rng.normal(0, SENSOR_NOISE, frames[0].shape).astype(np.int16) for _ in range(8)]
    return [np.clip(f.astype(np.int16) + noise[k % len(noise)], 0, 255).astype(np.uint8) for k, f in enumerate(frames)]


def filmed_laying(models, n: int, trials: int = 6) -> dict:
    """The hand film through the table watcher as the camera part runs it (``still_frames``), with
    the frames in motion answered as the table last read (``vision.repeat.MOTION_PATIENCE``) and,
    with ``MOTION_PATIENCE = 1``, every one read, and as the first with the reading spread over frames
    (``frame_budget``, FRAME_BUDGET_SHARE of a frame's interval, as the camera part sets it): {(patience,
    budget): (wall seconds of every frame, frames worked on a film, landing -> card_seen of the card laid on
    a live camera)}. Live: the watcher
    takes the newest frame each time it is free (frames come every 1/FPS s, those that came while
    it worked are dropped), so a slow frame delays what follows."""
    from vision import repeat

    profile = TableProfile.load()
    out = {}
    ways = ((repeat.MOTION_PATIENCE, None), (1, None), (repeat.MOTION_PATIENCE, FRAME_BUDGET_SHARE / FPS))
    for patience, budget in ways:
        times, worked, landing = [], 0, []
        for trial in range(trials):
            frames, card, landed, cal = hand_film(models, n, trial)
            model = models["pass-pass" if trial % 2 else "passe-eclair"]
            for live in (False, True):
                saved, repeat.MOTION_PATIENCE = repeat.MOTION_PATIENCE, patience
                try:
                    rec = CardRecogniser(model, still_frames=True, frame_budget=budget)
                finally:
                    repeat.MOTION_PATIENCE = saved
                watcher = TableWatcher(rec, cal, profile, appear_frames=3)
                k, now, seen = 0, 0.0, float("nan")
                while k < len(frames):
                    t0 = time.perf_counter()
                    obs = watcher.process(Frame(frames[k], k / FPS, k))
                    spent = time.perf_counter() - t0
                    now = max(now, k / FPS) + spent
                    if not live:
                        times.append(spent)
                    elif k >= landed and any(o.kind == "card_seen" and o.data["card"] == card for o in obs):
                        seen = now - landed / FPS
                        break
                    k = max(k + 1, int(now * FPS)) if live else k + 1
                if not live:
                    worked += len(frames) - rec.reused_frames
            landing.append(seen)
        out[patience, budget] = (times, worked / trials, landing)
    return out


def _film_line(n: int, how: tuple, times: list, worked: float, landing: list) -> str:
    got = [x * 1000 for x in landing if x == x]
    patience, budget = how
    label = "in motion answered as last read" if patience > 1 else "every frame in motion read"
    if budget:
        label += f", read over frames, {budget * 1000:.0f} ms a frame"
    return (f"{n:2d} cards, a hand laying the last ({label}): {len(times) / sum(times):5.0f} fps over the film, "
            f"frame median {statistics.median(times) * 1000:5.2f} ms, max {max(times) * 1000:6.1f} ms; "
            f"{worked:.1f} of {AT_REST * 2 + HAND_IN + HAND_HOLD + HAND_OUT} frames worked on; landing -> card_seen "
            f"on a live camera median {statistics.median(got) if got else float('nan'):.0f} ms, max "
            f"{max(got) if got else float('nan'):.0f} ms ({len(got)} of {len(landing)} seen)")


COLD_FPS = 60.0      # the camera of the cold-table part: the 60 fps
COLD_FRAMES = 240    # four seconds of it (a style-2 table of 10 took 70 frames on an AMD EPYC, up to 120 on a Xeon)
PREPARE_FRAMES = 20 * COLD_FRAMES   # the empty table watched at most so long for the checks made ahead
FRAME_BUDGET = FRAME_BUDGET_SHARE / COLD_FPS   # seconds of reading a frame, as the camera part sets it


def cold_table(tables: list) -> dict:
    """Tables of new cards filmed at rest, as when the camera comes on over a laid table or a sweep of
    the table settles: each ``(image, make)`` of ``tables`` for COLD_FRAMES frames with fresh sensor noise,
    through the recogniser ``make(frame_budget)`` (``still_frames``), its whole reading done in the first
    frame (budget None) or spread over frames (FRAME_BUDGET), by a fresh recogniser or by one that watched an
    empty table first (``prepared``: it made the cards' checks ahead in those frames' spare time; the change
    to the laid table, a frame in motion, not counted). {(budget, prepared): (wall seconds of each frame
    until the cards were given, of every frame, seconds from the first frame to the cards given on a live
    COLD_FPS camera, tables whose names were those of the whole reading)}. Live: the newest frame is taken
    whenever the reader is free, those that came meanwhile are dropped."""
    out, names = {}, {}
    for budget, prepared in ((None, False), (FRAME_BUDGET, False), (FRAME_BUDGET, True)):
        reading, times, latency, same = [], [], [], 0
        for i, (img, make) in enumerate(tables):
            frames = _with_sensor_noise([img] * COLD_FRAMES, np.random.default_rng(i))
            for live in (False, True):
                rec, k, now, until = make(budget), 0, 0.0, []
                if prepared:
                    _watched_empty(rec, img)
                while k < len(frames):
                    t0 = time.perf_counter()
                    got = rec.recognise(frames[k])
                    spent = time.perf_counter() - t0
                    now = max(now, k / COLD_FPS) + spent
                    if live and not rec.no_news:
                        latency.append(now)
                        break
                    if not live:
                        times.append(spent)
                        if until is not None:
                            until.append(spent)
                        if until is not None and not rec.no_news:
                            reading.append(until)
                            until, cards = None, sorted(m.card for m in got if m.card)
                            same += cards == names.setdefault(i, cards)   # the whole reading's, first
                    k = max(k + 1, int(now * COLD_FPS)) if live else k + 1
        out[budget, prepared] = (reading, times, latency, same)
    return out


def _watched_empty(rec: CardRecogniser, img: np.ndarray) -> None:
    """``rec`` shown an empty table (a plain frame of ``img``'s median colour) until it made the cards' checks
    ahead (at most PREPARE_FRAMES frames: how many it takes depends on the CPU), then ``img`` once: the change
    comes in motion, answered as no news."""
    empty = _with_sensor_noise([np.full_like(img, int(np.median(img)))] * COLD_FRAMES, np.random.default_rng(0))
    for frame in itertools.islice(itertools.cycle(empty), PREPARE_FRAMES):
        rec.recognise(frame)
        if rec.prepared:
            break
    rec.recognise(img)
    assert rec.no_news and rec.prepared, "the laid table should come in motion, after the checks were made"


def _cold_lines(n: int, parts: dict, tables: int, label: str = "") -> list[str]:
    lines, interval = [], 1 / COLD_FPS
    for (budget, prepared), (reading, times, latency, same) in parts.items():
        how = f"read over frames, {budget * 1000:.0f} ms a frame" if budget else "read whole in its first frame"
        if prepared:
            how += ", the cards' checks made ahead"
        during = np.concatenate(reading) * 1000
        # the frames a live camera gave while the reader worked on one and that it never saw
        dropped = [sum(int(np.ceil(t / interval)) - 1 for t in table) for table in reading]
        lines.append(f"{n:2d} new cards{label} ({how}): {len(times) / sum(times):5.0f} fps over {COLD_FRAMES} frames; "
                     f"until the cards were given {statistics.median(len(r) for r in reading):.0f} frames, each median "
                     f"{np.median(during):5.1f} ms, max {during.max():6.1f} ms, over {interval * 1000:.1f} ms "
                     f"{int((during > interval * 1000).sum())} of {len(during)}, {COLD_FPS:.0f} fps camera frames "
                     f"dropped median {statistics.median(dropped):.0f}; first frame -> cards given on a live "
                     f"{COLD_FPS:.0f} fps camera median {statistics.median(latency) * 1000:.0f} ms, max "
                     f"{max(latency) * 1000:.0f} ms; given within the frames for {len(reading)} of {tables} "
                     f"tables, their names as read whole in {same}")
    return lines


def style2(scenes: int) -> None:
    from tests.bench.eval_vision_style2 import deck_for, design_for, enrol_style2
    from vision.background import TableBackground
    from vision.detect import CardDetector
    from vision.synth2.render import calibration_shot, table_scene

    models, _ = enrol_style2(log=lambda *a: None)
    for n in (1, 5, 10):
        det_t, rec_t, cpu = [], [], []
        for s in range(scenes):
            seed = 60_000 + s
            deck, design = deck_for(seed), design_for(seed)
            scene = table_scene(seed, deck, design, n)
            bg = TableBackground.from_shot(calibration_shot(seed, deck, design, n), table_to_image=scene.table_to_image)
            rec = CardRecogniser(models[(deck, design)], CardDetector(background=bg))
            d, r = time_frames(rec, [scene.image], cpu)
            det_t.append(d)
            rec_t.append(r)
        d, r = statistics.median(det_t), statistics.median(rec_t)
        print(f"{n:2d} cards (style 2, calibrated): detection {d * 1000:5.1f} ms ({1 / d:5.0f} fps); "
              f"detection + recognition {r * 1000:5.1f} ms ({1 / r:5.0f} fps), CPU {_cpu(cpu)}  [median per frame]")
    for n in (1, 5, 10):
        per_frame, worked, after = [], [], []
        for s in range(STILL_SCENES):
            seed = 60_000 + s
            deck, design = deck_for(seed), design_for(seed)
            scene = table_scene(seed, deck, design, n)
            bg = TableBackground.from_shot(calibration_shot(seed, deck, design, n), table_to_image=scene.table_to_image)
            rec = CardRecogniser(models[(deck, design)], CardDetector(background=bg), still_frames=True)
            p, w, a = time_still(rec, [scene.image])
            per_frame.append(p)
            worked.append(w)
            after.append(a)
        print(_still_line(n, statistics.mean(per_frame), statistics.mean(worked), statistics.mean(after), " (style 2)"))
    for n in (5, 10):
        tables = []
        for s in range(STILL_SCENES):
            seed = 60_000 + s
            deck, design = deck_for(seed), design_for(seed)
            scene = table_scene(seed, deck, design, n)
            bg = TableBackground.from_shot(calibration_shot(seed, deck, design, n), table_to_image=scene.table_to_image)
            tables.append((scene.image, functools.partial(_cold_recogniser, models[(deck, design)], bg)))
        for line in _cold_lines(n, cold_table(tables), len(tables), " (style 2)"):
            print(line)


def _cold_recogniser(model, background, frame_budget):
    from vision.detect import CardDetector

    detector = CardDetector(background=background) if background is not None else None
    return CardRecogniser(model, detector, still_frames=True, frame_budget=frame_budget)


def _cpu(seconds: list) -> str:
    c = statistics.median(seconds)
    return f"{c * 1000:5.1f} ms ({1 / c:5.0f} fps)"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=60)
    ap.add_argument("--style", type=int, choices=(1, 2), default=1)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    print(f"machine: {machine()}; OpenCV {cv2.__version__}, threads: {cv2.getNumThreads()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    if args.style == 2:
        style2(args.scenes)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        models = enrol_all(Path(tmp))
        for n in (1, 5, 10):
            by_deck = {"pass-pass": [], "passe-eclair": []}
            for s in range(args.scenes):
                deck = "pass-pass" if s % 2 else "passe-eclair"
                by_deck[deck].append(random_scene(50_000 + s, deck, n).image)
            det, rec, cpu = [], [], []
            for deck, images in by_deck.items():
                d, r = time_frames(CardRecogniser(models[deck]), images, cpu)
                det.append(d)
                rec.append(r)
            d, r = statistics.mean(det), statistics.mean(rec)
            print(f"{n:2d} cards: detection {d * 1000:5.1f} ms ({1 / d:5.0f} fps); "
                  f"detection + recognition {r * 1000:5.1f} ms ({1 / r:5.0f} fps), CPU {_cpu(cpu)}  [median per frame]")
        for k in (2, 3, 4):
            lat = [x for x in landing_latency(models, k) if x == x]
            print(f"landing -> card_seen, {k} stable frames at {FPS:.0f} fps: "
                  f"median {statistics.median(lat) * 1000:.0f} ms (min {min(lat) * 1000:.0f}, "
                  f"max {max(lat) * 1000:.0f}, {len(lat)} trials)")
        for n in (5, 10):
            kept, whole, named = laid_card(models, n)
            print(f"a card laid on a table of {n - 1} at rest: {kept * 1000:5.1f} ms, the parts that did not change "
                  f"kept; {whole * 1000:5.1f} ms worked on whole (x{whole / kept:.1f}); all {n} named both ways "
                  f"in {named} of {LAID_TRIALS}  [median]")
        for n in (5, 10):
            for how, (times, worked, landing) in filmed_laying(models, n).items():
                print(_film_line(n, how, times, worked, landing))
        for n in (1, 5, 10):
            per_frame, worked, after = [], [], []
            for s in range(STILL_SCENES):
                deck = "pass-pass" if s % 2 else "passe-eclair"
                rec = CardRecogniser(models[deck], still_frames=True)
                p, w, a = time_still(rec, [random_scene(50_000 + s, deck, n).image])
                per_frame.append(p)
                worked.append(w)
                after.append(a)
            print(_still_line(n, statistics.mean(per_frame), statistics.mean(worked), statistics.mean(after)))
        for n in (5, 10):
            tables = [(random_scene(50_000 + s, deck, n).image, functools.partial(_cold_recogniser, models[deck], None))
                      for s, deck in ((s, "pass-pass" if s % 2 else "passe-eclair") for s in range(STILL_SCENES))]
            for line in _cold_lines(n, cold_table(tables), len(tables)):
                print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
