"""The Pass Pass engine: a game you query and apply actions to (ruling 1 of RULINGS.md).

    >>> game = new_game(4, seed=7)
    >>> outcome = game.apply(game.legal_actions()[0])
    >>> outcome.types(), game.phase, game.to_act
    (('card_played',), 'play', 1)

Decisions on points the rule book leaves open (also in the package docstring):

* The second winner's take is applied by the engine when it is forced (no tie on the
  cut, and always at 3 players), with ``auto: True`` on its ``card_taken`` event; the
  ``second_take`` phase, and ``TakeLow`` in ``legal_actions()``, only appear when there
  is a real choice among tied cards. The first winner's take is always a choice.
* Pass Pass are ticked as cards are taken, the first winner's take first; an
  individual total counts the current round's ticks at once. On the 3rd, the game ends
  on the spot: the second winner does not take, and the round is not scored.
* After the last trick of round 3 nobody leads again: ``leader`` keeps the seat that
  would have led (the last second winner) and the game is over.
* Observed mode (``deal=False``): hands are unknown, so any card not yet seen this round
  may be played, in seat order; ``hand()`` and ``set_aside()`` return None.
"""

from __future__ import annotations

import random
from typing import Any

from table.pass_pass import flow
from table.pass_pass import messages as msg
from table.pass_pass.actions import Action, Outcome, PlayCard, RecordMember, TakeCard, TakeLow
from table.pass_pass.cards import Card, DeckProfile, InvalidInput, card_sort_key, shipped_deck
from table.pass_pass.scoring import PassPassMarks, RoundScore
from table.pass_pass.state import GameState, TrickSummary
from table.pass_pass.teams import check_player_count, members, suggest_member, team_count, team_of
from table.pass_pass.trick import round_points, second_take_options


def new_game(
    players: int,
    *,
    teams: bool = False,
    seed: Any = None,
    first: int = 0,
    deck: DeckProfile | None = None,
    deal: bool = True,
    rng: random.Random | None = None,
) -> Game:
    """Start a game: 3-5 players individually, 4 or 6 in teams; ``first`` leads.

    ``deal=True`` deals 8 cards each with ``random.Random(seed)`` (or the given ``rng``):
    full knowledge, for simulation. ``deal=False`` is observed mode, for keeping score of
    a real table whose hands nobody types in. ``deck`` defaults to the shipped profile.
    """
    check_player_count(players, teams)
    if rng is not None and seed is not None:
        raise InvalidInput(
            "Give either a seed or an rng, not both.",
            "Donnez soit une graine (seed), soit un générateur (rng), pas les deux.",
            code="bad_rng",
        )
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players:
        raise InvalidInput(
            f"The first player must be a seat from 0 to {players - 1}, not {first!r}.",
            f"Le premier joueur doit être une place de 0 à {players - 1}, pas {first!r}.",
            code="bad_seat",
        )
    state = GameState(
        players=players,
        teams=bool(teams),
        observed=not deal,
        deck=deck if deck is not None else shipped_deck(),
        rng=rng if rng is not None else random.Random(seed),
        leader=first,
        in_front=[[] for _ in range(players)],
        marks=[[0] for _ in range(players)],
    )
    flow.deal(state)
    return Game(state)


