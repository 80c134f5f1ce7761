"""The Pass Pass scorekeeper adapter: dashboard entries → observed-mode engine, refusals
before logging, undo by replay, team records, and agreement with a full-knowledge game."""

from __future__ import annotations

import random

import pytest

from table.errors import Refused
from table.log import EventLog
from table.observations import Observation
from table.pass_pass import InvalidInput, new_game
from table.pass_pass.adapter import PassPassAdapter, entry_of
from table.session import Session
from web.app import create_app

NAMES = ["Ana", "Bruno", "Chloé", "David"]


def _enter(session: Session, kind: str, **data) -> Observation:
    return session.submit(Observation.now(kind, source="dashboard", **data))


def _start(session: Session, **options) -> PassPassAdapter:
    session.new_game("pass-pass", {"players": 4, "names": NAMES, **options})
    return session._adapter


def _play_trick(session: Session, cards: list[str]) -> None:
    for card in cards:
        _enter(session, "pass_pass.play", seat=session._adapter.g.to_act, card=card)


def _enter_random_game(session: Session, seed: int, players: int, teams: bool):
    """Play a dealt game with random legal choices, typing each action as an entry;
    returns the full-knowledge game that was played."""
    rng = random.Random(seed)
    session.new_game("pass-pass", {"players": players, "teams": teams, "first": seed % players})
    truth = new_game(players, teams=teams, first=seed % players, seed=seed)
    while not truth.is_over():
        action = rng.choice(truth.legal_actions())
        truth.apply(action)
        kind, data = entry_of(action)
        assert session._adapter.check_entry(kind, data) is None
        _enter(session, kind, **data)
    return truth


def test_a_trick_entered_card_by_card_asks_the_first_winner(session):
    pp = _start(session, first=1)
    _play_trick(session, ["purple-10", "purple-3", "blue-5", "purple-7"])  # Bruno leads
    view = pp.view()
    assert view["phase"] == "first_take"
    assert view["prompt"] == {"kind": "take", "seat": 1,
                              "options": ["purple-3", "blue-5", "purple-7", "purple-10"]}
    assert view["last_trick"]["majority"] == "purple"
    assert (view["last_trick"]["first"], view["last_trick"]["second"]) == (1, 0)
    assert set(view["seen"]) == {"purple-10", "purple-3", "blue-5", "purple-7"}
    _enter(session, "pass_pass.take", seat=1, card="blue-5")
    view = pp.view()
    # The second winner's take (purple 3 and 7) is forced, so the engine did it.
    assert [s["in_front"] for s in view["seats"]] == [["purple-3", "purple-7"], ["blue-5"], [], []]
    assert view["prompt"] == {"kind": "play", "seat": 0} and view["trick"] == 2
    assert view["last_entry"]["action"] == {"type": "take", "seat": 1, "card": "blue-5"}
    lines = [f["text"] for f in pp.feed]
    assert {"en": "Ana takes purple 3 and purple 7.", "fr": "Ana prend 3 violet et 7 violet."} in lines
    assert {"en": "Out for the round: purple 10.", "fr": "Défaussé pour la manche : 10 violet."} in lines


def test_tied_low_cards_ask_the_second_winner_which_to_take(session):
    pp = _start(session)
    # Single cards: yellow 12 wins; blue 5 and purple 5 tie, blue was played first, so
    # Chloé (blue 5) is second. After Ana takes yellow 12, green 2 is forced and the 5s tie.
    _play_trick(session, ["yellow-12", "green-2", "blue-5", "purple-5"])
    _enter(session, "pass_pass.take", seat=0, card="yellow-12")
    view = pp.view()
    assert view["prompt"] == {"kind": "take_low", "seat": 2,
                              "options": [["green-2", "purple-5"], ["green-2", "blue-5"]]}
    refused = pp.check_entry("pass_pass.take_low", {"seat": 2, "cards": ["blue-5", "purple-5"]})
    assert refused is not None and "green 2" in refused["en"] and "2 vert" in refused["fr"]
    _enter(session, "pass_pass.take_low", seat=2, cards=["purple-5", "green-2"])
    view = pp.view()
    assert sorted(view["seats"][2]["in_front"]) == ["green-2", "purple-5"]
    assert view["last_trick"]["out"] == ["blue-5"]
    assert view["prompt"] == {"kind": "play", "seat": 2}


