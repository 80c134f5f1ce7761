"""Passe Éclair from the camera: two cards landing together. The lower one stays, its
player's; the upper one is taken back by its player. The camera mostly names the upper card
first and the lower one only once the upper one is gone (table/passe_eclair/camera_together.py)."""

from __future__ import annotations

from table.log import EventLog
from table.observations import Observation
from table.session import Session


def _seen(session, card, *, hands, landed, again=False):
    data = {"card": card, "zone": "pile", "landed": landed, "hands": hands}
    session.submit(Observation("card_seen", landed + 0.1, "camera", {**data, "again": True} if again else data))


def _gone(session, card, *, hands, left, bare=True):
    session.submit(Observation("card_gone", left + 0.17, "camera",
                               {"card": card, "zone": "pile", "left": left, "hands": hands, "bare": bare}))


def _pile(session):
    return [(e["card"], e["by"]) for e in session.snapshot()["view"]["pile"]]


def _started():
    """3 players; the start card, then Hugo (seat 1) lays Marlon → Fabi."""
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 3, "names": ["Léa", "Hugo", "Inès"]}, source="test")
    _seen(session, "leon-marlon", hands=[], landed=1.0)
    _seen(session, "marlon-fabi", hands=[1], landed=2.0)
    return session


def _upper_seen_and_answered(session):
    """Inès (2) slaps Fabi → Rocce, Léa (0) Fabi → Léon on it a few frames later: the camera
    names only the upper one (two hands in: asked, Léa answered)."""
    _seen(session, "fabi-leon", hands=[0, 2], landed=4.0)
    who, = session.snapshot()["alerts"]
    session.resolve(who["id"], "0")
    assert _pile(session)[-1] == ("fabi-leon", 0)


def test_the_card_under_a_card_taken_back_is_placed_by_the_other_hand_with_no_question():
    session = _started()
    _upper_seen_and_answered(session)
    _gone(session, "fabi-leon", hands=[0], left=5.0)        # Léa takes it back: cloth shows where it lay
    _seen(session, "fabi-rocce", hands=[0], landed=5.1)     # the lower card, named at last
    assert _pile(session) == [("leon-marlon", None), ("marlon-fabi", 1), ("fabi-rocce", 2)]
    view = session.snapshot()["view"]
    assert view["hand_sizes"] == [7, 6, 6]                   # Léa's card back in her hand
    assert view["pile"][-1]["t"] < 4.0                       # landed before the card that covered it
    assert not view["pile"][-1]["wrong"]
    assert session.snapshot()["alerts"] == []                # the "which card was laid on it?" withdrawn
    last = session.snapshot()["feed"][-2:]
    assert "Léa takes Fabi → Léon back" in last[0]["text"]["en"] and "ensemble" in last[0]["text"]["fr"]


def test_the_card_known_under_seen_again_sends_the_top_card_back():
    """The lower card was seen first: the upper one, laid and taken back, leaves the
    lower one on top (seen again): not a new card."""
    session = _started()
    _seen(session, "fabi-rocce", hands=[2], landed=4.0)
    _seen(session, "fabi-leon", hands=[0, 2], landed=4.1)
    who, = session.snapshot()["alerts"]
    session.resolve(who["id"], "0")
    _gone(session, "fabi-leon", hands=[0], left=5.0)
    _seen(session, "fabi-rocce", hands=[0], landed=5.1, again=True)
    assert _pile(session) == [("leon-marlon", None), ("marlon-fabi", 1), ("fabi-rocce", 2)]
    assert session.snapshot()["view"]["hand_sizes"] == [7, 6, 6]


def test_the_card_known_under_on_top_again_with_no_cloth_seen_sends_the_top_card_back():
    """(Léa could not have laid the other Fabi → Rocce on her own Fabi → Léon: no question.)"""
    session = _started()
    _seen(session, "fabi-rocce", hands=[2], landed=4.0)
    _seen(session, "fabi-leon", hands=[0, 2], landed=4.1)
    who, = session.snapshot()["alerts"]
    session.resolve(who["id"], "0")
    _seen(session, "fabi-rocce", hands=[0], landed=5.1, again=True)   # it shows: the card over it left
    assert _pile(session) == [("leon-marlon", None), ("marlon-fabi", 1), ("fabi-rocce", 2)]
    assert session.snapshot()["view"]["hand_sizes"] == [7, 6, 6] and session.snapshot()["alerts"] == []


