"""Where style-2 cards are lost: detection (no quad / a wrong quad), recognition
(abstained / wrong name), per table kind and per deck, on the given seeds.

    nice .venv/bin/python tests/bench/diagnose_style2.py --first 100 --scenes 140

For every fully visible card the recogniser's answer is compared with the truth, and the
card is also named from its *true* corners, which tells a recognition loss from a
detection one. Enrolment models are cached in ``--cache`` (pickle) between runs.
"""

from __future__ import annotations

import argparse
import collections
import pickle
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench import eval_vision_style2 as ev
from vision.background import TableBackground
from vision.detect import CardDetector
from vision.recognise import CardRecogniser
from vision.synth.evaluate import pair_up
from vision.synth2.render import calibration_shot, table_scene

QUAD_OK = 0.04   # mean corner error / card diagonal above which the quad is "wrong"


def corner_error(truth: np.ndarray, found: np.ndarray) -> float:
    """Mean corner distance over the card's diagonal, best cyclic order."""
    diag = float(np.linalg.norm(truth[0] - truth[2]))
    f = np.asarray(found, np.float32)
    best = min(float(np.linalg.norm(np.roll(f, k, axis=0)[::s] - truth, axis=1).mean())
               for k in range(4) for s in (1, -1))
    return best / diag


def models(cache: Path):
    if cache.is_file():
        return pickle.loads(cache.read_bytes())
    m, _ = ev.enrol_style2()
    cache.write_bytes(pickle.dumps(m))
    return m


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--first", type=int, default=100)
    ap.add_argument("--scenes", type=int, default=140)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/style2-models.pkl"))
    ap.add_argument("--list", action="store_true", help="print every loss")
    a = ap.parse_args()
    mods = models(a.cache)
    table = collections.defaultdict(collections.Counter)
    for seed in range(a.first, a.first + a.scenes):
        deck, design = ev.deck_for(seed), ev.design_for(seed)
        n = 1 + seed % 10
        scene = table_scene(seed, deck, design, n)
        bg = TableBackground.from_shot(calibration_shot(seed, deck, design, n), table_to_image=scene.table_to_image)
        rec = CardRecogniser(mods[(deck, design)], CardDetector(background=bg))
        matches = rec.recognise(scene.image)
        for i, j in pair_up(scene.cards, matches):
            if i is None:
                for key in (f"table {scene.kind}", deck, f"design {design}", "all"):
                    table[key]["phantom"] += 1
                continue
            t = scene.cards[i]
            if not t.fully_visible:
                continue
            oracle = rec.identify(scene.image, t.corners)
            o = "right" if oracle.card == t.card else ("abstain" if oracle.card is None else "wrong")
            if j is None:
                what = "no quad"
            else:
                m = matches[j]
                err = corner_error(t.corners, m.corners)
                quad = "good" if err <= QUAD_OK else "bad"
                said = "right" if m.card == t.card else ("abstain" if m.card is None else "wrong")
                what = said if said == "right" else f"{said} ({quad} quad)"
            for key in (f"table {scene.kind}", deck, f"design {design}", "all"):
                table[key]["visible"] += 1
                table[key][what] += 1
                table[key][f"true corners {o}"] += 1
            if a.list and what != "right":
                extra = "" if j is None else (f" err {err:.3f} conf {m.confidence:.3f} margin {m.margin:.3f} "
                                              f"said {m.card} best {m.best}")
                print(f"{seed} {scene.kind} {deck}/{design} {t.card}: {what}{extra}; true corners: {o} "
                      f"({oracle.best} {oracle.confidence:.3f} {oracle.margin:.3f})", flush=True)
    cols = ["right", "no quad", "abstain (good quad)", "abstain (bad quad)", "wrong (good quad)",
            "wrong (bad quad)", "true corners right", "true corners abstain", "true corners wrong", "phantom"]
    print(f"{'':18s} visible " + " | ".join(cols))
    for key, c in sorted(table.items()):
        print(f"{key:18s} {c['visible']:5d}   " + " | ".join(f"{c[k]:5d}" for k in cols))


if __name__ == "__main__":
    main()
