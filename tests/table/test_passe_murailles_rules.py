"""Every rule sentence and ruling of RULINGS.md section 4, on small readable profiles.

Profiles have 3 columns; ``SOLID`` is a slide whose only hole never comes under the
window, ``FULL`` one with a hole in every cell it can ever show.
"""

import pytest

import table.rules
from table.passe_murailles import (
    DropPeg,
    Fell,
    GameOver,
    IllegalAction,
    Landed,
    Landing,
    LostTurn,
    MoveBoard,
    MoveSlide,
    Skipped,
    new_game,
    profile_dict,
)

SOLID = [99]
FULL = list(range(-4, 7))
BOARD = {1: [1, 2, 3], 2: [0, 0, 0], 3: [4, 5, 6]}


def game_with(holes, first="red", **kw):
    kw.setdefault("positions", BOARD)
    return new_game(profile_dict(3, holes, **kw), first=first)


def refused(game, action):
    """Apply an illegal action: check it raises, changes nothing, and return the error."""
    before = game.to_dict()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert game.to_dict() == before
    assert info.value.en and info.value.fr and info.value.en != info.value.fr
    return info.value


# A peg dropped at column 1 falls into slide 2 and rests on slide 3 (a failed drop);
# columns 0 and 2 keep a dropped peg in slide 1. Slide 3 moved +1 opens column 1 to the board.
STACK = [[0, 1, 2], [1], [0], [1], [1], [1]]
# Slide 2 is the only gate: slide 1 pegs at 0 or 2 fall to the board when a slide-2 hole
# comes under them (slides 3-6 are all holes).
GATE = [[0, 2], [1], FULL, FULL, FULL, FULL]


# ----------------------------------------------------------------- turns
def test_red_plays_first_then_turns_alternate():
    g = game_with(STACK)
    assert g.current_player == "red"
    assert g.apply(MoveSlide(4, 1)).next_player == "blue"
    assert g.current_player == "blue"
    assert g.apply(MoveSlide(5, 1)).next_player == "red"


def test_anything_but_the_three_attacks_is_refused_in_both_languages():
    g = game_with(STACK)
    err = refused(g, "pass")
    assert err.code == "unknown_action"
    assert err.text("en") == err.en and err.text("fr") == err.fr
    assert isinstance(err, table.rules.IllegalAction)
    assert g.refusal(MoveBoard(1)) is None and g.refusal(MoveBoard(5)).code == "board_step"


def test_the_table_may_choose_blue_to_begin():
    g = game_with(STACK, first="blue")
    out = g.apply(DropPeg(0))
    assert (out.player, out.next_player) == ("blue", "red")
    assert g.frame.peg("blue-1").where == "frame"
    with pytest.raises(ValueError, match="first must be 'red' or 'blue'"):
        game_with(STACK, first="green")


# ----------------------------------------------------------------- attack A
def test_attack_a_puts_the_next_peg_of_the_player_into_slide_1():
    g = game_with(STACK)
    out = g.apply(DropPeg(0))
    assert out.events[0].to_dict() == {"type": "dropped", "peg": "red-1", "colour": "red", "column": 0}
    assert out.lost_turn is None and out.skipped == []
    assert g.in_hand() == {"red": 7, "blue": 8}
    g.apply(DropPeg(2))
    g.apply(DropPeg(1))  # red's second peg: red-2
    assert g.frame.peg("red-2").where == "frame"


def test_attack_a_may_rest_on_a_peg_already_in_slide_2_without_penalty():
    g = game_with(STACK)
    g.apply(MoveSlide(4, 1))
    g.apply(DropPeg(1))                      # blue-1 falls into slide 2: blue loses a turn
    out = g.apply(DropPeg(1))                # red-1 rests on blue-1 (rule book fig. 6)
    assert [e.type for e in out.events] == ["dropped", "skipped"]
    assert out.lost_turn is None
    assert g.frame.peg_at(1, 1) == "red-1" and g.frame.peg_at(2, 1) == "blue-1"


