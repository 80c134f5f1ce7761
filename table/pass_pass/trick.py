"""Pure Pass Pass rules on cards: who wins a trick, what the second winner may take,
how many Pass Pass a set of cards makes and what it scores (ruling 1).

    >>> P, G = "purple", "green"
    >>> resolve_trick([(0, Card(P, 10)), (1, Card(G, 10)), (2, Card(P, 6)), (3, Card(G, 6))])
    (0, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from table.pass_pass.cards import COLOURS, Card, InvalidInput, card_sort_key

# How many cards the second winner takes (ruling 1: "the two lowest-valued").
SECOND_TAKE_COUNT = 2


@dataclass(frozen=True)
class TrickResult:
    """A resolved trick: the majority colour, the colour ranking and both winners.

        >>> r = analyse_trick([(0, Card("blue", 11)), (1, Card("green", 4)), (2, Card("green", 7))])
        >>> r.majority, r.first, r.second, r.ranking
        ('blue', 0, 2, ('blue', 'green'))
    """

    majority: str
    ranking: tuple[str, ...]  # the colours played, best group first
    first: int
    second: int
    first_card: Card
    second_card: Card


def analyse_trick(plays: Sequence[tuple[int, Card]]) -> TrickResult:
    """Resolve a trick; ``plays`` is ``[(seat, card), ...]`` in the order played.

    Colour groups rank by (1) sum of values, (2) highest single value, (3) play
    position of that highest card, earliest first. The first winner played the top
    group's highest card; the second winner its second-highest, or, when the top
    group holds a single card, the highest card of the second-ranked group.
    """
    plays = list(plays)
    if len(plays) < 2:
        raise InvalidInput(
            "A trick needs at least two cards to be resolved.",
            "Il faut au moins deux cartes pour résoudre un pli.",
            code="short_trick",
        )
    seats = [seat for seat, _ in plays]
    cards = [card for _, card in plays]
    if not all(isinstance(c, Card) for c in cards):
        raise InvalidInput("A trick is a list of (seat, Card).", "Un pli est une liste de (place, Card).",
                           code="bad_card")
    if len(set(seats)) != len(seats) or len(set(cards)) != len(cards):
        raise InvalidInput(
            "Each seat plays one card per trick and each card exists once.",
            "Chaque joueur pose une carte par pli et chaque carte n'existe qu'une fois.",
            code="duplicate_play",
        )

    groups: dict[str, list[tuple[int, int, Card]]] = {}  # colour -> (position, seat, card)
    for position, (seat, card) in enumerate(plays):
        groups.setdefault(card.color, []).append((position, seat, card))
    for members in groups.values():
        members.sort(key=lambda entry: -entry[2].value)  # values differ within a colour

    def rank(colour: str) -> tuple[int, int, int]:
        members = groups[colour]
        position_of_highest, _, highest = members[0]
        return -sum(card.value for _, _, card in members), -highest.value, position_of_highest

    ranking = tuple(sorted(groups, key=rank))
    top = groups[ranking[0]]
    first = top[0]
    second = top[1] if len(top) > 1 else groups[ranking[1]][0]
    return TrickResult(
        majority=ranking[0],
        ranking=ranking,
        first=first[1],
        second=second[1],
        first_card=first[2],
        second_card=second[2],
    )


def resolve_trick(plays: Sequence[tuple[int, Card]]) -> tuple[int, int]:
    """``(first_seat, second_seat)`` of a trick; see :func:`analyse_trick`."""
    result = analyse_trick(plays)
    return result.first, result.second


def second_take_options(remaining: Iterable[Card], count: int = SECOND_TAKE_COUNT) -> list[tuple[Card, ...]]:
    """Every set of cards the second winner may take from ``remaining`` (the played cards
    left after the first winner's pick): the ``count`` lowest values, choosing among
    cards tied on the cut. One option means the take is forced.

        >>> second_take_options([Card("blue", 3), Card("green", 3), Card("purple", 9)])
        [(Card(color='blue', value=3, diamonds=0), Card(color='green', value=3, diamonds=0))]
    """
    cards = sorted(remaining, key=card_sort_key)
    if len(cards) <= count:
        return [tuple(cards)]
    cut = cards[count - 1].value
    forced = [c for c in cards if c.value < cut]
    tied = [c for c in cards if c.value == cut]
    return [
        tuple(sorted(forced + list(choice), key=card_sort_key))
        for choice in combinations(tied, count - len(forced))
    ]


def pass_pass_count(cards: Iterable[Card]) -> int:
    """Pass Pass made by cards in front of a player: the minimum, over the four colours,
    of how many cards of that colour there are (disjoint sets of four colours)."""
    counts = dict.fromkeys(COLOURS, 0)
    for card in cards:
        counts[card.color] += 1
    return min(counts.values())


def round_points(cards: Iterable[Card]) -> int:
    """End-of-round points: 1 per card plus 1 per diamond on it."""
    return sum(1 + card.diamonds for card in cards)
