"""Pure trick rules: the rule book's four examples, every tie case of ruling 1, the
second winner's choices, Pass Pass counting and round points."""

from __future__ import annotations

import pytest

from table.pass_pass import (
    Card,
    InvalidInput,
    analyse_trick,
    pass_pass_count,
    resolve_trick,
    round_points,
    second_take_options,
    shipped_deck,
)

# The rule book's players, seated in the order they play in its examples.
DAVID, STEPHANIE, ALEX, FABIENNE = 0, 1, 2, 3


def c(card_id: str) -> Card:
    return Card.from_id(card_id, shipped_deck())


def plays(*pairs: tuple[int, str]) -> list[tuple[int, Card]]:
    return [(seat, c(card_id)) for seat, card_id in pairs]


def test_example_1_all_one_colour():
    trick = plays((DAVID, "purple-10"), (STEPHANIE, "purple-11"), (ALEX, "purple-12"), (FABIENNE, "purple-6"))
    assert resolve_trick(trick) == (ALEX, STEPHANIE)
    assert analyse_trick(trick).majority == "purple"


def test_example_2_two_cards_make_the_majority():
    trick = plays((DAVID, "purple-10"), (STEPHANIE, "blue-11"), (ALEX, "green-4"), (FABIENNE, "purple-6"))
    result = analyse_trick(trick)
    assert (result.first, result.second) == (DAVID, FABIENNE)
    assert result.majority == "purple" and result.ranking == ("purple", "blue", "green")


def test_example_3_single_card_majority_second_from_next_colour():
    # Blue 11 alone; purple {10} and green {4, 6} tie on 10: the 10 beats the 6.
    trick = plays((DAVID, "purple-10"), (STEPHANIE, "blue-11"), (ALEX, "green-4"), (FABIENNE, "green-6"))
    result = analyse_trick(trick)
    assert (result.first, result.second) == (STEPHANIE, DAVID)
    assert result.ranking == ("blue", "purple", "green")
    assert result.second_card == c("purple-10")


def test_example_3_variant_fabienne_plays_a_7():
    # Blue {11} and green {4, 7} tie on 11: blue wins on its higher card (rule 2), so
    # Stéphanie is first, and green is second-ranked: Fabienne's 7 makes her second.
    trick = plays((DAVID, "purple-10"), (STEPHANIE, "blue-11"), (ALEX, "green-4"), (FABIENNE, "green-7"))
    result = analyse_trick(trick)
    assert (result.first, result.second) == (STEPHANIE, FABIENNE)
    assert result.ranking == ("blue", "green", "purple")


def test_example_4_identical_groups_earliest_highest_card_wins():
    trick = plays((DAVID, "purple-10"), (STEPHANIE, "green-10"), (ALEX, "purple-6"), (FABIENNE, "green-6"))
    assert resolve_trick(trick) == (DAVID, ALEX)


def test_position_not_seat_number_breaks_the_last_tie():
    # The same cards, but Stéphanie leads: her green 10 is now played first.
    trick = plays((STEPHANIE, "green-10"), (ALEX, "purple-6"), (FABIENNE, "green-6"), (DAVID, "purple-10"))
    assert resolve_trick(trick) == (STEPHANIE, FABIENNE)


def test_sum_tie_goes_to_the_highest_card_even_with_more_cards_against_it():
    # Yellow {12} vs blue {5, 4, 3}: both 12; the single 12 wins.
    trick = plays((0, "blue-5"), (1, "blue-4"), (2, "yellow-12"), (3, "blue-3"))
    assert resolve_trick(trick) == (2, 0)


def test_sum_beats_highest_card():
    # Green {9, 8} = 17 beats purple {12}: the sum is compared first.
    trick = plays((0, "purple-12"), (1, "green-9"), (2, "green-8"))
    assert resolve_trick(trick) == (1, 2)


def test_three_player_trick_all_different_colours_same_value():
    # Three groups of 5: the earliest played wins, the next earliest is second.
    trick = plays((1, "blue-5"), (2, "green-5"), (0, "purple-5"))
    assert resolve_trick(trick) == (1, 2)


def test_three_player_trick_one_colour_pair():
    trick = plays((2, "yellow-2"), (0, "purple-9"), (1, "yellow-8"))
    assert resolve_trick(trick) == (1, 2)  # yellow 10 beats purple 9


