"""Every game's summary (players, scores, whose turn, winners) in the one shape the TV,
the café's hub and Home Assistant read, checked against each game's own view after whole
simulated games."""

from __future__ import annotations

import pytest

from table.pass_pass.sim import SimulatedPassPassTable
from table.ptipasspass.sim import PtiPassPassSimulation


def _shape(summary: dict) -> None:
    assert set(summary) == {"players", "turn", "over", "winners"}
    for player in summary["players"]:
        assert set(player) == {"name", "score", "team"} and player["name"]["en"] and player["name"]["fr"]
    assert all(0 <= w < len(summary["players"]) for w in summary["winners"])


@pytest.mark.parametrize("players, teams", [(3, False), (4, True)])
def test_pass_pass_summary_follows_a_whole_game(session, players, teams):
    table = SimulatedPassPassTable(session, pace=0, seed=players, restart_after=None)
    session.start_game("pass-pass", {"players": players, "teams": teams, "deal_seed": 7})
    start = session.snapshot()["summary"]
    _shape(start)
    assert len(start["players"]) == players and start["turn"] == 0 and not start["over"]
    table.play_game()
    snap = session.snapshot()
    summary, view = snap["summary"], snap["view"]
    _shape(summary)
    assert summary["over"] and summary["winners"] and summary["turn"] == view["to_act"]
    if teams:
        assert [p["team"] for p in summary["players"]] == [s["team"] for s in view["seats"]]
        assert [p["score"] for p in summary["players"]] == [view["scores"][s["team"]] for s in view["seats"]]
        assert {summary["players"][w]["team"] for w in summary["winners"]} == set(view["winners"])
    else:
        assert [p["score"] for p in summary["players"]] == view["scores"]
        assert summary["winners"] == view["winners"]


def test_ptipasspass_summary_counts_victory_tokens_and_the_active_player(session):
    sim = PtiPassPassSimulation(session, pace=0, seed=5, restart_after=None, players=4)
    sim.begin_game()
    while sim.step():
        assert session.snapshot()["summary"]["turn"] == session.snapshot()["view"]["active"]
    snap = session.snapshot()
    _shape(snap["summary"])
    assert [p["score"] for p in snap["summary"]["players"]] == snap["view"]["victory_tokens"]
    assert snap["summary"]["over"] and snap["summary"]["winners"] == snap["view"]["winners"]


def test_passe_eclair_has_no_turn_and_scores_goal_points(session):
    session.start_game("passe-eclair", {"players": 3, "names": ["Ana", "Bo", "Cy"]})
    summary = session.snapshot()["summary"]
    _shape(summary)
    assert summary["turn"] is None and [p["name"]["fr"] for p in summary["players"]] == ["Ana", "Bo", "Cy"]
    assert [p["score"] for p in summary["players"]] == [0, 0, 0]


def test_passe_murailles_players_are_its_colours(session):
    session.start_game("passe-murailles", {"first": "blue"})
    summary = session.snapshot()["summary"]
    _shape(summary)
    assert [p["name"]["fr"] for p in summary["players"]] == ["Rouge", "Bleu"] and summary["turn"] == 1
