"""The Passe Éclair scorekeeper: the observed game (hands unknown, sizes tracked) behind
the adapter, its refusals and flags, undo through the session, and the web entry path."""

from __future__ import annotations

import itertools

import pytest

from table.games import get
from table.observations import Observation
from table.passe_eclair import BadInput, IllegalAction, can_place
from table.passe_eclair.adapter import PasseEclairAdapter, parse_options
from table.passe_eclair.observed import ObservedGame

_seq = itertools.count(1)


def start(players=3, **options):
    return PasseEclairAdapter(Observation("game_start", 0.0, "test",
                                          {"game": "passe-eclair", "options": {"players": players, **options}},
                                          seq=next(_seq)))


def enter(pe, kind, t=1.0, **data):
    """Enter as the web layer does: refused entries raise, others are observed."""
    problem = pe.check_entry("passe_eclair." + kind, data)
    if problem:
        raise AssertionError(problem["en"])
    pe.observe(Observation("passe_eclair." + kind, t, "test", data, seq=next(_seq)))


def dogs_until_out(pe, seat):
    while pe.g.hand_sizes[seat]:
        enter(pe, "place", seat=seat, card="dog")


# ---------------------------------------------------------------------- the round's flow
def test_registered_and_start_card_turning_over_dogs_and_michis():
    assert get("passe-eclair").adapter_class() is PasseEclairAdapter
    pe = start(3, names=["Ana", "Bo", "Cy"], coach=2)
    assert pe.view()["phase"] == "dealt" and pe.view()["hand_sizes"] == [7, 7, 7]
    refused = pe.check_entry("passe_eclair.place", {"seat": 0, "card": "dog"})
    assert "start card" in refused["en"] and "carte de départ" in refused["fr"]
    enter(pe, "start_card", card="dog")
    enter(pe, "start_card", card="michi")
    assert pe.view()["phase"] == "turning"
    enter(pe, "start_card", card="leon-marlon")
    view = pe.view()
    assert view["phase"] == "playing" and view["top"]["card"] == "leon-marlon" and view["pile_size"] == 3
    assert view["hand_sizes"] == [7, 7, 7]  # start cards come from the draw pile, not from hands
    assert any("Cy" in f["text"]["en"] and "start card" in f["text"]["en"] for f in pe.feed)


def test_legal_placement_moves_the_top_and_counts_down_the_hand():
    pe = start(3)
    enter(pe, "start_card", card="leon-marlon")
    enter(pe, "place", t=12.5, seat=1, card="marlon-fabi")
    view = pe.view()
    assert view["top"]["card"] == "marlon-fabi" and view["top"]["by"] == 1 and view["top"]["t"] == 12.5
    assert view["hand_sizes"] == [7, 6, 7] and view["wrong_cards"] == []
    # the hint the page lights: the pure rule of the engine, seat by seat
    for seat in range(3):
        assert set(view["playable"][seat]) == {c for c in view["cards"] if c != "michi" and can_place(
            "marlon-fabi", c, by=seat, top_placed_by=1, players=3)}
    assert "fabi-leon" not in view["playable"][1] and "fabi-leon" in view["playable"][0]


def test_wrong_card_is_recorded_and_flagged_then_spotted_with_a_penalty():
    pe = start(3)
    enter(pe, "start_card", card="leon-marlon")
    assert pe.check_entry("passe_eclair.place", {"seat": 0, "card": "rocce-fabi"}) is None  # lies there: not refused
    enter(pe, "place", seat=0, card="rocce-fabi")
    view = pe.view()
    assert view["top"]["card"] == "rocce-fabi" and view["hand_sizes"][0] == 6
    [wrong] = view["wrong_cards"]
    assert wrong["wrong"]["code"] == "wrong_footballer" and "Marlon" in wrong["wrong"]["en"]
    assert "Marlon" in wrong["wrong"]["fr"]
    assert pe.feed[-1]["kind"] == "alert" and "WRONG CARD" in pe.feed[-1]["text"]["en"]
    assert "MAUVAISE CARTE" in pe.feed[-1]["text"]["fr"]
    enter(pe, "spot", seat=0, serial=wrong["serial"])
    view = pe.view()
    assert view["top"]["card"] == "leon-marlon" and view["wrong_cards"] == [] and view["hand_sizes"][0] == 8
    refused = pe.check_entry("passe_eclair.spot", {"seat": 0})
    assert refused["en"] == "No wrong card of seat 1 lies on the pile."


def test_own_card_is_flagged_at_three_players_but_chaining_is_fine_at_two():
    three = start(3)
    enter(three, "start_card", card="leon-marlon")
    enter(three, "place", seat=0, card="marlon-fabi")
    enter(three, "place", seat=0, card="fabi-leon")
    assert [w["wrong"]["code"] for w in three.view()["wrong_cards"]] == ["own_card"]
    two = start(2)
    enter(two, "start_card", card="leon-marlon")
    enter(two, "place", seat=0, card="marlon-fabi")
    enter(two, "place", seat=0, card="fabi-leon")
    assert two.view()["wrong_cards"] == []


