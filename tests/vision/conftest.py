"""Fixtures for the vision tests: enrolled models of both decks (made once per session
from rendered enrolment photos), and helpers to render calibrated tables."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.decks import deck_card_ids
from vision.markers import marker_pictures
from vision.profile import TableProfile
from vision.synth.scene import SceneStyle, _background, card_photo, random_camera

ENROL_SEED = 900_000  # the same photos as tests/bench/eval_vision.py


def write_photos(folder, deck: str, seed: int = ENROL_SEED):
    folder.mkdir(parents=True, exist_ok=True)
    for i, card in enumerate(deck_card_ids(deck)):
        cv2.imwrite(str(folder / f"{card}.png"), card_photo(card, seed + i))
    return folder


@pytest.fixture(scope="session")
def photo_dirs(tmp_path_factory):
    base = tmp_path_factory.mktemp("photos")
    return {deck: write_photos(base / deck, deck) for deck in ("pass-pass", "passe-eclair")}


@pytest.fixture(scope="session")
def model_dirs(rendered_decks):
    """Both decks enrolled from the photos ``photo_dirs`` holds (made once for the run: tests/conftest.py)."""
    return {deck: rendered_decks(deck) for deck in ("pass-pass", "passe-eclair")}


@pytest.fixture(scope="session")
def profile():
    return TableProfile.load()


class TableRig:
    """A fixed camera over the table, the same cloth in every frame, the markers in view."""

    def __init__(self, profile: TableProfile, seed: int = 1):
        rng = np.random.default_rng(seed)
        self.camera = random_camera(rng, SceneStyle(fill=(0.8, 0.85), turn_max_deg=6))
        self.background = _background(rng, (1280, 720))
        self.pictures = marker_pictures(profile)


@pytest.fixture(scope="session")
def rig(profile):
    return TableRig(profile)
