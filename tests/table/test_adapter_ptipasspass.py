"""The PtiPassPass scorekeeper adapter: options, entries, refusals, undo, replay, wins."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.games import get
from table.log import EventLog
from table.observations import Observation
from table.ptipasspass import action_to_dict, new_game, observed_inputs
from table.ptipasspass.adapter import ACTION, PtiPassPassAdapter
from table.ptipasspass.playout import choose_action
from table.session import Session
from web.app import create_app

NAMES = ["Ann", "Bob", "Cy"]


def start(session, **options):
    session.new_game("ptipasspass", {"players": 3, "names": NAMES, "first": 0, **options})
    return session._adapter


def enter(session, **action):
    return session.submit(Observation.now(ACTION, source="test", action=action))


def place_turn(session, seat, cup, colour="blue"):
    enter(session, action="Place", seat=seat, colour=None, cup=list(cup))
    enter(session, action="Pass")
    enter(session, action="AnnounceColour", seat=seat, colour=colour)
    enter(session, action="Pass")


def feed_texts(adapter, lang):
    return [line["text"][lang] for line in adapter.feed]


@pytest.fixture
def client(session):
    return create_app(session).test_client()


def post_entry(client, **action):
    return client.post("/api/observations", json={"kind": ACTION, "data": {"action": action}})


# ----------------------------------------------------------------------------- options
def test_registered_and_defaults_to_four_players_with_numbered_names(session):
    assert get("ptipasspass").adapter_class() is PtiPassPassAdapter
    session.new_game("ptipasspass")
    view = session.snapshot()["view"]
    assert view["started"] and view["players"] == 4 and view["active"] == 0
    assert view["names"] == {"en": ["Player 1", "Player 2", "Player 3", "Player 4"],
                             "fr": ["Joueur 1", "Joueur 2", "Joueur 3", "Joueur 4"]}
    assert len(view["cups"]) == 12 and all(c["count"] == 0 for c in view["cups"])
    assert [h["size"] for h in view["hands"]] == [3, 3, 3, 3]


@pytest.mark.parametrize("options, words", [
    ({"players": 7}, "at most 6"),
    ({"players": 3, "names": ["Ann", "ann"]}, "same name"),
    ({"players": 3, "first": 3}, "seat from 0 to 2"),
    ({"players": 3, "names": "Ann"}, "must be a list"),
    ({"players": 3, "names": ["x" * 40]}, "at most 24"),
])
def test_bad_options_are_refused_with_the_reason_and_nothing_logged(session, client, log_path, options, words):
    r = client.post("/api/games", json={"game": "ptipasspass", "options": options})
    error = r.get_json()["error"]
    assert r.status_code == 422 and words in error["en"] and error["fr"] and error["fr"] != error["en"]
    assert session.log.last_seq() == 0 and session.snapshot()["game"] is None
    r = post_entry(client, action="Place", seat=0, colour=None, cup=[0, 0])
    assert r.status_code == 409 and "No game is running" in r.get_json()["error"]["en"]
    assert Session(EventLog(log_path)).snapshot()["game"] is None  # a restart finds nothing either


def test_a_logged_start_this_version_cannot_play_is_shown_unstarted_with_the_reason(log_path):
    """A start an older version logged with options this one refuses: the replay shows why."""
    log = EventLog(log_path)
    log.append(Observation.now("game_start", source="dashboard", game="ptipasspass",
                               options={"players": 3, "first": 3}))
    log.close()
    view = Session(EventLog(log_path)).snapshot()["view"]
    assert view["started"] is False and "seat from 0 to 2" in view["error"]["en"] and view["error"]["fr"]


# ----------------------------------------------------------------------------- a turn
def test_a_place_turn_moves_the_token_and_passes_the_turn(session):
    adapter = start(session, first=1)
    place_turn(session, 1, (2, 1), colour="orange")
    view = session.snapshot()["view"]
    cup = next(c for c in view["cups"] if c["cell"] == [2, 1])
    assert cup["count"] == 1 and cup["claimed"] == ["orange"] and cup["unknown"] == 1
    assert view["hands"][1] == {"blue": 0, "green": 0, "orange": 0, "unknown": 2, "size": 2}
    assert view["active"] == 2 and view["phase"] == "name_cup"
    assert "Bob announces orange." in feed_texts(adapter, "en")
    assert "Bob annonce orange." in feed_texts(adapter, "fr")
    assert view["entries"] == 4 and view["last_entry"]["action"] == {"action": "Pass"}


def test_doublon_on_an_empty_cup_gives_the_token_to_the_accuser(session):
    start(session)
    enter(session, action="Place", seat=0, colour=None, cup=[0, 0])
    enter(session, action="CallDoublon", seat=2)
    view = session.snapshot()["view"]
    assert view["phase"] == "reveal_outcome"
    assert view["awaiting"] == {"kind": "doublon", "cups": [[0, 0]], "seat": 0}
    enter(session, action="CupShown", cup=[0, 0], tokens=[])
    view = session.snapshot()["view"]
    assert [h["size"] for h in view["hands"]] == [2, 3, 4] and view["active"] == 1


def test_menteur_caught_lying_keeps_the_shown_token(session):
    adapter = start(session)
    enter(session, action="Place", seat=0, colour=None, cup=[1, 1])
    enter(session, action="Pass")
    enter(session, action="AnnounceColour", seat=0, colour="green")
    enter(session, action="CallMenteur", seat=1)
    assert session.snapshot()["view"]["awaiting"]["kind"] == "menteur"
    enter(session, action="TokenShown", colour="blue")
    view = session.snapshot()["view"]
    assert view["hands"][0]["blue"] == 1 and view["hands"][0]["size"] == 3
    assert any("Ann lied" in line for line in feed_texts(adapter, "en"))


# ----------------------------------------------------------------------------- refusals
def test_check_entry_gives_the_engine_reason_and_nothing_is_logged(session, client):
    start(session)
    before = len(list(session.log.read()))
    r = post_entry(client, action="AnnounceColour", seat=0, colour="blue")
    assert r.status_code == 422
    assert r.get_json()["error"]["en"].startswith("Not now: the table is waiting for")
    assert r.get_json()["error"]["fr"].startswith("Pas maintenant")
    r = post_entry(client, action="Place", seat=2, colour=None, cup=[0, 0])
    assert r.status_code == 422
    assert "player 1's turn" in r.get_json()["error"]["en"]
    assert post_entry(client, action="Fly").status_code == 422
    r = client.post("/api/observations", json={"kind": ACTION, "data": {}})
    assert r.status_code == 422 and "'action'" in r.get_json()["error"]["en"]
    assert len(list(session.log.read())) == before
    assert post_entry(client, action="Place", seat=0, colour=None, cup=[9, 9]).status_code == 422
    r = post_entry(client, action="Place", seat=0, colour=None, cup={"row": 0})
    assert r.status_code == 422 and "malformed" in r.get_json()["error"]["en"]
    assert post_entry(client, action="Place", seat=0, colour=None, cup=[0, 0]).status_code == 201
    assert len(list(session.log.read())) == before + 1


def test_a_lift_that_contradicts_the_known_count_is_refused(session, client):
    start(session)
    place_turn(session, 0, (0, 0))
    enter(session, action="Place", seat=1, colour=None, cup=[0, 0])
    enter(session, action="CallDoublon", seat=2)
    r = client.post("/api/observations", json={"kind": ACTION, "data": {"action": {
        "action": "CupShown", "cup": [0, 0], "tokens": ["blue", "green"]}}})
    assert r.status_code == 422 and r.get_json()["error"]["fr"]
    assert post_entry(client, action="CupShown", cup=[0, 0], tokens=["green"]).status_code == 201
    assert session.snapshot()["view"]["hands"][1]["size"] == 4  # Bob takes the green token, keeps his own


def test_other_kinds_are_not_dashboard_entries(client, session):
    start(session)
    r = client.post("/api/observations", json={"kind": "slide", "data": {"slide": 1, "offset": 1}})
    assert r.status_code == 400
    assert session._adapter.check_entry("slide", {})["fr"].startswith("PtiPassPass n'accepte pas")


# ----------------------------------------------------------------------------- undo and replay
def test_undo_the_last_entry_rebuilds_the_game(session, client):
    start(session)
    place_turn(session, 0, (0, 2))
    named = enter(session, action="Place", seat=1, colour=None, cup=[1, 2])
    assert session.snapshot()["view"]["turn"]["cup"] == [1, 2]
    r = client.post("/api/undo", json={"seq": named.seq})
    assert r.status_code == 200
    view = session.snapshot()["view"]
    assert view["phase"] == "name_cup" and view["active"] == 1 and view["turn"]["cup"] is None
    assert view["entries"] == 4


def test_undo_in_the_middle_skips_entries_that_no_longer_fit(session, client):
    start(session)
    first = enter(session, action="Place", seat=0, colour=None, cup=[0, 0])
    enter(session, action="Pass")
    client.post("/api/undo", json={"seq": first.seq})
    view = session.snapshot()["view"]
    assert view["phase"] == "name_cup" and view["entries"] == 0 and len(view["skipped"]) == 1
    assert any(line["text"]["en"].startswith("Entry ignored") and line["kind"] == "refused"
               for line in session._adapter.feed)


def test_replaying_the_log_gives_the_same_view(session, log_path):
    start(session)
    place_turn(session, 0, (0, 0))
    enter(session, action="Place", seat=1, colour=None, cup=[0, 0])
    enter(session, action="CallDoublon", seat=0)
    enter(session, action="CupShown", cup=[0, 0], tokens=["orange"])
    again = Session(EventLog(log_path))
    assert again.snapshot()["view"] == session.snapshot()["view"]
    assert [f["text"] for f in again._adapter.feed] == [f["text"] for f in session._adapter.feed]


# ----------------------------------------------------------------------------- wins
def _play_observed(session, seed, players=3):
    """A random full-knowledge game, entered as an observer would; checks each round end."""
    rng = random.Random(seed)
    truth = new_game(players, first=0)
    session.new_game("ptipasspass", {"players": players, "first": 0})
    round_banners = []
    while not truth.is_over():
        action = choose_action(truth, rng)
        for step in observed_inputs(truth, action):
            entry = {"action": action_to_dict(step)}
            assert session._adapter.check_entry(ACTION, entry) is None
            session.submit(Observation.now(ACTION, source="test", **entry))
        truth.apply(action)
        view = session.snapshot()["view"]
        if view["phase"] == "round_over" and view["round_winner"] is not None:
            round_banners.append(view["banner"])
    return truth, round_banners


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_end_with_the_same_winner_and_announce_wins(session, seed):
    truth, round_banners = _play_observed(session, seed)
    view = session.snapshot()["view"]
    winner = truth.winners()[0]
    assert view["over"] and view["winners"] == [winner] and view["victory_tokens"] == truth.victory_tokens
    assert view["banner"]["en"] == f"Player {winner + 1} wins the game!"
    assert view["banner"]["fr"] == f"Joueur {winner + 1} gagne la partie !"
    assert round_banners and all("wins round" in b["en"] and "remporte la manche" in b["fr"] for b in round_banners)
    assert [f["kind"] for f in session._adapter.feed].count("end") == 1
    assert session._adapter.check_entry(ACTION, {"action": {"action": "NextRound"}})["en"] == "The game is over."


# ----------------------------------------------------------------------------- junk
junk = st.recursive(st.none() | st.booleans() | st.integers(-3, 20) | st.text(max_size=8)
                    | st.sampled_from(["blue", "green", "orange", "Place", "Reveal"]),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                    max_leaves=12)
fields = st.fixed_dictionaries({"action": st.sampled_from(
    ["Place", "CallDoublon", "AnnounceColour", "CallMenteur", "Pass", "Swap", "Reveal", "CupShown",
     "TokenShown", "NextRound", "AbandonRound", "Nope"])}, optional={
    k: junk for k in ("seat", "colour", "cup", "a", "b", "line", "picks", "tokens")})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(fields.map(lambda a: {"action": a}), st.dictionaries(st.text(max_size=6), junk, max_size=3)))
def test_junk_entries_get_a_bilingual_refusal_never_a_crash(data):
    adapter = PtiPassPassAdapter(Observation.now("game_start", source="t", options={"players": 3}))
    problem = adapter.check_entry(ACTION, data)
    before = len(adapter.entries)
    adapter.observe(Observation(kind=ACTION, t=0.0, source="t", data=data))  # any keys, even "kind"
    if problem is None:
        assert len(adapter.entries) == before + 1
    else:
        assert set(problem) == {"en", "fr"} and all(problem.values())
        assert len(adapter.entries) == before and adapter.feed[-1]["kind"] == "refused"