@pytest.mark.parametrize(
    "column, code",
    [(-1, "outside_window"), (3, "outside_window"), (1, "no_hole"), ("1", "bad_action"), (True, "bad_action")],
)
def test_a_drop_must_go_into_a_hole_of_slide_1_inside_the_window(column, code):
    g = game_with(GATE)
    assert refused(g, DropPeg(column)).code == code


def test_a_hole_outside_the_window_cannot_be_used_even_if_free():
    g = game_with([[-1, 0, 2], [1], FULL, FULL, FULL, FULL])
    g.apply(MoveSlide(1, 1))                 # holes now at 0, 1, 3
    g.apply(MoveBoard(1))
    assert [a.column for a in g.legal_actions() if isinstance(a, DropPeg)] == [0, 1]
    assert refused(g, DropPeg(3)).code == "outside_window"


def test_a_drop_into_a_taken_hole_is_refused():
    g = game_with(GATE)
    g.apply(DropPeg(0))
    err = refused(g, DropPeg(0))
    assert err.code == "hole_taken"
    assert "column 0" in err.en and "colonne 0" in err.fr


def test_a_player_with_no_peg_in_hand_cannot_drop_but_still_moves_slides_or_the_board():
    g = game_with(GATE, pegs_per_player=1)
    g.apply(DropPeg(0))
    g.apply(DropPeg(2))
    assert g.in_hand() == {"red": 0, "blue": 0}
    err = refused(g, DropPeg(0))
    assert err.code == "no_peg_in_hand"
    assert "Red" in err.en and "Rouge" in err.fr
    kinds = {type(a).__name__ for a in g.legal_actions()}
    assert kinds == {"MoveSlide", "MoveBoard"}
    assert g.apply(MoveBoard(1)).next_player == "blue"


# ----------------------------------------------------------------- the drop penalty
def test_a_drop_that_falls_on_loses_the_next_turn_and_the_opponent_plays_twice():
    g = game_with(STACK)
    out = g.apply(DropPeg(1))                # red-1 falls into slide 2
    assert out.lost_turn == "red"
    assert out.events[-1] == LostTurn("red")
    assert out.next_player == "blue"
    second = g.apply(MoveSlide(5, 1))
    assert second.skipped == ["red"] and second.events[-1] == Skipped("red")
    assert second.next_player == "blue"
    third = g.apply(MoveSlide(5, -1))
    assert third.skipped == [] and third.next_player == "red"


def test_a_peg_reaching_the_board_during_its_own_drop_scores_nothing():
    g = game_with([[0, 1, 2], [1], [1], [1], [1], [1]], board_start=3)
    out = g.apply(DropPeg(1))
    assert out.landings == [Landing("red-1", "red", 1, 5, scored=False)]
    assert Landed("red-1", "red", 1, 5, scored=False) in out.events
    assert out.lost_turn == "red"
    assert g.scores() == {"red": 0, "blue": 0}
    assert g.frame.peg("red-1").where == "board"


def test_a_dropped_peg_that_stops_lower_stays_in_play_and_later_scores_for_its_owner():
    g = game_with(STACK, board_start=3)
    g.apply(DropPeg(1))                      # red-1 stops in slide 2 (red loses a turn)
    assert g.frame.peg("red-1").slide == 2
    out = g.apply(MoveSlide(3, 1))           # blue opens column 1: red-1 falls through
    assert out.landings == [Landing("red-1", "red", 1, 5, scored=True)]
    assert g.scores() == {"red": 5, "blue": 0}


def test_a_peg_scores_for_its_owner_even_when_the_opponent_made_it_fall():
    g = game_with(GATE, board_start=1)
    g.apply(DropPeg(0))                      # red-1 rests on slide 2
    out = g.apply(MoveSlide(2, -1))          # blue brings slide 2's hole under column 0
    assert out.player == "blue"
    assert out.landings == [Landing("red-1", "red", 0, 1, scored=True)]
    assert g.scores() == {"red": 1, "blue": 0}