def test_the_card_known_under_on_top_again_is_one_tap_when_its_other_copy_could_lie_there():
    """Fabi → Rocce on top again with Léa's hand, her dog not seen leaving: she took the dog
    back, or laid the other Fabi → Rocce on it (two of each in the deck; allowed on a dog). The
    camera cannot tell: one tap, "no new card" first. It used to decide "taken back" (the
    bench's seed 71, round 40: a dog given back to the player who had laid the copy on it)."""
    session = _started()
    _seen(session, "fabi-rocce", hands=[2], landed=4.0)
    _seen(session, "dog", hands=[0, 2], landed=4.1)
    who, = session.snapshot()["alerts"]
    session.resolve(who["id"], "0")
    _seen(session, "fabi-rocce", hands=[0], landed=5.1, again=True)
    asked, = session.snapshot()["alerts"]
    ids = [c["id"] for c in asked["choices"]]
    assert asked["kind"] == "camera_under" and ids[0] == "back" and "on:0" in ids
    assert _pile(session)[-1] == ("dog", 0)                           # nothing decided meanwhile
    session.resolve(asked["id"], "on:0")
    assert _pile(session)[-2:] == [("dog", 0), ("fabi-rocce", 0)]
    assert session.snapshot()["view"]["hand_sizes"] == [5, 6, 6] and session.snapshot()["alerts"] == []


def test_the_card_known_under_on_top_again_sends_the_dog_back_when_no_copy_is_left():
    """Both Fabi → Rocce lie on the pile (Inès's, then Hugo's): Fabi → Rocce on top again over
    Léa's dog can only be Hugo's, uncovered when she took the dog back. No question."""
    session = _started()
    _seen(session, "fabi-rocce", hands=[2], landed=3.0)
    _seen(session, "rocce-fabi", hands=[0], landed=3.5)
    _seen(session, "fabi-rocce", hands=[1], landed=4.0)
    _seen(session, "dog", hands=[0, 1], landed=4.1)
    who, = session.snapshot()["alerts"]
    session.resolve(who["id"], "0")
    _seen(session, "fabi-rocce", hands=[0], landed=5.1, again=True)
    assert _pile(session)[-1] == ("fabi-rocce", 1)
    assert session.snapshot()["alerts"] == []


def test_not_seen_leaving_one_tap_says_the_card_was_under_it_and_who_laid_it():
    session = _started()
    _upper_seen_and_answered(session)
    _seen(session, "fabi-rocce", hands=[0], landed=5.1)     # the cards lay square: no cloth showed
    alert, = session.snapshot()["alerts"]
    assert alert["kind"] == "camera_under"
    assert "under" in alert["message"]["en"] and "dessous" in alert["message"]["fr"]
    ids = [c["id"] for c in alert["choices"]]
    assert ids[0] == "under:2" and "on:0" in ids
    assert _pile(session)[-1] == ("fabi-leon", 0)            # nothing guessed meanwhile
    session.resolve(alert["id"], "under:2")
    assert _pile(session) == [("leon-marlon", None), ("marlon-fabi", 1), ("fabi-rocce", 2)]
    assert session.snapshot()["view"]["hand_sizes"] == [7, 6, 6]
    assert session.snapshot()["alerts"] == []


def test_laid_on_it_by_a_player_whose_hand_was_not_seen_is_one_tap_too():
    """The hand watcher saw only Léa's hand come in, but Inès laid the new card on Léa's:
    every player is offered as the one who laid it on top, Léa first (the bench's seed 62
    with the unknown fault: the true answer was missing and the question could not be
    answered, the page fell out of step)."""
    session = _started()
    _upper_seen_and_answered(session)
    _seen(session, "leon-vanessa", hands=[0], landed=5.1)
    alert, = session.snapshot()["alerts"]
    ids = [c["id"] for c in alert["choices"]]
    assert {"on:0", "on:1", "on:2"} <= set(ids) and ids.index("on:0") < ids.index("on:2")
    session.resolve(alert["id"], "on:2")
    assert _pile(session)[-2:] == [("fabi-leon", 0), ("leon-vanessa", 2)]
    assert session.snapshot()["view"]["hand_sizes"] == [6, 6, 6] and session.snapshot()["alerts"] == []


