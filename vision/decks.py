"""The two card decks the camera knows: their card ids and physical size.

Card ids are the words the rest of the service uses for a card face:

    >>> from vision.decks import deck_card_ids
    >>> deck_card_ids("pass-pass")[:2], len(deck_card_ids("passe-eclair"))
    (['purple-1', 'purple-2'], 22)

Pass Pass: ``<colour>-<value>`` with colours purple, blue, green, yellow and values 1–12
(48 faces). Passe Éclair: ``<big>-<small>`` for the 20 ordered pairs of different
footballers, plus ``dog`` (Socke) and ``michi`` (Gros Michi): 22 distinct faces, since the
real deck's duplicates look the same and need only one photo.
"""

from __future__ import annotations

PASS_PASS = "pass-pass"
PASSE_ECLAIR = "passe-eclair"
DECKS = (PASS_PASS, PASSE_ECLAIR)

PASS_PASS_COLOURS = ("purple", "blue", "green", "yellow")
PASS_PASS_VALUES = tuple(range(1, 13))
FOOTBALLERS = ("leon", "marlon", "rocce", "fabi", "vanessa")

# Width x height of a card lying in portrait, in millimetres. Both games use the common
# 63 x 88 mm size by default; a table profile may say otherwise.
CARD_SIZE_MM = (63.0, 88.0)


class UnknownDeck(ValueError):
    """A deck name that is neither ``pass-pass`` nor ``passe-eclair``."""


def deck_card_ids(deck: str) -> list[str]:
    """Every distinct card face of ``deck``, in a stable order."""
    if deck == PASS_PASS:
        return [f"{c}-{v}" for c in PASS_PASS_COLOURS for v in PASS_PASS_VALUES]
    if deck == PASSE_ECLAIR:
        pairs = [f"{b}-{s}" for b in FOOTBALLERS for s in FOOTBALLERS if b != s]
        return pairs + ["dog", "michi"]
    raise UnknownDeck(f"unknown deck {deck!r}: expected one of {', '.join(DECKS)}")


def deck_of_card(card: str) -> str:
    """The deck a card id belongs to (``UnknownDeck`` if none)."""
    for deck in DECKS:
        if card in deck_card_ids(deck):
            return deck
    raise UnknownDeck(f"{card!r} is not a card of {' or '.join(DECKS)}")
