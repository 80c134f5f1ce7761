"""Pass Pass cards and the deck profile (how many diamonds each card carries).

The deck is 48 cards: four colours, values 1 to 12, each (colour, value) once. The number
of diamonds on each card is not printed in the rule book, so it lives in a replaceable
profile, ``table/profiles/pass_pass_deck.toml`` (shipped default ``(12 - value) // 3``).

    >>> deck = shipped_deck()
    >>> card = deck.card("purple", 2)
    >>> card.id, card.diamonds, Card.from_id("purple-2") == card
    ('purple-2', 3, True)

Two cards are equal when colour and value match; ``diamonds`` is carried along but not
compared, so a card read by the camera (no diamonds known) finds its deck twin.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from table.rules import ProfileError

COLOURS = ("purple", "blue", "green", "yellow")
COLOUR_NAMES = {
    "purple": {"en": "purple", "fr": "violet"},
    "blue": {"en": "blue", "fr": "bleu"},
    "green": {"en": "green", "fr": "vert"},
    "yellow": {"en": "yellow", "fr": "jaune"},
}
_FRENCH_TO_COLOUR = {names["fr"]: colour for colour, names in COLOUR_NAMES.items()}
VALUES = tuple(range(1, 13))
MAX_DIAMONDS = 3
DECK_SIZE = len(COLOURS) * len(VALUES)

SHIPPED_PROFILE_PATH = Path(__file__).resolve().parent.parent / "profiles" / "pass_pass_deck.toml"


class InvalidInput(ValueError):
    """Bad input to a Pass Pass function (a card, a player count...), in both languages.

        >>> try: Card("red", 3)
        ... except InvalidInput as exc: print(exc.code, "|", exc.fr)
        bad_colour | Couleur inconnue « red » : violet, bleu, vert ou jaune.
    """

    def __init__(self, en: str, fr: str, *, code: str = "invalid"):
        super().__init__(en)
        self.en = en
        self.fr = fr
        self.code = code

    def text(self, lang: str = "fr") -> str:
        return self.fr if lang == "fr" else self.en


class DeckProfileError(InvalidInput, ProfileError):
    """A deck profile that cannot be used (a :class:`ProfileError`), with the reason."""


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


@dataclass(frozen=True)
class Card:
    """One card: ``color`` (purple, blue, green, yellow), ``value`` 1-12, ``diamonds`` 0-3.

        >>> c = Card("green", 7, diamonds=1)
        >>> c.id, c.name("fr"), c == Card("green", 7)
        ('green-7', '7 vert', True)
    """

    color: str
    value: int
    diamonds: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        if self.color not in COLOURS:
            raise InvalidInput(
                f"Unknown colour {self.color!r}: purple, blue, green or yellow.",
                f"Couleur inconnue « {self.color} » : violet, bleu, vert ou jaune.",
                code="bad_colour",
            )
        if not _is_int(self.value) or not 1 <= self.value <= 12:
            raise InvalidInput(
                f"A card value is a whole number from 1 to 12, not {self.value!r}.",
                f"La valeur d'une carte est un entier de 1 à 12, pas {self.value!r}.",
                code="bad_value",
            )
        if not _is_int(self.diamonds) or not 0 <= self.diamonds <= MAX_DIAMONDS:
            raise InvalidInput(
                f"A card carries 0 to 3 diamonds, not {self.diamonds!r}.",
                f"Une carte porte de 0 à 3 diamants, pas {self.diamonds!r}.",
                code="bad_diamonds",
            )

    @property
    def id(self) -> str:
        """The card's id, e.g. ``"purple-10"``: the id the camera reports."""
        return f"{self.color}-{self.value}"

    def name(self, lang: str = "fr") -> str:
        """The card as a player says it: ``"10 violet"`` or ``"purple 10"``."""
        colour = COLOUR_NAMES[self.color][lang if lang == "fr" else "en"]
        return f"{self.value} {colour}" if lang == "fr" else f"{colour} {self.value}"

    @classmethod
    def from_id(cls, card_id: str, deck: DeckProfile | None = None) -> Card:
        """Parse ``"purple-10"`` (French colour names such as ``"violet-10"`` are accepted
        too). With a ``deck`` profile the card carries its diamonds; without, 0."""
        colour, _, value = str(card_id).strip().lower().rpartition("-")
        colour = _FRENCH_TO_COLOUR.get(colour, colour)
        if colour not in COLOURS or not value.isdigit():
            raise InvalidInput(
                f"Not a Pass Pass card id: {card_id!r} (expected e.g. 'purple-10').",
                f"Identifiant de carte Pass Pass invalide : {card_id!r} (attendu p. ex. « purple-10 »).",
                code="bad_card_id",
            )
        if deck is not None:
            return deck.card(colour, int(value))
        return cls(colour, int(value))


