"""Passe Éclair card ids, the deck/token profile, action validation and setup errors."""

from __future__ import annotations

import math
from collections import Counter
from itertools import permutations

import pytest

from table.passe_eclair import (
    ALL_CARD_IDS,
    DOG,
    FOOTBALLER_CARDS,
    FOOTBALLERS,
    MICHI,
    BadInput,
    Blocked,
    IllegalAction,
    MichiSwap,
    Place,
    Profile,
    ProfileError,
    Simultaneous,
    SpendConsolation,
    SpotWrong,
    StartRound,
    action_from_dict,
    action_to_dict,
    card_label,
    default_profile,
    footballer_card,
    is_card_id,
    load_profile,
    new_game,
    parse_card,
    parse_profile,
    token_points,
    validate_card,
)
from table.passe_eclair.profile import DEFAULT_PROFILE_PATH


def test_footballer_ids_are_every_ordered_pair_of_two_different_footballers():
    assert set(FOOTBALLERS) == {"leon", "marlon", "rocce", "fabi", "vanessa"}
    assert set(FOOTBALLER_CARDS) == {f"{a}-{b}" for a, b in permutations(FOOTBALLERS, 2)}
    assert len(FOOTBALLER_CARDS) == 20 and set(ALL_CARD_IDS) == set(FOOTBALLER_CARDS) | {DOG, MICHI}


def test_parse_card_gives_big_and_small():
    card = parse_card("rocce-vanessa")
    assert (card.kind, card.big, card.small, card.is_footballer) == ("footballer", "rocce", "vanessa", True)
    assert parse_card("dog").kind == "dog" and parse_card("dog").big is None
    assert parse_card("michi").kind == "michi" and not parse_card("michi").is_footballer
    assert footballer_card("fabi", "leon") == "fabi-leon"


@pytest.mark.parametrize("bad", ["leon-leon", "Leon-marlon", "leon_marlon", "cat", "", " dog", None, 3, ["dog"]])
def test_bad_card_id_is_a_clear_bilingual_value_error(bad):
    with pytest.raises(ValueError) as info:
        validate_card(bad)
    assert repr(bad) in str(info.value) and "leon" in str(info.value)
    assert isinstance(info.value, IllegalAction) and "inconnue" in info.value.fr
    assert not is_card_id(bad)


def test_same_footballer_twice_is_refused_when_building_an_id():
    with pytest.raises(ValueError):
        footballer_card("marlon", "marlon")


def test_card_labels_in_both_languages():
    assert card_label("leon-marlon", "fr") == "Léon → Marlon"
    assert card_label("dog", "fr") == "chien Chaussette" and card_label("dog", "en") == "dog Socke"
    assert card_label("michi", "en") == "Gros Michi"


def test_shipped_profile_is_the_ruling_default():
    profile = default_profile()
    counts = Counter(profile.deck)
    assert len(profile.deck) == 60
    assert all(counts[c] == 2 for c in FOOTBALLER_CARDS)
    assert counts[DOG] == 12 and counts[MICHI] == 8
    assert sorted(profile.victory_tokens) == [1, 1, 1, 2, 2, 2, 3, 3, 3] and profile.rounds == 9
    assert Counter(profile.consolation_tokens) == Counter({"goal-1": 4, **{f: 1 for f in FOOTBALLERS}})
    assert DEFAULT_PROFILE_PATH.name == "passe_eclair.toml" and load_profile(DEFAULT_PROFILE_PATH) == profile


def test_token_points():
    assert token_points("goal-1") == 1 and token_points("goal-3") == 3 and token_points("leon") == 0


def _toml(deck="footballer_pair_copies = 2\ndog = 12\nmichi = 8", tokens='victory = [1, 2]\nconsolation = ["leon"]'):
    return f"[deck]\n{deck}\n[tokens]\n{tokens}\n"


