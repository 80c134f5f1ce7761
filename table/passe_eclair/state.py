"""The Passe Éclair table state: zones of cards, tokens, and their exact JSON form.

:class:`TableState` holds the data and the card movements every rule shares (draw with
reshuffle, turn a start card, pile to the box, deal); :class:`~.game.Game` adds the rules.

    >>> from table.passe_eclair import Game, new_game
    >>> g = new_game(3, seed=1)
    >>> Game.from_dict(g.to_dict()).to_dict() == g.to_dict()
    True

Zones: ``hands`` (one list per seat), ``draw_pile`` (face down, top is the last item),
``pile`` (the centre pile of :class:`PileCard`, top last), ``box`` (played cards, face up).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

from .cards import parse_card
from .profile import HAND_SIZE, Profile

FORMAT = "passe-eclair"
FORMAT_VERSION = 1
PHASES = ("dealt", "playing", "michi", "game_over")


@dataclass(frozen=True)
class PileCard:
    """One card on the centre pile. ``by`` is the seat that placed it (None: turned as a
    start card); ``serial`` is unique in the game; ``wrong`` is None, or
    ``{"code", "en", "fr"}`` for a card accepted in lenient mode that broke a rule."""

    serial: int
    card: str
    by: int | None
    t: float | None
    wrong: dict[str, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class TableState:
    """Data and shared card movements; see the module docstring."""

    players: int
    profile: Profile
    strict: bool
    together_window: float
    rng: random.Random
    phase: str
    round: int
    coach: int
    hands: list[list[str]]
    draw_pile: list[str]
    box: list[str]
    pile: list[PileCard]
    next_serial: int
    pending_michi: int | None
    victory_pool: list[int]
    consolation_pool: list[str]
    victory_tokens: list[list[int]]
    consolation_tokens: list[list[str]]
    spent_tokens: list[list[str]]

    # ---- read-only views -------------------------------------------------------------
    @property
    def top(self) -> str | None:
        """The id of the card on top of the centre pile (None when the pile is empty)."""
        return self.pile[-1].card if self.pile else None

    @property
    def top_entry(self) -> PileCard | None:
        return self.pile[-1] if self.pile else None

    @property
    def draw_size(self) -> int:
        return len(self.draw_pile)

    @property
    def box_size(self) -> int:
        return len(self.box)

    @property
    def rounds(self) -> int:
        return self.profile.rounds

    def card_counts(self) -> Counter:
        """Every card in every zone (always equal to the profile's deck)."""
        counts = Counter(self.draw_pile) + Counter(self.box) + Counter(p.card for p in self.pile)
        for hand in self.hands:
            counts += Counter(hand)
        return counts

    # ---- shared card movements (each appends its events) ------------------------------
    def _draw_one(self, events: list[dict]) -> str | None:
        """Top card of the draw pile; an empty draw pile first takes the shuffled box.
        None when both are empty."""
        if not self.draw_pile and self.box:
            self.draw_pile = self.box
            self.box = []
            self.rng.shuffle(self.draw_pile)
            events.append({"type": "reshuffle", "count": len(self.draw_pile)})
        return self.draw_pile.pop() if self.draw_pile else None

    def _new_pile_card(self, card: str, by: int | None, t: float | None,
                       wrong: dict[str, str] | None = None) -> PileCard:
        entry = PileCard(self.next_serial, card, by, t, wrong)
        self.next_serial += 1
        self.pile.append(entry)
        return entry

    def _turn_start_card(self, seat: int, t: float | None, events: list[dict]) -> None:
        """``seat`` turns draw cards onto the centre until one is a footballer card.
        With the draw pile and the box both empty the last card turned stays on top."""
        skipped: list[str] = []
        while True:
            card = self._draw_one(events)
            if card is None:
                break
            entry = self._new_pile_card(card, None, t)
            if parse_card(card).is_footballer:
                events.append({"type": "start_card", "seat": seat, "card": card, "serial": entry.serial,
                               "skipped": skipped})
                return
            skipped.append(card)
        last = self.top_entry
        events.append({"type": "start_card", "seat": seat, "card": last.card if last else None,
                       "serial": last.serial if last else None, "skipped": skipped[:-1] if last else skipped,
                       "exhausted": True})

    def _pile_to_box(self, reason: str, events: list[dict]) -> None:
        count = len(self.pile)
        self.box.extend(p.card for p in self.pile)
        self.pile = []
        events.append({"type": "pile_to_box", "reason": reason, "count": count})

    def _deal(self, events: list[dict]) -> None:
        """The coach deals 7 cards to each player from the draw pile (round by round)."""
        for _ in range(HAND_SIZE):
            for seat in range(self.players):
                card = self._draw_one(events)
                if card is not None:  # the profile guarantees enough cards
                    self.hands[seat].append(card)
        self.phase = "dealt"
        events.append({"type": "deal", "round": self.round, "coach": self.coach,
                       "hand_sizes": [len(h) for h in self.hands]})

    # ---- exact JSON round trip --------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        version, internal, gauss = self.rng.getstate()
        return {
            "format": FORMAT, "version": FORMAT_VERSION,
            "players": self.players, "strict": self.strict, "together_window": self.together_window,
            "profile": self.profile.to_dict(),
            "phase": self.phase, "round": self.round, "coach": self.coach,
            "hands": [list(h) for h in self.hands], "draw_pile": list(self.draw_pile), "box": list(self.box),
            "pile": [p.to_dict() for p in self.pile], "next_serial": self.next_serial,
            "pending_michi": self.pending_michi,
            "victory_pool": list(self.victory_pool), "consolation_pool": list(self.consolation_pool),
            "victory_tokens": [list(v) for v in self.victory_tokens],
            "consolation_tokens": [list(c) for c in self.consolation_tokens],
            "spent_tokens": [list(s) for s in self.spent_tokens],
            "rng": [version, list(internal), gauss],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]):
        """Rebuild a game from :meth:`to_dict`; a malformed or inconsistent dict raises
        ValueError (cards and tokens must add up to the profile)."""
        if not isinstance(d, dict) or d.get("format") != FORMAT or d.get("version") != FORMAT_VERSION:
            raise ValueError(f"not a {FORMAT} v{FORMAT_VERSION} game dict")
        game = cls.__new__(cls)
        try:
            game.players = int(d["players"])
            game.profile = Profile.from_dict(d["profile"])
            game.strict = bool(d["strict"])
            game.together_window = float(d["together_window"])
            game.phase = d["phase"]
            game.round, game.coach = int(d["round"]), int(d["coach"])
            game.hands = [list(h) for h in d["hands"]]
            game.draw_pile, game.box = list(d["draw_pile"]), list(d["box"])
            game.pile = [PileCard(**p) for p in d["pile"]]
            game.next_serial = int(d["next_serial"])
            game.pending_michi = d["pending_michi"]
            game.victory_pool = list(d["victory_pool"])
            game.consolation_pool = list(d["consolation_pool"])
            game.victory_tokens = [list(v) for v in d["victory_tokens"]]
            game.consolation_tokens = [list(c) for c in d["consolation_tokens"]]
            game.spent_tokens = [list(s) for s in d["spent_tokens"]]
            version, internal, gauss = d["rng"]
            game.rng = random.Random()
            game.rng.setstate((version, tuple(internal), gauss))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed {FORMAT} game dict: {exc!r}") from None
        game._check_consistency()
        return game

    def _check_consistency(self) -> None:
        if not 2 <= self.players <= 4 or self.phase not in PHASES:
            raise ValueError("bad player count or phase")
        per_seat = (self.hands, self.victory_tokens, self.consolation_tokens, self.spent_tokens)
        if any(len(zone) != self.players for zone in per_seat) or not 0 <= self.coach < self.players:
            raise ValueError("per-seat lists or coach do not match the player count")
        for card in list(self.draw_pile) + list(self.box) + [p.card for p in self.pile]:
            parse_card(card)
        if self.card_counts() != Counter(self.profile.deck):
            raise ValueError("the cards in the zones are not the profile's deck")
        victory = Counter(self.victory_pool) + sum((Counter(v) for v in self.victory_tokens), Counter())
        consolation = Counter(self.consolation_pool) + sum(
            (Counter(c) for c in self.consolation_tokens + self.spent_tokens), Counter())
        if victory != Counter(self.profile.victory_tokens) or consolation != Counter(self.profile.consolation_tokens):
            raise ValueError("the tokens do not add up to the profile's tokens")
        rounds_won = sum(len(v) for v in self.victory_tokens)
        if rounds_won != (self.rounds if self.phase == "game_over" else self.round - 1):
            raise ValueError(f"{rounds_won} victory tokens taken does not match round {self.round} ({self.phase})")
