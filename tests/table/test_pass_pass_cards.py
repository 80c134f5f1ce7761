"""Pass Pass cards and the deck profile."""

from __future__ import annotations

import pytest

from table.pass_pass import COLOURS, Card, DeckProfile, DeckProfileError, InvalidInput, load_deck_profile, shipped_deck
from table.pass_pass.cards import SHIPPED_PROFILE_PATH
from table.rules import ProfileError


def test_card_id_and_equality_ignore_diamonds():
    card = Card("purple", 10)
    assert card.id == "purple-10"
    assert Card("purple", 10, diamonds=2) == card
    assert hash(Card("purple", 10, diamonds=2)) == hash(card)
    assert Card("purple", 10) != Card("blue", 10)
    with pytest.raises(AttributeError):
        card.value = 3  # frozen


@pytest.mark.parametrize(
    "colour, value, code",
    [("red", 3, "bad_colour"), ("violet", 3, "bad_colour"), ("blue", 0, "bad_value"),
     ("blue", 13, "bad_value"), ("blue", "3", "bad_value"), ("blue", True, "bad_value")],
)
def test_bad_card_raises_bilingual_value_error(colour, value, code):
    with pytest.raises(ValueError) as info:
        Card(colour, value)
    assert isinstance(info.value, InvalidInput)
    assert info.value.code == code
    assert info.value.fr != info.value.en and info.value.fr


def test_from_id_with_and_without_deck():
    deck = shipped_deck()
    assert Card.from_id("purple-10") == Card("purple", 10)
    assert Card.from_id("purple-2").diamonds == 0
    assert Card.from_id("purple-2", deck).diamonds == 3
    assert Card.from_id("violet-2", deck) == Card("purple", 2)  # French colour names too
    for bad in ("purple", "purple-x", "pink-3", "purple-13", ""):
        with pytest.raises(InvalidInput):
            Card.from_id(bad)


def test_card_names_in_both_languages():
    assert Card("yellow", 7).name("fr") == "7 jaune"
    assert Card("yellow", 7).name("en") == "yellow 7"


def test_shipped_profile_is_the_ruling_default():
    deck = shipped_deck()
    assert deck.diamonds == DeckProfile.default().diamonds
    assert deck.total_diamonds() == 72
    cards = deck.cards()
    assert len(cards) == 48 and len(set(cards)) == 48
    assert {c.color for c in cards} == set(COLOURS)
    for value, expected in [(1, 3), (3, 3), (4, 2), (6, 2), (7, 1), (9, 1), (10, 0), (12, 0)]:
        assert deck.card("green", value).diamonds == expected


def test_custom_profile_from_file(tmp_path):
    text = SHIPPED_PROFILE_PATH.read_text().replace(
        "blue   = [3, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0, 0]", "blue   = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3]"
    )
    path = tmp_path / "deck.toml"
    path.write_text(text)
    deck = load_deck_profile(path)
    assert deck.card("blue", 12).diamonds == 3
    assert deck.card("blue", 1).diamonds == 0
    assert deck.card("purple", 1).diamonds == 3
    assert DeckProfile.from_dict(deck.to_dict()) == deck


@pytest.mark.parametrize(
    "diamonds",
    [
        {"purple": [0] * 12, "blue": [0] * 12, "green": [0] * 12},  # a colour missing
        {"purple": [0] * 12, "blue": [0] * 12, "green": [0] * 12, "yellow": [0] * 11},  # short row
        {"purple": [0] * 12, "blue": [0] * 12, "green": [0] * 12, "yellow": [4] + [0] * 11},  # too many
        {"purple": [0] * 12, "blue": [0] * 12, "green": [0] * 12, "yellow": "none"},
    ],
)
def test_bad_profiles_are_refused_with_a_reason(diamonds):
    with pytest.raises(ProfileError) as info:
        DeckProfile.from_dict({"diamonds": diamonds})
    assert isinstance(info.value, DeckProfileError) and info.value.fr


def test_unreadable_profile_file(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("[diamonds\npurple = ")
    with pytest.raises(DeckProfileError):
        load_deck_profile(path)
    with pytest.raises(DeckProfileError):
        load_deck_profile(tmp_path / "missing.toml")
