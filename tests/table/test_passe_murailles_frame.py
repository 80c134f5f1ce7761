"""The pure physics of the slide frame (no turns, no restrictions).

Scenarios use tiny profiles built with ``profile_dict`` so each one reads on its own:
3 columns, and ``SOLID`` for a slide whose only hole never comes under the window.
"""

import json

import pytest

from table.passe_murailles import (
    BoardMoved,
    Dropped,
    Fell,
    Frame,
    Landed,
    PhysicsError,
    PushedOff,
    SlideMoved,
    load_profile,
    profile_dict,
)

SOLID = [99]
BOARD = {1: [1, 2, 3], 2: [0, 0, 0], 3: [10, 20, 30]}


def frame_with(holes, **kw):
    kw.setdefault("positions", BOARD)
    return Frame(profile_dict(3, holes, **kw))


def where(frame, peg):
    v = frame.peg(peg)
    return (v.where, v.slide, v.column)


# ----------------------------------------------------------------- looking at the frame
def test_new_frame_holds_every_peg_in_hand_and_starts_slides_and_board_where_the_profile_says():
    f = frame_with([[0, 1, 2], SOLID, SOLID, SOLID, SOLID, SOLID], starts=[0, 1, -1, 0, 2, -2], board_start=3)
    assert f.offsets == {1: 0, 2: 1, 3: -1, 4: 0, 5: 2, 6: -2}
    assert f.board_position == 3
    ids = [p.id for p in f.pegs()]
    assert ids == [f"red-{n}" for n in range(1, 9)] + [f"blue-{n}" for n in range(1, 9)]
    assert {p.where for p in f.pegs()} == {"hand"}
    assert f.next_in_hand("blue") == "blue-1"


def test_hole_columns_follow_the_slide_and_include_holes_outside_the_window():
    f = frame_with([[0], [0], [-2, 1, 4, 7], [0], [0], [0]])
    assert f.hole_columns(3) == [-2, 1, 4, 7]
    f.move_slide(3, +1)
    assert f.hole_columns(3) == [-1, 2, 5, 8]
    f.move_slide(3, -2)
    assert f.hole_columns(3) == [-3, 0, 3, 6]
    assert f.has_hole(3, 0) and not f.has_hole(3, 1)


def test_drop_columns_are_the_free_holes_of_slide_1_inside_the_window():
    f = frame_with([[-1, 0, 2, 5], SOLID, SOLID, SOLID, SOLID, SOLID])
    assert f.drop_columns() == [0, 2]
    f.drop("red-1", 0)
    assert f.drop_columns() == [2]
    f.move_slide(1, +1)  # holes now at 0, 1, 3, 6: red-1 rides to column 1
    assert where(f, "red-1") == ("frame", 1, 1)
    assert f.drop_columns() == [0]


def test_a_column_is_open_when_slides_2_to_6_all_have_a_hole_there_whatever_slide_1_does():
    f = frame_with([SOLID, [1], [1], [1], [1], [0, 1]])
    assert f.open_columns() == [1]
    f.move_slide(4, +1)
    assert f.open_columns() == []
    f.move_slide(4, -1)
    f.move_slide(1, +1)
    assert f.open_columns() == [1]


def test_unknown_slides_and_pegs_are_refused_clearly():
    f = frame_with([[0], SOLID, SOLID, SOLID, SOLID, SOLID])
    with pytest.raises(PhysicsError, match="slides are numbered 1..6"):
        f.hole_columns(7)
    with pytest.raises(PhysicsError, match="no peg 'green-1'"):
        f.peg("green-1")


# ----------------------------------------------------------------- falling and resting
CHAIN = [[0, 1, 2], [1], [1], [1], SOLID, [1]]  # column 1 open down to slide 4, slide 5 solid


def test_a_peg_over_a_solid_cell_stays_in_slide_1():
    f = frame_with(CHAIN)
    assert f.drop("red-1", 0) == [Dropped("red-1", "red", 0)]
    assert where(f, "red-1") == ("frame", 1, 0)


