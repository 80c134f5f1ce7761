"""The simulated Pass Pass table: it deals, plays random legal games, and types the
same entries a person types on the dashboard; it follows undos, new games and restarts."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
import time
import urllib.request

import pytest

import table.pass_pass.sim as sim_module
from table.log import EventLog
from table.observations import Observation
from table.pass_pass.adapter import ENTRY_KINDS, PassPassAdapter
from table.pass_pass.sim import SimulatedPassPassTable, make_simulation
from table.session import Session


def _wait_until(predicate, timeout: float = 20.0) -> None:
    """Poll until ``predicate()`` holds (a deadline for a hung test, not a speed check)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail("the simulated table did not get there")
        time.sleep(0.02)


def _game_entries(session: Session) -> list[Observation]:
    return [o for o in session.log.read(after=session.game_seq) if o.kind in ENTRY_KINDS]


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_a_whole_random_game_is_entered_like_a_person_would(session, seed):
    table = SimulatedPassPassTable(session, pace=0, seed=seed, restart_after=None)
    table.play_game()
    adapter = session._adapter
    assert isinstance(adapter, PassPassAdapter) and adapter.g.is_over()
    assert adapter.open_alerts() == []  # every entry was legal in observed mode
    entries = _game_entries(session)
    assert entries and all(o.source == "sim" for o in entries)
    assert len(entries) == len(adapter.actions) == table.entries
    assert all(set(o.data) <= {"seat", "card", "cards", "team"} for o in entries)
    if adapter.g.won_by == "points":
        assert len(adapter.g.round_scores) == 3
    else:
        assert adapter.g.won_by == "pass_pass"
        winner = adapter.g.winners()[0]
        marks = (adapter.view()["team_marks"][winner] if adapter.g.teams
                 else adapter.g.pass_pass_marks(winner).total)
        assert marks >= 3


def test_it_follows_an_undo_made_on_the_dashboard(session):
    table = SimulatedPassPassTable(session, pace=0, seed=8, restart_after=None)
    table.new_game()
    for _ in range(15):
        assert table.step()
    last = session._adapter.view()["last_entry"]["seq"]
    session.submit(Observation.now("undo", source="dashboard", seq=last))
    assert len(session._adapter.actions) == 14
    while table.step():
        pass
    assert session._adapter.g.is_over() and session._adapter.open_alerts() == []


def test_it_plays_a_game_a_person_set_up(session):
    table = SimulatedPassPassTable(session, pace=0, seed=2, restart_after=None)
    session.new_game("pass-pass", {"players": 6, "teams": True, "first": 5, "names": ["Zoé"]})
    table.play_game()
    adapter = session._adapter
    assert adapter.setup["players"] == 6 and adapter.g.teams and adapter.g.is_over()
    assert adapter.open_alerts() == []
    assert _game_entries(session)[0].data["seat"] == 5  # the chosen first player led


def test_it_stops_when_a_person_enters_a_card_its_deal_cannot_explain(session):
    table = SimulatedPassPassTable(session, pace=0, seed=4, restart_after=None)
    table.new_game()
    adapter = session._adapter
    hands = [table._replayed(session.current_game(), []).hand(seat) for seat in range(adapter.g.players)]
    seat = adapter.g.to_act
    foreign = next(c for c in adapter.g.deck.cards() if c not in hands[seat])
    session.submit(Observation.now("pass_pass.play", source="dashboard", seat=seat, card=foreign.id))
    assert table.step() is False
    assert len(session._adapter.actions) == 1


def test_a_restarted_service_carries_on_the_same_game(log_path):
    first = Session(EventLog(log_path))
    table = SimulatedPassPassTable(first, pace=0, seed=6, restart_after=None)
    table.new_game()
    for _ in range(20):
        table.step()
    start_seq = first.game_seq
    first.log.close()
    again = Session(EventLog(log_path))
    table = make_simulation(again, pace=0, seed=99, restart_after=None)
    table.start()
    try:
        _wait_until(lambda: again._adapter.g.is_over())
    finally:
        table.stop()
    assert again.game_seq == start_seq  # no new game: the deal was dealt again from its seed
    assert again._adapter.open_alerts() == []
    again.log.close()


def test_the_thread_plays_and_starts_the_next_game_itself(session):
    table = make_simulation(session, pace=0, seed=5, restart_after=0.05)
    table.start()
    try:
        _wait_until(lambda: sum(o.kind == "game_start" for o in session.log.read()) >= 2)
    finally:
        table.stop()
    starts = [o for o in session.log.read() if o.kind == "game_start"]
    assert all(o.source == "sim" for o in starts)
    assert not table._thread.is_alive()


def test_the_module_examples_run(session):
    result = doctest.testmod(sim_module, extraglobs={"session": session, "EventLog": EventLog, "Session": Session})
    assert result.attempted >= 4 and result.failed == 0


def test_passetable_run_sim_game_pass_pass_shows_a_game_being_played(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "table.cli", "run", "--sim", "--game", "pass-pass",
                             "--pace", "0.02", "--seed", "3", "--port", "0", "--data", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().split()[2]
        state = lambda: json.load(urllib.request.urlopen(url + "api/state", timeout=10))
        _wait_until(lambda: len((state()["view"] or {}).get("seen", [])) >= 6, timeout=60)
        snap = state()
        assert snap["game"] == "pass-pass"
        assert any("Ana" in line["text"]["en"] or "Bruno" in line["text"]["en"] for line in snap["feed"])
    finally:
        proc.terminate()
        proc.wait(timeout=10)
