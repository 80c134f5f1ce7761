"""can_place and its reasons: every case of RULINGS.md §3 "What may be placed"."""

from __future__ import annotations

import pytest

from table.passe_eclair import (
    ALL_CARD_IDS,
    DOG,
    FOOTBALLER_CARDS,
    FOOTBALLERS,
    MICHI,
    can_place,
    parse_card,
    placement_problem,
)

PLACERS = [None, 0, 1, 2]  # None: a start card turned by the coach


@pytest.mark.parametrize("players", [2, 3, 4])
def test_footballer_on_footballer_needs_the_passed_to_footballer_big(players):
    fits = 0
    for top in FOOTBALLER_CARDS:
        for card in FOOTBALLER_CARDS:
            ok = can_place(top, card, by=1, top_placed_by=0, players=players)
            assert ok == (top.split("-")[1] == card.split("-")[0]), (top, card)
            fits += ok
    assert fits == 20 * 4  # each card X->Y is followed by the 4 cards Y->*


def test_example_of_the_rule_book_leon_passes_to_marlon():
    assert can_place("leon-marlon", "marlon-rocce", by=1, top_placed_by=0, players=3)
    assert not can_place("leon-marlon", "leon-rocce", by=1, top_placed_by=0, players=3)
    assert not can_place("leon-marlon", "rocce-marlon", by=1, top_placed_by=0, players=3)


@pytest.mark.parametrize("players", [3, 4])
def test_no_player_places_two_footballer_cards_in_a_row_at_3_or_4(players):
    assert not can_place("leon-marlon", "marlon-fabi", by=2, top_placed_by=2, players=players)
    assert can_place("leon-marlon", "marlon-fabi", by=1, top_placed_by=2, players=players)


def test_at_two_players_a_player_may_chain_cards():
    assert can_place("leon-marlon", "marlon-fabi", by=1, top_placed_by=1, players=2)
    assert can_place("marlon-fabi", "fabi-leon", by=0, top_placed_by=0, players=2)
    assert not can_place("leon-marlon", "fabi-leon", by=1, top_placed_by=1, players=2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_anyone_may_play_on_a_start_card(players):
    for seat in range(players):
        assert can_place("vanessa-leon", "leon-fabi", by=seat, top_placed_by=None, players=players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_dog_goes_on_anything_by_anyone(players):
    for top in ALL_CARD_IDS:
        for placer in PLACERS:
            for seat in range(players):
                assert can_place(top, DOG, by=seat, top_placed_by=placer, players=players), (top, placer, seat)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_anything_goes_on_a_dog_even_by_the_dogs_own_player(players):
    for card in ALL_CARD_IDS:
        for placer in PLACERS:
            for seat in range(players):
                assert can_place(DOG, card, by=seat, top_placed_by=placer, players=players), (card, placer, seat)
    assert can_place(DOG, "rocce-fabi", by=2, top_placed_by=2, players=3)  # straight away on their own dog


@pytest.mark.parametrize("players", [2, 3, 4])
def test_gros_michi_only_directly_on_a_dog(players):
    for top in ALL_CARD_IDS:
        for placer in PLACERS:
            assert can_place(top, MICHI, by=1, top_placed_by=placer, players=players) == (top == DOG), top


def test_only_a_dog_goes_on_a_gros_michi():
    for card in ALL_CARD_IDS:
        assert can_place(MICHI, card, by=1, top_placed_by=0, players=3) == (card == DOG), card


@pytest.mark.parametrize("top, card, by, placer, players, code, en, fr", [
    ("leon-marlon", "rocce-fabi", 1, 0, 3, "wrong_footballer", "Marlon", "Marlon"),
    ("leon-marlon", "marlon-fabi", 0, 0, 3, "own_card", "another player", "un autre joueur"),
    ("leon-marlon", MICHI, 1, 0, 2, "michi_not_on_dog", "dog", "chien"),
    (MICHI, "leon-marlon", 1, 0, 4, "nothing_on_michi", "dog", "chien"),
])
def test_every_refusal_says_why_in_both_languages(top, card, by, placer, players, code, en, fr):
    problem = placement_problem(top, card, by=by, top_placed_by=placer, players=players)
    assert problem is not None and problem.code == code
    assert en in problem.en and fr in problem.fr and problem.text("fr") == problem.fr


def test_placement_problem_is_none_exactly_when_can_place():
    for top in ALL_CARD_IDS:
        for card in ALL_CARD_IDS:
            for placer in (None, 0):
                for players in (2, 3):
                    problem = placement_problem(top, card, by=0, top_placed_by=placer, players=players)
                    assert (problem is None) == can_place(top, card, by=0, top_placed_by=placer, players=players)


@pytest.mark.parametrize("kwargs", [
    dict(top="leon-leon", card=DOG, by=0, top_placed_by=None, players=3),
    dict(top=DOG, card="bob", by=0, top_placed_by=None, players=3),
    dict(top=DOG, card=DOG, by=0, top_placed_by=None, players=5),
    dict(top=DOG, card=DOG, by=0, top_placed_by=None, players=1),
])
def test_bad_ids_and_player_counts_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        can_place(**kwargs)


def test_every_footballer_can_receive_and_pass():
    for name in FOOTBALLERS:
        assert sum(parse_card(c).big == name for c in FOOTBALLER_CARDS) == 4
        assert sum(parse_card(c).small == name for c in FOOTBALLER_CARDS) == 4