def test_a_peg_falls_through_several_slides_in_one_fall_and_rests_on_a_solid_cell():
    f = frame_with(CHAIN)
    events = f.drop("red-1", 1)
    assert events == [Dropped("red-1", "red", 1), Fell("red-1", "red", 1, 4, 1)]
    assert where(f, "red-1") == ("frame", 4, 1)
    assert f.peg_at(4, 1) == "red-1"


def test_a_peg_rests_on_a_peg_sitting_in_the_hole_below():
    f = frame_with(CHAIN)
    f.drop("red-1", 1)                       # -> slide 4
    assert f.drop("blue-1", 1)[-1] == Fell("blue-1", "blue", 1, 3, 1)
    assert f.drop("red-2", 1)[-1] == Fell("red-2", "red", 1, 2, 1)
    assert f.drop("blue-2", 1) == [Dropped("blue-2", "blue", 1)]  # rests on red-2
    assert [f.peg_at(s, 1) for s in (1, 2, 3, 4)] == ["blue-2", "red-2", "blue-1", "red-1"]


def test_when_the_lowest_peg_of_a_stack_falls_the_pegs_above_follow_lowest_first():
    f = frame_with([[0, 1, 2], [1], [1], [1], [0], [1]], board_start=3)
    for peg in ("red-1", "blue-1", "red-2", "blue-2"):
        f.drop(peg, 1)                       # a stack in slides 4, 3, 2, 1 of column 1
    events = f.move_slide(5, +1)             # slide 5's hole comes under column 1
    assert events == [
        SlideMoved(5, 1, 0, 1),
        Fell("red-1", "red", 4, None, 1), Landed("red-1", "red", 1, 20),
        Fell("blue-1", "blue", 3, None, 1), Landed("blue-1", "blue", 1, 20),
        Fell("red-2", "red", 2, None, 1), Landed("red-2", "red", 1, 20),
        Fell("blue-2", "blue", 1, None, 1), Landed("blue-2", "blue", 1, 20),
    ]
    assert all(f.peg(p).where == "board" for p in ("red-1", "blue-1", "red-2", "blue-2"))
    assert f.pegs(where="frame") == []


def test_falls_in_different_columns_resolve_from_the_lowest_peg_up():
    f = frame_with([[0, 1, 2], [0, 1], [1], SOLID, SOLID, SOLID])
    f.drop("red-1", 0)                       # into slide 2 at column 0, rests on slide 3
    f.drop("blue-1", 2)                      # rests in slide 1 (slide 2 solid at column 2)
    events = f.move_slide(2, +1)             # red-1 carried over slide 3's hole; a hole under blue-1
    assert events == [
        SlideMoved(2, 1, 0, 1),
        Fell("red-1", "red", 2, 3, 1),       # the lower peg first, though its column is left of blue's
        Fell("blue-1", "blue", 1, 2, 2),
    ]


def test_nothing_holds_a_peg_under_slide_6_so_pegs_rest_only_in_slides_1_to_5():
    f = frame_with([[0], [0], [0], [0], [0], [0]], board_start=1)
    events = f.drop("blue-1", 0)
    assert events == [Dropped("blue-1", "blue", 0), Fell("blue-1", "blue", 1, None, 0), Landed("blue-1", "blue", 0, 1)]
    view = f.peg("blue-1")
    assert (view.where, view.column, view.points, view.slide) == ("board", 0, 1, None)


def test_a_peg_falls_when_a_hole_of_the_slide_below_comes_under_it():
    f = frame_with([[0, 1, 2], [0], SOLID, SOLID, SOLID, SOLID])
    f.drop("red-1", 2)
    assert where(f, "red-1") == ("frame", 1, 2)
    assert f.move_slide(2, +1) == [SlideMoved(2, 1, 0, 1)]  # hole at 1: not yet
    assert f.move_slide(2, +1) == [SlideMoved(2, 1, 1, 2), Fell("red-1", "red", 1, 2, 2)]
    assert f.peg_at(2, 2) == "red-1"


