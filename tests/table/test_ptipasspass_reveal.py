"""is_winning_reveal / winning_picks: three lifted cups make a set or not."""

from __future__ import annotations

from itertools import combinations_with_replacement, product

import pytest

from table.ptipasspass import COLOURS, IllegalAction, is_winning_reveal, winning_picks


def test_all_the_same_colour_wins():
    assert is_winning_reveal([["green"], ["green"], ["green"]])
    assert winning_picks([["green"], ["green"], ["green"]]) == ("green", "green", "green")


def test_all_different_colours_win():
    assert is_winning_reveal([["orange"], ["blue"], ["green"]])
    assert winning_picks([["orange"], ["blue"], ["green"]]) == ("orange", "blue", "green")


def test_the_player_picks_among_several_tokens():
    cups = [["blue", "orange"], ["green", "green"], ["orange", "blue"]]
    picks = winning_picks(cups)
    assert picks is not None and len(set(picks)) == 3
    assert all(p in cup for p, cup in zip(picks, cups, strict=True))
    # Only one choice works here: blue from the first cup makes three blues.
    assert winning_picks([["blue", "green"], ["blue"], ["blue"]]) == ("blue", "blue", "blue")


def test_an_empty_cup_never_wins():
    assert not is_winning_reveal([["blue"], [], ["blue"]])
    assert not is_winning_reveal([[], [], []])
    assert winning_picks([["blue", "green", "orange"], ["blue"], []]) is None


def test_two_colours_only_fail():
    assert not is_winning_reveal([["blue"], ["blue"], ["green"]])
    assert not is_winning_reveal([["orange"], ["green"], ["green", "orange"]])
    assert not is_winning_reveal([["blue"], ["blue"], ["green", "orange"]])
    assert not is_winning_reveal([["green", "green"], ["orange"], ["orange"]])


def test_bad_colours_and_cup_counts_are_refused():
    with pytest.raises(IllegalAction) as refused:
        is_winning_reveal([["purple"], ["blue"], ["blue"]])
    assert refused.value.code == "bad_colour" and "bleu" in refused.value.fr
    with pytest.raises(IllegalAction) as refused:
        is_winning_reveal([["blue"], ["blue"]])
    assert refused.value.code == "bad_reveal"
    with pytest.raises(IllegalAction):
        is_winning_reveal(["blue", ["blue"], ["blue"]])  # a bare string is not a cup's list


def reference(cups):
    """Brute force over every pick: the rule book's sentence, literally."""
    return any(len(set(picks)) in (1, 3) for picks in product(*cups)) if all(cups) else False


def test_matches_brute_force_on_every_small_reveal():
    contents = [list(c) for n in range(3) for c in combinations_with_replacement(COLOURS, n)]
    checked = 0
    for cups in product(contents, repeat=3):
        assert is_winning_reveal(list(cups)) == reference(cups), cups
        picks = winning_picks(list(cups))
        if picks is not None:
            assert len(set(picks)) in (1, 3)
            assert all(p in cup for p, cup in zip(picks, cups, strict=True))
        checked += 1
    assert checked == 10 ** 3