def test_profile_card_overrides_and_round_count(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(_toml(deck='footballer_pair_copies = 2\ndog = 12\nmichi = 8\n[deck.cards]\n"leon-marlon" = 3'))
    profile = load_profile(path)
    assert Counter(profile.deck)["leon-marlon"] == 3 and len(profile.deck) == 61 and profile.rounds == 2
    assert Profile.from_dict(profile.to_dict()) == profile


@pytest.mark.parametrize("text, needle", [
    (_toml(deck="footballer_pair_copies = 2\ndog = -1"), "dog"),
    (_toml(deck="footballer_pair_copies = 1"), "at least 29"),
    (_toml(deck="footballer_pair_copies = 0\ndog = 40"), "footballer"),
    (_toml(deck='footballer_pair_copies = 2\n[deck.cards]\n"cat" = 1'), "cat"),
    (_toml(deck="footballer_pair_copies = 2\ncats = 3"), "cats"),
    (_toml(tokens="victory = []"), "victory"),
    (_toml(tokens='victory = [1]\nconsolation = ["goal-0"]'), "goal-0"),
    (_toml(tokens='victory = [1]\nconsolation = ["bob"]'), "bob"),
    ("[tokens]\nvictory = [1]\n", "[deck]"),
    ("not toml [", "TOML"),
])
def test_bad_profiles_raise_profile_error_with_the_reason(tmp_path, text, needle):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ProfileError, match=None) as info:
        load_profile(path)
    assert needle in str(info.value)


def test_missing_profile_file_is_a_profile_error(tmp_path):
    with pytest.raises(ProfileError, match="cannot read"):
        load_profile(tmp_path / "nope.toml")
    with pytest.raises(ProfileError):
        parse_profile({"deck": [], "tokens": {}})


@pytest.mark.parametrize("players", [0, 1, 5, "3", 3.0, True, None])
def test_new_game_refuses_player_counts_outside_2_to_4_in_both_languages(players):
    with pytest.raises(ValueError) as info:
        new_game(players)
    assert "2 to 4" in str(info.value) and "2 à 4" in info.value.fr


def test_new_game_refuses_a_coach_outside_the_table_and_a_bad_window():
    with pytest.raises(ValueError, match="seat"):
        new_game(3, coach=3)
    with pytest.raises(ValueError, match="together_window"):
        new_game(3, together_window=-0.1)


def test_new_game_takes_a_profile_path(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(_toml())
    game = new_game(2, seed=1, profile=path)
    assert game.rounds == 2 and game.draw_size == 60 - 14


@pytest.mark.parametrize("make", [
    lambda: Place(0, "leon-leon", t=1.0),
    lambda: Place(0, "dog", t=math.nan),
    lambda: Place(0, "dog", t=None),
    lambda: Place(-1, "dog", t=1.0),
    lambda: Place(0, "dog", t=1.0, answers=-2),
    lambda: Simultaneous((Place(0, "dog", t=1.0), Place(0, "michi", t=1.0))),
    lambda: Simultaneous((Place(0, "dog", t=1.0),)),
    lambda: SpendConsolation(0, "goal-1", "leon-marlon"),
    lambda: SpendConsolation(0, "leon", "cat"),
    lambda: SpotWrong(True),
    lambda: MichiSwap(0, "1"),
    lambda: StartRound(t=math.inf),
])
def test_actions_check_their_fields_when_built(make):
    with pytest.raises(BadInput) as info:
        make()
    assert isinstance(info.value, ValueError) and info.value.fr and info.value.fr != info.value.en


def test_actions_round_trip_through_dicts():
    actions = [Place(1, "marlon-fabi", t=2.5, answers=4), SpotWrong(2, serial=3, t=1.0), Blocked(t=3.0),
               MichiSwap(0, 2), SpendConsolation(1, "leon", "leon-rocce"), StartRound(),
               Simultaneous((Place(0, "dog", t=1.0), Place(1, "fabi-leon", t=1.05)))]
    for action in actions:
        assert action_from_dict(action_to_dict(action)) == action
        assert action.to_dict() == action_to_dict(action)
    with pytest.raises(BadInput):
        action_from_dict({"action": "Teleport"})
    with pytest.raises(BadInput):
        action_from_dict({"action": "Place", "seat": 0})
