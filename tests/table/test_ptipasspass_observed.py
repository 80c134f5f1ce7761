"""PtiPassPass observed mode: lift and show outcomes are inputs; what is known and what
was claimed is kept per cup; hand counts stay exact."""

from __future__ import annotations

import json
import random

import pytest

from table.ptipasspass import (
    AnnounceColour,
    CallDoublon,
    CallMenteur,
    CupKnowledge,
    CupShown,
    IllegalAction,
    NextRound,
    Pass,
    Place,
    Reveal,
    Swap,
    TokenShown,
    new_game,
    observed_inputs,
)
from table.ptipasspass.playout import choose_action

EMPTY = {"blue": 0, "green": 0, "orange": 0, "unknown": 0}
ONE_EACH = {"blue": 1, "green": 1, "orange": 1, "unknown": 0}


def secret_drop(game, cup, claim):
    seat = game.active
    game.apply(Place(seat, None, cup))
    game.apply(Pass())
    game.apply(AnnounceColour(seat, claim))
    return game.apply(Pass())


def menteur_on_truth(game, accuser, colour, cup=(2, 2)):
    seat = game.active
    game.apply(Place(seat, None, cup))
    game.apply(Pass())
    game.apply(AnnounceColour(seat, colour))
    game.apply(CallMenteur(accuser))
    return game.apply(TokenShown(colour))


def refused(game, action, code):
    before = game.to_dict()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.code == code, info.value
    assert info.value.fr != info.value.en
    assert game.to_dict() == before


# ---------------------------------------------------------------- drops and claims
def test_a_secret_drop_records_the_count_and_the_claim():
    game = new_game(3, mode="observed")
    refused(game, Place(0, "blue", (0, 0)), "colour_is_secret")
    secret_drop(game, (0, 0), "blue")
    cup = game.cups[(0, 0)]
    assert isinstance(cup, CupKnowledge)
    assert (cup.count, cup.known, cup.claimed, cup.seen, cup.unknown) == (1, (), ("blue",), None, 1)
    assert game.hands[0] == {"blue": 0, "green": 0, "orange": 0, "unknown": 2}
    secret_drop(game, (0, 0), "green")
    assert game.cups[(0, 0)].claimed == ("blue", "green") and game.cups[(0, 0)].count == 2


# ---------------------------------------------------------------- Doublon!
def test_doublon_on_an_empty_cup_waits_for_the_lift_then_moves_a_secret_token():
    game = new_game(3, mode="observed")
    game.apply(Place(0, None, (1, 1)))
    outcome = game.apply(CallDoublon(2))
    assert [e["type"] for e in outcome.events] == ["doublon_called", "awaiting_lift"]
    assert game.phase == "reveal_outcome"
    assert game.awaiting == {"kind": "doublon", "cups": [(1, 1)], "seat": 0}
    assert game.legal_actions() == [CupShown((1, 1), ())]
    refused(game, CupShown((1, 1), ("blue",)), "contradiction")
    refused(game, CupShown((0, 0), ()), "not_lifted")
    refused(game, TokenShown("blue"), "wrong_input")
    outcome = game.apply(CupShown((1, 1), ()))
    assert outcome.events[1]["cup_held_tokens"] is False and outcome.events[1]["taker"] == 2
    assert game.hands[2] == {"blue": 1, "green": 1, "orange": 1, "unknown": 1}
    assert game.hands[0] == {"blue": 0, "green": 0, "orange": 0, "unknown": 2}
    assert (game.active, game.phase) == (1, "name_cup")


def test_doublon_on_a_filled_cup_shows_its_tokens_which_go_to_the_active_player():
    game = new_game(3, mode="observed")
    secret_drop(game, (0, 0), "blue")
    game.apply(Place(1, None, (0, 0)))
    game.apply(CallDoublon(2))
    inputs = game.legal_actions()
    assert sorted(a.tokens for a in inputs) == [("blue",), ("green",), ("orange",)]
    refused(game, CupShown((0, 0), ()), "contradiction")
    refused(game, CupShown((0, 0), ("blue", "green")), "contradiction")
    refused(game, CupShown((0, 0), ("purple",)), "bad_colour")
    game.apply(CupShown((0, 0), ["green"]))
    assert game.hands[1] == {"blue": 1, "green": 2, "orange": 1, "unknown": 0}
    cup = game.cups[(0, 0)]
    assert (cup.count, cup.known, cup.claimed, cup.seen, cup.taken) == (0, (), (), ("green",), ("green",))