def test_refusals_for_entries_that_cannot_have_happened():
    pe = start(2)
    for kind, data, code_word in [
        ("passe_eclair.place", {"seat": 5, "card": "dog"}, "seat"),
        ("passe_eclair.place", {"seat": 0, "card": "joker"}, "card"),
        ("passe_eclair.place", {"seat": "0", "card": "dog"}, "whole number"),
        ("passe_eclair.round", {"points": 3}, "round"),
        ("passe_eclair.nonsense", {}, "no entry"),
    ]:
        problem = pe.check_entry(kind, data)
        assert problem is not None and code_word in problem["en"].lower(), (kind, problem)
        assert problem["fr"] and problem["fr"] != problem["en"]
    assert pe.view()["hand_sizes"] == [7, 7]  # a check never changes the game


# ---------------------------------------------------------------------- rounds and tokens
def test_round_won_then_tokens_entered_then_next_round_dealt_by_the_winner():
    pe = start(3, names=["Ana", "Bo", "Cy"])
    enter(pe, "start_card", card="leon-marlon")
    enter(pe, "place", seat=1, card="marlon-fabi")
    dogs_until_out(pe, 0)
    view = pe.view()
    assert view["phase"] == "round_won" and view["round_over"]["winner"] == 0
    assert view["round_over"]["hand_sizes"] == [0, 6, 7] and view["round_over"]["consolation_seat"] == 2
    assert view["round_over"]["victory_choices"] == [1, 2, 3]
    assert pe.check_entry("passe_eclair.place", {"seat": 1, "card": "dog"}) is not None
    assert pe.check_entry("passe_eclair.round", {"points": 4, "consolation": "goal-1"}) is not None
    assert pe.check_entry("passe_eclair.round", {"points": 2}) is not None  # Cy's consolation is due
    enter(pe, "round", points=2, consolation="goal-1")
    view = pe.view()
    assert view["goal_points"] == [2, 0, 1] and view["round"] == 2 and view["coach"] == 0
    assert view["phase"] == "dealt" and view["hand_sizes"] == [7, 7, 7] and view["top"] is None
    assert view["results"] == [{"round": 1, "winner": 0, "points": 2, "hand_sizes": [0, 6, 7],
                                "consolation": {"seat": 2, "token": "goal-1"}}]
    assert view["round_over"] is None and pe.g.victory_pool.count(2) == 2


def test_tie_for_most_cards_gives_no_consolation_token():
    pe = start(3)
    enter(pe, "start_card", card="leon-marlon")
    dogs_until_out(pe, 0)
    assert pe.view()["round_over"]["consolation_seat"] is None
    assert pe.check_entry("passe_eclair.round", {"points": 1, "consolation": "goal-1"}) is not None
    enter(pe, "round", points=1)
    assert any("Tie for most cards" in f["text"]["en"] for f in pe.feed)


def test_a_michi_as_last_card_does_not_win_the_swapped_player_does():
    pe = start(2)
    enter(pe, "start_card", card="leon-marlon")
    for _ in range(6):
        enter(pe, "place", seat=0, card="dog")
    enter(pe, "place", seat=0, card="michi")  # on a dog: legal, the swap is pending
    assert pe.view()["phase"] == "michi" and pe.view()["hand_sizes"][0] == 0
    assert pe.check_entry("passe_eclair.place", {"seat": 1, "card": "dog"})["en"].startswith("Wait")
    enter(pe, "michi_swap", seat=0, target=1)
    assert pe.view()["phase"] == "round_won" and pe.view()["round_over"]["winner"] == 1


def test_a_wrong_last_card_does_not_win_until_the_pile_goes_to_the_box():
    pe = start(2)
    enter(pe, "start_card", card="leon-marlon")
    enter(pe, "place", seat=0, card="marlon-fabi")
    for _ in range(5):
        enter(pe, "place", seat=0, card="dog")
    enter(pe, "place", seat=1, card="leon-rocce")  # anything goes on a dog
    enter(pe, "place", seat=0, card="michi")  # last card, but a Michi on a footballer card: flagged
    assert pe.view()["phase"] == "playing" and pe.view()["hand_sizes"][0] == 0
    assert pe.check_entry("passe_eclair.place", {"seat": 0, "card": "dog"})["en"] == \
        "Seat 1 has no card left in hand."
    enter(pe, "blocked")  # the wrong card goes to the box unspotted: the empty hand wins
    assert pe.view()["phase"] == "round_won" and pe.view()["round_over"]["winner"] == 0