def test_the_same_question_answered_laid_on_it_places_it_on_top():
    session = _started()
    _upper_seen_and_answered(session)
    _seen(session, "dog", hands=[0], landed=5.1)            # Léa lays a dog on her own card: legal
    alert, = session.snapshot()["alerts"]
    session.resolve(alert["id"], "on:0")
    assert _pile(session)[-2:] == [("fabi-leon", 0), ("dog", 0)]
    assert session.snapshot()["view"]["hand_sizes"] == [5, 6, 7]


def test_a_card_laid_on_top_by_another_player_asks_nothing():
    """What must stay silent: a card laid on the top card by another hand, a card taken
    from view with no cloth showing (a hand over it)."""
    session = _started()
    _upper_seen_and_answered(session)
    _seen(session, "leon-marlon", hands=[1], landed=5.0)
    assert _pile(session)[-1] == ("leon-marlon", 1) and session.snapshot()["alerts"] == []
    _gone(session, "leon-marlon", hands=[2], left=6.0, bare=False)
    _seen(session, "marlon-fabi", hands=[2], landed=6.2)
    assert _pile(session)[-2:] == [("leon-marlon", 1), ("marlon-fabi", 2)]
    assert session.snapshot()["view"]["hand_sizes"] == [6, 5, 6]


def test_a_gros_michi_slapped_on_the_lower_card_and_taken_back_swaps_nothing():
    """Léa's Gros Michi lands on Inès's card on the dog: seen first, it asks who Léa swaps
    with; Léa takes it back, Inès's card shows: one tap says it was under, no swap."""
    session = _started()
    _seen(session, "dog", hands=[1], landed=3.0)
    _seen(session, "michi", hands=[0, 2], landed=4.0)
    who, = session.snapshot()["alerts"]
    session.resolve(who["id"], "0")
    assert session.snapshot()["alerts"][0]["kind"] == "camera_michi_partner"
    _seen(session, "marlon-fabi", hands=[0], landed=5.1)
    alert, = [a for a in session.snapshot()["alerts"] if a["kind"] == "camera_under"]
    session.resolve(alert["id"], "under:2")
    view = session.snapshot()["view"]
    assert _pile(session)[-2:] == [("dog", 1), ("marlon-fabi", 2)] and view["phase"] == "playing"
    assert view["hand_sizes"] == [7, 5, 6] and session.snapshot()["alerts"] == []


def test_a_last_card_laid_together_on_top_and_taken_back_does_not_win_the_round():
    """2 players: Léa (0) is down to her last card; Hugo's card and hers land together, hers
    on top: the camera names hers first (she wins on the page), then she takes it back and
    Hugo's shows: the round goes on, Hugo's card placed."""
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 2, "names": ["Léa", "Hugo"]}, source="test")
    _seen(session, "leon-marlon", hands=[], landed=1.0)
    for i, card in enumerate(("marlon-fabi", "fabi-rocce", "rocce-vanessa", "vanessa-leon", "leon-marlon",
                              "marlon-fabi")):
        _seen(session, card, hands=[0], landed=2.0 + i)
    _seen(session, "fabi-rocce", hands=[0, 1], landed=10.0)
    who, = session.snapshot()["alerts"]
    session.resolve(who["id"], "0")
    assert session.snapshot()["view"]["phase"] == "round_won"
    _seen(session, "fabi-leon", hands=[0], landed=11.0)
    view = session.snapshot()["view"]
    assert view["phase"] == "playing" and view["hand_sizes"] == [1, 6]
    assert _pile(session)[-2:] == [("marlon-fabi", 0), ("fabi-leon", 1)]
    assert "takes their last card back" in session.snapshot()["feed"][-2]["text"]["en"]


def _unknown(session, unknown, *, hands, landed):
    session.submit(Observation("card_unknown", landed + 0.07, "camera",
                               {"zone": "pile", "unknown": unknown, "landed": landed, "hands": hands}))


def _answer(session, kind, choice):
    alert, = [a for a in session.snapshot()["alerts"] if a["kind"] == kind]
    assert choice in [c["id"] for c in alert["choices"]]
    session.resolve(alert["id"], choice)


