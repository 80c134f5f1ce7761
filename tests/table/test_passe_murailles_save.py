"""Saving, restoring and undoing games; outcomes, events and actions as JSON."""

import json
import random

import pytest

from table.passe_murailles import (
    DropPeg,
    Game,
    MoveBoard,
    MoveSlide,
    action_from_dict,
    event_from_dict,
    new_game,
    profile_dict,
)

SOLID = [99]
STACK = [[0, 1, 2], [1], [0], [1], [1], [1]]


def random_game(seed, actions, profile=None):
    rng = random.Random(seed)
    g = new_game(profile)
    for _ in range(actions):
        if g.is_over():
            break
        g.apply(rng.choice(g.legal_actions()))
    return g, rng


def test_a_game_round_trips_through_json_mid_game_and_plays_on_identically():
    g, rng = random_game(seed=11, actions=40)
    assert not g.is_over() and g.frame.pegs(where="frame")
    d = json.loads(json.dumps(g.to_dict()))
    restored = Game.from_dict(d)
    assert restored.to_dict() == g.to_dict()
    for _ in range(30):
        if g.is_over():
            break
        action = rng.choice(g.legal_actions())
        assert restored.apply(action).to_dict() == g.apply(action).to_dict()


def test_a_saved_game_keeps_its_custom_profile_first_player_and_pending_lost_turn():
    g = new_game(profile_dict(3, STACK, pegs_per_player=3), first="blue")
    g.apply(DropPeg(1))                      # blue falls into slide 2: blue owes a turn
    restored = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    assert restored.profile == g.profile and restored.profile.pegs_per_player == 3
    assert restored.first == "blue"
    assert restored.owes_lost_turn() == {"red": False, "blue": True}
    assert restored.apply(MoveSlide(5, 1)).skipped == ["blue"]


@pytest.mark.parametrize(
    "tamper, message",
    [
        (lambda d: d.update(game="pass-pass"), "not a saved passe-murailles game"),
        (lambda d: d.pop("history"), "missing history"),
        (lambda d: d["scores"].update(red=99), "disagrees with its history on: scores"),
        (lambda d: d.update(current_player="red"), "current_player"),
        (lambda d: d["history"].append({"type": "move_board", "step": 2}), "action 4 .* is illegal"),
        (lambda d: d["history"].append({"type": "jump"}), "unknown action type 'jump'"),
        (lambda d: d.update(first="green"), "first must be"),
    ],
)
def test_from_dict_refuses_a_save_that_does_not_hold_together(tamper, message):
    g = new_game(profile_dict(3, STACK))
    for action in (MoveSlide(2, 1), MoveBoard(1), DropPeg(0)):
        g.apply(action)
    d = g.to_dict()
    tamper(d)
    with pytest.raises(ValueError, match=message):
        Game.from_dict(d)


def test_pop_undoes_the_last_action_exactly_and_returns_it():
    g = new_game(profile_dict(3, STACK, board_start=3))
    snapshots = [g.to_dict()]
    actions = [DropPeg(1), DropPeg(1), MoveSlide(3, 1), MoveBoard(-1)]  # lost turn, skip, landings
    for action in actions:
        g.apply(action)
        snapshots.append(g.to_dict())
    assert g.scores()["red"] > 0
    for action in reversed(actions):
        snapshots.pop()
        assert g.pop() == action
        assert g.to_dict() == snapshots[-1]
    with pytest.raises(IndexError, match="no action to undo"):
        g.pop()


def test_pop_reopens_a_finished_game():
    g = new_game(profile_dict(3, [[0, 2], [1], [0], [0], [0], [0]], pegs_per_player=1))
    g.apply(DropPeg(0))
    g.apply(MoveSlide(1, -1))                # red-1 pushed off: red is done
    assert g.is_over()
    assert g.pop() == MoveSlide(1, -1)
    assert not g.is_over() and g.current_player == "blue"
    assert g.frame.peg("red-1").where == "frame"


def test_history_is_a_copy():
    g = new_game()
    g.apply(MoveBoard(1))
    g.history.clear()
    assert g.history == [MoveBoard(1)]


def test_outcomes_and_their_events_are_json_and_rebuild():
    g, _ = random_game(seed=3, actions=0, profile=profile_dict(3, STACK))
    for action in (DropPeg(1), DropPeg(1), MoveSlide(3, 1)):
        out = g.apply(action)
        d = json.loads(json.dumps(out.to_dict()))
        assert d["player"] in ("red", "blue")
        assert action_from_dict(d["action"]) == action
        assert [event_from_dict(e) for e in d["events"]] == out.events
    assert [e["type"] for e in d["events"]] == ["slide_moved", "fell", "landed", "fell", "landed"]
    assert [l["peg"] for l in d["landings"]] == ["red-1", "blue-1"]


def test_action_from_dict_explains_bad_input():
    for action in (DropPeg(4), MoveSlide(6, -1), MoveBoard(1)):
        assert action_from_dict(action.to_dict()) == action
    with pytest.raises(ValueError, match="missing step"):
        action_from_dict({"type": "move_slide", "slide": 2})
    with pytest.raises(ValueError, match="must be a dict"):
        action_from_dict(["drop_peg", 3])
    with pytest.raises(ValueError, match="unknown Passe-Murailles event type"):
        event_from_dict({"type": "teleported"})


def test_pegs_views_say_where_every_peg_is():
    g = new_game(profile_dict(3, [[0, 1, 2], [1], [1], [1], [1], [1]], board_start=3, pegs_per_player=2))
    g.apply(DropPeg(1))                      # red-1 to the board (no score)
    g.apply(DropPeg(0))                      # blue-1 stays in slide 1
    views = {v.id: v for v in g.pegs()}
    assert (views["red-1"].where, views["red-1"].column, views["red-1"].points) == ("board", 1, 20)
    assert (views["blue-1"].where, views["blue-1"].slide, views["blue-1"].column) == ("frame", 1, 0)
    assert views["red-2"].where == "hand"
    assert views["red-2"].to_dict() == {"id": "red-2", "colour": "red", "where": "hand"}
    assert g.landings[0].scored is False
