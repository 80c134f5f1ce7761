"""Passe Éclair card ids: the same strings the camera reports.

A footballer card is ``"big-small"`` (the big footballer has the ball and passes to the
small one, never the same footballer), plus ``"dog"`` (Socke) and ``"michi"`` (Gros Michi).

    >>> parse_card("leon-marlon").small
    'marlon'
    >>> card_label("dog", "fr")
    'chien Chaussette'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from table.rules import IllegalAction

FOOTBALLERS = ("leon", "marlon", "rocce", "fabi", "vanessa")
FOOTBALLER_NAMES = {"leon": "Léon", "marlon": "Marlon", "rocce": "Rocce", "fabi": "Fabi", "vanessa": "Vanessa"}
DOG = "dog"
MICHI = "michi"
FOOTBALLER_CARDS = tuple(f"{big}-{small}" for big in FOOTBALLERS for small in FOOTBALLERS if big != small)
ALL_CARD_IDS = FOOTBALLER_CARDS + (DOG, MICHI)


class BadInput(IllegalAction, ValueError):
    """Input that cannot mean anything (unknown card id, seat out of range, NaN time).

    It is a ``ValueError`` for callers that validate data, and an ``IllegalAction``
    (bilingual ``en``/``fr``, ``code``) for callers that show it to players."""

    def __init__(self, en: str, fr: str, *, code: str = "bad_input"):
        super().__init__(en, fr, code=code)


@dataclass(frozen=True)
class Card:
    """A parsed card id: ``kind`` is ``"footballer"``, ``"dog"`` or ``"michi"``;
    ``big``/``small`` are footballer ids for footballer cards, else None."""

    id: str
    kind: str
    big: str | None = None
    small: str | None = None

    @property
    def is_footballer(self) -> bool:
        return self.kind == "footballer"


_PARSED = {DOG: Card(DOG, "dog"), MICHI: Card(MICHI, "michi")}
_PARSED.update({cid: Card(cid, "footballer", *cid.split("-")) for cid in FOOTBALLER_CARDS})


def parse_card(card_id: Any) -> Card:
    """The :class:`Card` for an id; a bad id raises :class:`BadInput` (a ValueError)."""
    card = _PARSED.get(card_id) if isinstance(card_id, str) else None
    if card is None:
        raise BadInput(
            f"Unknown Passe Éclair card id {card_id!r}: expected 'big-small' with two different "
            f"footballers among {', '.join(FOOTBALLERS)}, or 'dog', or 'michi'.",
            f"Carte de Passe Éclair inconnue {card_id!r} : on attend « grand-petit » avec deux "
            f"footballeurs différents parmi {', '.join(FOOTBALLERS)}, ou « dog », ou « michi ».",
            code="bad_card",
        )
    return card


def validate_card(card_id: Any) -> str:
    """Return ``card_id`` unchanged if it is a valid card id, else raise BadInput."""
    return parse_card(card_id).id


def is_card_id(card_id: Any) -> bool:
    return isinstance(card_id, str) and card_id in _PARSED


def footballer_card(big: str, small: str) -> str:
    """The id of the footballer card where ``big`` passes to ``small``."""
    return validate_card(f"{big}-{small}")


def validate_footballer(name: Any) -> str:
    if name not in FOOTBALLERS:
        raise BadInput(
            f"Unknown footballer {name!r}: expected one of {', '.join(FOOTBALLERS)}.",
            f"Footballeur inconnu {name!r} : on attend l'un de {', '.join(FOOTBALLERS)}.",
            code="bad_footballer",
        )
    return name


def card_label(card_id: str, lang: str = "fr") -> str:
    """A short human name: 'Léon → Marlon', 'chien Chaussette' / 'dog Socke', 'Gros Michi'."""
    card = parse_card(card_id)
    if card.is_footballer:
        return f"{FOOTBALLER_NAMES[card.big]} → {FOOTBALLER_NAMES[card.small]}"
    if card.kind == "dog":
        return "chien Chaussette" if lang == "fr" else "dog Socke"
    return "Gros Michi"


def validate_seat(seat: Any, players: int) -> int:
    """A seat index 0..players-1 (bool is refused: True is not a seat)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise BadInput(
            f"Unknown seat {seat!r}: seats are 0 to {players - 1}.",
            f"Place inconnue {seat!r} : les places vont de 0 à {players - 1}.",
            code="bad_seat",
        )
    return seat


def validate_time(t: Any, *, optional: bool = False) -> float | None:
    """A finite timestamp in seconds (None allowed only when ``optional``)."""
    if t is None and optional:
        return None
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
        raise BadInput(
            f"Bad timestamp {t!r}: expected a finite number of seconds.",
            f"Horodatage invalide {t!r} : on attend un nombre fini de secondes.",
            code="bad_time",
        )
    return float(t)


def validate_players(players: Any) -> int:
    """A player count of 2 to 4, else a bilingual :class:`BadInput`."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise BadInput(f"Passe Éclair is played by 2 to 4 players, not {players!r}.",
                       f"Passe Éclair se joue de 2 à 4 joueurs, pas {players!r}.", code="bad_players")
    return players
