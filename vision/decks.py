"""The card decks the camera knows: their card ids and physical size.

Each game describes its own deck in its folder (``table/<game>/spec.py``, a
:class:`~table.games.Deck`); this module reads them from the game registry, so a new card
game is known to the camera with no edit here. A deck's id is its game's id.

    >>> from vision.decks import deck_card_ids
    >>> deck_card_ids("pass-pass")[:2], len(deck_card_ids("passe-eclair"))
    (['purple-1', 'purple-2'], 22)
    >>> deck_card_ids("chess")
    Traceback (most recent call last):
    ...
    vision.decks.UnknownDeck: unknown deck 'chess': expected one of pass-pass, passe-eclair

Pass Pass: ``<colour>-<value>`` with colours purple, blue, green, yellow and values 1–12
(48 faces). Passe Éclair: ``<big>-<small>`` for the 20 ordered pairs of different
footballers, plus ``dog`` (Socke) and ``michi`` (Gros Michi): 22 distinct faces, since the
real deck's duplicates look the same and need only one photo. The synthetic scene
renderer (``vision/synth``) draws faces from these ids.
"""

from __future__ import annotations

from table.games import Deck, games

PASS_PASS = "pass-pass"
PASSE_ECLAIR = "passe-eclair"

PASS_PASS_COLOURS = ("purple", "blue", "green", "yellow")
PASS_PASS_VALUES = tuple(range(1, 13))
FOOTBALLERS = ("leon", "marlon", "rocce", "fabi", "vanessa")

# Width x height of a card lying in portrait, in millimetres (the common 63 x 88 mm size,
# unless a game's deck says otherwise).
CARD_SIZE_MM = (63.0, 88.0)


class UnknownDeck(ValueError):
    """A deck name no installed game describes."""


def decks() -> dict[str, Deck]:
    """Every deck of the installed games, by id."""
    return {spec.id: spec.deck for spec in games().values() if spec.deck is not None}


def __getattr__(name: str):  # DECKS follows the registry (a game added later is seen)
    if name == "DECKS":
        return tuple(decks())
    raise AttributeError(name)


def deck_card_ids(deck: str) -> list[str]:
    """Every distinct card face of ``deck``, in a stable order."""
    known = decks()
    if deck not in known:
        raise UnknownDeck(f"unknown deck {deck!r}: expected one of {', '.join(known)}")
    return list(known[deck].card_ids)


def deck_of_card(card: str) -> str:
    """The deck a card id belongs to (``UnknownDeck`` if none)."""
    known = decks()
    for deck_id, deck in known.items():
        if card in deck.card_ids:
            return deck_id
    raise UnknownDeck(f"{card!r} is not a card of {' or '.join(known)}")
