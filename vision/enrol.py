"""Enrolment: teaching the recogniser the owner's deck, one photo per card face.

A photo must show exactly one whole card. From a folder (the ``passetable enroll``
command) every face of the deck must be there, named ``<card id>.png`` or ``.jpg``; a
missing, extra or unreadable photo is named in the error. The dashboard enrols card by
card from live frames with :func:`enrol_frame`.

    >>> model = enrol_directory("pass-pass", "photos/", "models/my-deck")  # doctest: +SKIP
    >>> enrol_frame(frame, "purple-10", "models/my-deck", deck="pass-pass").cards[-1]  # doctest: +SKIP
    'purple-10'
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision import features
from vision.closeup import card_outlines
from vision.decks import DECKS, UnknownDeck, deck_card_ids
from vision.detect import CardDetector
from vision.errors import VisionError
from vision.exposure import normalise_exposure, working_copy
from vision.ghosts import held_back
from vision.model import CardModel, ModelError
from vision.outline import grow_to_outer_edge
from vision.photo_checks import GLARE_SHARE, MAX_EDGE_WIDTH, cut_by_edge, edge_width, glare_share

PHOTO_SUFFIXES = (".png", ".jpg", ".jpeg")


class EnrolmentError(VisionError, ValueError):
    """A photo or folder that cannot be enrolled; ``en``/``fr`` say which and why."""


def find_photo_card(image: np.ndarray, name: str = "the photo",
                    detector: CardDetector | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(working copy of ``image``, corners of its one whole card in that copy), or an
    ``EnrolmentError`` that says what is wrong with the photo and what to do.

    The working copy is at most 1280 px long with its exposure stretched (an underexposed
    phone photo becomes usable); see :mod:`vision.exposure`."""
    raw, _ = working_copy(image)
    work, _ = normalise_exposure(raw)
    quads = card_outlines(work, detector)
    if len(quads) > 1:
        raise EnrolmentError(f"{len(quads)} cards found in {name}: enrol one card at a time",
                             f"{len(quads)} cartes trouvées dans {name} : une seule carte à la fois")
    ran_off = bool(quads) and not _clear_of_edges(quads[0], work.shape)
    if ran_off or not quads:
        if ran_off or cut_by_edge(work):
            raise EnrolmentError(f"the card is cut by the edge of {name}: step back or centre it so that all four "
                                 "corners show",
                                 f"la carte est coupée par le bord de {name} : reculez ou centrez-la pour que ses "
                                 "quatre coins soient visibles")
        raise EnrolmentError(f"no whole card found in {name}: lay one card alone on the table, fully in view",
                             f"aucune carte entière dans {name} : posez une seule carte, entièrement visible")
    corners = grow_to_outer_edge(work, quads[0], in_perspective=True)   # a close-up, often at a slant
    width = edge_width(work, corners)
    if width is not None and width > MAX_EDGE_WIDTH:
        raise EnrolmentError(f"{name} is blurred (card edges {width:.1f} px wide): hold the phone still and let it "
                             "focus on the card",
                             f"{name} est floue (bords de la carte larges de {width:.1f} px) : tenez le téléphone "
                             "immobile et laissez-le faire la mise au point sur la carte")
    if glare_share(raw, corners) >= GLARE_SHARE:
        raise EnrolmentError(f"a reflection washes out part of the card in {name}: tilt the card or move the light",
                             f"un reflet efface une partie de la carte dans {name} : inclinez la carte ou "
                             "déplacez la lumière")
    return work, corners


def _clear_of_edges(corners: np.ndarray, shape, margin: float = 2.0) -> bool:
    """True when no corner lies on the photo's edge (a card running off it shows a straight cut)."""
    h, w = shape[:2]
    c = np.asarray(corners)
    return bool(c[:, 0].min() >= margin and c[:, 1].min() >= margin and c[:, 0].max() <= w - 1 - margin
                and c[:, 1].max() <= h - 1 - margin)


def card_in_photo(image: np.ndarray, name: str = "the photo", detector: CardDetector | None = None) -> np.ndarray:
    """The corners (in ``image`` px) of the one whole card in ``image``, or ``EnrolmentError``."""
    _, scale = working_copy(image)
    _, corners = find_photo_card(image, name, detector)
    return (corners + 0.5) / scale - 0.5


def describe_photo(image: np.ndarray, name: str = "the photo") -> tuple[np.ndarray, np.ndarray]:
    """(descriptor, rectified face) of the single card in ``image``."""
    work, corners = find_photo_card(image, name)
    corners = features.short_side_first(features.order_clockwise(corners))
    flat = features.rectify(work, corners)
    return features.describe(flat), flat


def _check_deck(deck: str) -> list[str]:
    try:
        return deck_card_ids(deck)
    except UnknownDeck:
        raise EnrolmentError(f"unknown deck {deck!r}: use one of {', '.join(DECKS)}",
                             f"jeu inconnu {deck!r} : choisir parmi {', '.join(DECKS)}") from None