# ---------------------------------------------------------------- Menteur!
def test_menteur_waits_for_the_shown_token_lie_and_truth():
    game = new_game(3, mode="observed")
    game.apply(Place(0, None, (0, 0)))
    game.apply(Pass())
    game.apply(AnnounceColour(0, "blue"))
    game.apply(CallMenteur(1))
    assert game.awaiting["kind"] == "menteur"
    assert game.legal_actions() == [TokenShown("blue"), TokenShown("green"), TokenShown("orange")]
    refused(game, CupShown((0, 0), ()), "wrong_input")
    outcome = game.apply(TokenShown("green"))  # a lie: seat 0 keeps it
    assert outcome.events[0]["lied"] is True and game.hands[0] == ONE_EACH
    assert game.cups[(0, 0)].count == 0
    outcome = menteur_on_truth(game, accuser=0, colour="orange")  # seat 1 told the truth
    assert outcome.events[0]["lied"] is False and outcome.events[0]["taker"] == 0
    assert game.hands[0] == {"blue": 1, "green": 1, "orange": 2, "unknown": 0}
    assert game.hands[1] == {"blue": 1, "green": 1, "orange": 0, "unknown": 0}


def test_a_token_the_hand_cannot_hold_is_refused_and_a_one_colour_hand_is_known():
    game = new_game(3, mode="observed")
    menteur_on_truth(game, accuser=1, colour="blue")   # seat 0: green + orange, known
    secret_drop(game, (0, 1), "blue")                  # seat 1
    secret_drop(game, (0, 2), "blue")                  # seat 2
    game.apply(Place(0, None, (1, 0)))
    game.apply(Pass())
    game.apply(AnnounceColour(0, "blue"))
    game.apply(CallMenteur(2))
    assert game.legal_actions() == [TokenShown("green"), TokenShown("orange")]
    refused(game, TokenShown("blue"), "contradiction")
    game.apply(TokenShown("green"))                    # a lie, kept
    secret_drop(game, (1, 1), "green")                 # seat 1
    secret_drop(game, (1, 2), "green")                 # seat 2
    menteur_on_truth(game, accuser=1, colour="green")  # seat 0 now holds only orange
    assert game.hands[0] == {"blue": 0, "green": 0, "orange": 1, "unknown": 0}
    secret_drop(game, (1, 2), "orange")                # seat 1
    secret_drop(game, (2, 0), "orange")                # seat 2
    secret_drop(game, (2, 1), "blue")                  # seat 0's last token can only be orange
    assert game.cups[(2, 1)].known == ("orange",) and game.cups[(2, 1)].claimed == ("blue",)


# ---------------------------------------------------------------- reveals
def nine_secret_drops(game):
    cells = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
    for cell in cells:
        secret_drop(game, cell, "blue")
    return cells


def test_an_observed_reveal_takes_the_three_cups_in_any_order():
    game = new_game(3, mode="observed")
    nine_secret_drops(game)
    assert game.phase == "swap_or_reveal" and game.hands == [EMPTY] * 3
    game.apply(Reveal(0, ((0, 0), (0, 1), (0, 2))))
    assert game.awaiting["cups"] == [(0, 0), (0, 1), (0, 2)]
    refused(game, CupShown((1, 0), ("blue",)), "not_lifted")
    refused(game, CupShown((0, 0), ()), "contradiction")                 # it holds one token
    refused(game, CupShown((0, 0), ("blue", "green")), "contradiction")
    game.apply(CupShown((0, 2), ("orange",)))
    assert game.awaiting["cups"] == [(0, 0), (0, 1)] and game.phase == "reveal_outcome"
    game.apply(CupShown((0, 0), ("orange",)))
    outcome = game.apply(CupShown((0, 1), ("orange",)))
    assert [e["type"] for e in outcome.events] == ["cup_lifted", "reveal", "victory_token", "round_won"]
    assert game.victory_tokens == [1, 0, 0] and game.cups[(0, 1)].seen == ("orange",)