def test_both_players_owing_a_lost_turn_lose_them_in_turn_order():
    g = game_with(STACK)
    g.apply(DropPeg(1))                      # red-1 into slide 2: red owes
    out = g.apply(DropPeg(2))                # blue-1 stays in slide 1: no penalty
    assert out.skipped == ["red"] and out.next_player == "blue"
    g = game_with([[0, 1, 2], [0, 1], [0], [1], [1], [1]])
    g.apply(DropPeg(1))                      # red falls into slide 2: red owes
    out = g.apply(DropPeg(0))                # blue falls into slide 2 too: blue owes
    assert out.lost_turn == "blue"
    assert out.skipped == ["red", "blue"]   # red's turn comes first, then blue's
    assert [e.type for e in out.events][-3:] == ["lost_turn", "skipped", "skipped"]
    assert out.next_player == "red"
    assert g.owes_lost_turn() == {"red": False, "blue": False}
    assert g.apply(MoveSlide(6, 1)).next_player == "blue"


# ----------------------------------------------------------------- attack B
def test_attack_b_moves_one_slide_one_notch_left_or_right():
    g = game_with(STACK)
    out = g.apply(MoveSlide(4, -1))
    assert out.events[0].to_dict() == {"type": "slide_moved", "slide": 4, "step": -1, "from_offset": 0, "to_offset": -1}
    assert g.frame.offset(4) == -1


def test_the_slide_the_opponent_moved_last_turn_cannot_be_moved_either_way():
    g = game_with(STACK)
    g.apply(MoveSlide(3, 1))
    err = refused(g, MoveSlide(3, 1))
    assert err.code == "not_your_slide"
    assert err.en == "Red moved slide 3 last turn: you may not move it now."
    assert refused(g, MoveSlide(3, -1)).code == "not_your_slide"
    assert MoveSlide(3, -1) not in g.legal_actions()
    g.apply(MoveSlide(4, 1))                 # any other slide is fine
    err = refused(g, MoveSlide(4, -1))
    assert err.en == "Blue moved slide 4 last turn: you may not move it now."
    assert err.fr == "Bleu vient de déplacer la coulisse 4 : vous ne pouvez pas la déplacer à ce tour."
    g.apply(MoveSlide(3, -1))                # red may move its own slide again


def test_the_slide_restriction_lasts_one_turn_only():
    g = game_with(STACK)
    g.apply(MoveSlide(3, 1))
    g.apply(MoveBoard(1))
    g.apply(MoveSlide(5, 1))
    g.apply(MoveSlide(3, -1))                # blue: red's last turn moved slide 5, not 3
    assert g.frame.offset(3) == 0


@pytest.mark.parametrize("slide, code", [(0, "no_such_slide"), (7, "no_such_slide"), ("2", "bad_action")])
def test_only_slides_1_to_6_exist(slide, code):
    assert refused(game_with(STACK), MoveSlide(slide, 1)).code == code


@pytest.mark.parametrize("step", [0, 2, -2, 1.0, True])
def test_a_slide_moves_exactly_one_notch(step):
    assert refused(game_with(STACK), MoveSlide(2, step)).code == "slide_step"


def test_a_slide_cannot_go_past_its_end_stops():
    g = game_with(STACK, ranges=[(-1, 1), (-2, 2), (-2, 2), (-2, 2), (-2, 2), (0, 1)])
    g.apply(MoveSlide(1, 1))
    g.apply(MoveSlide(2, 1))
    err = refused(g, MoveSlide(1, 1))
    assert err.code == "slide_range"
    assert "right" in err.en and "droite" in err.fr
    err = refused(g, MoveSlide(6, -1))
    assert err.code == "slide_range" and "left" in err.en and "gauche" in err.fr
    assert MoveSlide(1, 1) not in g.legal_actions() and MoveSlide(1, -1) in g.legal_actions()


# ----------------------------------------------------------------- attack C
def test_attack_c_moves_the_board_one_position_within_1_to_3():
    g = game_with(STACK, board_start=2)
    out = g.apply(MoveBoard(1))
    assert out.events[0].to_dict() == {"type": "board_moved", "from_position": 2, "to_position": 3}
    assert refused(g, MoveBoard(1)).code == "board_range"
    assert refused(g, MoveBoard(2)).code == "board_step"
    assert refused(g, MoveBoard(0)).code == "board_step"