def test_five_player_trick():
    # Yellow {3, 4, 1} = 8 ties blue {8}; blue wins on its 8; yellow's 4 is second.
    trick = plays((3, "yellow-3"), (4, "yellow-4"), (0, "blue-8"), (1, "green-2"), (2, "yellow-1"))
    result = analyse_trick(trick)
    assert (result.first, result.second) == (0, 4)
    assert result.ranking == ("blue", "yellow", "green")


def test_six_player_trick_second_group_tie_on_sum_and_value_goes_to_earliest():
    # Purple {12} alone on top; blue {7, 2} and green {6, 3} tie on 9 -> highest 7 wins.
    trick = plays((0, "green-6"), (1, "blue-7"), (2, "purple-12"), (3, "green-3"), (4, "blue-2"), (5, "yellow-1"))
    assert resolve_trick(trick) == (2, 1)
    # Blue {6, 3} and green {6, 3}: identical; green's 6 was played first.
    trick = plays((0, "green-6"), (1, "blue-6"), (2, "purple-12"), (3, "green-3"), (4, "blue-3"), (5, "yellow-1"))
    assert resolve_trick(trick) == (2, 0)


def test_bad_tricks_are_refused():
    with pytest.raises(InvalidInput):
        resolve_trick(plays((0, "blue-3")))
    with pytest.raises(InvalidInput):
        resolve_trick(plays((0, "blue-3"), (0, "blue-4"), (1, "green-2")))  # a seat twice
    with pytest.raises(InvalidInput):
        resolve_trick([(0, c("blue-3")), (1, c("blue-3")), (2, c("green-2"))])  # a card twice


def ids(option: tuple[Card, ...]) -> list[str]:
    return [card.id for card in option]


def test_second_take_without_tie_is_forced():
    options = second_take_options([c("purple-11"), c("purple-10"), c("purple-6")])
    assert [ids(o) for o in options] == [["purple-6", "purple-10"]]


def test_second_take_tie_straddling_the_cut_is_a_choice():
    options = second_take_options([c("purple-3"), c("green-5"), c("blue-5")])
    assert sorted(ids(o) for o in options) == [["purple-3", "blue-5"], ["purple-3", "green-5"]]


def test_second_take_three_way_tie_at_five_players():
    remaining = [c("purple-4"), c("green-4"), c("yellow-4"), c("blue-9")]
    options = second_take_options(remaining)
    assert len(options) == 3
    assert all(len(o) == 2 and all(card.value == 4 for card in o) for o in options)
    assert len({frozenset(o) for o in options}) == 3


def test_second_take_tie_below_the_cut_is_no_choice():
    options = second_take_options([c("purple-3"), c("green-3"), c("blue-9"), c("yellow-12")])
    assert [ids(o) for o in options] == [["purple-3", "green-3"]]


def test_second_take_at_three_players_is_both_cards():
    assert [ids(o) for o in second_take_options([c("blue-12"), c("green-1")])] == [["green-1", "blue-12"]]


@pytest.mark.parametrize(
    "cards, expected",
    [
        ([], 0),
        (["purple-1", "blue-2", "green-3"], 0),
        (["purple-1", "blue-2", "green-3", "yellow-4"], 1),
        (["purple-1", "purple-2", "purple-3", "blue-2", "green-3", "yellow-4"], 1),
        (["purple-1", "purple-2", "blue-1", "blue-2", "green-1", "green-2", "yellow-1", "yellow-2"], 2),
        (["purple-1", "purple-2", "blue-1", "blue-2", "green-1", "green-2", "yellow-1"], 1),
    ],
)
def test_pass_pass_count(cards, expected):
    assert pass_pass_count([c(i) for i in cards]) == expected


def test_round_points_rule_book_example_shape():
    # 6 cards carrying 3 diamonds in all make 9 points (the rule book's count).
    cards = [c("purple-12"), c("blue-11"), c("green-10"), c("yellow-7"), c("purple-8"), c("blue-9")]
    assert sum(card.diamonds for card in cards) == 3
    assert round_points(cards) == 9
    assert round_points([]) == 0
    assert round_points([Card("blue", 1)]) == 1  # a card without a profile carries none
