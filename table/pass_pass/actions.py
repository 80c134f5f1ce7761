"""The actions a Pass Pass game accepts, and the :class:`Outcome` of applying one.

    >>> a = PlayCard(0, "purple-10")          # a card id is accepted and parsed
    >>> a.card, action_from_dict(a.to_dict()) == a
    (Card(color='purple', value=10, diamonds=0), True)

Seats and teams are 0-based numbers. Actions are plain data; the engine checks them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from table.pass_pass.cards import Card, InvalidInput, card_sort_key


def _as_card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.from_id(card)


@dataclass(frozen=True)
class PlayCard:
    """``seat`` plays ``card`` (a :class:`Card` or its id) into the current trick."""

    seat: int
    card: Card

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", _as_card(self.card))

    def to_dict(self) -> dict[str, Any]:
        return {"type": "play", "seat": self.seat, "card": self.card.id}


@dataclass(frozen=True)
class TakeCard:
    """The first winner ``seat`` takes ``card``, any one of the played cards."""

    seat: int
    card: Card

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", _as_card(self.card))

    def to_dict(self) -> dict[str, Any]:
        return {"type": "take", "seat": self.seat, "card": self.card.id}


@dataclass(frozen=True)
class TakeLow:
    """The second winner ``seat`` takes ``cards``, the lowest remaining ones; only asked
    for when cards tied on the cut leave a choice (otherwise the engine takes them)."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        cards = self.cards
        if isinstance(cards, (Card, str)) or not isinstance(cards, Iterable):
            raise InvalidInput(
                "TakeLow needs a list of cards.",
                "TakeLow attend une liste de cartes.",
                code="bad_card",
            )
        # Order does not matter: store them sorted so equal choices compare equal.
        object.__setattr__(self, "cards", tuple(sorted((_as_card(c) for c in cards), key=card_sort_key)))

    def to_dict(self) -> dict[str, Any]:
        return {"type": "take_low", "seat": self.seat, "cards": [c.id for c in self.cards]}


@dataclass(frozen=True)
class RecordMember:
    """Team mode, end of round: ``team`` records the score of its member ``seat``."""

    team: int
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "record", "team": self.team, "seat": self.seat}


Action = PlayCard | TakeCard | TakeLow | RecordMember


def action_from_dict(d: dict[str, Any]) -> Action:
    """Rebuild an action from its ``to_dict()``."""
    try:
        kind = d["type"]
        if kind == "play":
            return PlayCard(d["seat"], d["card"])
        if kind == "take":
            return TakeCard(d["seat"], d["card"])
        if kind == "take_low":
            return TakeLow(d["seat"], d["cards"])
        if kind == "record":
            return RecordMember(d["team"], d["seat"])
    except (KeyError, TypeError) as exc:
        raise InvalidInput(
            f"Incomplete Pass Pass action {d!r}.", f"Action Pass Pass incomplète {d!r}.", code="bad_action"
        ) from exc
    raise InvalidInput(f"Unknown Pass Pass action {d!r}.", f"Action Pass Pass inconnue {d!r}.", code="bad_action")


@dataclass(frozen=True)
class Outcome:
    """What one action caused, as ordered events (dicts with a ``"type"``).

        >>> out = Outcome(({"type": "card_played", "seat": 0, "card": "blue-3"},))
        >>> out.types(), out.to_dict()["events"][0]["card"]
        (('card_played',), 'blue-3')
    """

    events: tuple[dict[str, Any], ...] = ()

    def types(self) -> tuple[str, ...]:
        return tuple(e["type"] for e in self.events)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == kind]

    def to_dict(self) -> dict[str, Any]:
        return {"events": [dict(e) for e in self.events]}