class Game:
    """A Pass Pass game; build it with :func:`new_game` or :meth:`from_dict`.

        >>> game = new_game(3, seed=1)
        >>> while not game.is_over(): _ = game.apply(game.legal_actions()[0])
        >>> len(game.winners()) >= 1
        True
    """

    def __init__(self, state: GameState):
        self._s = state

    # ----- the situation ---------------------------------------------------------------
    @property
    def players(self) -> int:
        return self._s.players

    @property
    def teams(self) -> bool:
        return self._s.teams

    @property
    def team_count(self) -> int:
        """Number of teams (0 in individual mode)."""
        return team_count(self._s.players) if self._s.teams else 0

    @property
    def observed(self) -> bool:
        return self._s.observed

    @property
    def deck(self) -> DeckProfile:
        return self._s.deck

    @property
    def phase(self) -> str:
        """``"play"``, ``"first_take"``, ``"second_take"``, ``"record"`` or ``"over"``."""
        return self._s.phase

    @property
    def round(self) -> int:
        return self._s.round

    @property
    def trick(self) -> int:
        return self._s.trick

    @property
    def leader(self) -> int:
        return self._s.leader

    @property
    def to_act(self) -> int | None:
        """The seat whose input is awaited; in the record phase, the first team still to
        record (any unrecorded team may record); None once the game is over."""
        s = self._s
        if s.phase == "play":
            return (s.leader + len(s.plays)) % s.players
        if s.phase == "first_take":
            return s.last_trick.first
        if s.phase == "second_take":
            return s.last_trick.second
        if s.phase == "record":
            return s.sheet[-1].recorded.index(None)
        return None

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """The plays ``(seat, card)`` of the trick in progress, kept while it is taken."""
        return tuple(self._s.plays)

    @property
    def table_cards(self) -> tuple[Card, ...]:
        """The current trick's cards still in the middle of the table (not yet taken)."""
        return tuple(self._s.table)

    @property
    def last_trick(self) -> TrickSummary | None:
        """The latest resolved trick (``complete`` is False while it is being taken)."""
        return self._s.last_trick

    def hand(self, seat: int) -> tuple[Card, ...] | None:
        """A seat's hand in full-knowledge mode; None in observed mode."""
        self._check_seat(seat)
        return None if self._s.hands is None else tuple(self._s.hands[seat])

    def set_aside(self) -> tuple[Card, ...] | None:
        """The undealt cards of this round in full-knowledge mode; None in observed mode."""
        return None if self._s.set_aside is None else tuple(self._s.set_aside)

    def in_front(self, seat: int) -> tuple[Card, ...]:
        self._check_seat(seat)
        return tuple(self._s.in_front[seat])

    def out_cards(self) -> tuple[Card, ...]:
        """Cards played this round that nobody took (out until the reshuffle)."""
        return tuple(self._s.out)

    def seen_this_round(self) -> frozenset[Card]:
        s = self._s
        return frozenset(s.table).union(s.out, *s.in_front)

    def pass_pass_marks(self, seat: int) -> PassPassMarks:
        self._check_seat(seat)
        return PassPassMarks(tuple(self._s.marks[seat]))

    @property
    def round_scores(self) -> tuple[RoundScore, ...]:
        """The score sheet: one line per finished round."""
        return tuple(self._s.sheet)

    def scores(self) -> dict[int, int]:
        """Points of the finished rounds: per seat, or per team (recorded scores)."""
        return flow.totals(self._s)[0]

    def pass_pass_totals(self) -> dict[int, int]:
        """Pass Pass so far: per seat (all rounds), or per team (recorded ones)."""
        return flow.totals(self._s)[1]

    def is_over(self) -> bool:
        return self._s.phase == "over"

    def winners(self) -> list[int]:
        """Winning seats (teams in team mode); several on a shared victory; [] until over."""
        return list(self._s.winners)

    @property
    def won_by(self) -> str | None:
        """``"pass_pass"`` (instant win) or ``"points"`` once over, else None."""
        return self._s.won_by

    def team_of(self, seat: int) -> int:
        self._need_teams()
        return team_of(self._check_seat(seat), self._s.players)

    def members(self, team: int) -> tuple[int, ...]:
        self._need_teams()
        return members(self._check_team(team), self._s.players)

    def suggested_member(self, team: int) -> int:
        """The member a team should record: more points, then more Pass Pass, then the
        lower seat. In the record phase it reads the round just finished; during play,
        the round so far."""
        self._need_teams()
        self._check_team(team)
        s = self._s
        if s.phase == "record":
            points, pass_pass = s.sheet[-1].points, s.sheet[-1].pass_pass
        else:
            points = [round_points(cards) for cards in s.in_front]
            pass_pass = [m[-1] for m in s.marks]
        return suggest_member(team, s.players, points, pass_pass)

    def legal_actions(self) -> list[Action]:
        s = self._s
        seat = self.to_act
        if s.phase == "play":
            if s.hands is None:
                seen = self.seen_this_round()
                return [PlayCard(seat, c) for c in s.deck.cards() if c not in seen]
            return [PlayCard(seat, c) for c in sorted(s.hands[seat], key=card_sort_key)]
        if s.phase == "first_take":
            return [TakeCard(seat, c) for c in sorted(s.table, key=card_sort_key)]
        if s.phase == "second_take":
            return [TakeLow(seat, option) for option in second_take_options(s.table)]
        if s.phase == "record":
            return [
                RecordMember(team, member)
                for team, chosen in enumerate(s.sheet[-1].recorded)
                if chosen is None
                for member in members(team, s.players)
            ]
        return []

    # ----- actions -----------------------------------------------------------------------
    def apply(self, action: Action) -> Outcome:
        """Apply one action and say what it caused; an illegal action raises
        :class:`~table.rules.IllegalAction` and changes nothing (every check comes
        before the first change)."""
        if self._s.phase == "over":
            raise msg.game_over()
        events: list[dict[str, Any]] = []
        if isinstance(action, PlayCard):
            flow.play(self._s, action.seat, self._checked_play(action), events)
        elif isinstance(action, TakeCard):
            flow.take_first(self._s, action.seat, self._checked_take(action), events)
        elif isinstance(action, TakeLow):
            flow.take_second(self._s, self._checked_take_low(action), events, auto=False)
        elif isinstance(action, RecordMember):
            self._check_record(action)
            flow.record(self._s, action.team, action.seat, events)
        else:
            raise msg.unknown_action(action)
        return Outcome(tuple(events))

    def _expect(self, phase: str) -> None:
        if self._s.phase != phase:
            raise msg.wrong_phase(self._s.phase, self.to_act)

    def _check_seat(self, seat: object) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._s.players:
            raise msg.bad_seat(seat, self._s.players)
        return seat

    def _check_team(self, team: object) -> int:
        if not isinstance(team, int) or isinstance(team, bool) or not 0 <= team < self.team_count:
            raise msg.bad_team(team, self.team_count)
        return team

    def _need_teams(self) -> None:
        if not self._s.teams:
            raise InvalidInput("This is not a team game.", "Cette partie ne se joue pas par équipes.", code="not_teams")

    def _checked_play(self, action: PlayCard) -> Card:
        self._expect("play")
        if self._check_seat(action.seat) != self.to_act:
            raise msg.not_your_turn(action.seat, "play")
        card = self._s.deck.canonical(action.card)
        if self._s.hands is None:
            if card in self.seen_this_round():
                raise msg.card_seen(card)
        elif card not in self._s.hands[action.seat]:
            raise msg.not_in_hand(action.seat, card)
        return card

    def _checked_take(self, action: TakeCard) -> Card:
        self._expect("first_take")
        if self._check_seat(action.seat) != self.to_act:
            raise msg.not_your_turn(action.seat, "first_take")
        card = self._s.deck.canonical(action.card)
        if card not in self._s.table:
            raise msg.not_on_table(card)
        return card

    def _checked_take_low(self, action: TakeLow) -> tuple[Card, ...]:
        self._expect("second_take")
        if self._check_seat(action.seat) != self.to_act:
            raise msg.not_your_turn(action.seat, "second_take")
        options = second_take_options(self._s.table)
        for option in options:
            if set(option) == set(action.cards) and len(option) == len(action.cards):
                return option
        raise msg.not_lowest(options)

    def _check_record(self, action: RecordMember) -> None:
        self._expect("record")
        team = self._check_team(action.team)
        if self._s.sheet[-1].recorded[team] is not None:
            raise msg.already_recorded(team)
        if self._check_seat(action.seat) not in members(team, self._s.players):
            raise msg.not_member(action.seat, team)

    # ----- saving ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The whole game as JSON-ready data (RNG state included): exact round trip."""
        return self._s.to_dict()

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        return cls(GameState.from_dict(d))

    def __repr__(self) -> str:
        mode = "teams" if self._s.teams else "individual"
        return (f"<Pass Pass {self._s.players} players ({mode}{', observed' if self._s.observed else ''}): "
                f"round {self._s.round}, trick {self._s.trick}, {self._s.phase}>")
