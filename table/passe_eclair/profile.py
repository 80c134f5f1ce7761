"""The Passe Éclair deck and token profile (RULINGS.md §3, *profile*).

The shipped default lives in ``table/profiles/passe_eclair.toml``: each of the 20 ordered
(big, small) footballer pairs twice, 12 dogs, 8 Gros Michi (60 cards); victory tokens
worth 1,1,1,2,2,2,3,3,3 goal points; consolation tokens four ``"goal-1"`` and one per
footballer. The number of rounds is the number of victory tokens.

    >>> profile = default_profile()
    >>> len(profile.deck), profile.rounds
    (60, 9)
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from table.rules import ProfileError

from .cards import DOG, FOOTBALLER_CARDS, FOOTBALLERS, MICHI, BadInput, parse_card

DEFAULT_PROFILE_PATH = Path(__file__).resolve().parent.parent / "profiles" / "passe_eclair.toml"
MAX_PLAYERS = 4
HAND_SIZE = 7


def token_points(token: str) -> int:
    """Goal points shown on a consolation token: N for ``"goal-N"``, 0 for a footballer."""
    return int(token[5:]) if token.startswith("goal-") else 0


def _check_consolation_token(token: Any) -> str:
    if isinstance(token, str) and token in FOOTBALLERS:
        return token
    if isinstance(token, str) and token.startswith("goal-") and token[5:].isdigit() and int(token[5:]) > 0:
        return token
    raise ProfileError(f"consolation token {token!r} must be 'goal-N' (N > 0) or a footballer id "
                       f"({', '.join(FOOTBALLERS)})")


@dataclass(frozen=True)
class Profile:
    """A deck (card ids, each copy listed) and the two token sets.

        >>> d = {"cards": {"dog": 30, "leon-marlon": 10}, "victory_tokens": [1], "consolation_tokens": []}
        >>> p = Profile.from_dict(d)
        >>> p.rounds, len(p.deck)
        (1, 40)
    """

    deck: tuple[str, ...]
    victory_tokens: tuple[int, ...]
    consolation_tokens: tuple[str, ...]

    @property
    def rounds(self) -> int:
        return len(self.victory_tokens)

    def card_counts(self) -> dict[str, int]:
        return dict(Counter(self.deck))

    def to_dict(self) -> dict[str, Any]:
        return {"cards": self.card_counts(), "victory_tokens": list(self.victory_tokens),
                "consolation_tokens": list(self.consolation_tokens)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Profile:
        """Build from ``{"cards": {id: count}, "victory_tokens": [...], "consolation_tokens": [...]}``."""
        try:
            cards = d["cards"]
            victory = d["victory_tokens"]
            consolation = d["consolation_tokens"]
        except (KeyError, TypeError) as exc:
            raise ProfileError(f"profile needs cards, victory_tokens and consolation_tokens ({exc})") from None
        return _build(cards, victory, consolation)


def _build(cards: Any, victory: Any, consolation: Any) -> Profile:
    if not isinstance(cards, Mapping):
        raise ProfileError("profile 'cards' must map card ids to counts")
    deck: list[str] = []
    for card_id, count in cards.items():
        try:
            parse_card(card_id)
        except BadInput as exc:
            raise ProfileError(str(exc)) from None
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ProfileError(f"count of {card_id!r} must be a whole number >= 0, not {count!r}")
        deck.extend([card_id] * count)
    # Enough to deal 7 to four players and still turn a start card.
    if len(deck) < MAX_PLAYERS * HAND_SIZE + 1:
        raise ProfileError(f"the deck has {len(deck)} cards; at least {MAX_PLAYERS * HAND_SIZE + 1} are needed")
    if not any(parse_card(c).is_footballer for c in deck):
        raise ProfileError("the deck needs at least one footballer card to turn as a start card")
    if not isinstance(victory, (list, tuple)) or not victory:
        raise ProfileError("victory tokens must be a non-empty list of goal points (one round per token)")
    for points in victory:
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise ProfileError(f"victory token {points!r} must be a whole number of goal points >= 0")
    if not isinstance(consolation, (list, tuple)):
        raise ProfileError("consolation tokens must be a list")
    return Profile(tuple(deck), tuple(victory), tuple(_check_consolation_token(t) for t in consolation))


def parse_profile(data: Mapping[str, Any]) -> Profile:
    """Build a profile from the TOML layout (``[deck]`` and ``[tokens]`` tables)."""
    deck = data.get("deck")
    tokens = data.get("tokens")
    if not isinstance(deck, Mapping) or not isinstance(tokens, Mapping):
        raise ProfileError("a Passe Éclair profile needs a [deck] and a [tokens] table")
    unknown = set(deck) - {"footballer_pair_copies", "dog", "michi", "cards"}
    if unknown:
        raise ProfileError(f"unknown [deck] keys: {', '.join(sorted(unknown))}")
    copies = deck.get("footballer_pair_copies", 0)
    if isinstance(copies, bool) or not isinstance(copies, int) or copies < 0:
        raise ProfileError(f"footballer_pair_copies must be a whole number >= 0, not {copies!r}")
    counts: dict[str, Any] = {cid: copies for cid in FOOTBALLER_CARDS}
    counts[DOG] = deck.get("dog", 0)
    counts[MICHI] = deck.get("michi", 0)
    overrides = deck.get("cards", {})
    if not isinstance(overrides, Mapping):
        raise ProfileError("[deck.cards] must map card ids to counts")
    counts.update(overrides)
    return _build(counts, tokens.get("victory"), tokens.get("consolation", []))


def load_profile(path: str | Path | None = None) -> Profile:
    """Read a profile TOML file (the shipped default when ``path`` is None)."""
    path = Path(path) if path is not None else DEFAULT_PROFILE_PATH
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise ProfileError(f"cannot read the Passe Éclair profile {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"the Passe Éclair profile {path} is not valid TOML: {exc}") from None
    return parse_profile(data)


_DEFAULT: Profile | None = None


def default_profile() -> Profile:
    """The shipped profile, read once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_profile()
    return _DEFAULT