def test_an_upper_card_that_is_a_copy_of_a_card_lower_in_the_pile_is_asked_then_sent_back():
    """The bench's seed 62, together@0.2, round 9: Tom (3) slaps Rocce → Fabi on a dog that
    covers a Marlon → Rocce, Léa (0) slaps another Marlon → Rocce on it 2 frames later and
    takes it back. The upper copy, askew, reads badly and looks like the copy lying covered
    at its place: the watcher must report it unnamed (it took it for that covered card read
    less well and said nothing, so Rocce → Fabi came alone with Léa's hand in and was
    placed for Léa). Reported, it is which card, who laid it, then under it, laid by Tom."""
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 4, "names": ["Léa", "Hugo", "Inès", "Tom"]}, source="test")
    _seen(session, "fabi-rocce", hands=[2], landed=110.3)
    _seen(session, "dog", hands=[3], landed=110.7)
    _seen(session, "marlon-rocce", hands=[3], landed=111.07)
    _seen(session, "dog", hands=[1], landed=111.43, again=True)   # the other dog's copy, on top again
    _unknown(session, 289, hands=[0, 3], landed=111.93)          # the upper copy, askew, read badly
    _answer(session, "camera_which_card", "marlon-rocce")
    _answer(session, "camera_who_placed", "0")
    _seen(session, "rocce-fabi", hands=[0], landed=112.17)         # Léa took hers back: the lower card
    _answer(session, "camera_under", "under:3")
    assert _pile(session) == [("fabi-rocce", None), ("dog", 3), ("marlon-rocce", 3), ("dog", 1), ("rocce-fabi", 3)]
    assert session.snapshot()["view"]["hand_sizes"] == [7, 6, 7, 4]
    assert session.snapshot()["alerts"] == []


def test_a_pair_settled_stays_settled_and_a_copy_laid_on_it_is_placed():
    """Seed 63 of the bench (together@0.2): Hugo's dog and Léa's Léon → Rocce landed together,
    both named and asked; Léa's taken back ("no new card"). Hugo then laid a copy of Marlon →
    Vanessa (the card under his dog) with only his hand in: the page took it for the dog
    going back to Hugo's hand, showed no new card, and lost the dog (every later state wrong)."""
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 3, "names": ["Léa", "Hugo", "Inès"]}, source="test", t=0.0)
    _seen(session, "marlon-vanessa", hands=[], landed=1.0)
    _seen(session, "dog", hands=[0, 1], landed=2.0)
    _seen(session, "leon-rocce", hands=[0, 1], landed=2.13)
    for alert, seat in zip(session.snapshot()["alerts"], ("1", "0"), strict=True):
        session.resolve(alert["id"], seat, t=2.4)
    _seen(session, "dog", hands=[0], landed=2.5, again=True)              # Léa's hand takes hers back
    for alert in session.snapshot()["alerts"]:
        session.resolve(alert["id"], "back", t=2.7)
    assert _pile(session) == [("marlon-vanessa", None), ("dog", 1)]
    _seen(session, "marlon-vanessa", hands=[1], landed=2.83, again=True)
    assert _pile(session)[:2] == [("marlon-vanessa", None), ("dog", 1)]   # the dog stays
    for alert in session.snapshot()["alerts"]:                            # asked, if at all: Hugo laid it on
        session.resolve(alert["id"], "on:1", t=3.0)
    assert _pile(session) == [("marlon-vanessa", None), ("dog", 1), ("marlon-vanessa", 1)]