@pytest.mark.parametrize("kind, data, needle", [
    ("pass_pass.play", {"seat": 2, "card": "blue-3"}, "not player 3's turn"),
    ("pass_pass.play", {"seat": 0}, "Incomplete entry"),
    ("pass_pass.play", {"seat": "0", "card": "blue-3"}, "Incomplete entry"),
    ("pass_pass.play", {"seat": 0, "card": "red-3"}, "Not a Pass Pass card id"),
    ("pass_pass.take", {"seat": 0, "card": "blue-3"}, "Not now"),
    ("pass_pass.record", {"team": 0, "seat": 0}, "Not now"),
    ("pass_pass.take_low", {"seat": 0, "cards": "blue-3"}, "Incomplete entry"),
])
def test_wrong_entries_are_refused_before_anything_is_logged(session, kind, data, needle):
    _start(session)
    client = create_app(session).test_client()
    before = len(list(session.log.read()))
    r = client.post("/api/observations", json={"kind": kind, "data": data})
    assert r.status_code == 422
    error = r.get_json()["error"]
    assert needle in error["en"] and error["fr"]
    assert len(list(session.log.read())) == before


def test_a_card_seen_this_round_is_refused_with_the_engine_reason(session):
    pp = _start(session)
    client = create_app(session).test_client()
    assert client.post("/api/observations", json={"kind": "pass_pass.play",
                                                  "data": {"seat": 0, "card": "green-4"}}).status_code == 201
    r = client.post("/api/observations", json={"kind": "pass_pass.play", "data": {"seat": 1, "card": "green-4"}})
    assert r.status_code == 422
    assert "already been played" in r.get_json()["error"]["en"]
    assert "déjà été joué" in r.get_json()["error"]["fr"]
    assert pp.view()["current_trick"] == [{"seat": 0, "card": "green-4"}]


def test_undo_cancels_the_last_entry_and_is_logged(session):
    _start(session)
    _play_trick(session, ["purple-10", "purple-3", "blue-5", "purple-7"])
    take = _enter(session, "pass_pass.take", seat=0, card="blue-5")
    client = create_app(session).test_client()
    assert session._adapter.view()["last_entry"]["seq"] == take.seq
    assert client.post("/api/undo", json={"seq": take.seq}).status_code == 200
    view = session._adapter.view()
    assert view["phase"] == "first_take" and all(s["in_front"] == [] for s in view["seats"])
    assert view["last_entry"]["action"]["card"] == "purple-7"
    # A second undo goes one entry further back; the undos are in the log.
    assert client.post("/api/undo", json={"seq": view["last_entry"]["seq"]}).status_code == 200
    assert session._adapter.view()["prompt"] == {"kind": "play", "seat": 3}
    assert [o.kind for o in session.log.read()][-2:] == ["undo", "undo"]


def test_a_restart_replays_the_log_to_the_same_view(log_path):
    session = Session(EventLog(log_path))
    _enter_random_game(session, seed=11, players=5, teams=False)
    view = session._adapter.view()
    session.log.close()
    again = Session(EventLog(log_path))
    assert again._adapter.view() == view
    again.log.close()


@pytest.mark.parametrize("seed, players, teams", [(1, 3, False), (2, 5, False), (3, 4, True), (4, 6, True)])
def test_the_scorekeeper_agrees_with_the_full_knowledge_game(session, seed, players, teams):
    truth = _enter_random_game(session, seed, players, teams)
    view = session._adapter.view()
    assert view["over"] and view["winners"] == truth.winners() and view["won_by"] == truth.won_by
    assert view["sheet"] == [line.to_dict() for line in truth.round_scores]
    assert view["scores"] == [truth.scores()[k] for k in sorted(truth.scores())]
    ranking = view["ranking"]
    assert {r["who"] for r in ranking if r["place"] == 1} == set(truth.winners())
    assert [r["place"] for r in ranking] == sorted(r["place"] for r in ranking)


