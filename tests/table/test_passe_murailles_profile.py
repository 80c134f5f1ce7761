"""Loading and checking profiles, and the promises of the shipped default profile."""

import json
import random
import statistics
from pathlib import Path

import pytest

import table
from table.passe_murailles import (
    Frame,
    Game,
    Profile,
    ProfileError,
    load_profile,
    profile_dict,
)

SHIPPED = Path(table.__file__).parent / "profiles" / "passe_murailles.toml"


# ----------------------------------------------------------------- loading
def test_none_loads_the_shipped_file_and_every_form_loads_the_same_profile():
    default = load_profile(None)
    assert isinstance(default, Profile)
    assert load_profile(SHIPPED) == default
    assert load_profile(str(SHIPPED)) == default
    assert load_profile(default) is default
    assert load_profile(json.loads(json.dumps(default.to_dict()))) == default
    assert str(SHIPPED) == load_profile(str(SHIPPED)).source


def test_a_custom_profile_keeps_its_geometry():
    p = load_profile(profile_dict(4, [[0], [1], [2], [3], [-1, 4], [0]], ranges=(-1, 3), starts=2,
                                  board_start=3, pegs_per_player=3))
    assert p.columns == 4 and p.pegs_per_player == 3 and p.board_start == 3
    assert p.slide(5).holes == (-1, 4) and (p.slide(5).low, p.slide(5).high, p.slide(5).start) == (-1, 3, 2)
    assert p.points(3, 2) == 30 and p.points(1, 0) == 1
    assert load_profile(p.to_dict()) == p


def test_pegs_per_player_defaults_to_eight():
    d = profile_dict(3, [[0]] * 6)
    del d["pegs"]
    assert load_profile(d).pegs_per_player == 8


def _shipped_text():
    return SHIPPED.read_text(encoding="utf-8")


def _slide_blocks_removed(text, count):
    blocks = text.split("[[slides]]")
    return "[[slides]]".join(blocks[: len(blocks) - count]) + text[text.index("[board]"):]


@pytest.mark.parametrize(
    "edit, problem",
    [
        (lambda t: t.replace("[board]\nstart = 2\n", "[board]\n"), "missing key 'start' in [board]"),
        (lambda t: _slide_blocks_removed(t, 1), "exactly 6 [[slides]] entries, not 5"),
        (lambda t: t.replace("range = [-2, 2]\nstart = 0", "range = [-2, 2]\nstart = 3", 1),
         "entry 1: 'range' [-2, 2] does not contain start 3"),
        (lambda t: t.replace("1 = [1, 2, 3, 5, 3, 2, 1]", "1 = [1, 2, 3, 5, 3, 2]"),
         "[board.positions] 1 has 6 scores but the frame has 7 columns"),
        (lambda t: t.replace("[frame]", "[frame"), "is not valid TOML"),
        (lambda t: t.replace("columns = 7", "columns = 7\nrows = 6"), "unknown key(s) rows in [frame]"),
        (lambda t: t.replace("holes = [0, 2, 4, 6]", 'holes = [0, "2"]'), "'holes' must be a list of integers"),
        (lambda t: t.replace("holes = [0, 2, 4, 6]", "holes = [0, 2, 2]"), "lists the same column twice"),
        (lambda t: t.replace("holes = [0, 2, 4, 6]", "holes = []"), "at least one hole"),
        (lambda t: t.replace("range = [-2, 2]", "range = [2, -2]", 1), "must have lowest < highest"),
        (lambda t: t.replace("range = [-2, 2]", "range = [-2, 0, 2]", 1), "must be [lowest, highest]"),
        (lambda t: t.replace("[board]\nstart = 2", "[board]\nstart = 4"), "start must be 1, 2 or 3, not 4"),
        (lambda t: t.replace("3 = [5, 3, 2, 1, 2, 3, 5]", "4 = [5, 3, 2, 1, 2, 3, 5]"), "exactly the keys 1, 2 and 3"),
        (lambda t: t.replace("2 = [0, 0, 0, 0, 0, 0, 0]", "2 = [0, 0, 0, -1, 0, 0, 0]"), "cannot be negative"),
        (lambda t: t.replace("per_player = 8", "per_player = 0"), "per_player must be at least 1"),
        (lambda t: t.replace("columns = 7", "columns = true"), "'columns' in [frame] must be an integer, not bool"),
        (lambda t: t.replace("[frame]\ncolumns = 7", ""), "missing [frame] table"),
    ],
)
def test_a_broken_profile_file_is_refused_naming_the_file_and_the_problem(tmp_path, edit, problem):
    text = _shipped_text()
    broken = edit(text)
    assert broken != text, "the edit must change the file"
    path = tmp_path / "my_set.toml"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    message = str(info.value)
    assert message.startswith(str(path)), message
    assert problem in message, message


