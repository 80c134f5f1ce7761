"""PtiPassPass cup layouts: the default 3×N grid, custom profiles and their errors."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from table.ptipasspass import IllegalAction, Layout, default_layout, load_layout, new_game
from table.rules import ProfileError

PROFILE = Path(__file__).resolve().parents[2] / "table" / "profiles" / "ptipasspass_layout.toml"


def aligned_triples(cells):
    """Independent reference: every 3 cells evenly spaced by a unit step in one of the
    four directions (row, column, both diagonals)."""
    cells = set(cells)
    found = set()
    for a, b, c in combinations(sorted(cells), 3):
        for first, mid, last in ((a, b, c), (a, c, b), (b, a, c)):
            dr, dc = mid[0] - first[0], mid[1] - first[1]
            if (dr, dc) in {(0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1)} and \
                    (last[0] - mid[0], last[1] - mid[1]) == (dr, dc):
                found.add(frozenset((a, b, c)))
    return found


@pytest.mark.parametrize("players,expected_lines", [(3, 8), (4, 14), (5, 20), (6, 26)])
def test_default_layout_is_three_rows_by_players_columns(players, expected_lines):
    layout = default_layout(players)
    assert sorted(layout.cells) == [(r, c) for r in range(3) for c in range(players)]
    assert len(layout.lines) == expected_lines
    assert {frozenset(line) for line in layout.lines} == aligned_triples(layout.cells)
    assert len({frozenset(line) for line in layout.lines}) == len(layout.lines)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_neighbours_share_a_side(players):
    layout = default_layout(players)
    for cell in layout.cells:
        expected = {(cell[0] + dr, cell[1] + dc) for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))}
        assert set(layout.neighbours(cell)) == expected & set(layout.cells)
        for other in layout.neighbours(cell):
            assert cell in layout.neighbours(other)


def test_corner_edge_and_centre_neighbours():
    layout = default_layout(4)
    assert set(layout.neighbours((0, 0))) == {(0, 1), (1, 0)}
    assert set(layout.neighbours((1, 1))) == {(0, 1), (2, 1), (1, 0), (1, 2)}
    assert set(layout.neighbours((2, 3))) == {(2, 2), (1, 3)}
    assert not layout.are_contiguous((0, 0), (1, 1))  # diagonal cups do not share a side
    assert layout.neighbours((9, 9)) == ()


def test_diagonals_both_ways_and_lines_found_in_any_order():
    layout = default_layout(5)
    for diagonal in (((0, 0), (1, 1), (2, 2)), ((0, 4), (1, 3), (2, 2)), ((0, 2), (1, 1), (2, 0))):
        assert layout.find_line(diagonal) is not None
        assert layout.find_line(tuple(reversed(diagonal))) == layout.find_line(diagonal)
    assert layout.find_line(((0, 0), (1, 1), (2, 3))) is None
    assert layout.find_line(((0, 0), (0, 1))) is None
    # Columns are the three cups of one column, rows need three consecutive cups.
    assert layout.find_line(((0, 3), (1, 3), (2, 3))) is not None
    assert layout.find_line(((0, 0), (0, 1), (0, 3))) is None


def test_contiguous_pairs_lists_each_pair_once():
    layout = default_layout(3)
    pairs = layout.contiguous_pairs()
    assert len(pairs) == 12  # 3 rows × 2 + 2 × 3 columns
    assert len({frozenset(p) for p in pairs}) == 12


def small_profile():
    return {"name": "T", "cells": [[0, 0], [0, 1], [0, 2], [1, 0]],
            "neighbours": [[[0, 0], [0, 1]], [[0, 1], [0, 2]], [[0, 0], [1, 0]]],
            "lines": [[[0, 0], [0, 1], [0, 2]]]}


def test_load_layout_from_a_dict():
    layout = load_layout(small_profile())
    assert layout.name == "T"
    assert layout.cells == ((0, 0), (0, 1), (0, 2), (1, 0))
    assert set(layout.neighbours((0, 0))) == {(0, 1), (1, 0)}
    assert layout.lines == (((0, 0), (0, 1), (0, 2)),)
    assert load_layout(layout.to_dict()) == layout


def test_shipped_profile_file_is_the_default_four_player_grid():
    layout = load_layout(PROFILE)
    assert layout == default_layout(4)
    assert load_layout(str(PROFILE)) == layout


@pytest.mark.parametrize("breakage,needle", [
    (lambda p: p.pop("lines"), "missing 'lines'"),
    (lambda p: p.pop("cells"), "missing 'cells'"),
    (lambda p: p["cells"].append([0, 0]), "listed twice"),
    (lambda p: p["neighbours"].append([[0, 0], [5, 5]]), "not in 'cells'"),
    (lambda p: p["neighbours"].append([[0, 0], [0, 0]]), "neighbour itself"),
    (lambda p: p["lines"].append([[0, 0], [0, 1]]), "has 3 cells"),
    (lambda p: p["lines"].append([[0, 0], [0, 1], [0, 0]]), "repeats a cell"),
    (lambda p: p["lines"].append([[0, 2], [0, 1], [0, 0]]), "listed twice"),
    (lambda p: p.__setitem__("lines", []), "'lines' is empty"),
    (lambda p: p.__setitem__("cells", []), "'cells' is empty"),
    (lambda p: p["cells"].append(["a", 1]), "pair of integers"),
    (lambda p: p.__setitem__("neighbours", "none"), "must be a list"),
])
def test_broken_profiles_are_refused_clearly(breakage, needle):
    profile = small_profile()
    breakage(profile)
    with pytest.raises(ProfileError, match=needle):
        load_layout(profile)


def test_broken_profile_files(tmp_path):
    with pytest.raises(ProfileError, match="cannot read"):
        load_layout(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("cells = [[0, 0]\n")
    with pytest.raises(ProfileError, match="not valid TOML"):
        load_layout(bad)
    with pytest.raises(ProfileError, match="dict or a file path"):
        load_layout(42)


def test_a_game_on_a_custom_layout_needs_three_cups_per_player():
    row = {"cells": [[0, c] for c in range(9)],
           "neighbours": [[[0, c], [0, c + 1]] for c in range(8)],
           "lines": [[[0, c], [0, c + 1], [0, c + 2]] for c in range(7)]}
    game = new_game(3, layout=row)
    assert len(game.layout.lines) == 7 and isinstance(game.layout, Layout)
    with pytest.raises(IllegalAction) as refused:
        new_game(4, layout=row)
    assert refused.value.code == "layout" and "12" in refused.value.fr
