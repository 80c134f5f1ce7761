"""What the table knows about every token: one ledger for both knowledge modes.

A hand is a dict ``{"blue": b, "green": g, "orange": o, "unknown": u}``: ``b, g, o`` are
tokens whose colour is *certain*, ``u`` tokens whose colour is not. A cup is a
:class:`CupKnowledge`: how many tokens it holds (always known: people watch which cup a
token goes into), which colours are certainly inside, what was claimed for the tokens
dropped since the cup was last lifted, what the last lift showed and what Doublon took out.

In full-knowledge mode every move names its colour, so ``unknown`` stays 0 and ``known``
is the exact content of each cup; in observed mode a secret move (a drop, the token an
accuser takes on an empty cup) keeps only what stays certain.

    >>> ledger = TokenLedger(3, [(0, 0), (0, 1)])
    >>> ledger.drop_in_cup(0, None, (0, 0), claimed="blue")   # colour secret
    >>> ledger.hands[0], ledger.cups[(0, 0)].count
    ({'blue': 0, 'green': 0, 'orange': 0, 'unknown': 2}, 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from table.ptipasspass.tokens import COLOUR_FR, COLOURS, sorted_tokens
from table.rules import IllegalAction

UNKNOWN = "unknown"


@dataclass(frozen=True)
class CupKnowledge:
    """One cup: ``count`` tokens, of which ``known`` are certain (the rest are unknown)."""

    count: int = 0
    known: tuple[str, ...] = ()
    claimed: tuple[str, ...] = ()      # colours announced for drops since the last lift
    seen: tuple[str, ...] | None = None  # what the last lift this round showed
    taken: tuple[str, ...] = ()        # tokens taken out by Doublon this round

    @property
    def unknown(self) -> int:
        return self.count - len(self.known)

    def possible_colours(self) -> frozenset[str]:
        """Colours that may be in the cup: the known ones, or any if one is unknown."""
        return frozenset(COLOURS) if self.unknown else frozenset(self.known)

    def to_dict(self) -> dict[str, Any]:
        return {"count": self.count, "known": list(self.known), "claimed": list(self.claimed),
                "seen": None if self.seen is None else list(self.seen), "taken": list(self.taken)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CupKnowledge:
        seen = d.get("seen")
        return cls(int(d["count"]), tuple(d["known"]), tuple(d["claimed"]),
                   None if seen is None else tuple(seen), tuple(d["taken"]))


def full_hand() -> dict[str, int]:
    return {"blue": 1, "green": 1, "orange": 1, UNKNOWN: 0}


def hand_size(hand: dict[str, int]) -> int:
    return sum(hand.values())


def _contradiction(en: str, fr: str) -> IllegalAction:
    return IllegalAction(en, fr, code="contradiction")


class TokenLedger:
    """Hands and cups of one round; every token move keeps hands + cups = 3 × players."""

    def __init__(self, players: int, cells: Iterable[tuple[int, int]]):
        self.players = players
        self.cells = tuple(cells)
        self.hands: list[dict[str, int]] = []
        self.cups: dict[tuple[int, int], CupKnowledge] = {}
        self.new_round()

    def new_round(self) -> None:
        self.hands = [full_hand() for _ in range(self.players)]
        self.cups = {cell: CupKnowledge() for cell in self.cells}

    def copy(self) -> TokenLedger:
        twin = TokenLedger.__new__(TokenLedger)
        twin.players, twin.cells = self.players, self.cells
        twin.hands = [dict(h) for h in self.hands]
        twin.cups = dict(self.cups)  # CupKnowledge is frozen: sharing is safe
        return twin

    # ------------------------------------------------------------------ questions
    def hand_size(self, seat: int) -> int:
        return hand_size(self.hands[seat])

    def may_hold(self, seat: int, colour: str) -> bool:
        hand = self.hands[seat]
        return hand[colour] > 0 or hand[UNKNOWN] > 0

    def sure_colour(self, seat: int) -> str | None:
        """The colour of any token this hand could give, when only one is possible."""
        hand = self.hands[seat]
        present = [c for c in COLOURS if hand[c]]
        return present[0] if hand[UNKNOWN] == 0 and len(present) == 1 else None

    def nonempty_cups(self) -> list[tuple[int, int]]:
        return [cell for cell in self.cells if self.cups[cell].count]

    # ------------------------------------------------------------------ hand moves
    def take_from_hand(self, seat: int, colour: str | None) -> str | None:
        """One token leaves ``seat``'s hand; returns its colour when it is certain."""
        hand = self.hands[seat]
        if hand_size(hand) == 0:
            raise _contradiction(f"Player {seat + 1} has no token in hand.",
                                 f"Le joueur {seat + 1} n'a pas de jeton en main.")
        colour = colour or self.sure_colour(seat)
        if colour is not None:
            if hand[colour]:
                hand[colour] -= 1
            elif hand[UNKNOWN]:
                hand[UNKNOWN] -= 1
            else:
                raise _contradiction(f"Player {seat + 1} cannot hold a {colour} token.",
                                     f"Le joueur {seat + 1} ne peut pas avoir de jeton {COLOUR_FR[colour]}.")
            return colour
        # Secret token: any colour certainly present might be the one that left.
        left = hand_size(hand) - 1
        for c in COLOURS:
            hand[c] = max(hand[c] - 1, 0)
        hand[UNKNOWN] = left - sum(hand[c] for c in COLOURS)
        return None

    def give_to_hand(self, seat: int, tokens: Iterable[str | None]) -> None:
        hand = self.hands[seat]
        for colour in tokens:
            hand[colour or UNKNOWN] += 1

    def learn_in_hand(self, seat: int, colour: str) -> None:
        """``seat`` was seen holding ``colour`` and keeps it (a lie shown on Menteur!)."""
        hand = self.hands[seat]
        if hand[colour]:
            return
        if not hand[UNKNOWN]:
            raise _contradiction(f"Player {seat + 1} cannot hold a {colour} token.",
                                 f"Le joueur {seat + 1} ne peut pas avoir de jeton {COLOUR_FR[colour]}.")
        hand[UNKNOWN] -= 1
        hand[colour] += 1

    # ------------------------------------------------------------------ cup moves
    def drop_in_cup(self, seat: int, colour: str | None, cell: tuple[int, int], *, claimed: str) -> None:
        """The held token of ``seat`` goes into ``cell`` (colour None when secret)."""
        colour = self.take_from_hand(seat, colour)
        cup = self.cups[cell]
        known = cup.known if colour is None else sorted_tokens(cup.known + (colour,))
        self.cups[cell] = replace(cup, count=cup.count + 1, known=known, claimed=cup.claimed + (claimed,))

    def record_lift(self, cell: tuple[int, int], tokens: Iterable[object]) -> tuple[str, ...]:
        """A lifted cup showed ``tokens``: check them against what is known, then learn."""
        shown = sorted_tokens(tokens)
        cup = self.cups[cell]
        if len(shown) != cup.count:
            raise _contradiction(
                f"That cup holds {cup.count} token(s), but {len(shown)} were entered.",
                f"Ce gobelet contient {cup.count} jeton(s), mais {len(shown)} ont été saisis.")
        missing = Counter(cup.known) - Counter(shown)
        if missing:
            lost = sorted(missing.elements())
            raise _contradiction(f"That cup certainly holds {', '.join(lost)}, which was not entered.",
                                 f"Ce gobelet contient sûrement {', '.join(COLOUR_FR[c] for c in lost)}, "
                                 "qui n'a pas été saisi.")
        self.cups[cell] = replace(cup, known=shown, claimed=(), seen=shown)
        self.check_colour_totals()
        return shown

    def empty_cup_into_hand(self, cell: tuple[int, int], seat: int) -> tuple[str, ...]:
        """After a lift, every token of ``cell`` goes to ``seat``'s hand."""
        cup = self.cups[cell]
        if cup.unknown:
            raise _contradiction("Lift the cup before emptying it.",
                                 "Il faut soulever le gobelet avant de le vider.")
        self.give_to_hand(seat, cup.known)
        self.cups[cell] = CupKnowledge(taken=cup.taken + cup.known, seen=cup.seen)
        return cup.known

    def swap(self, a: tuple[int, int], b: tuple[int, int]) -> None:
        """Two cups change places; their contents (and what is known of them) travel."""
        self.cups[a], self.cups[b] = self.cups[b], self.cups[a]

    # ------------------------------------------------------------------ checks
    def check_colour_totals(self) -> None:
        """No colour may be certain in more places than there are tokens of it."""
        for colour in COLOURS:
            sure = sum(h[colour] for h in self.hands)
            sure += sum(cup.known.count(colour) for cup in self.cups.values())
            if sure > self.players:
                raise _contradiction(
                    f"That would make {sure} {colour} tokens; the game has only {self.players}.",
                    f"Cela ferait {sure} jetons {COLOUR_FR[colour]}s ; "
                    f"le jeu n'en a que {self.players}.")

    def total_tokens(self) -> int:
        return sum(hand_size(h) for h in self.hands) + sum(c.count for c in self.cups.values())

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> dict[str, Any]:
        return {"hands": [dict(h) for h in self.hands],
                "cups": [{"cell": list(cell), **self.cups[cell].to_dict()} for cell in self.cells]}

    def load(self, d: dict[str, Any]) -> None:
        self.hands = [{k: int(h[k]) for k in (*COLOURS, UNKNOWN)} for h in d["hands"]]
        self.cups = {tuple(c["cell"]): CupKnowledge.from_dict(c) for c in d["cups"]}  # type: ignore[misc]