def card_sort_key(card: Card) -> tuple[int, int]:
    """Sort cards by value, then colour in the order purple, blue, green, yellow."""
    return card.value, COLOURS.index(card.color)


def default_diamonds(value: int) -> int:
    """The shipped default (ruling 1): values 1-3 carry 3, 4-6 carry 2, 7-9 carry 1."""
    return (12 - value) // 3


@dataclass(frozen=True)
class DeckProfile:
    """The diamonds on each card of a copy of the game.

        >>> deck = DeckProfile.default()
        >>> len(deck.cards()), deck.total_diamonds(), deck.card("blue", 11).diamonds
        (48, 72, 0)
    """

    diamonds: tuple[tuple[int, ...], ...]  # one row per colour (COLOURS order), 12 values
    name: str = "default"

    def __post_init__(self) -> None:
        rows = self.diamonds
        if len(rows) != len(COLOURS) or any(len(row) != len(VALUES) for row in rows):
            raise DeckProfileError(
                "A deck profile needs 12 diamond counts for each of the 4 colours.",
                "Un profil de paquet doit donner 12 nombres de diamants pour chacune des 4 couleurs.",
                code="bad_profile",
            )
        for colour, row in zip(COLOURS, rows):
            for value, n in zip(VALUES, row):
                if not _is_int(n) or not 0 <= n <= MAX_DIAMONDS:
                    raise DeckProfileError(
                        f"Deck profile: {colour} {value} has {n!r} diamonds; 0 to 3 expected.",
                        f"Profil de paquet : le {value} {COLOUR_NAMES[colour]['fr']} a {n!r} diamants ; "
                        "de 0 à 3 attendus.",
                        code="bad_profile",
                    )

    @classmethod
    def default(cls) -> DeckProfile:
        row = tuple(default_diamonds(v) for v in VALUES)
        return cls(tuple(row for _ in COLOURS), name="default: (12 - value) // 3")

    def card(self, colour: str, value: int) -> Card:
        """The deck's card of that colour and value, with its diamonds."""
        Card(colour, value)  # validates colour and value first, with a clear message
        return Card(colour, value, self.diamonds[COLOURS.index(colour)][value - 1])

    def canonical(self, card: Card) -> Card:
        """The deck's own copy of ``card`` (same colour and value, this deck's diamonds)."""
        return self.card(card.color, card.value)

    def cards(self) -> list[Card]:
        """All 48 cards, by colour then value."""
        return [self.card(colour, value) for colour in COLOURS for value in VALUES]

    def total_diamonds(self) -> int:
        return sum(sum(row) for row in self.diamonds)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "diamonds": {c: list(row) for c, row in zip(COLOURS, self.diamonds)}}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> DeckProfile:
        """Build a profile from ``{"name": ..., "diamonds": {colour: [12 ints]}}``."""
        table = d.get("diamonds") if isinstance(d, dict) else None
        if not isinstance(table, dict) or set(table) != set(COLOURS):
            raise DeckProfileError(
                "A deck profile needs a [diamonds] table with exactly purple, blue, green and yellow.",
                "Un profil de paquet doit avoir une table [diamonds] avec exactement purple, blue, green et yellow.",
                code="bad_profile",
            )
        rows = []
        for colour in COLOURS:
            row = table[colour]
            if not isinstance(row, (list, tuple)):
                raise DeckProfileError(
                    f"Deck profile: {colour} must be a list of 12 numbers.",
                    f"Profil de paquet : {colour} doit être une liste de 12 nombres.",
                    code="bad_profile",
                )
            rows.append(tuple(row))
        return cls(tuple(rows), name=str(d.get("name", "custom")))


def load_deck_profile(path: str | Path | None = None) -> DeckProfile:
    """Read a deck profile TOML file (the shipped one when ``path`` is None)."""
    path = Path(path) if path is not None else SHIPPED_PROFILE_PATH
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DeckProfileError(
            f"Cannot read the deck profile {path}: {exc}",
            f"Impossible de lire le profil de paquet {path} : {exc}",
            code="bad_profile",
        ) from exc
    return DeckProfile.from_dict(data)


@lru_cache(maxsize=1)
def shipped_deck() -> DeckProfile:
    """The shipped profile file, read once (what ``new_game(deck=None)`` uses)."""
    return load_deck_profile()
