"""The simulated Passe Éclair table: what it enters matches the full-knowledge game it
plays, through the observed game, the session, and its background thread."""

from __future__ import annotations

import random
import threading

import pytest

from table.passe_eclair import new_game, playout_steps
from table.passe_eclair.adapter import PLACE, START_CARD, apply_entry
from table.passe_eclair.observed import ObservedGame
from table.passe_eclair.sim import SimulatedPasseEclairTable, make_simulation, table_entries


@pytest.mark.parametrize("seed", range(40))
def test_entries_keep_the_observed_game_in_step_with_the_engine(seed):
    rng = random.Random(seed)
    players = (2, 3, 4)[seed % 3]
    engine = new_game(players, coach=seed % players, strict=False, rng=random.Random(seed))
    observed = ObservedGame(players, coach=seed % players)
    phase, pile = engine.phase, [e.card for e in engine.pile]
    kinds = set()
    for action, outcome, _ in playout_steps(rng, game=engine):
        for kind, data in table_entries(action, outcome, phase_before=phase, pile_before=pile):
            apply_entry(observed, kind, data, 0.0)  # raises if the table could not enter it
            kinds.add(kind)
        phase, pile = engine.phase, [e.card for e in engine.pile]
        if engine.phase == "playing":
            assert observed.hand_sizes == engine.hand_sizes()
            assert observed.top.card == engine.top
            assert [e.card for e in observed.wrong_cards()] == [e.card for e in engine.pile if e.wrong]
    assert observed.is_over() and engine.is_over()
    assert observed.goal_points() == engine.goal_points() and observed.winners() == engine.winners()
    assert observed.victory_tokens == engine.victory_tokens
    assert observed.consolation_tokens == engine.consolation_tokens and observed.spent_tokens == engine.spent_tokens
    assert {PLACE, START_CARD} <= kinds


def test_a_whole_game_through_the_session_leaves_no_alert(session):
    sim = SimulatedPasseEclairTable(session, pace=0, seed=5, players=3, restart_after=None)
    game = sim.start_game()
    assert sim.play_game(game) is True
    view = session.snapshot()["view"]
    assert view["over"] and view["goal_points"] == game.goal_points() and view["winners"] == game.winners()
    assert session.snapshot()["alerts"] == [] and len(view["results"]) == 9
    sources = {obs.source for obs in session.log.read()}
    assert sources == {"sim"} and sim.entries > 9 * 7


def test_background_thread_restarts_and_follows_a_dashboard_game(session):
    restarted = threading.Event()
    starts: list[str] = []

    def watch(obs, _session):
        if obs.kind == "game_start":
            starts.append(obs.source)
            if starts.count("sim") >= 2:
                restarted.set()

    session.subscribe(watch)
    sim = make_simulation(session, pace=0, seed=2, restart_after=0.01)
    sim.start()
    try:
        assert restarted.wait(timeout=30), "the simulation did not start a second game"
        session.new_game("passe-eclair", {"players": 2, "names": ["Zoé", "Max"]})  # someone presses "new game"
        followed = threading.Event()
        session.subscribe(lambda obs, s: followed.set()
                          if s._adapter.g.players == 2 and s._adapter.g.phase == "playing" else None)
        assert followed.wait(timeout=30), "the simulation did not play the dashboard's game"
    finally:
        sim.stop()
    assert not sim._thread.is_alive()
