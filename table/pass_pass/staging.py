"""Set up a Pass Pass game at a chosen point (like a chess position from a FEN): for
tests, demonstrations, and resuming a paper game mid-way on the dashboard.

    >>> game = staged_game(3, trick=8, leader=1, in_front=[["purple-1"], [], ["blue-2", "green-3"]])
    >>> game.round, game.trick, game.to_act, game.in_front(2)[0].diamonds
    (1, 8, 1, 3)

The game is in observed mode (hands unknown) and at the start of trick ``trick``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from table.pass_pass.cards import Card, DeckProfile, InvalidInput, shipped_deck
from table.pass_pass.game import Game
from table.pass_pass.scoring import RoundScore
from table.pass_pass.state import GameState
from table.pass_pass.teams import check_player_count, members, team_count
from table.pass_pass.trick import pass_pass_count


def staged_game(
    players: int,
    *,
    teams: bool = False,
    trick: int = 1,
    leader: int = 0,
    in_front: Sequence[Sequence[Card | str]] | None = None,
    earlier: Sequence[Mapping[str, Any]] = (),
    deck: DeckProfile | None = None,
) -> Game:
    """A game about to play trick ``trick`` of round ``len(earlier) + 1``, led by ``leader``.

    ``in_front``: per seat, the cards (or ids) in front of them this round; their Pass Pass
    are taken as already ticked. ``earlier``: one mapping per finished round with
    ``points`` and ``pass_pass`` (lists per seat) and, in team mode, ``recorded`` (the
    seat each team recorded).
    """
    check_player_count(players, teams)
    deck = deck if deck is not None else shipped_deck()
    if not 1 <= trick <= 8 or not 0 <= leader < players or len(earlier) > 2:
        raise InvalidInput(
            "A staged game needs trick 1-8, a leader seat and at most 2 finished rounds.",
            "Une partie préparée demande un pli de 1 à 8, une place de départ et au plus 2 manches finies.",
            code="bad_stage",
        )
    fronts = [[c if isinstance(c, Card) else Card.from_id(c) for c in cards] for cards in (in_front or [[]] * players)]
    fronts = [[deck.canonical(c) for c in cards] for cards in fronts]
    every = [c for cards in fronts for c in cards]
    if len(fronts) != players or len(set(every)) != len(every):
        raise InvalidInput(
            "in_front needs one list per seat, and each card once.",
            "in_front demande une liste par place, chaque carte une seule fois.",
            code="bad_stage",
        )
    sheet = []
    for number, line in enumerate(earlier, start=1):
        if len(line["points"]) != players or len(line["pass_pass"]) != players:
            raise InvalidInput(
                "Each finished round needs points and pass_pass for every seat.",
                "Chaque manche finie demande points et pass_pass pour chaque place.",
                code="bad_stage",
            )
        recorded = tuple(line["recorded"]) if teams else None
        if teams and (len(recorded) != team_count(players)
                      or any(seat not in members(t, players) for t, seat in enumerate(recorded))):
            raise InvalidInput(
                "Each finished round needs, per team, one of its members as recorded.",
                "Chaque manche finie demande, pour chaque équipe, un de ses membres marqué.",
                code="bad_stage",
            )
        sheet.append(RoundScore(number, tuple(line["points"]), tuple(line["pass_pass"]), recorded))
    marks = [[line.pass_pass[seat] for line in sheet] + [pass_pass_count(fronts[seat])] for seat in range(players)]
    state = GameState(
        players=players,
        teams=bool(teams),
        observed=True,
        deck=deck,
        rng=random.Random(0),
        round=len(sheet) + 1,
        trick=trick,
        leader=leader,
        in_front=fronts,
        marks=marks,
        sheet=sheet,
    )
    return Game(state)
