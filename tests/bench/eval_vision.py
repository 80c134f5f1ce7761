"""Accuracy of card recognition on rendered scenes (a script, not a test).

    .venv/bin/python tests/bench/eval_vision.py --scenes 2000
    .venv/bin/python tests/bench/eval_vision.py --tune --scenes 400
    .venv/bin/python tests/bench/eval_vision.py --style 2 --scenes 2000 [--no-calibration]
    .venv/bin/python tests/bench/eval_vision.py --style 2 --theme lattmann --first-seed 3100100 --scenes 1000

``--style 2`` runs the second, independently drawn scene style (see
``tests/bench/eval_vision_style2.py``): figures per table kind and design, never tuned on.

Seeds. Enrolment photos: 900_000 + card index (one clean photo per face, enrolled through
``vision.enrol.enrol_directory`` as ``passetable enroll`` does). Threshold tuning
(``--tune``) and all development looked only at scene seeds 0..999. The accuracy report
uses scene seeds 1_000_000 onwards, never looked at while choosing anything. Odd seeds
are Pass Pass scenes, even ones Passe Éclair; a scene holds 1 + seed % 10 cards.

Counts: "named" cards are those not abstained on; "confidently wrong" is a named card
that is wrong (or names something where there is no card), over all named cards; an
abstention on a fully visible card is a fully visible card reported as unknown or not
found at all.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vision.decks import DECKS, deck_card_ids
from vision.enrol import enrol_directory
from vision.model import CardModel
from vision.recognise import CardRecogniser
from vision.synth.evaluate import SceneScore, score_scene
from vision.synth.scene import card_photo, random_scene

ENROL_SEED = 900_000
TUNE_SEED = 0
EVAL_SEED = 1_000_000


def deck_for(seed: int) -> str:
    return "pass-pass" if seed % 2 else "passe-eclair"


def enrol_all(workdir: Path) -> dict[str, CardModel]:
    models = {}
    for deck in DECKS:
        photos = workdir / f"photos-{deck}"
        photos.mkdir(parents=True, exist_ok=True)
        for i, card in enumerate(deck_card_ids(deck)):
            cv2.imwrite(str(photos / f"{card}.png"), card_photo(card, ENROL_SEED + i))
        models[deck] = enrol_directory(deck, photos, workdir / f"model-{deck}")
    return models


def run(models, seeds, min_conf=None, min_margin=None, scenes_cache=None):
    total = SceneScore()
    recs = {}
    for deck, model in models.items():
        if min_conf is not None:
            model.min_confidence, model.min_margin = min_conf, min_margin
        recs[deck] = CardRecogniser(model)
    t_rec = []
    for seed in seeds:
        scene = scenes_cache[seed] if scenes_cache is not None else random_scene(seed, deck_for(seed), 1 + seed % 10)
        t0 = time.perf_counter()
        matches = recs[deck_for(seed)].recognise(scene.image)
        t_rec.append(time.perf_counter() - t0)
        total.add(score_scene(scene.cards, matches, seed))
    return total, t_rec


def report(score: SceneScore, t_rec) -> None:
    named = score.right + score.wrong
    print(f"cards named (not abstained on): {named}")
    print(f"  right among named: {score.right / max(named, 1):.4%}  ({score.right}/{named})")
    print(f"  confidently wrong: {score.wrong / max(named, 1):.4%}  ({score.wrong})")
    ab = score.abstained_visible + score.missed_visible
    print(f"fully visible cards: {score.visible}; abstentions {ab / max(score.visible, 1):.3%} "
          f"(unknown {score.abstained_visible}, not found {score.missed_visible})")
    print(f"partly hidden cards: {score.partial}; named {score.partial_named}")
    t = sorted(t_rec)
    print(f"recognition time per scene (default threads): median {t[len(t) // 2] * 1000:.1f} ms")
    print("confusion cases (seed, truth, said, confidence, margin, complete outline):")
    for c in score.confusions:
        print(f"  {c.seed} {c.truth} -> {c.said} conf {c.confidence:.3f} margin {c.margin:.3f} complete {c.complete}")
    if not score.confusions:
        print("  none")
    causes = collections.Counter(a[2].split(" (")[0] for a in score.abstentions)
    print(f"abstentions on fully visible cards by cause: {dict(causes)}")
    for a in score.abstentions[:30]:
        print("  ", a)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=2000)
    ap.add_argument("--tune", action="store_true", help="grid of thresholds on the tuning seeds")
    ap.add_argument("--first-seed", type=int, default=EVAL_SEED,
                    help="first scene seed of the report (below 1000: development scenes)")
    ap.add_argument("--style", type=int, choices=(1, 2), default=1, help="scene style (2: the independent one)")
    ap.add_argument("--no-calibration", action="store_true", help="style 2: no calibration shot (loose photos)")
    ap.add_argument("--theme", metavar="NAME",
                    help="style 2: the Pass Pass deck drawn as AisleRiot's card theme NAME (lattmann, orell, "
                         "anglo_poker…: Debian's gnome-cards-data), a deck no one here drew")
    args = ap.parse_args(argv)
    if args.style == 2:
        from tests.bench import eval_vision_style2

        first = args.first_seed if args.first_seed != EVAL_SEED else eval_vision_style2.EVAL_SEED
        return eval_vision_style2.main(args.scenes, first, calibrated=not args.no_calibration,
                                       theme=f"theme:{args.theme}" if args.theme else None)
    with tempfile.TemporaryDirectory() as tmp:
        models = enrol_all(Path(tmp))
        if args.tune:
            seeds = range(TUNE_SEED, TUNE_SEED + args.scenes)
            cache = {s: random_scene(s, deck_for(s), 1 + s % 10) for s in seeds}
            print("min_conf min_margin  named  wrong  abstain-visible")
            for mc in (0.8, 0.85, 0.9, 0.93):
                for mm in (0.05, 0.1, 0.15, 0.2, 0.25):
                    sc, _ = run(models, seeds, mc, mm, cache)
                    named = sc.right + sc.wrong
                    print(f"{mc:8.2f} {mm:10.2f} {named:6d} {sc.wrong:6d} "
                          f"{(sc.abstained_visible + sc.missed_visible) / max(sc.visible, 1):10.3%}")
            return 0
        seeds = range(args.first_seed, args.first_seed + args.scenes)
        print(f"evaluation seeds {seeds.start}..{seeds.stop - 1}; thresholds "
              f"conf >= {models['pass-pass'].min_confidence}, margin >= {models['pass-pass'].min_margin}")
        score, t_rec = run(models, seeds)
        report(score, t_rec)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