def test_a_gros_michi_asked_about_and_taken_back_is_not_left_asked():
    """Seed 63, round 11: Léa's Gros Michi slapped together on Hugo's Rocce → Vanessa (two
    hands in, asked who, then "could no one play?"); Léa took it back, so Rocce → Vanessa shows
    again with only her hand in. The question stayed open, and a later answer about another
    card put that card under the Michi that was not there: a card too many on the page."""
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 3, "names": ["Léa", "Hugo", "Inès"]}, source="test", t=0.0)
    _seen(session, "vanessa-fabi", hands=[], landed=1.0)
    _seen(session, "rocce-vanessa", hands=[0, 1], landed=2.0)
    who, = session.snapshot()["alerts"]
    session.resolve(who["id"], "1", t=2.3)
    session.submit(Observation("card_unknown", 2.27, "camera", {"zone": "pile", "landed": 2.17, "hands": [0, 1],
                                                                "unknown": 7}))
    which, = session.snapshot()["alerts"]
    session.resolve(which["id"], "michi", t=2.4)
    who, = session.snapshot()["alerts"]
    session.resolve(who["id"], "0", t=2.4)
    assert [a["kind"] for a in session.snapshot()["alerts"]] == ["camera_michi_blocked"]
    before = session.snapshot()["view"]["hand_sizes"]
    _seen(session, "rocce-vanessa", hands=[0], landed=2.5, again=True)   # Léa's hand took the Michi back
    assert session.snapshot()["alerts"] == []
    assert _pile(session)[-1] == ("rocce-vanessa", 1)
    assert session.snapshot()["view"]["hand_sizes"] == before
    assert any("Gros Michi" in line["text"]["en"] and "Léa" in line["text"]["en"]
               for line in session.snapshot()["feed"][-2:])


def test_a_last_card_asked_about_twice_wins_the_round_once():
    """Crooked@0.2, seed 63, round 19: the last card, laid crooked, was seen unnamed twice (two
    "which card?"); the first answer won the round, the second, naming the same card with the
    same hand in, was taken for the winning card going back with another card under it: the
    round undone and "who laid it?" offered no true answer."""
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 2, "names": ["Léa", "Hugo"]}, source="test", t=0.0)
    _seen(session, "leon-marlon", hands=[], landed=1.0)
    for i, card in enumerate(("marlon-fabi", "fabi-rocce", "rocce-vanessa", "vanessa-leon", "leon-marlon",
                              "marlon-fabi")):
        _seen(session, card, hands=[0], landed=2.0 + i)
    _unknown(session, 1, hands=[0], landed=10.0)
    _unknown(session, 2, hands=[0], landed=10.2)
    first, second = session.snapshot()["alerts"]
    session.resolve(first["id"], "fabi-rocce", t=10.5)
    assert session.snapshot()["view"]["phase"] == "round_won"
    session.resolve(second["id"], "fabi-rocce", t=10.5)
    view = session.snapshot()["view"]
    assert view["phase"] == "round_won" and session.snapshot()["alerts"] == []


def test_a_crooked_gros_michi_asked_about_three_times_is_laid_once():
    """Crooked@0.2, seed 63, round 16: Hugo's Gros Michi, laid crooked on his own card a moment
    after it, was seen unnamed three times (two pieces at once, then settled). Each "which
    card?" was answered Gros Michi before the first answer's "under it or on it?" was: the
    third was read as a second Michi ("who laid it?"), its "could no one play?" was left
    asked after the swap, and its answer refused ("a new start card must be turned first")."""
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 2, "names": ["Léa", "Hugo"]}, source="test", t=0.0)
    _seen(session, "leon-marlon", hands=[], landed=1.0)
    _seen(session, "marlon-fabi", hands=[1], landed=2.0)
    _unknown(session, 1, hands=[1], landed=2.6)
    _unknown(session, 2, hands=[1], landed=2.6)
    _unknown(session, 3, hands=[], landed=3.0)
    for alert in session.snapshot()["alerts"]:   # the players answer what they see: the Gros Michi
        session.resolve(alert["id"], "michi", t=3.5)
    _answer(session, "camera_under", "on:1")
    kinds = [a["kind"] for a in session.snapshot()["alerts"]]
    assert kinds == ["camera_michi_blocked"]
    _answer(session, "camera_michi_blocked", "0")
    snap = session.snapshot()
    assert snap["alerts"] == [] and not [line for line in snap["feed"] if line["kind"] == "alert"
                                         and "not applied" in line["text"]["en"]]
    # one Michi laid (Hugo: 7 - 2 = 5 cards), then hands swapped with Léa; the round over
    assert snap["view"]["phase"] == "turning" and snap["view"]["hand_sizes"] == [5, 7]