def test_a_failed_observed_reveal_leaves_what_was_seen_known_and_it_travels_with_a_swap():
    game = new_game(3, mode="observed")
    nine_secret_drops(game)
    game.apply(Reveal(0, ((0, 0), (1, 0), (2, 0))))
    for cell, colour in (((0, 0), "blue"), ((1, 0), "blue"), ((2, 0), "green")):
        outcome = game.apply(CupShown(cell, (colour,)))
    assert outcome.events[1]["won"] is False and game.active == 1
    cup = game.cups[(2, 0)]
    assert (cup.known, cup.claimed, cup.seen) == (("green",), (), ("green",))
    assert game.cups[(2, 1)].claimed == ("blue",) and game.cups[(2, 1)].known == ()
    game.apply(Swap(1, (2, 0), (2, 1)))
    assert game.cups[(2, 1)].known == ("green",) and game.cups[(2, 0)].claimed == ("blue",)


def test_inputs_that_break_colour_totals_are_refused():
    game = new_game(3, mode="observed")
    nine_secret_drops(game)
    game.apply(Reveal(0, ((0, 0), (0, 1), (0, 2))))
    for cell in ((0, 0), (0, 1), (0, 2)):
        game.apply(CupShown(cell, ("blue",)))  # three blues: a win
    game.apply(NextRound())
    nine_secret_drops(game)
    game.apply(Reveal(1, ((0, 0), (1, 0), (2, 0))))
    game.apply(CupShown((0, 0), ("green",)))
    game.apply(CupShown((1, 0), ("green",)))
    game.apply(CupShown((2, 0), ("blue",)))     # no set: the cups go back, now known
    game.apply(Reveal(2, ((0, 1), (1, 1), (2, 1))))
    game.apply(CupShown((0, 1), ("green",)))    # the third and last green
    refused(game, CupShown((1, 1), ("green",)), "contradiction")  # a fourth green
    assert {a.tokens for a in game.legal_actions() if a.cup == (1, 1)} == {("blue",), ("orange",)}


def test_declared_picks_that_do_not_match_the_lift_are_replaced_by_the_best():
    game = new_game(3, mode="observed")
    nine_secret_drops(game)
    game.apply(Reveal(0, ((0, 0), (0, 1), (0, 2)), picks=("blue", "blue", "blue")))
    game.apply(CupShown((0, 0), ("blue",)))
    game.apply(CupShown((0, 1), ("green",)))
    reveal = game.apply(CupShown((0, 2), ("orange",))).events[1]
    assert reveal["won"] and reveal["picks"] == ["blue", "green", "orange"]


def test_observed_round_trip_while_waiting_for_a_lift():
    game = new_game(4, mode="observed", first=3)
    secret_drop(game, (0, 0), "green")
    game.apply(Place(0, None, (0, 0)))
    game.apply(CallDoublon(2))
    restored = type(game).from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored.to_dict() == game.to_dict() and restored.awaiting == game.awaiting
    for g in (game, restored):
        g.apply(CupShown((0, 0), ("orange",)))
    assert restored.to_dict() == game.to_dict()


# ---------------------------------------------------------------- an observer of a real game
def assert_knowledge_agrees_with_truth(truth, seen):
    players = truth.players
    assert seen.phase == truth.phase and seen.active == truth.active
    assert seen.victory_tokens == truth.victory_tokens and seen.round == truth.round
    for cell, tokens in truth.cups.items():
        cup = seen.cups[cell]
        assert cup.count == len(tokens)
        remaining = list(tokens)
        for colour in cup.known:  # everything known is really there
            remaining.remove(colour)
    for real, known in zip(truth.hands, seen.hands, strict=True):
        assert sum(real.values()) == sum(known.values())
        assert all(known[c] <= real[c] for c in ("blue", "green", "orange"))
    assert sum(sum(h.values()) for h in seen.hands) + sum(c.count for c in seen.cups.values()) == 3 * players


@pytest.mark.parametrize("seed", range(6))
def test_an_observer_fed_the_lifts_follows_a_full_game(seed):
    rng = random.Random(seed)
    players = 3 + seed % 4
    truth = new_game(players, first=seed % players)
    seen = new_game(players, mode="observed", first=seed % players)
    steps = 0
    while not truth.is_over() and steps < 3000:
        action = choose_action(truth, rng)
        inputs = observed_inputs(truth, action)
        truth.apply(action)
        for step in inputs:
            seen.apply(step)
        assert_knowledge_agrees_with_truth(truth, seen)
        steps += 1
    assert truth.is_over() and seen.is_over() and seen.winners() == truth.winners()