def test_a_peg_moves_with_its_slide_and_can_be_carried_over_a_hole():
    f = frame_with([[0, 1, 2], [0, 1, 2], [2], SOLID, SOLID, SOLID])
    f.drop("red-1", 0)                       # falls into slide 2, column 0
    assert where(f, "red-1") == ("frame", 2, 0)
    f.move_slide(2, +1)                      # carried to column 1: slide 3 solid there
    assert where(f, "red-1") == ("frame", 2, 1)
    assert f.move_slide(2, +1)[-1] == Fell("red-1", "red", 2, 3, 2)


@pytest.mark.parametrize("position, expected", [(1, 3), (2, 0), (3, 30)])
def test_landing_scores_the_section_under_the_column_for_the_current_board_position(position, expected):
    f = frame_with([[0, 1, 2], [2], [2], [2], [2], [2]], board_start=position)
    assert f.points_under(2) == expected
    assert f.drop("red-1", 2)[-1] == Landed("red-1", "red", 2, expected)
    assert f.peg("red-1").points == expected


# ----------------------------------------------------------------- the side walls
def test_a_peg_carried_past_the_left_or_right_wall_is_pushed_off_onto_the_table():
    f = frame_with([[0, 2], SOLID, SOLID, SOLID, SOLID, SOLID])
    f.drop("red-1", 0)
    f.drop("blue-1", 2)
    assert f.move_slide(1, -1) == [SlideMoved(1, -1, 0, -1), PushedOff("red-1", "red", 1, "left")]
    assert where(f, "blue-1") == ("frame", 1, 1)
    f.move_slide(1, +1)
    assert f.move_slide(1, +1) == [SlideMoved(1, 1, 0, 1), PushedOff("blue-1", "blue", 1, "right")]
    assert (f.peg("red-1").where, f.peg("red-1").side) == ("table", "left")
    assert (f.peg("blue-1").where, f.peg("blue-1").side) == ("table", "right")
    assert f.pegs(where="frame") == []


def test_pushed_off_pegs_go_first_then_falls_resolve():
    f = frame_with([[0, 1, 2], [0, 2], SOLID, SOLID, SOLID, SOLID])
    f.drop("red-1", 0)                       # falls into slide 2 at column 0
    f.drop("blue-1", 1)                      # rests on slide 2 (solid at column 1)
    events = f.move_slide(2, -1)             # slide 2 holes now at -1 and 1
    assert events == [
        SlideMoved(2, -1, 0, -1),
        PushedOff("red-1", "red", 2, "left"),
        Fell("blue-1", "blue", 1, 2, 1),
    ]


def test_a_peg_resting_on_a_peg_that_is_pushed_off_falls_into_the_hole_now_under_it():
    f = frame_with([[0, 1, 2], [1, 2], SOLID, SOLID, SOLID, SOLID])
    f.drop("red-1", 2)                       # into slide 2 at column 2, rests on slide 3
    f.drop("blue-1", 2)                      # rests on red-1
    assert where(f, "blue-1") == ("frame", 1, 2)
    events = f.move_slide(2, +1)             # red-1 carried to column 3; hole 1 -> 2
    assert events == [
        SlideMoved(2, 1, 0, 1),
        PushedOff("red-1", "red", 2, "right"),
        Fell("blue-1", "blue", 1, 2, 2),
    ]


# ----------------------------------------------------------------- no rules, only physics
def test_two_notches_in_one_move_can_drop_a_peg_at_the_intermediate_notch():
    f = frame_with([[0, 1, 2], [0, 5], SOLID, SOLID, SOLID, SOLID])
    f.drop("red-1", 1)                       # slide 2 solid at 1 at offset 0
    events = f.move_slide(2, +2)             # offset 1: hole 0 under column 1 -> falls
    assert events == [SlideMoved(2, 1, 0, 1), Fell("red-1", "red", 1, 2, 1), SlideMoved(2, 1, 1, 2)]
    assert where(f, "red-1") == ("frame", 2, 2)  # then carried one column right


def test_the_frame_has_no_turn_order():
    f = frame_with([[0, 1, 2], SOLID, SOLID, SOLID, SOLID, SOLID])
    f.drop("blue-3", 0)
    f.drop("blue-1", 1)
    f.move_slide(4, 1)
    f.move_slide(4, 1)
    assert where(f, "blue-3") == ("frame", 1, 0)
    assert f.next_in_hand("blue") == "blue-2"