def test_the_hands_of_an_unnamed_sighting_count_for_the_card_it_is_named_as():
    """Together@0.2, seed 67, round 8: Léa lays Léon → Rocce, Hugo slaps his Gros Michi on it
    and takes it back. The camera saw the pair land unnamed with both hands in, then named the
    Michi with no hand in ("who laid it?"); the "which card?" answer (the Michi) was the same
    card, so its two hands were dropped, and Léon → Rocce, seen next with Hugo's hand taking
    the Michi back, was placed for Hugo. The hands of both sightings count: one tap asks."""
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 2, "names": ["Léa", "Hugo"]}, source="test", t=0.0)
    _seen(session, "rocce-leon", hands=[0], landed=1.0)
    _unknown(session, 171, hands=[0, 1], landed=1.6)
    _seen(session, "michi", hands=[], landed=2.2)
    which, = session.snapshot()["alerts"]   # named later with no hand in: one question, its reading first
    assert which["kind"] == "camera_which_card" and which["choices"][0]["id"] == "michi"
    session.resolve(which["id"], "michi", t=2.3)
    who, = session.snapshot()["alerts"]
    assert who["kind"] == "camera_who_placed" and "two hands" in who["message"]["en"]
    session.resolve(who["id"], "1", t=2.3)
    _seen(session, "leon-rocce", hands=[1], landed=2.33)
    _answer(session, "camera_under", "under:0")
    snap = session.snapshot()
    assert _pile(session) == [("rocce-leon", None), ("leon-rocce", 0)]
    assert snap["view"]["hand_sizes"] == [6, 7] and snap["alerts"] == []


def test_a_gros_michi_slapped_together_on_a_dog_at_two_players_swaps_nothing_until_it_stays():
    """Together@0.2, seed 67, round 36: Léa's Gros Michi slapped on Hugo's dog with both hands
    in, then taken back. At 2 players the swap needs no choice, so it was made at once: the
    pile boxed, Hugo's next card taken for a start card and the page ahead by a whole round.
    A Michi that landed with two hands in asks for the swap (one tap), so a take-back undoes nothing."""
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 2, "names": ["Léa", "Hugo"]}, source="test", t=0.0)
    _seen(session, "leon-marlon", hands=[], landed=1.0)
    _seen(session, "dog", hands=[1], landed=2.0)
    _seen(session, "michi", hands=[0, 1], landed=3.0)
    _answer(session, "camera_who_placed", "0")
    snap = session.snapshot()
    assert snap["view"]["phase"] == "michi"                      # no swap yet: Léa's Michi may go back
    assert [a["kind"] for a in snap["alerts"]] == ["camera_michi_partner"]
    _seen(session, "dog", hands=[0], landed=3.5, again=True)   # Léa took her Michi back
    _answer(session, "camera_under", "back")                   # one tap: no new card, the Michi went back
    snap = session.snapshot()
    assert snap["view"]["phase"] == "playing" and snap["view"]["hand_sizes"] == [7, 6]
    assert _pile(session)[-1] == ("dog", 1) and snap["alerts"] == []


def test_a_card_slapped_with_a_copy_of_the_top_card_on_it_is_asked_not_given_to_the_copys_player():
    """Together@0.2, seed 68, round 9: Inès (3) slaps a dog on the start card Marlon → Vanessa,
    Hugo (1) a copy of Marlon → Vanessa on the dog and takes it back. The camera sees the start
    card again with both hands in (the copy over its twin), and the dog only once the copy is
    gone, with Hugo's hand that took it: the dog was given to Hugo, his hand count and Inès's
    wrong. The hands of the pair count: one tap."""
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 4}, source="test")
    _seen(session, "marlon-vanessa", hands=[2], landed=1.0)
    _seen(session, "marlon-vanessa", hands=[1, 3], landed=1.83, again=True)
    assert session.snapshot()["alerts"] == []
    _seen(session, "dog", hands=[1], landed=2.13)
    who, = session.snapshot()["alerts"]
    assert who["kind"] == "camera_who_placed" and {c["id"] for c in who["choices"][:2]} == {"1", "3"}
    session.resolve(who["id"], "3")
    assert _pile(session) == [("marlon-vanessa", None), ("dog", 3)]


def test_a_top_card_seen_again_with_one_hand_changes_nothing_for_the_next_card():
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 4}, source="test")
    _seen(session, "marlon-vanessa", hands=[2], landed=1.0)
    _seen(session, "marlon-vanessa", hands=[1], landed=1.83, again=True)   # a hand hovered over it
    _seen(session, "dog", hands=[1], landed=2.13)
    assert session.snapshot()["alerts"] == [] and _pile(session) == [("marlon-vanessa", None), ("dog", 1)]
