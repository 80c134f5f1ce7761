"""Scoring the recogniser against rendered scenes: who was named, missed, or mistaken.

Each true card is paired with the reported card whose centre is nearest (within a third
of the card's size); what is left over on either side is a miss or a phantom.

    >>> from vision.enrol import describe_photo
    >>> from vision.model import CardModel
    >>> from vision.recognise import CardRecogniser
    >>> from vision.synth.scene import card_photo, random_scene
    >>> cards = ["purple-10", "blue-9", "green-2", "yellow-7"]
    >>> model = CardModel("pass-pass")                       # these four enrolled (a real model has all 48)
    >>> for i, card in enumerate(cards):
    ...     model.set_card(card, *describe_photo(card_photo(card, seed=i)))
    >>> recogniser = CardRecogniser(model, in_play_only=True)     # only these four can lie there
    >>> scene = random_scene(20, cards, n_cards=4)
    >>> score = score_scene(scene.cards, recogniser.recognise(scene.image))
    >>> score.right, score.wrong, score.abstained_visible
    (4, 0, 0)
    >>> score.visible, score.partial, score.confusions
    (4, 0, [])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Confusion:
    seed: int | None
    truth: str | None        # None for a phantom (nothing there)
    said: str
    confidence: float
    margin: float
    complete: bool


@dataclass
class SceneScore:
    right: int = 0                 # named and right
    wrong: int = 0                 # named and wrong (including phantoms)
    abstained_visible: int = 0     # fully visible card, reported as unknown
    missed_visible: int = 0        # fully visible card, not reported at all
    visible: int = 0               # fully visible cards in the scene
    partial_named: int = 0         # partly hidden cards named (right or wrong)
    partial: int = 0
    confusions: list[Confusion] = field(default_factory=list)
    abstentions: list[tuple] = field(default_factory=list)

    def add(self, other: SceneScore) -> None:
        for name in ("right", "wrong", "abstained_visible", "missed_visible", "visible", "partial_named", "partial"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.confusions += other.confusions
        self.abstentions += other.abstentions


def pair_up(truths, matches) -> list[tuple[int | None, int | None]]:
    """Greedy nearest-centre pairing: (truth index or None, match index or None)."""
    pairs = []
    cand = []
    for i, t in enumerate(truths):
        tc = t.corners.mean(axis=0)
        size = float(np.linalg.norm(t.corners[0] - t.corners[2]))
        for j, m in enumerate(matches):
            d = float(np.linalg.norm(tc - np.asarray(m.corners).mean(axis=0)))
            if d < size / 3:
                cand.append((d, i, j))
    used_t, used_m = set(), set()
    for d, i, j in sorted(cand):
        if i in used_t or j in used_m:
            continue
        used_t.add(i)
        used_m.add(j)
        pairs.append((i, j))
    pairs += [(i, None) for i in range(len(truths)) if i not in used_t]
    pairs += [(None, j) for j in range(len(matches)) if j not in used_m]
    return pairs


def score_scene(truths, matches, seed: int | None = None) -> SceneScore:
    s = SceneScore()
    for i, j in pair_up(truths, matches):
        t = truths[i] if i is not None else None
        m = matches[j] if j is not None else None
        visible = t is not None and t.fully_visible
        s.visible += visible
        s.partial += t is not None and not visible
        if m is not None and m.card is not None:
            if t is not None and not visible:
                s.partial_named += 1
            if t is not None and m.card == t.card:
                s.right += 1
            else:
                s.wrong += 1
                s.confusions.append(Confusion(seed, t.card if t else None, m.card, m.confidence, m.margin, m.complete))
        elif visible:
            if m is None:
                s.missed_visible += 1
                s.abstentions.append((seed, t.card, "not found", None, None))
            else:
                s.abstained_visible += 1
                s.abstentions.append((seed, t.card, f"unknown (best {m.best})",
                                      round(m.confidence, 3), round(m.margin, 3)))
    return s
