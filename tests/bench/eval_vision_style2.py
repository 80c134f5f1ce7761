"""Accuracy on the second scene style (:mod:`vision.synth2`), per table kind and design.

    .venv/bin/python tests/bench/eval_vision.py --style 2 --scenes 2000

Nothing is tuned here: the thresholds are those chosen on the first style. Enrolment:
one close-up photo per face (card 20–70 % of the frame, tilted up to 30°, any rotation,
any table kind, sizes 640×480 to 2016×1512, a third underexposed), enrolled through
:func:`vision.enrol.describe_photo` like ``passetable enroll``; a refused photo is counted
and retaken (next seed), as an owner would. Scenes: seeds 3_000_000 onwards; odd seeds
Pass Pass, even Passe Éclair; design ``dark`` or ``bleed`` by (seed // 2) % 2; table kind
``KINDS[seed % 7]``; 1 + seed % 10 cards. By default each scene comes with its
calibration shot (same camera and table, empty) and calibration; ``--no-calibration``
runs the detector on edges and outline alone, as ``recognize`` does on loose photos.
``--theme NAME`` (``eval_vision.py``) lays every scene with the Pass Pass deck drawn as
AisleRiot's card theme NAME (:mod:`vision.synth2.themes`): a French deck no one here drew.

False detections: reported outlines paired with no card (named or not).
"""

from __future__ import annotations

import collections
import functools
import time

from vision.background import TableBackground
from vision.decks import DECKS, deck_card_ids
from vision.detect import CardDetector
from vision.enrol import EnrolmentError, describe_photo
from vision.model import CardModel
from vision.recognise import CardRecogniser
from vision.synth.evaluate import SceneScore, pair_up, score_scene
from vision.synth2.faces import DESIGNS
from vision.synth2.render import calibration_shot, enrolment_photo, table_scene
from vision.synth2.tables import KINDS
from vision.synth2.themes import is_theme

ENROL_SEED = 4_000_000
EVAL_SEED = 3_000_000


def deck_for(seed: int) -> str:
    return "pass-pass" if seed % 2 else "passe-eclair"