def test_the_board_may_not_go_back_where_the_opponent_just_moved_it_from():
    g = game_with(STACK, board_start=1)
    g.apply(MoveBoard(1))                    # red: 1 -> 2
    err = refused(g, MoveBoard(-1))          # blue may not bring it back to 1
    assert err.code == "board_back"
    assert "position 1" in err.en and "position 1" in err.fr
    assert MoveBoard(-1) not in g.legal_actions() and MoveBoard(1) in g.legal_actions()
    g.apply(MoveBoard(1))                    # but 2 -> 3 is fine (the rule book's example)
    assert g.frame.board_position == 3
    assert refused(g, MoveBoard(-1)).code == "board_back"  # red may not bring it back to 2
    g.apply(MoveSlide(2, 1))
    g.apply(MoveBoard(-1))                   # blue: red's last turn was a slide
    assert g.frame.board_position == 2


def test_the_board_position_changes_what_a_landing_scores_and_the_first_landing_counts():
    scores = {}
    for step in (-1, 0, 1):
        g = game_with(GATE, board_start=2)
        g.apply(DropPeg(2))                  # red-1 rests at column 2
        g.apply(MoveBoard(step) if step else MoveSlide(4, 1))
        out = g.apply(MoveSlide(2, 1))       # red opens column 2: red-1 lands
        scores[2 + step] = g.scores()["red"]
        assert out.landings[0].points == scores[2 + step]
        g.apply(MoveBoard(-1) if g.frame.board_position > 1 else MoveBoard(1))
        assert g.scores()["red"] == scores[2 + step]  # moving the board later changes nothing
    assert scores == {1: BOARD[1][2], 2: 0, 3: BOARD[3][2]}


# ----------------------------------------------------------------- "their last turn"
def test_a_skipped_turn_is_not_a_turn_for_the_restrictions():
    g = game_with(STACK)
    g.apply(MoveSlide(5, 1))                 # red moves slide 5
    g.apply(DropPeg(1))                      # blue falls into slide 2: blue owes
    g.apply(MoveSlide(4, 1))                 # red (blue skipped next)
    out = g.apply(MoveSlide(4, -1))          # red again: blue's last action was a drop
    assert out.player == "red" and out.next_player == "blue"
    # Blue's restriction is red's last action actually taken: slide 4, not slide 5.
    assert refused(g, MoveSlide(4, 1)).code == "not_your_slide"
    g.apply(MoveSlide(5, -1))


def test_the_board_restriction_also_reads_the_last_action_actually_taken():
    g = game_with(STACK, board_start=2)
    g.apply(MoveBoard(1))                    # red 2 -> 3
    g.apply(DropPeg(1))                      # blue falls: owes a turn
    g.apply(MoveSlide(6, 1))                 # red, then blue is skipped
    g.apply(MoveBoard(-1))                   # red again, 3 -> 2: allowed (blue last dropped)
    assert g.current_player == "blue"
    assert refused(g, MoveBoard(1)).code == "board_back"


# ----------------------------------------------------------------- stacks and chains in a game
def test_pegs_stacked_in_a_column_all_fall_when_the_column_opens_each_for_its_owner():
    g = game_with(STACK, board_start=3)
    g.apply(DropPeg(1))                      # red-1 into slide 2 (red owes)
    g.apply(DropPeg(1))                      # blue-1 rests on red-1; red skipped
    out = g.apply(MoveSlide(3, 1))           # blue opens column 1 under slide 2
    assert [e for e in out.events if isinstance(e, Fell)] == [
        Fell("red-1", "red", 2, None, 1), Fell("blue-1", "blue", 1, None, 1),
    ]
    assert g.scores() == {"red": 5, "blue": 5}


@pytest.mark.parametrize("column, step, side", [(0, -1, "left"), (2, +1, "right")])
def test_a_side_spill_counts_as_played_and_scores_nothing(column, step, side):
    g = game_with(GATE, pegs_per_player=1, board_start=3)
    g.apply(DropPeg(column))
    out = g.apply(MoveSlide(1, step))        # blue carries red-1 past the side wall
    assert out.pushed_off == ["red-1"] and out.landings == []
    assert out.events[1].to_dict() == {"type": "pushed_off", "peg": "red-1", "colour": "red", "slide": 1, "side": side}
    assert (g.frame.peg("red-1").where, g.frame.peg("red-1").side) == ("table", side)
    assert g.is_over()                       # red's only peg has been played
    assert g.scores() == {"red": 0, "blue": 0} and g.winners() == ["red", "blue"]


