"""Random whole games of Passe Éclair: the simulated table and the benchmark.

    >>> import random
    >>> game = random_playout(random.Random(5), players=3)
    >>> game.is_over(), game.round
    (True, 9)

Simulated players react to each new top card after a random reaction time; the fastest
with a legal card places it. Sometimes two land together (as two close placements or as
a :class:`Simultaneous`), sometimes a player slaps down a wrong card that someone spots a
little later, sometimes a slow player answers a card already covered. The game runs in
lenient mode (``strict=False``) so that wrong cards lie on the pile until spotted.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from .actions import Action, Blocked, MichiSwap, Outcome, Place, Simultaneous, SpendConsolation, SpotWrong, StartRound
from .cards import FOOTBALLERS, MICHI, parse_card
from .game import Game, new_game


@dataclass(frozen=True)
class PlayoutStyle:
    """How the simulated players behave (probabilities per decision, times in seconds)."""

    reaction: tuple[float, float] = (0.3, 2.5)
    together_rate: float = 0.08      # a second player lands within the together window
    explicit_together_rate: float = 0.5  # ...reported as one Simultaneous action
    late_rate: float = 0.04          # a slow player answers a card that was just covered
    wrong_rate: float = 0.03         # a player slaps down a wrong card
    spot_rate: float = 0.5           # chance per step that a lying wrong card gets spotted
    michi_rate: float = 0.6          # a Michi holder uses it when they may
    spend_rate: float = 0.8          # a footballer consolation token is spent when it can be
    max_actions: int = 50_000        # a guard: a game never needs this many


def playout_steps(rng: random.Random, players: int = 3, *, style: PlayoutStyle = PlayoutStyle(),
                  game: Game | None = None, now: float = 0.0) -> Iterator[tuple[Action, Outcome, Game]]:
    """Play a whole random game, yielding ``(action, outcome, game)`` after each action.
    All chance comes from ``rng`` (a new game's own RNG is seeded from it); pass ``game``
    to play on from a given position instead (``players`` is then ignored)."""
    if game is None:
        game = new_game(players, rng=random.Random(rng.getrandbits(64)), coach=rng.randrange(players),
                        strict=False)
    for _ in range(style.max_actions):
        if game.is_over():
            return
        now += rng.uniform(*style.reaction)
        for i, action in enumerate(_next_actions(game, rng, now, style)):
            if i and isinstance(action, Place) and game.phase != "playing":
                break  # the first card ended the round or called a Michi swap: the second stays in hand
            yield action, game.apply(action), game
            if game.is_over():
                return
    raise RuntimeError(f"random playout did not finish within {style.max_actions} actions")


def random_playout(rng: random.Random, players: int = 3, *, style: PlayoutStyle = PlayoutStyle()) -> Game:
    """A whole random legal game of 9 rounds (see :func:`playout_steps`)."""
    game = None
    for _, _, game in playout_steps(rng, players, style=style):
        pass
    assert game is not None
    return game


def _next_actions(game: Game, rng: random.Random, now: float, style: PlayoutStyle) -> list[Action]:
    if game.phase == "dealt":
        return _spend_tokens(game, rng, style) + [StartRound(t=now)]
    if game.phase == "michi":
        return [MichiSwap(game.pending_michi, _other_seat(game, game.pending_michi, rng), t=now)]
    wrong_seats = [e.by for e in game.pile if e.wrong]
    if wrong_seats and rng.random() < style.spot_rate:
        return [SpotWrong(rng.choice(wrong_seats), t=now)]
    legal = {seat: cards for seat, cards in game.legal_actions().items() if cards}
    if not legal:
        return [Blocked(t=now)]
    fastest = sorted(legal, key=lambda _: rng.random())
    seat = fastest[0]
    card = rng.choice(legal[seat])
    if card == MICHI:  # on a dog, or no one can play
        if rng.random() < style.michi_rate:
            return [MichiSwap(seat, _other_seat(game, seat, rng), t=now)]
        others = [c for c in legal[seat] if c != MICHI]
        if not others:  # keeps the Michi: the coach turns a new card, or the player hesitates
            return [Blocked(t=now)] if game.is_blocked() else []
        card = rng.choice(others)
    if rng.random() < style.wrong_rate:
        wrong = sorted(set(game.hands[seat]) - set(legal[seat]) - {MICHI})
        if wrong:
            card = rng.choice(wrong)
    top = game.top_entry.serial
    first = Place(seat, card, t=now, answers=top)
    if len(fastest) > 1 and rng.random() < style.together_rate:
        second_seat = fastest[1]
        second = Place(second_seat, rng.choice(game.hands[second_seat]),
                       t=now + rng.uniform(0.0, game.together_window * 0.9))
        if rng.random() < style.explicit_together_rate:
            return [Simultaneous((first, second))]
        return [first, second]
    if len(fastest) > 1 and rng.random() < style.late_rate:
        late_seat = fastest[1]
        late = Place(late_seat, rng.choice(legal[late_seat]), t=now + game.together_window + 0.2, answers=top)
        return [first, late]
    return [first]


def _spend_tokens(game: Game, rng: random.Random, style: PlayoutStyle) -> list[Action]:
    actions: list[Action] = []
    for seat, tokens in enumerate(game.consolation_tokens):
        hand = list(game.hands[seat])
        for token in tokens:
            if token not in FOOTBALLERS or rng.random() >= style.spend_rate:
                continue
            matching = [c for c in hand if parse_card(c).big == token]
            if matching:
                card = rng.choice(matching)
                hand.remove(card)
                actions.append(SpendConsolation(seat, token, card))
    return actions


def _other_seat(game: Game, seat: int, rng: random.Random) -> int:
    return rng.choice([s for s in range(game.players) if s != seat])
