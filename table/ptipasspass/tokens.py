"""Token colours and the reveal test: are three lifted cups a winning set?

A reveal wins when every lifted cup holds at least one token and one colour can be
picked per cup (the player picks, where a cup holds several) so that the three picks
are all the same colour or all different colours.

    >>> is_winning_reveal([["blue"], ["blue", "orange"], ["blue"]])
    True
    >>> winning_picks([["blue"], ["green"], ["green", "orange"]])
    ('blue', 'green', 'orange')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import permutations

from table.rules import IllegalAction

COLOURS: tuple[str, ...] = ("blue", "green", "orange")
COLOUR_FR = {"blue": "bleu", "green": "vert", "orange": "orange"}


def check_colour(colour: object) -> str:
    """Return ``colour`` if it is one of :data:`COLOURS`, else a bilingual refusal."""
    if isinstance(colour, str) and colour in COLOURS:
        return colour
    raise IllegalAction(
        f"Unknown token colour {colour!r}: use blue, green or orange.",
        f"Couleur de jeton inconnue {colour!r} : bleu (blue), vert (green) ou orange.",
        code="bad_colour",
    )


def sorted_tokens(tokens: Iterable[object]) -> tuple[str, ...]:
    """Check every colour and give the tokens in one canonical order (blue, green, orange)."""
    if isinstance(tokens, str):  # a lone "blue" would otherwise be read letter by letter
        raise IllegalAction(
            f"Tokens must be a list of colours, not the text {tokens!r}.",
            f"Les jetons doivent être une liste de couleurs, pas le texte {tokens!r}.",
            code="bad_tokens",
        )
    checked = [check_colour(t) for t in tokens]
    return tuple(sorted(checked, key=COLOURS.index))


def colour_counts(tokens: Iterable[str]) -> Counter[str]:
    return Counter(tokens)


def _cup_sets(cups: Sequence[Iterable[object]]) -> list[set[str]]:
    if isinstance(cups, str) or len(cups) != 3:
        raise IllegalAction(
            "A reveal lifts exactly three cups.",
            "Une révélation soulève exactement trois gobelets.",
            code="bad_reveal",
        )
    return [set(sorted_tokens(cup)) for cup in cups]


def winning_picks(cups: Sequence[Iterable[object]]) -> tuple[str, str, str] | None:
    """One colour per cup making a set (all same, else all different), or None."""
    sets = _cup_sets(cups)
    if any(not s for s in sets):
        return None
    for colour in COLOURS:
        if all(colour in s for s in sets):
            return (colour, colour, colour)
    for order in permutations(COLOURS):
        if all(order[i] in sets[i] for i in range(3)):
            return order  # type: ignore[return-value]
    return None


def is_winning_reveal(cups: Sequence[Iterable[object]]) -> bool:
    """True if every cup holds a token and the picks can make all-same or all-different."""
    return winning_picks(cups) is not None


def picks_form_set(picks: Sequence[str]) -> bool:
    """Three picked colours that are all the same or all different."""
    return len(picks) == 3 and len(set(picks)) in (1, 3)