def test_team_records_are_asked_at_the_end_of_a_round(session):
    rng = random.Random(5)
    session.new_game("pass-pass", {"players": 4, "teams": True})
    truth = new_game(4, teams=True, seed=5)
    while truth.phase != "record" and not truth.is_over():
        action = rng.choice(truth.legal_actions())
        truth.apply(action)
        _enter(session, *entry_of(action)[:1], **entry_of(action)[1])
    if truth.is_over():
        pytest.skip("this deal ended on a 3rd Pass Pass in round 1")
    prompt = session._adapter.view()["prompt"]
    assert prompt["kind"] == "record"
    assert [t["members"] for t in prompt["teams"]] == [[0, 2], [1, 3]]
    assert [t["suggested"] for t in prompt["teams"]] == [truth.suggested_member(0), truth.suggested_member(1)]
    _enter(session, "pass_pass.record", team=1, seat=3)
    prompt = session._adapter.view()["prompt"]
    assert [t["recorded"] for t in prompt["teams"]] == [None, 3]
    assert session._adapter.check_entry("pass_pass.record", {"team": 1, "seat": 1}) is not None
    _enter(session, "pass_pass.record", team=0, seat=2)
    view = session._adapter.view()
    assert view["round"] == 2 and view["sheet"][0]["recorded"] == [2, 3]


def test_an_entry_that_slips_past_the_check_raises_an_alert_and_changes_nothing(session):
    pp = _start(session)
    _enter(session, "pass_pass.play", seat=0, card="blue-1")
    with pytest.raises(Refused):  # the session's front door refuses it, and logs nothing
        _enter(session, "pass_pass.play", seat=1, card="blue-1")
    # a replay can still meet such an entry (one logged before an earlier entry was undone)
    pp.observe(Observation(kind="pass_pass.play", t=1.0, source="dashboard", data={"seat": 1, "card": "blue-1"},
                           seq=session.log.last_seq() + 1))
    assert pp.view()["current_trick"] == [{"seat": 0, "card": "blue-1"}]
    (alert,) = pp.open_alerts()
    assert "already been played" in alert.message["en"] and "déjà" in alert.message["fr"]
    session.resolve(alert.id, "ok")
    assert pp.open_alerts() == []


@pytest.mark.parametrize("options, needle", [
    ({"players": 7}, "3, 4 or 5 players"),
    ({"players": 5, "teams": True}, "4 or 6"),
    ({"players": 4, "first": 4}, "first player"),
    ({"players": 3, "names": ["Ana", "Ana"]}, "same name"),
    ({"players": 3, "names": ["A", "B", "C", "D"]}, "at most 3"),
    ({"players": 3, "colour": "red"}, "Unknown Pass Pass option"),
    ({"players": 3, "teams": "yes"}, "true or false"),
])
def test_bad_setups_are_refused_with_a_clear_reason(options, needle):
    start = Observation.now("game_start", source="test", game="pass-pass", options=options)
    with pytest.raises(InvalidInput) as info:
        PassPassAdapter(start)
    assert needle in info.value.en and info.value.fr != info.value.en
    assert PassPassAdapter.check_options(options) == {"en": info.value.en, "fr": info.value.fr}
    assert PassPassAdapter.check_options({"players": 4, "teams": True, "names": ["Ana"]}) is None


def test_names_are_optional_and_used_in_the_feed(session):
    session.new_game("pass-pass", {"players": 3, "names": ["", "Marc"], "first": 2})
    pp = session._adapter
    assert pp.view()["names"] == {"en": ["Player 1", "Marc", "Player 3"], "fr": ["Joueur 1", "Marc", "Joueur 3"]}
    assert pp.feed[0]["text"]["fr"].endswith("Joueur 3 commence.")
    _enter(session, "pass_pass.play", seat=2, card="green-9")
    assert pp.feed[-1]["text"] == {"en": "Player 3 plays green 9.", "fr": "Joueur 3 joue le 9 vert."}


def test_the_module_examples_run():
    import doctest

    import table.pass_pass.adapter as module

    result = doctest.testmod(module)
    assert result.attempted >= 3 and result.failed == 0
