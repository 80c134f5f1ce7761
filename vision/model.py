"""An enrolled deck on disk: one template per card face, and the thresholds to use them.

A model directory holds ``model.json`` (deck, card ids, descriptor settings,
thresholds), ``templates.npy`` (one descriptor per card, same order) and ``faces/`` (the
rectified photo of each card, for people to check).

    >>> from vision.enrol import enrol_frame
    >>> from vision.synth.scene import card_photo
    >>> for card in ("purple-1", "purple-2"):                  # two rendered photos enrolled
    ...     _ = enrol_frame(card_photo(card), card, tmp_path / "my-pass-pass", deck="pass-pass")
    >>> sorted(p.name for p in (tmp_path / "my-pass-pass").iterdir())
    ['faces', 'model.json', 'templates.npy']
    >>> model = CardModel.load(tmp_path / "my-pass-pass")
    >>> model.deck, model.cards, model.templates.shape       # a whole deck would have 48 cards
    ('pass-pass', ['purple-1', 'purple-2'], (2, 1827))
    >>> model.faces["purple-1"].shape, model.min_confidence, model.min_margin
    ((88, 63, 3), 0.9, 0.15)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision import features
from vision.decks import DECKS
from vision.errors import VisionError

FORMAT = "passetable-card-model"
VERSION = 1

# Chosen on tuning scenes (seeds 0..599 of tests/bench/eval_vision.py --tune), never on
# the scenes that report the accuracy. With the light-flattened descriptor (2026-11-27) the
# style-1 tuning scenes showed a wrong name only at a margin of 0.05, at any confidence from
# 0.80 up; 0.85 was tried and named more style-2 cards, but twice as many wrongly (blue-1 as
# green-1, purple-12 as purple-10, all between 0.86 and 0.90): 0.90 it stays.
DEFAULT_MIN_CONFIDENCE = 0.90
DEFAULT_MIN_MARGIN = 0.15


class ModelError(VisionError, ValueError):
    """A model directory that cannot be read or written, with a one-line reason."""


@dataclass
class CardModel:
    """The templates of one deck. ``templates[i]`` is the descriptor of ``cards[i]``."""

    deck: str
    cards: list[str] = field(default_factory=list)
    templates: np.ndarray = field(default_factory=lambda: np.zeros((0, _dim()), np.float32))
    faces: dict[str, np.ndarray] = field(default_factory=dict)
    min_confidence: float = DEFAULT_MIN_CONFIDENCE
    min_margin: float = DEFAULT_MIN_MARGIN

    def set_card(self, card: str, descriptor: np.ndarray, face: np.ndarray | None = None) -> None:
        """Add ``card``, or replace its template if it is already enrolled."""
        descriptor = np.asarray(descriptor, np.float32).reshape(1, -1)
        if card in self.cards:
            self.templates[self.cards.index(card)] = descriptor
        else:
            self.cards.append(card)
            self.templates = np.vstack([self.templates, descriptor])
        if face is not None:
            self.faces[card] = face

    def save(self, directory: str | Path) -> None:
        d = Path(directory)
        try:
            (d / "faces").mkdir(parents=True, exist_ok=True)
            meta = {"format": FORMAT, "version": VERSION, "deck": self.deck, "cards": self.cards,
                    "rect_size": list(features.RECT_SIZE), "grid": list(features.GRID_SIZE),
                    "inset": features.INSET, "descriptor": features.DESCRIPTOR,
                    "min_confidence": self.min_confidence, "min_margin": self.min_margin}
            np.save(d / "templates.npy", self.templates.astype(np.float32))
            for card, face in self.faces.items():
                cv2.imwrite(str(d / "faces" / f"{card}.png"), face)
            (d / "model.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
        except OSError as e:
            raise ModelError(f"cannot write the model to {d}: {e.strerror or e}",
                             f"impossible d'écrire le modèle dans {d} : {e.strerror or e}") from None

    @classmethod
    def load(cls, directory: str | Path) -> CardModel:
        d = Path(directory)
        meta_path = d / "model.json"
        if not meta_path.is_file():
            raise ModelError(f"{d} is not a card model: model.json is missing",
                             f"{d} n'est pas un modèle de cartes : model.json manque")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            templates = np.load(d / "templates.npy")
        except (OSError, ValueError) as e:
            raise ModelError(f"cannot read the card model in {d}: {e}",
                             f"impossible de lire le modèle de cartes dans {d} : {e}") from None
        if meta.get("format") != FORMAT or meta.get("version") != VERSION:
            raise ModelError(f"{d} holds a model of another format or version",
                             f"{d} contient un modèle d'un autre format ou d'une autre version")
        if meta.get("deck") not in DECKS or tuple(meta.get("grid", ())) != features.GRID_SIZE:
            raise ModelError(f"{d}: unknown deck or descriptor settings in model.json",
                             f"{d} : jeu ou réglages inconnus dans model.json")
        cards = list(meta.get("cards", []))
        if templates.shape != (len(cards), _dim()):
            raise ModelError(f"{d}: templates.npy does not match the card list",
                             f"{d} : templates.npy ne correspond pas à la liste des cartes")
        faces = {}
        for card in cards:
            face = cv2.imread(str(d / "faces" / f"{card}.png"))
            if face is not None:
                faces[card] = face
        if meta.get("descriptor") != features.DESCRIPTOR:
            # enrolled by an earlier version: its templates are made again from the faces it kept
            if len(faces) < len(cards):
                raise ModelError(f"{d} was enrolled by an earlier version without all its faces: enrol the deck again",
                                 f"{d} a été appris par une version antérieure sans toutes ses faces : "
                                 "refaire l'apprentissage du jeu")
            templates = np.array([features.describe(faces[c]) for c in cards], np.float32).reshape(len(cards), _dim())
        return cls(meta["deck"], cards, templates.astype(np.float32), faces,
                   float(meta.get("min_confidence", DEFAULT_MIN_CONFIDENCE)),
                   float(meta.get("min_margin", DEFAULT_MIN_MARGIN)))


def _dim() -> int:
    return features.GRID_SIZE[0] * features.GRID_SIZE[1] * 3