def test_an_unreadable_file_is_a_profile_error(tmp_path):
    with pytest.raises(ProfileError, match="nowhere.toml: cannot be read"):
        load_profile(tmp_path / "nowhere.toml")
    latin = tmp_path / "latin1.toml"
    latin.write_bytes("name = 'carré'\n".encode("latin-1"))
    with pytest.raises(ProfileError, match="latin1.toml: is not UTF-8"):
        load_profile(latin)


def test_a_bad_dict_or_value_is_a_profile_error():
    with pytest.raises(ProfileError, match="<profile dict>: missing \\[\\[slides\\]\\]"):
        load_profile({"frame": {"columns": 3}, "board": {}})
    with pytest.raises(ProfileError, match="not int"):
        load_profile(7)


# ----------------------------------------------------------------- the shipped profile
@pytest.fixture(scope="module")
def shipped():
    return load_profile(None)


def test_shipped_profile_has_the_ruled_shape(shipped):
    assert shipped.columns == 7 and len(shipped.slides) == 6
    assert all((s.low, s.high, s.start) == (-2, 2, 0) for s in shipped.slides)
    assert shipped.board_start == 2 and shipped.pegs_per_player == 8
    assert all(shipped.points(2, c) == 0 for c in range(7)), "position 2: the zero section under the frame"
    for position in (1, 3):
        assert any(shipped.points(position, c) > 0 for c in range(7)), f"position {position} must score"


def _columns_with_hole(spec, offset, columns):
    return {h + offset for h in spec.holes if 0 <= h + offset < columns}


def test_shipped_profile_has_no_column_open_from_top_to_bottom_at_the_start(shipped):
    by_data = set(range(7))
    for spec in shipped.slides[1:]:
        by_data &= _columns_with_hole(spec, spec.start, 7)
    assert by_data == set()
    assert Frame(shipped).open_columns() == []


def test_every_column_of_the_shipped_profile_can_be_opened(shipped):
    for column in range(7):
        choice = []
        for spec in shipped.slides[1:]:
            offsets = [o for o in spec.offsets() if column in _columns_with_hole(spec, o, 7)]
            assert offsets, f"no offset of a slide puts a hole over column {column}"
            choice.append(offsets[0])
        frame = Frame(shipped)
        for slide, offset in enumerate(choice, start=2):
            if offset:
                frame.move_slide(slide, offset)
        assert column in frame.open_columns()


def test_slide_1_of_the_shipped_profile_offers_several_holes_at_every_offset(shipped):
    spec = shipped.slide(1)
    for offset in spec.offsets():
        frame = Frame(shipped)
        if offset:
            frame.move_slide(1, offset)
        assert len(frame.drop_columns()) >= 3, f"offset {offset}: {frame.drop_columns()}"


def _some_peg_rests_on_a_peg(frame):
    return any(frame.peg_at(p.slide + 1, p.column) for p in frame.pegs(where="frame"))


def test_random_games_on_the_shipped_profile_are_worth_playing(shipped):
    lengths, totals, winners, stacked = [], [], [], 0
    for seed in range(60):
        rng = random.Random(seed)
        game = Game(shipped)
        saw_stack = False
        while not game.is_over() and len(game.history) < 5000:
            game.apply(rng.choice(game.legal_actions()))
            saw_stack = saw_stack or _some_peg_rests_on_a_peg(game.frame)
        assert game.is_over(), f"seed {seed} did not end"
        lengths.append(len(game.history))
        totals += game.scores().values()
        winners.append(tuple(game.winners()))
        stacked += saw_stack
    assert statistics.median(lengths) < 250 and max(lengths) < 1000
    assert len(set(totals)) >= 10, "scores should spread out"
    assert statistics.pstdev(totals) >= 2
    assert winners.count(("red",)) >= 10 and winners.count(("blue",)) >= 10
    assert winners.count(("red", "blue")) <= 15
    assert stacked >= 45, "pegs should often rest on pegs"
