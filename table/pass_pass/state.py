"""The data of a Pass Pass game, and its exact JSON form. The rules that change it live
in :mod:`table.pass_pass.game`; this module only holds and (de)serialises it.

    >>> from table.pass_pass import new_game
    >>> saved = new_game(3, seed=5).to_dict()
    >>> GameState.from_dict(saved).to_dict() == saved
    True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from table.pass_pass.cards import Card, DeckProfile
from table.pass_pass.scoring import RoundScore

FORMAT = "pass-pass/1"
PHASES = ("play", "first_take", "second_take", "record", "over")


@dataclass(frozen=True)
class TrickSummary:
    """What happened in a trick: the plays, the majority colour, both winners, the cards
    each took and the cards out. ``complete`` is False while the takes are going on.

        >>> from table.pass_pass import random_playout
        >>> trick = random_playout(random.Random(3), players=3).last_trick
        >>> trick.majority in ("purple", "blue", "green", "yellow"), trick.first != trick.second
        (True, True)
    """

    round: int
    trick: int
    leader: int
    plays: tuple[tuple[int, Card], ...]
    majority: str
    ranking: tuple[str, ...]
    first: int
    second: int
    taken: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    out: tuple[Card, ...] = ()
    complete: bool = False

    def with_take(self, seat: int, cards: tuple[Card, ...]) -> TrickSummary:
        return replace(self, taken=self.taken + ((seat, cards),))

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "trick": self.trick,
            "leader": self.leader,
            "plays": [[seat, card.id] for seat, card in self.plays],
            "majority": self.majority,
            "ranking": list(self.ranking),
            "first": self.first,
            "second": self.second,
            "taken": [[seat, [c.id for c in cards]] for seat, cards in self.taken],
            "out": [c.id for c in self.out],
            "complete": self.complete,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any], deck: DeckProfile) -> TrickSummary:
        return cls(
            round=d["round"],
            trick=d["trick"],
            leader=d["leader"],
            plays=tuple((seat, Card.from_id(cid, deck)) for seat, cid in d["plays"]),
            majority=d["majority"],
            ranking=tuple(d["ranking"]),
            first=d["first"],
            second=d["second"],
            taken=tuple((seat, tuple(Card.from_id(c, deck) for c in cards)) for seat, cards in d["taken"]),
            out=tuple(Card.from_id(c, deck) for c in d["out"]),
            complete=d["complete"],
        )


@dataclass
class GameState:
    """Everything a Pass Pass game is. Seats and teams are 0-based.

    ``hands`` and ``set_aside`` are None in observed mode (the hands are unknown).
    ``table`` holds the current trick's cards not yet taken. ``marks[seat]`` has one
    Pass Pass count per round begun. ``sheet`` has one line per finished round.
    """

    players: int
    teams: bool
    observed: bool
    deck: DeckProfile
    rng: random.Random
    round: int = 1
    trick: int = 1
    leader: int = 0
    phase: str = "play"
    hands: list[list[Card]] | None = None
    set_aside: list[Card] | None = None
    plays: list[tuple[int, Card]] = field(default_factory=list)
    table: list[Card] = field(default_factory=list)
    in_front: list[list[Card]] = field(default_factory=list)
    out: list[Card] = field(default_factory=list)
    marks: list[list[int]] = field(default_factory=list)
    sheet: list[RoundScore] = field(default_factory=list)
    last_trick: TrickSummary | None = None
    winners: list[int] = field(default_factory=list)
    won_by: str | None = None  # "pass_pass" or "points" once over

    def to_dict(self) -> dict[str, Any]:
        version, internal, gauss = self.rng.getstate()

        def ids(cards: list[Card] | None) -> list[str] | None:
            return None if cards is None else [c.id for c in cards]

        return {
            "format": FORMAT,
            "players": self.players,
            "teams": self.teams,
            "observed": self.observed,
            "deck": self.deck.to_dict(),
            "rng": [version, list(internal), gauss],
            "round": self.round,
            "trick": self.trick,
            "leader": self.leader,
            "phase": self.phase,
            "hands": None if self.hands is None else [ids(h) for h in self.hands],
            "set_aside": ids(self.set_aside),
            "plays": [[seat, card.id] for seat, card in self.plays],
            "table": ids(self.table),
            "in_front": [ids(cards) for cards in self.in_front],
            "out": ids(self.out),
            "marks": [list(m) for m in self.marks],
            "sheet": [line.to_dict() for line in self.sheet],
            "last_trick": None if self.last_trick is None else self.last_trick.to_dict(),
            "winners": list(self.winners),
            "won_by": self.won_by,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        if d.get("format") != FORMAT:
            raise ValueError(f"Not a saved Pass Pass game (format {d.get('format')!r}, expected {FORMAT!r}).")
        deck = DeckProfile.from_dict(d["deck"])

        def cards(ids: list[str] | None) -> list[Card] | None:
            return None if ids is None else [Card.from_id(i, deck) for i in ids]

        rng = random.Random()
        version, internal, gauss = d["rng"]
        rng.setstate((version, tuple(internal), gauss))
        return cls(
            players=d["players"],
            teams=d["teams"],
            observed=d["observed"],
            deck=deck,
            rng=rng,
            round=d["round"],
            trick=d["trick"],
            leader=d["leader"],
            phase=d["phase"],
            hands=None if d["hands"] is None else [cards(h) for h in d["hands"]],
            set_aside=cards(d["set_aside"]),
            plays=[(seat, Card.from_id(cid, deck)) for seat, cid in d["plays"]],
            table=cards(d["table"]),
            in_front=[cards(c) for c in d["in_front"]],
            out=cards(d["out"]),
            marks=[list(m) for m in d["marks"]],
            sheet=[RoundScore.from_dict(line) for line in d["sheet"]],
            last_trick=None if d["last_trick"] is None else TrickSummary.from_dict(d["last_trick"], deck),
            winners=list(d["winners"]),
            won_by=d["won_by"],
        )