def design_for(seed: int) -> str:
    return DESIGNS[(seed // 2) % 2]


def enrol_cards(deck: str, design: str, cards=None, refused: collections.Counter | None = None,
                shares: list | None = None, kept: bool = True) -> CardModel:
    """A model of ``cards`` (by default the whole deck) enrolled from style-2 close-up photos as
    an owner would: a refused photo is taken again, up to 5 times. ``refused`` counts the
    refusals by reason, ``shares`` gets each enrolled photo's share of the frame. ``kept=False``
    enrols afresh and keeps nothing (a test that changes how a photo is read)."""
    model = CardModel(deck)
    enrol = _enrolment if kept else _enrolment.__wrapped__
    for card in deck_card_ids(deck) if cards is None else cards:
        reasons, enrolled = enrol(deck, design, card)
        if refused is not None:
            refused.update(reasons)
        if enrolled is not None:
            descriptor, flat, share = enrolled
            if shares is not None:
                shares.append(share)
            model.set_card(card, descriptor.copy(), flat.copy())
    return model


@functools.cache
def _enrolment(deck: str, design: str, card: str) -> tuple[tuple[str, ...], tuple | None]:
    """``card``'s enrolment: the reasons its photos were refused, and (descriptor, face, share of the
    frame) of the photo taken, or None after 5 refusals. Kept for the process: the photos are seeded and
    so is GrabCut (vision.closeup), so it never changes, and the tests enrol the same faces many times."""
    ids = deck_card_ids(deck)
    reasons = []
    for attempt in range(5):   # a theme's photos are seeded as a third design's would be
        seed = ENROL_SEED + 1000 * attempt + ids.index(card) + 100 * (2 if is_theme(design) else DESIGNS.index(design))
        photo = enrolment_photo(card, design, seed)
        try:
            descriptor, flat = describe_photo(photo.image, f"{card}.jpg")
        except EnrolmentError as e:
            reasons.append(e.en.split(":")[0].replace(f"{card}.jpg", "<photo>"))
            continue
        return tuple(reasons), (descriptor, flat, photo.area_fraction)
    return tuple(reasons), None


def enrol_style2(log=print, pairs=None) -> tuple[dict, dict]:
    """Models per (deck, design) (by default every deck in both designs) and enrolment figures
    (photos tried, refused by reason)."""
    models, refused, shares = {}, collections.Counter(), []
    for deck, design in pairs or [(deck, design) for deck in DECKS for design in DESIGNS]:
        model = models[(deck, design)] = enrol_cards(deck, design, refused=refused, shares=shares)
        log(f"enrolled {deck}/{design}: {len(model.cards)}/{len(deck_card_ids(deck))} faces")
    tried = sum(refused.values()) + len(shares)
    return models, {"tried": tried, "refused": dict(refused), "share": (min(shares), max(shares))}


def evaluate(models, seeds, calibrated: bool = True, every: int = 0, theme: str | None = None):
    """Scores of the scenes ``seeds``; with ``theme`` (a ``theme:<name>`` design) every scene lays
    the Pass Pass deck in that theme."""
    by_kind: dict[str, SceneScore] = collections.defaultdict(SceneScore)
    by_design: dict[str, SceneScore] = collections.defaultdict(SceneScore)
    phantoms_kind = collections.Counter()
    scenes_kind = collections.Counter()
    times = []
    plain = {key: CardRecogniser(m) for key, m in models.items()}
    for seed in seeds:
        deck, design = ("pass-pass", theme) if theme else (deck_for(seed), design_for(seed))
        scene = table_scene(seed, deck, design, 1 + seed % 10)
        if calibrated:
            bg = TableBackground.from_shot(calibration_shot(seed, deck, design, 1 + seed % 10),
                                           table_to_image=scene.table_to_image)
            rec = CardRecogniser(models[(deck, design)], CardDetector(background=bg))
        else:
            rec = plain[(deck, design)]
        t0 = time.perf_counter()
        matches = rec.recognise(scene.image)
        times.append(time.perf_counter() - t0)
        s = score_scene(scene.cards, matches, seed)
        by_kind[scene.kind].add(s)
        by_design[design].add(s)
        scenes_kind[scene.kind] += 1
        phantoms_kind[scene.kind] += sum(1 for i, j in pair_up(scene.cards, matches) if i is None)
        done = seed - seeds.start + 1
        if every and done % every == 0 and done < len(seeds):
            total = SceneScore()
            for k in by_kind.values():
                total.add(k)
            print(f"  after {done} scenes: " + line("all", total, sum(phantoms_kind.values()), done), flush=True)
    return by_kind, by_design, phantoms_kind, scenes_kind, times


def line(name: str, s: SceneScore, phantoms: int | None = None, scenes: int | None = None) -> str:
    named = s.right + s.wrong
    found = s.visible - s.missed_visible - s.abstained_visible
    out = (f"{name:11s} visible {s.visible:5d}  recall {found / max(s.visible, 1):7.2%}  "
           f"abstain {(s.abstained_visible + s.missed_visible) / max(s.visible, 1):6.2%} "
           f"(unknown {s.abstained_visible}, not found {s.missed_visible})  named {named:5d}  "
           f"right {s.right / max(named, 1):7.3%}  wrong {s.wrong}")
    if phantoms is not None:
        out += f"  false det./image {phantoms / max(scenes, 1):.3f}"
    return out


def main(scenes: int, first_seed: int = EVAL_SEED, calibrated: bool = True, theme: str | None = None) -> int:
    t0 = time.perf_counter()
    models, enrol = enrol_style2(pairs=[("pass-pass", theme)] if theme else None)
    print(f"enrolment photos tried {enrol['tried']}, refused {sum(enrol['refused'].values())}: {enrol['refused']}; "
          f"card share of the frame {enrol['share'][0]:.2f}..{enrol['share'][1]:.2f}")
    seeds = range(first_seed, first_seed + scenes)
    print(f"style 2{', Pass Pass in ' + theme if theme else ''}, seeds {seeds.start}..{seeds.stop - 1}, "
          f"{'with calibration shot and calibration' if calibrated else 'no calibration (edges and outline only)'}")
    by_kind, by_design, phantoms, counts, times = evaluate(models, seeds, calibrated, every=250, theme=theme)
    total = SceneScore()
    for kind in KINDS:
        if kind in by_kind:
            total.add(by_kind[kind])
            print(line(kind, by_kind[kind], phantoms[kind], counts[kind]))
    for design, s in by_design.items():
        print(line(f"design {design}", s))
    print(line("all", total, sum(phantoms.values()), scenes))
    print(f"partly hidden cards {total.partial}, named {total.partial_named}")
    for c in total.confusions[:20]:
        print(f"  confusion {c.seed} {c.truth} -> {c.said} conf {c.confidence:.3f} margin {c.margin:.3f} "
              f"complete {c.complete}")
    causes = collections.Counter(a[2].split(" (")[0] for a in total.abstentions)
    print(f"abstentions by cause {dict(causes)}; first: {total.abstentions[:12]}")
    t = sorted(times)
    print(f"recognition per scene (default threads): median {t[len(t) // 2] * 1000:.1f} ms; "
          f"whole run {time.perf_counter() - t0:.0f} s")
    return 0
