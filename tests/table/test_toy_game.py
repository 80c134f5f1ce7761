"""A fifth game added the way docs/ADDING-A-GAME.md says, from inside the test suite:
"first to 10" (each turn a player scores 1 to 3 points; the first to reach 10 wins),
registered at run time and played through the real dashboard API on a real SQLite log.

Nothing outside this file knows the toy game: the session, the web layer and the CLI's
registry find it only through :mod:`table.games`.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import Field

from table import games
from table.adapter import GameAdapter, text
from table.games import GameOptions, GameSpec
from table.log import EventLog
from table.observations import Observation
from table.session import Session
from web.app import create_app

GOAL = 10
SCORE = "first_to_10.score"


class Race:
    """The toy engine: pure, with the shape of the real ones."""

    def __init__(self, players: int):
        self.scores = [0] * players
        self.to_play = 0

    def legal_points(self) -> list[int]:
        return [] if self.is_over() else [1, 2, 3]

    def apply(self, seat: int, points: int) -> None:
        if self.is_over():
            raise ValueError("The game is over.")
        if seat != self.to_play:
            raise ValueError(f"It is seat {self.to_play + 1}'s turn, not seat {seat + 1}'s.")
        if points not in self.legal_points():
            raise ValueError("A turn scores 1, 2 or 3 points.")
        self.scores[seat] += points
        self.to_play = (seat + 1) % len(self.scores)

    def is_over(self) -> bool:
        return max(self.scores) >= GOAL

    def winners(self) -> list[int]:
        return [s for s, v in enumerate(self.scores) if v >= GOAL]


class RaceOptions(GameOptions):
    players: int = Field(2, ge=2, le=4, title="Players", json_schema_extra={"fr": "Joueurs"})


class RaceAdapter(GameAdapter):
    game = "first-to-10"
    dashboard_kinds = frozenset({SCORE})
    undoable_kinds = frozenset({SCORE})

    def __init__(self, start: Observation):
        super().__init__(start)
        self.g = Race(self.options.get("players", 2))

    def check_entry(self, kind: str, data: dict[str, Any]) -> dict[str, str] | None:
        trial = Race(len(self.g.scores))
        trial.scores, trial.to_play = list(self.g.scores), self.g.to_play
        try:
            trial.apply(data.get("seat"), data.get("points"))
        except ValueError as exc:
            return text(str(exc), f"Refusé : {exc}")
        return None

    def observe(self, obs: Observation) -> None:
        if obs.kind == SCORE:
            self.g.apply(obs.data["seat"], obs.data["points"])
            self.say(obs.t, f"Seat {obs.data['seat'] + 1} scores {obs.data['points']}.",
                     f"La place {obs.data['seat'] + 1} marque {obs.data['points']}.", seq=obs.seq)

    def view(self) -> dict[str, Any]:
        return {"scores": list(self.g.scores), "to_play": self.g.to_play, "over": self.g.is_over(),
                "winners": self.g.winners()}


SPEC = GameSpec(id="first-to-10", names={"en": "First to 10", "fr": "Premier à 10"}, players=(2, 4),
                options=RaceOptions, adapter=RaceAdapter)


@pytest.fixture
def toy():
    games.register(SPEC)
    yield SPEC
    games.unregister(SPEC.id)


def test_a_registered_game_is_listed_started_played_and_won_through_the_dashboard(toy, tmp_path):
    session = Session(EventLog(tmp_path / "log.sqlite3"))
    client = create_app(session).test_client()

    listed = client.get("/api/games").get_json()["games"]
    (described,) = [g for g in listed if g["id"] == "first-to-10"]
    assert described["names"]["fr"] == "Premier à 10"
    assert described["options"]["properties"]["players"]["maximum"] == 4   # the setup form's bounds
    assert "Premier à 10" in client.get("/?lang=fr").get_data(as_text=True)

    bad = client.post("/api/games", json={"game": "first-to-10", "options": {"players": 9}})
    assert bad.status_code == 422 and "at most 4" in bad.get_json()["error"]["en"]
    assert session.log.last_seq() == 0                                      # refused: nothing logged
    assert client.post("/api/games", json={"game": "first-to-10", "options": {"players": 2}}).status_code == 201

    def score(seat: int, points: int):
        return client.post("/api/observations", json={"kind": SCORE, "data": {"seat": seat, "points": points}})

    assert score(1, 3).status_code == 422                                   # not seat 2's turn
    assert score(0, 5).status_code == 422                                   # a turn scores 1 to 3
    seqs = [score(seat, 3).get_json()["seq"] for seat in (0, 1, 0, 1, 0)]
    assert session.snapshot()["view"]["scores"] == [9, 6]
    assert client.post("/api/undo", json={"seq": seqs[-1]}).status_code == 200
    assert session.snapshot()["view"]["scores"] == [6, 6]
    for seat in (0, 1, 0):
        assert score(seat, 2).status_code == 201
    state = client.get("/api/state").get_json()
    assert state["game"] == "first-to-10" and state["view"]["scores"] == [10, 8]
    assert state["view"]["over"] and state["view"]["winners"] == [0]
    assert score(1, 1).status_code == 422                                   # the game is over
    assert "La place 2 marque 2." in [line["text"]["fr"] for line in state["feed"]]

    restarted = Session(EventLog(tmp_path / "log.sqlite3"))                 # a power cut: the log replays
    assert restarted.snapshot()["view"] == state["view"]


def test_an_unregistered_game_is_unknown_everywhere(tmp_path):
    session = Session(EventLog(tmp_path / "log.sqlite3"))
    client = create_app(session).test_client()
    r = client.post("/api/games", json={"game": "first-to-10"})
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "unknown_game"
    assert "first-to-10" not in [g["id"] for g in client.get("/api/games").get_json()["games"]]