# ----------------------------------------------------------------- end of the game
def _play(g, *actions):
    return [g.apply(a) for a in actions]


def test_the_game_ends_when_all_pegs_of_one_player_have_left_and_the_others_score_nothing_more():
    g = game_with(GATE, pegs_per_player=2, board_start=3)
    outs = _play(
        g,
        DropPeg(0),          # red-1 rests on slide 2
        DropPeg(2),          # blue-1 rests on slide 2
        MoveSlide(2, -1),    # red: slide 2 hole under column 0 -> red-1 lands, 4 points
        DropPeg(0),          # blue-2 falls straight through: no score, blue owes
        DropPeg(0),          # red-2 falls straight through: red's pegs have all left
    )
    assert outs[2].landings == [Landing("red-1", "red", 0, 4, True)]
    last = outs[-1]
    assert g.is_over() and g.current_player is None and last.next_player is None
    assert last.events[-1] == GameOver({"red": 4, "blue": 0}, ["red"])
    assert last.lost_turn is None and last.skipped == []
    assert g.frame.peg("blue-1").where == "frame"   # still in the frame: scores nothing
    assert g.scores() == {"red": 4, "blue": 0} and g.winners() == ["red"]
    assert g.legal_actions() == []
    assert refused(g, MoveBoard(-1)).code == "game_over"


def test_the_player_who_finishes_first_does_not_necessarily_win():
    g = game_with(GATE, pegs_per_player=2, board_start=3)
    _play(
        g,
        DropPeg(0),          # red-1 rests at column 0
        DropPeg(2),          # blue-1 rests at column 2
        MoveSlide(2, 1),     # red opens column 2: blue-1 lands, 6 for blue
        MoveSlide(4, 1),     # blue passes
        MoveSlide(2, -1),    # red: slide 2 back to 0 (hole at 1)
        MoveSlide(4, -1),
        MoveSlide(2, -1),    # red: hole at 0, red-1 lands, 4 for red
        MoveSlide(4, 1),
    )
    assert g.scores() == {"red": 4, "blue": 6} and not g.is_over()
    g.apply(DropPeg(0))                      # red-2 straight through: red has finished
    assert g.is_over() and g.in_hand()["blue"] == 1
    assert g.winners() == ["blue"]


def test_a_draw_names_both_players():
    g = game_with(GATE, pegs_per_player=2, board_start=3)
    _play(
        g,
        DropPeg(0),          # red-1 rests at column 0
        DropPeg(2),          # blue-1 rests at column 2
        MoveSlide(2, -1),    # red-1 lands at column 0: red 4
        MoveSlide(1, -1),    # blue-1 carried to column 1 (red-1 already gone)
        MoveSlide(3, 1),     # red passes
        MoveSlide(1, -1),    # blue-1 carried to column 0, over slide 2's hole: blue 4
    )
    assert g.scores() == {"red": 4, "blue": 4} and not g.is_over()
    out = g.apply(DropPeg(0))                # red-2 falls straight through: red is done
    assert out.events[-1] == GameOver({"red": 4, "blue": 4}, ["red", "blue"])
    assert g.winners() == ["red", "blue"]


def test_landings_during_the_ending_move_all_count():
    g = game_with([[0, 2], [0, 2], FULL, FULL, FULL, FULL], pegs_per_player=1, board_start=3, starts=[0, 1, 0, 0, 0, 0])
    _play(g, DropPeg(0), DropPeg(2))        # both rest on slide 2 (holes at 1 and 3)
    out = g.apply(MoveSlide(2, -1))         # holes at 0 and 2: both land together
    assert {l.peg for l in out.landings} == {"red-1", "blue-1"}
    assert g.is_over() and g.scores() == {"red": 4, "blue": 6} and g.winners() == ["blue"]