def test_michi_swap_off_a_dog_is_flagged_unless_the_table_says_no_one_can_play():
    pe = start(3)
    enter(pe, "start_card", card="leon-marlon")
    enter(pe, "place", seat=1, card="marlon-fabi")
    enter(pe, "michi_swap", seat=0, target=1)
    assert pe.view()["hand_sizes"] == [6, 6, 7] and pe.view()["phase"] == "turning"
    assert pe.view()["turner"] == 0
    assert any("WRONG CARD" in f["text"]["en"] and "Gros Michi" in f["text"]["en"] for f in pe.feed)
    before = len([f for f in pe.feed if f["kind"] == "alert"])
    enter(pe, "start_card", card="rocce-fabi")
    enter(pe, "michi_swap", seat=2, target=0, no_one_can_play=True)
    assert len([f for f in pe.feed if f["kind"] == "alert"]) == before
    assert pe.view()["hand_sizes"] == [6, 6, 6]
    assert pe.check_entry("passe_eclair.michi_swap", {"seat": 1, "target": 1}) is not None


def test_footballer_consolation_token_spent_before_the_start_card():
    pe = start(3)
    pe.g.consolation_tokens[1].append("rocce")  # as if won last round
    pe.g.consolation_pool.remove("rocce")
    assert pe.check_entry("passe_eclair.spend", {"seat": 1, "token": "fabi"}) is not None
    enter(pe, "spend", seat=1, token="rocce")
    assert pe.view()["hand_sizes"] == [7, 6, 7] and pe.view()["spent_tokens"][1] == ["rocce"]
    enter(pe, "start_card", card="leon-marlon")
    assert pe.check_entry("passe_eclair.spend", {"seat": 1, "token": "rocce"}) is not None


# ---------------------------------------------------------------------- options, session, web
def test_bad_options_are_refused_with_both_languages():
    with pytest.raises(BadInput) as exc:
        parse_options({"players": 5})
    assert "2 to 4" in exc.value.en and "2 à 4" in exc.value.fr
    for bad in ({"players": 2, "names": ["A", "B", "C"]}, {"names": ["Ana", "Ana"]}, {"colour": 1},
                {"players": 3, "coach": 3}, {"names": "Ana"}):
        with pytest.raises(ValueError):
            parse_options(bad)
    assert parse_options({"names": ["Ana", " Bo "]}) == {"players": 2, "names": ["Ana", "Bo"], "coach": 0}


def test_observe_never_raises_on_a_refused_entry_it_raises_an_alert_instead():
    pe = start(3)
    pe.observe(Observation("passe_eclair.place", 1.0, "sim", {"seat": 0, "card": "dog"}, seq=99))
    [alert] = pe.open_alerts()
    assert alert.kind == "refused_entry" and "not applied" in alert.message["en"]
    assert pe.view()["hand_sizes"] == [7, 7, 7]


def test_undo_through_the_session_rebuilds_without_the_entry(session):
    session.new_game("passe-eclair", {"players": 3})
    session.submit(Observation.now("passe_eclair.start_card", source="dashboard", card="leon-marlon"))
    placed = session.submit(Observation.now("passe_eclair.place", source="dashboard", seat=2, card="marlon-rocce"))
    assert session.snapshot()["view"]["last_entry"]["seq"] == placed.seq
    session.submit(Observation.now("undo", source="dashboard", seq=placed.seq))
    view = session.snapshot()["view"]
    assert view["hand_sizes"] == [7, 7, 7] and view["top"]["card"] == "leon-marlon"


def test_web_refuses_an_impossible_entry_and_records_a_wrong_card(session):
    from web.app import create_app

    client = create_app(session).test_client()
    assert client.post("/api/games", json={"game": "passe-eclair", "options": {"players": 9}}).status_code == 422
    assert client.post("/api/games", json={"game": "passe-eclair", "options": {"players": 2}}).status_code == 201
    seq_before = session.log.last_seq()
    r = client.post("/api/observations", json={"kind": "passe_eclair.place", "data": {"seat": 0, "card": "dog"}})
    assert r.status_code == 422 and "carte de départ" in r.get_json()["error"]["fr"]
    assert session.log.last_seq() == seq_before  # nothing logged
    client.post("/api/observations", json={"kind": "passe_eclair.start_card", "data": {"card": "leon-marlon"}})
    r = client.post("/api/observations", json={"kind": "passe_eclair.place", "data": {"seat": 1, "card": "fabi-leon"}})
    assert r.status_code == 201
    view = client.get("/api/state").get_json()["view"]
    assert view["wrong_cards"][0]["card"] == "fabi-leon" and view["hand_sizes"] == [7, 6]
    r = client.post("/api/undo", json={"seq": view["last_entry"]["seq"]})
    assert r.status_code == 200 and client.get("/api/state").get_json()["view"]["wrong_cards"] == []


def test_observed_game_checks_change_nothing_when_they_refuse():
    g = ObservedGame(3)
    g.turn_start_card("dog")
    snapshot = g.copy().__dict__
    with pytest.raises(IllegalAction):
        g.place(0, "dog")  # still turning: a dog was turned
    with pytest.raises(BadInput):
        g.turn_start_card("not-a-card")
    assert g.__dict__ == snapshot
