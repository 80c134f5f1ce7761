"""A deck enrolled with faces missing (``passetable enroll --partial``): are the missing
cards ever named, and what does it cost the enrolled ones? (a script, not a test)

    .venv/bin/python tests/bench/eval_vision_partial.py --style 1 --scenes 150 --missing 1 5 20
    .venv/bin/python tests/bench/eval_vision_partial.py --style 2 --scenes 150 --missing 1 5 20

For each scene, ``k`` faces are left out of the model: one of the cards lying in the scene
for k = 1, else up to k / 2 of them, the rest drawn at random from the deck (seeded by the scene). The
enrolment photos and scenes are those of ``eval_vision.py`` (style 1: seeds 1_000_000
onwards) and ``eval_vision_style2.py`` (style 2: seeds 3_000_000 onwards, with the
calibration shot); nothing here was tuned.

"missing named" counts found cards of a left-out face that were given a name (any name):
it must be 0. Fully visible enrolled cards: named right, named wrong, abstained.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vision.decks import deck_card_ids
from vision.model import CardModel
from vision.recognise import CardRecogniser
from vision.synth.evaluate import pair_up


def without(model: CardModel, drop: set[str]) -> CardModel:
    keep = [i for i, c in enumerate(model.cards) if c not in drop]
    return CardModel(model.deck, [model.cards[i] for i in keep], model.templates[keep].copy(),
                     {c: f for c, f in model.faces.items() if c not in drop}, model.min_confidence, model.min_margin)


def left_out(seed: int, deck: str, in_scene: list[str], k: int) -> set[str]:
    rnd = random.Random(seed * 31 + k)
    drop = set(rnd.sample(in_scene, min(k, len(in_scene), max(1, k // 2 if k > 1 else 1))))
    rest = [c for c in deck_card_ids(deck) if c not in drop]
    drop |= set(rnd.sample(rest, k - len(drop)))
    return drop


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--style", type=int, choices=(1, 2), default=1)
    ap.add_argument("--scenes", type=int, default=150)
    ap.add_argument("--missing", type=int, nargs="+", default=[1, 5, 20])
    ap.add_argument("--first-seed", type=int, help="first scene (default: the style's first evaluation seed)")
    args = ap.parse_args(argv)
    if args.style == 1:
        from tests.bench.eval_vision import EVAL_SEED, deck_for, enrol_all
        from vision.synth.scene import random_scene

        models = enrol_all(Path(tempfile.mkdtemp()))

        def scene_of(seed):
            deck = deck_for(seed)
            s = random_scene(seed, deck, 1 + seed % 10)
            return deck, models[deck], s, None
    else:
        from tests.bench.eval_vision_style2 import EVAL_SEED, deck_for, design_for, enrol_style2
        from vision.background import TableBackground
        from vision.detect import CardDetector
        from vision.synth2.render import calibration_shot, table_scene

        models2, _ = enrol_style2(log=lambda *_: None)

        def scene_of(seed):
            deck, design = deck_for(seed), design_for(seed)
            s = table_scene(seed, deck, design, 1 + seed % 10)
            bg = TableBackground.from_shot(calibration_shot(seed, deck, design, 1 + seed % 10),
                                           table_to_image=s.table_to_image)
            return deck, models2[(deck, design)], s, CardDetector(background=bg)
    first = EVAL_SEED if args.first_seed is None else args.first_seed
    seeds = range(first, first + args.scenes)
    print(f"style {args.style}, scenes {seeds.start}..{seeds.stop - 1}")
    for k in args.missing:
        miss_found = miss_named = right = wrong = visible = 0
        examples, wrongs = [], []
        for seed in seeds:
            deck, model, scene, detector = scene_of(seed)
            drop = left_out(seed, deck, [c.card for c in scene.cards], k)
            rec = CardRecogniser(without(model, drop), detector)
            matches = rec.recognise(scene.image)
            for t, m in pair_up(scene.cards, matches):
                if t is None:
                    continue
                truth = scene.cards[t]
                name = matches[m].card if m is not None else None
                if truth.card in drop:
                    if m is not None:
                        miss_found += 1
                        if name is not None:
                            miss_named += 1
                            examples.append((seed, truth.card, name, round(float(matches[m].confidence), 3)))
                elif truth.fully_visible:
                    visible += 1
                    right += name == truth.card
                    if name is not None and name != truth.card:
                        wrong += 1
                        wrongs.append((seed, truth.card, name, round(float(matches[m].confidence), 3)))
        print(f"missing {k:2d}: left-out cards found {miss_found}, named {miss_named} {examples[:8]}; "
              f"fully visible enrolled {visible}: named right {right / max(visible, 1):.2%}, "
              f"wrong {wrong} {wrongs[:8]}",
              flush=True)
    return 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    raise SystemExit(main())
