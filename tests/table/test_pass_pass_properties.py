"""Properties of any random Pass Pass game (hypothesis): cards are conserved, scores are
cards plus diamonds, Pass Pass ticks follow the cards, refusals change nothing."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from table.pass_pass import Game, IllegalAction, PlayCard, TakeCard, new_game, pass_pass_count

CONFIGS = [(3, False), (4, False), (5, False), (4, True), (6, True)]


def check_conservation(game: Game) -> None:
    """hand + current trick (on the table) + in front + out + set aside = the 48 cards."""
    cards = Counter()
    for seat in range(game.players):
        cards.update(game.hand(seat))
        cards.update(game.in_front(seat))
    cards.update(game.table_cards)
    cards.update(game.out_cards())
    cards.update(game.set_aside())
    assert sum(cards.values()) == 48
    assert set(cards) == set(game.deck.cards())


def try_something_illegal(game: Game, rng: random.Random) -> None:
    """Try an action that is not legal now: it must be refused and change nothing."""
    legal = set(game.legal_actions())
    card = rng.choice(game.deck.cards())
    seat = rng.randrange(game.players)
    attempt = rng.choice([PlayCard(seat, card), TakeCard(seat, card)])
    if attempt in legal:
        return
    before = game.to_dict()
    try:
        game.apply(attempt)
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"{attempt} was accepted but not listed as legal")
    assert game.to_dict() == before


@settings(max_examples=60, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_conserve_cards_and_score_cards_plus_diamonds(config, seed):
    players, teams = config
    rng = random.Random(seed)
    game = new_game(players, teams=teams, seed=rng.randrange(2**32), first=rng.randrange(players))
    # Our own bookkeeping from the events only, to check the engine's scores against.
    in_front = [[] for _ in range(players)]
    rounds_scored = 0
    while not game.is_over():
        check_conservation(game)
        if rng.random() < 0.2:
            try_something_illegal(game, rng)
        outcome = game.apply(rng.choice(game.legal_actions()))
        for event in outcome.events:
            if event["type"] == "card_taken":
                in_front[event["seat"]] += [game.deck.card(*_split(cid)) for cid in event["cards"]]
            elif event["type"] == "round_over":
                expected = [len(cards) + sum(c.diamonds for c in cards) for cards in in_front]
                assert event["points"] == expected
                assert event["pass_pass"] == [pass_pass_count(cards) for cards in in_front]
                rounds_scored += 1
            elif event["type"] == "round_started":
                in_front = [[] for _ in range(players)]
        if not game.is_over() and game.phase != "record":
            for seat in range(players):
                assert sorted(game.in_front(seat), key=str) == sorted(in_front[seat], key=str)
                assert game.pass_pass_marks(seat).per_round[-1] == pass_pass_count(in_front[seat])
    check_conservation(game)
    assert len(game.round_scores) == rounds_scored
    assert game.winners()
    if game.won_by == "points":
        assert rounds_scored == 3


def _split(card_id: str) -> tuple[str, int]:
    colour, value = card_id.split("-")
    return colour, int(value)