def _no_setup(f):
    pass


def _drop_red_1_at_0(f):
    f.drop("red-1", 0)


@pytest.mark.parametrize(
    "setup, move, message",
    [
        (_no_setup, lambda f: f.drop("red-1", 1), "no hole over column 1"),
        (_no_setup, lambda f: f.drop("red-1", 3), "outside the window"),
        (_no_setup, lambda f: f.drop("red-9", 0), "no peg 'red-9'"),
        (_drop_red_1_at_0, lambda f: f.drop("blue-1", 0), "is taken"),
        (_drop_red_1_at_0, lambda f: f.drop("red-1", 2), "not in hand"),
        (_no_setup, lambda f: f.move_slide(2, 3), "end stops allow -2..2"),
        (_no_setup, lambda f: f.move_slide(2, 0), "non-zero"),
        (_no_setup, lambda f: f.move_board(2), "cannot reach position 4"),
        (_no_setup, lambda f: f.move_board(-2), "cannot reach position 0"),
    ],
)
def test_physically_impossible_moves_raise_physics_error_and_change_nothing(setup, move, message):
    f = frame_with([[0, 2], SOLID, SOLID, SOLID, SOLID, SOLID])
    setup(f)
    before = f.to_dict()
    with pytest.raises(PhysicsError, match=message):
        move(f)
    assert f.to_dict() == before


def test_moving_the_board_reports_each_position_and_moves_no_peg():
    f = frame_with([[0, 1, 2], SOLID, SOLID, SOLID, SOLID, SOLID], board_start=1)
    f.drop("red-1", 1)
    assert f.move_board(+2) == [BoardMoved(1, 2), BoardMoved(2, 3)]
    assert f.board_position == 3
    assert where(f, "red-1") == ("frame", 1, 1)


# ----------------------------------------------------------------- saving
def test_frame_round_trips_through_json_with_its_profile():
    f = frame_with([[0, 1, 2], [1], [1], [1], [0], [1]], board_start=3)
    f.drop("red-1", 1)
    f.drop("blue-1", 0)
    f.move_slide(5, +1)                      # red-1 lands
    f.move_slide(1, -1)                      # blue-1 pushed off
    f.drop("red-2", 1)
    d = json.loads(json.dumps(f.to_dict()))
    again = Frame.from_dict(d)
    assert again.to_dict() == f.to_dict()
    assert again.profile == f.profile
    assert again.peg_at(2, 1) == f.peg_at(2, 1)


@pytest.mark.parametrize(
    "tamper, message",
    [
        (lambda d: d["pegs"]["red-1"].update(where="frame", slide=1, column=1), "is taken"),
        (lambda d: d["pegs"]["red-1"].update(where="frame", slide=6, column=0), "slides 1..5"),
        (lambda d: d["pegs"]["red-1"].update(where="frame", slide=1, column=2), "no hole"),
        (lambda d: d.update(offsets=[0, 0, 0, 0, 0, 3]), "cannot be at offset 3"),
        (lambda d: d.update(board=4), "position 4"),
        (lambda d: d["pegs"]["red-1"].update(where="pocket"), "unknown place"),
    ],
)
def test_from_dict_refuses_a_state_the_frame_cannot_be_in(tamper, message):
    f = frame_with([[0, 1], SOLID, SOLID, SOLID, SOLID, SOLID])
    f.drop("blue-1", 1)
    d = f.to_dict()
    tamper(d)
    with pytest.raises(PhysicsError, match=message):
        Frame.from_dict(d)


def test_frame_accepts_a_loaded_profile_and_copies_independently():
    profile = load_profile(profile_dict(3, [[0, 1, 2], SOLID, SOLID, SOLID, SOLID, SOLID]))
    f = Frame(profile)
    g = f.copy()
    g.drop("red-1", 0)
    assert f.peg("red-1").where == "hand" and g.peg("red-1").where == "frame"