def enrol_frame(frame: np.ndarray, card: str, model_dir: str | Path, deck: str | None = None) -> CardModel:
    """Add (or replace) ``card`` in the model at ``model_dir`` from one live frame.

    The model is created if ``model_dir`` holds none yet (``deck`` is then required)."""
    path = Path(model_dir)
    if (path / "model.json").exists():
        model = CardModel.load(path)
        if deck is not None and deck != model.deck:
            raise EnrolmentError(f"{path} holds the {model.deck} deck, not {deck}",
                                 f"{path} contient le jeu {model.deck}, pas {deck}")
    elif deck is None:
        raise EnrolmentError(f"{path} holds no model yet: say which deck it is for",
                             f"{path} ne contient pas encore de modèle : préciser le jeu")
    else:
        model = CardModel(deck)
    if card not in _check_deck(model.deck):
        raise EnrolmentError(f"{card!r} is not a card of the {model.deck} deck",
                             f"{card!r} n'est pas une carte du jeu {model.deck}")
    descriptor, flat = describe_photo(frame, f"the photo of {card}")
    model.set_card(card, descriptor, flat)
    model.save(path)
    return model


def enrolment_status(model_dir: str | Path, deck: str) -> dict:
    """What the enrolment page shows: every face of ``deck``, whether it is enrolled in
    the model at ``model_dir`` (which may not exist yet), whether an enrolled one is held back
    (not named until more of the deck is enrolled: :func:`vision.ghosts.held_back`), and the
    next one to do.

    ``{"deck", "model", "cards": [{"card", "enrolled", "held_back"}], "next": card id or None}``"""
    expected = _check_deck(deck)
    path = Path(model_dir)
    enrolled: set[str] = set()
    held: set[str] = set()
    if (path / "model.json").exists():
        model = CardModel.load(path)
        if model.deck != deck:
            raise EnrolmentError(f"{path} holds the {model.deck} deck, not {deck}",
                                 f"{path} contient le jeu {model.deck}, pas {deck}")
        enrolled = set(model.cards)
        held = set(held_back(expected, model.cards, model.faces))
    cards = [{"card": c, "enrolled": c in enrolled, "held_back": c in held} for c in expected]
    missing = [c for c in expected if c not in enrolled]
    return {"deck": deck, "model": str(path), "cards": cards, "next": missing[0] if missing else None}


def enrol_directory(deck: str, images_dir: str | Path, out_dir: str | Path, partial: bool = False) -> CardModel:
    """Enrol a whole deck from ``images_dir`` (one photo per face) into ``out_dir``.

    With ``partial`` only the faces photographed are enrolled (at least one), added to the
    model already in ``out_dir`` if there is one: a deck learnt over several evenings."""
    expected = _check_deck(deck)
    folder = Path(images_dir)
    if not folder.is_dir():
        raise EnrolmentError(f"photo folder {folder} does not exist", f"le dossier de photos {folder} n'existe pas")
    photos: dict[str, list[Path]] = {}
    for p in sorted(folder.iterdir()):
        if p.is_file() and p.suffix.lower() in PHOTO_SUFFIXES:
            photos.setdefault(p.stem, []).append(p)
    missing = [] if partial else [c for c in expected if c not in photos]
    if partial and not any(c in photos for c in expected):
        raise EnrolmentError(f"no photo of a {deck} card in {folder} (name them <card id>.png or .jpg)",
                             f"aucune photo de carte du jeu {deck} dans {folder} (nommez-les <carte>.png ou .jpg)")
    extra = sorted(p.name for stem, ps in photos.items() if stem not in expected for p in ps)
    doubled = sorted(p.name for stem, ps in photos.items() if stem in expected and len(ps) > 1 for p in ps)
    if missing or extra:
        def listed(names):
            return ", ".join(names[:8]) + (" ..." if len(names) > 8 else "")
        en, fr = [], []
        if missing:
            names = listed([f"{c}.png" for c in missing])
            en.append(f"{len(missing)} photo(s) missing in {folder}: {names}")
            fr.append(f"{len(missing)} photo(s) manquante(s) dans {folder} : {names}")
        if extra:
            en.append(f"photo(s) of no {deck} card: {listed(extra)}")
            fr.append(f"photo(s) d'aucune carte du jeu {deck} : {listed(extra)}")
        raise EnrolmentError("; ".join(en), " ; ".join(fr))
    if doubled:
        raise EnrolmentError(f"more than one photo of the same card: {', '.join(doubled)}",
                             f"plusieurs photos de la même carte : {', '.join(doubled)}")
    model = CardModel(deck)
    out = Path(out_dir)
    if partial and (out / "model.json").exists():
        model = CardModel.load(out)
        if model.deck != deck:
            raise EnrolmentError(f"{out} holds the {model.deck} deck, not {deck}",
                                 f"{out} contient le jeu {model.deck}, pas {deck}")
    for card in expected:
        if card not in photos:
            continue
        path = photos[card][0]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise EnrolmentError(f"cannot read the photo {path.name}", f"impossible de lire la photo {path.name}")
        descriptor, flat = describe_photo(image, path.name)
        model.set_card(card, descriptor, flat)
    model.save(out_dir)
    return model


__all__ = ["EnrolmentError", "ModelError", "card_in_photo", "describe_photo", "enrol_directory", "enrol_frame",
           "enrolment_status", "find_photo_card"]
