"""The Passe Éclair (Blitzpass) rules engine: pure, real time (RULINGS.md §3).

    >>> g = new_game(3, seed=7)
    >>> _ = g.apply(StartRound(t=0.0))
    >>> g.phase, len(g.hands[0])
    ('playing', 7)

Everyone plays at once. The engine takes timestamped actions from any seat at any moment
and decides them **in order of arrival** (the session feeds them in that order).

Decisions on open points (documented for players, screens and tests):

* **Strict or lenient.** ``new_game(strict=True)`` (default, scorekeeper dashboard):
  an illegal placement raises :class:`IllegalAction` with the reason and changes
  nothing. ``strict=False`` (physical-table mode): the card is put on the pile but
  flagged (``PileCard.wrong`` and the ``placed`` event carry code + reason at once);
  it stays until :class:`SpotWrong` sends it back with a penalty card. A ``Blocked``
  or ``MichiSwap`` the rules forbid is likewise recorded with its reason in the event
  (the table has already moved the cards). Data errors (a card not in that hand, the
  wrong phase, an unknown seat) are refused in both modes.
* **Together.** A placement lands together with the top card when that card was placed
  by another seat, less than ``together_window`` seconds before (default 0.15 s,
  ``new_game(together_window=...)``) and the placement did not declare ``answers`` =
  that card. The card already on the pile arrived first, so it is the lower one and
  stays; the new card goes back to hand (``returned_to_hand``, no penalty). Cards are
  judged by when they **landed**: a card reported late whose time is earlier than the top
  card's is put in its landing place (the cards placed after it are judged again on top of
  it, ``placed`` says ``landed_before``); within the window the one that landed first
  stays. A Gros Michi entered as :class:`MichiSwap` lands like any card (together → back).
  :class:`Simultaneous` is the explicit form: the earliest timestamp (then the first
  listed) stays and is judged; the others go back to hand.
* **Overtaken.** A placement that answered a card since covered is judged against the
  card it actually lands on (the ``placed`` event says ``overtaken``).
* **Victory and consolation tokens** lie face down: the one taken is drawn at random
  (the injected RNG). Consolation goes to the player (not the winner) with the most
  cards left; a tie for most, the 2-player game, or an empty pool gives none.
* **Rounds.** At a round's end all cards go to the box and the winner, the new coach,
  at once deals 7 cards each from the draw pile (the deck is not gathered: the box is
  shuffled in only when the draw pile runs out, taken lazily when a card is needed).
  Footballer consolation tokens may then be spent; :class:`StartRound` turns the card.
* **A wrong card cannot win.** A player whose hand is empty wins only when none of their
  cards on the pile is flagged wrong; until it is spotted the round goes on (if the pile
  goes to the box unspotted, the empty hand wins then).
* **Coach.** ``new_game(coach=...)`` is the oldest player's seat; then each round's winner.
  A card reported after the last card of a round is refused (the next round is dealt).
* **Gros Michi** is played by ``MichiSwap(seat, target)`` (which also puts the card
  down), or by ``Place`` then ``MichiSwap``: in between, placements are refused.
  "No one can play" means no seat holds a non-Michi card that may go on the top card.
* **Nothing left to turn.** With the draw pile and the box both empty the last card
  turned stays as start card; a penalty draw then gives no card.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from table.rules import IllegalAction

from .actions import Action, Blocked, MichiSwap, Outcome, Place, Simultaneous, SpendConsolation, SpotWrong, StartRound
from .cards import MICHI, BadInput, card_label, parse_card, validate_players, validate_seat
from .placement import placement_problem, refusal_code
from .profile import Profile, default_profile, load_profile
from .scoring import GoalCount
from .state import TableState

DEFAULT_TOGETHER_WINDOW = 0.15

_PHASE_REFUSALS = {
    "dealt": ("The round has not started: the coach has not turned the start card yet.",
              "Le tour n'a pas commencé : l'entraîneur n'a pas encore retourné la carte de départ.", "not_started"),
    "playing": ("The round is being played.", "Le tour est en cours.", "playing"),
    "michi": ("Wait: the Gros Michi player must first swap hands.",
              "Attendez : le joueur du Gros Michi doit d'abord échanger ses cartes.", "michi_pending"),
    "game_over": ("The game is over.", "La partie est terminée.", "game_over"),
}


class Game(TableState, GoalCount):
    """A game of Passe Éclair; build it with :func:`new_game`, feed it actions in order
    of arrival, read the state between them.

        >>> g = new_game(2, seed=3); _ = g.apply(StartRound(t=0.0))
        >>> g.top is not None, g.round, g.is_over()
        (True, 1, False)
    """

    # ---- queries -----------------------------------------------------------------------
    def hand_sizes(self) -> list[int]:
        return [len(h) for h in self.hands]

    def _refusal_code(self, seat: int, card: str) -> str | None:
        top = self.top_entry
        if top is None:
            return None
        code = refusal_code(top.card, card, by=seat, top_placed_by=top.by, players=self.players)
        if code == "michi_not_on_dog" and self.is_blocked():
            return None  # the "when no one can play" case of the Gros Michi
        return code

    def _problem(self, seat: int, card: str) -> IllegalAction | None:
        """Why ``seat`` may not put ``card`` on the top card now (None: it may)."""
        if self._refusal_code(seat, card) is None:
            return None
        return placement_problem(self.top_entry.card, card, by=seat, top_placed_by=self.top_entry.by,
                                 players=self.players)

    def is_blocked(self) -> bool:
        """True while playing when no seat holds a non-Michi card that may go on the top."""
        top = self.top_entry
        if self.phase != "playing" or top is None:
            return False
        for seat, hand in enumerate(self.hands):
            for card in set(hand):
                if card != MICHI and refusal_code(top.card, card, by=seat, top_placed_by=top.by,
                                                  players=self.players) is None:
                    return False
        return True

    def legal_actions(self) -> dict[int, list[str]]:
        """For each seat, the distinct cards in hand that may go on the top card now."""
        if self.phase != "playing":
            return {seat: [] for seat in range(self.players)}
        return {seat: sorted(c for c in set(hand) if self._refusal_code(seat, c) is None)
                for seat, hand in enumerate(self.hands)}

    def scores(self) -> list[int]:
        """Goal points per seat (victory plus consolation tokens)."""
        return self.goal_points()

    # ---- applying actions --------------------------------------------------------------
    def apply(self, action: Action) -> Outcome:
        """Apply one action; an :class:`IllegalAction` refusal changes nothing."""
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise BadInput(f"Not a Passe Éclair action: {action!r}.",
                           f"Ce n'est pas une action de Passe Éclair : {action!r}.", code="bad_action")
        events: list[dict[str, Any]] = []
        handler(self, action, events)
        return Outcome(events)

    def _require_phase(self, *phases: str) -> None:
        if self.phase not in phases:
            en, fr, code = _PHASE_REFUSALS[self.phase]
            raise IllegalAction(en, fr, code=code)

    def _require_in_hand(self, seat: int, card: str) -> None:
        if card not in self.hands[seat]:
            raise IllegalAction(
                f"Seat {seat + 1} has no {card_label(card, 'en')} in hand.",
                f"Le joueur {seat + 1} n'a pas de carte {card_label(card, 'fr')} en main.", code="not_in_hand")

    def _check_place(self, p: Place) -> None:
        validate_seat(p.seat, self.players)
        self._require_phase("playing")
        self._require_in_hand(p.seat, p.card)
        if p.answers is not None and p.answers >= self.next_serial:
            raise BadInput(f"No pile card has serial {p.answers}.",
                           f"Aucune carte du tas n'a le numéro {p.answers}.", code="bad_answers")

    def _lands_together(self, p: Place) -> bool:
        top = self.top_entry
        if top is None or top.by is None or top.by == p.seat or top.t is None or p.answers == top.serial:
            return False
        return abs(p.t - top.t) <= self.together_window

    def _landed_before_top(self, p: Place) -> bool:
        """True when ``p`` was reported after the top card but landed before it (its time
        is earlier): it is judged in landing order, not in order of arrival."""
        top = self.top_entry
        if p.answers is not None and top is not None and p.answers >= top.serial:
            return False   # the player answered the top card: it was there first
        return top is not None and top.by is not None and top.t is not None and p.t < top.t

    def _land(self, p: Place, events: list[dict]) -> None:
        """Judge one checked placement against the card it lands on, then put it down."""
        if self._landed_before_top(p):
            self._land_in_landing_order(p, events)
            return
        top = self.top_entry
        if self._lands_together(p):
            events.append({"type": "returned_to_hand", "seat": p.seat, "card": p.card, "reason": "together",
                           "under_serial": top.serial, "t": p.t})
            return
        problem = self._problem(p.seat, p.card)
        if problem is not None and self.strict:
            raise problem
        wrong = None if problem is None else {"code": problem.code, "en": problem.en, "fr": problem.fr}
        self.hands[p.seat].remove(p.card)
        entry = self._new_pile_card(p.card, p.seat, p.t, wrong)
        events.append({"type": "placed", "seat": p.seat, "card": p.card, "serial": entry.serial,
                       "on": top.card if top else None, "on_serial": top.serial if top else None,
                       "answers": p.answers, "overtaken": p.answers is not None and top is not None
                       and p.answers != top.serial, "t": p.t, "wrong": wrong,
                       "cards_left": len(self.hands[p.seat])})
        if p.card == MICHI and wrong is None:
            self.phase, self.pending_michi = "michi", p.seat
            return
        self._maybe_won(p.seat, events)

    def _land_in_landing_order(self, p: Place, events: list[dict]) -> None:
        """A card reported late that landed before the top card(s): the cards placed after
        it are lifted, it is judged against the card it really landed on, and they are
        judged again on top of it in their landing order. Within the together window of
        the card it landed next to, the one that landed first stays and the other goes
        back to hand (no penalty)."""
        start = len(self.pile)
        while start > 0 and self.pile[start - 1].by is not None and self.pile[start - 1].t is not None \
                and self.pile[start - 1].t > p.t:
            start -= 1
        later = self.pile[start:]
        below = self.pile[start - 1] if start > 0 else None
        saved = list(self.pile)
        del self.pile[start:]
        if below is not None and below.by is not None and below.by != p.seat and below.t is not None \
                and p.answers != below.serial and p.t - below.t <= self.together_window:
            self.pile.extend(later)   # it landed together with the card below it, which was first
            events.append({"type": "returned_to_hand", "seat": p.seat, "card": p.card, "reason": "together",
                           "under_serial": below.serial, "t": p.t})
            return
        problem = self._problem(p.seat, p.card)
        if problem is not None and self.strict:
            self.pile[:] = saved
            raise problem
        wrong = None if problem is None else {"code": problem.code, "en": problem.en, "fr": problem.fr}
        self.hands[p.seat].remove(p.card)
        entry = self._new_pile_card(p.card, p.seat, p.t, wrong)
        events.append({"type": "placed", "seat": p.seat, "card": p.card, "serial": entry.serial,
                       "on": below.card if below else None, "on_serial": below.serial if below else None,
                       "answers": p.answers, "overtaken": False, "t": p.t, "wrong": wrong,
                       "cards_left": len(self.hands[p.seat]), "landed_before": [e.serial for e in later]})
        for e in later:
            under = self.pile[-1]
            if e.by != under.by and e.by is not None and under.by is not None and e.t - under.t <= \
                    self.together_window and under is entry:
                self.hands[e.by].append(e.card)   # it landed together with the late card, after it
                events.append({"type": "returned_to_hand", "seat": e.by, "card": e.card, "reason": "together",
                               "under_serial": under.serial, "t": e.t})
                continue
            code = refusal_code(under.card, e.card, by=e.by, top_placed_by=under.by, players=self.players)
            wrong = None if code is None else _as_wrong(placement_problem(
                under.card, e.card, by=e.by, top_placed_by=under.by, players=self.players))
            self.pile.append(replace(e, wrong=wrong))
        self._maybe_won(p.seat, events)

    def _maybe_won(self, seat: int, events: list[dict]) -> bool:
        if self.hands[seat] or any(e.by == seat and e.wrong for e in self.pile):
            return False
        self._end_round(seat, events)
        return True

    def _on_place(self, p: Place, events: list[dict]) -> None:
        self._check_place(p)
        self._land(p, events)

    def _on_simultaneous(self, action: Simultaneous, events: list[dict]) -> None:
        for p in action.placements:
            self._check_place(p)
        order = sorted(range(len(action.placements)), key=lambda i: (action.placements[i].t, i))
        lowest = action.placements[order[0]]
        for i in order[1:]:  # events only: a refusal of ``lowest`` below still changes nothing
            p = action.placements[i]
            events.append({"type": "returned_to_hand", "seat": p.seat, "card": p.card, "reason": "together",
                           "under_serial": None, "t": p.t})
        self._land(lowest, events)

    def _on_spot_wrong(self, action: SpotWrong, events: list[dict]) -> None:
        seat = validate_seat(action.seat, self.players)
        self._require_phase("playing", "michi")
        flagged = [e for e in self.pile if e.by == seat and e.wrong
                   and (action.serial is None or e.serial == action.serial)]
        if not flagged:
            raise IllegalAction(f"No wrong card of seat {seat + 1} lies on the pile.",
                                f"Aucune mauvaise carte du joueur {seat + 1} n'est sur le tas.",
                                code="nothing_to_spot")
        entry = flagged[-1]
        self.pile.remove(entry)
        self.hands[seat].append(entry.card)
        events.append({"type": "returned_to_hand", "seat": seat, "card": entry.card, "reason": "spotted",
                       "under_serial": entry.serial, "t": action.t, "wrong": entry.wrong})
        self._penalty_draw(seat, events)

    def _penalty_draw(self, seat: int, events: list[dict]) -> None:
        card = self._draw_one(events)
        if card is not None:
            self.hands[seat].append(card)
        events.append({"type": "penalty_draw", "seat": seat, "card": card, "cards_left": len(self.hands[seat])})

    def _could_play(self) -> list[int]:
        return [seat for seat, cards in self.legal_actions().items() if any(c != MICHI for c in cards)]

    def _on_blocked(self, action: Blocked, events: list[dict]) -> None:
        self._require_phase("playing")
        could_play = [] if self.is_blocked() else self._could_play()
        if could_play and self.strict:
            top = self.top or ""
            raise IllegalAction(f"Play is not blocked: a card can still go on {card_label(top, 'en')}.",
                                f"Le jeu n'est pas bloqué : une carte peut encore aller sur {card_label(top, 'fr')}.",
                                code="not_blocked")
        events.append({"type": "blocked", "coach": self.coach, "could_play": could_play, "t": action.t})
        self._pile_to_box("blocked", events)
        self._carry_on(self.coach, action.t, events)

    def _carry_on(self, turner: int, t: float | None, events: list[dict]) -> None:
        """After the pile went to the box: a seat with an empty hand (its wrong cards gone
        with the pile) wins, else ``turner`` turns a new start card."""
        for seat, hand in enumerate(self.hands):
            if not hand:
                self._end_round(seat, events)
                return
        self._turn_start_card(turner, t, events)

    def _on_michi_swap(self, action: MichiSwap, events: list[dict]) -> None:
        seat = validate_seat(action.seat, self.players)
        target = validate_seat(action.target, self.players)
        if target == seat:
            raise IllegalAction("The Gros Michi player swaps hands with another player.",
                                "Le joueur du Gros Michi échange ses cartes avec un autre joueur.", code="swap_self")
        self._require_phase("playing", "michi")
        if self.phase == "michi" and self.pending_michi != seat:
            raise IllegalAction(f"Seat {self.pending_michi + 1} played the Gros Michi and swaps.",
                                f"C'est le joueur {self.pending_michi + 1} qui a joué le Gros Michi et échange.",
                                code="not_your_michi")
        if self.phase == "playing":
            self._require_in_hand(seat, MICHI)
            if self._lands_together(Place(seat, MICHI, action.t if action.t is not None else 0.0)) \
                    and action.t is not None:
                # entered as a swap, the Gros Michi is still a card landing on the pile: together → back
                top = self.top_entry
                events.append({"type": "returned_to_hand", "seat": seat, "card": MICHI, "reason": "together",
                               "under_serial": top.serial, "t": action.t})
                return
            problem = self._problem(seat, MICHI)
            if problem is not None and self.strict:
                raise problem
            top = self.top_entry
            wrong = None if problem is None else {"code": problem.code, "en": problem.en, "fr": problem.fr}
            self.hands[seat].remove(MICHI)
            entry = self._new_pile_card(MICHI, seat, action.t, wrong)
            events.append({"type": "placed", "seat": seat, "card": MICHI, "serial": entry.serial,
                           "on": top.card if top else None, "on_serial": top.serial if top else None,
                           "answers": None, "overtaken": False, "t": action.t, "wrong": wrong,
                           "cards_left": len(self.hands[seat])})
        self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
        self.phase, self.pending_michi = "playing", None
        events.append({"type": "michi_swap", "seat": seat, "target": target,
                       "took": len(self.hands[seat]), "gave": len(self.hands[target])})
        self._pile_to_box("michi", events)
        self._carry_on(seat, action.t, events)

    def _on_spend(self, action: SpendConsolation, events: list[dict]) -> None:
        seat = validate_seat(action.seat, self.players)
        self._require_phase("dealt")
        if action.token not in self.consolation_tokens[seat]:
            raise IllegalAction(f"Seat {seat + 1} has no consolation token showing {action.token}.",
                                f"Le joueur {seat + 1} n'a pas de jeton de consolation {action.token}.",
                                code="no_such_token")
        self._require_in_hand(seat, action.card)
        if parse_card(action.card).big != action.token:
            raise IllegalAction(
                f"A {action.token} token discards a card with {action.token} big, not {card_label(action.card, 'en')}.",
                f"Un jeton {action.token} défausse une carte avec {action.token} en grand, "
                f"pas {card_label(action.card, 'fr')}.", code="card_not_of_token")
        self.consolation_tokens[seat].remove(action.token)
        self.spent_tokens[seat].append(action.token)
        self.hands[seat].remove(action.card)
        self.box.append(action.card)
        events.append({"type": "consolation_spent", "seat": seat, "token": action.token, "card": action.card,
                       "cards_left": len(self.hands[seat])})

    def _on_start_round(self, action: StartRound, events: list[dict]) -> None:
        self._require_phase("dealt")
        self.phase = "playing"
        events.append({"type": "round_started", "round": self.round, "coach": self.coach, "t": action.t})
        self._turn_start_card(self.coach, action.t, events)

    # ---- end of a round and of the game ------------------------------------------------
    def _end_round(self, winner: int, events: list[dict]) -> None:
        sizes = self.hand_sizes()
        points = self.victory_pool.pop(self.rng.randrange(len(self.victory_pool)))
        self.victory_tokens[winner].append(points)
        events.append({"type": "round_won", "round": self.round, "seat": winner, "points": points,
                       "hand_sizes": sizes})
        self._give_consolation(winner, sizes, events)
        self._pile_to_box("round_end", events)
        in_hands = sum(sizes)
        self.box.extend(card for hand in self.hands for card in hand)
        self.hands = [[] for _ in range(self.players)]
        events.append({"type": "hands_to_box", "count": in_hands})
        self.pending_michi, self.coach = None, winner
        if not self.victory_pool or self.round >= self.rounds:
            self.phase = "game_over"
            events.append({"type": "game_over", "winners": self.winners(), "goal_points": self.goal_points()})
            return
        self.round += 1
        self._deal(events)

    def _give_consolation(self, winner: int, sizes: list[int], events: list[dict]) -> None:
        if self.players == 2:
            return  # never in the 2-player game
        most = max(size for seat, size in enumerate(sizes) if seat != winner)
        holders = [seat for seat, size in enumerate(sizes) if seat != winner and size == most]
        if len(holders) > 1:
            events.append({"type": "no_consolation", "reason": "tie", "seats": holders, "cards": most})
        elif not self.consolation_pool:
            events.append({"type": "no_consolation", "reason": "none_left", "seats": holders, "cards": most})
        else:
            token = self.consolation_pool.pop(self.rng.randrange(len(self.consolation_pool)))
            self.consolation_tokens[holders[0]].append(token)
            events.append({"type": "consolation", "round": self.round, "seat": holders[0], "token": token,
                           "cards": most})


_HANDLERS: dict[type, Callable[[Game, Any, list[dict]], None]] = {
    Place: Game._on_place, Simultaneous: Game._on_simultaneous, SpotWrong: Game._on_spot_wrong,
    Blocked: Game._on_blocked, MichiSwap: Game._on_michi_swap, SpendConsolation: Game._on_spend,
    StartRound: Game._on_start_round,
}


def new_game(players: int, *, seed: int | None = None, coach: int = 0,
             profile: Profile | str | Path | None = None, strict: bool = True,
             together_window: float = DEFAULT_TOGETHER_WINDOW, rng: random.Random | None = None) -> Game:
    """A new game, round 1 dealt (7 cards each from the shuffled deck), waiting for
    consolation spending (none yet) and :class:`StartRound`.

    ``coach`` is the oldest player's seat; ``rng`` (or ``random.Random(seed)``) is the only
    source of chance; ``profile`` a :class:`Profile`, a TOML path, or the shipped default.
    """
    validate_players(players)
    coach = validate_seat(coach, players)
    if isinstance(together_window, bool) or not isinstance(together_window, (int, float)) \
            or not 0 <= together_window < float("inf"):
        raise BadInput(f"together_window must be a number of seconds >= 0, not {together_window!r}.",
                       f"together_window doit être un nombre de secondes >= 0, pas {together_window!r}.")
    if profile is None:
        profile = default_profile()
    elif not isinstance(profile, Profile):
        profile = load_profile(profile)
    game = Game.__new__(Game)
    game.players, game.profile, game.strict = players, profile, bool(strict)
    game.together_window = float(together_window)
    game.rng = rng if rng is not None else random.Random(seed)
    game.round, game.coach, game.phase = 1, coach, "dealt"
    game.hands = [[] for _ in range(players)]
    game.draw_pile = list(profile.deck)
    game.rng.shuffle(game.draw_pile)
    game.box, game.pile, game.next_serial, game.pending_michi = [], [], 0, None
    game.victory_pool = list(profile.victory_tokens)
    game.consolation_pool = list(profile.consolation_tokens)
    game.victory_tokens = [[] for _ in range(players)]
    game.consolation_tokens = [[] for _ in range(players)]
    game.spent_tokens = [[] for _ in range(players)]
    game._deal([])
    return game


def _as_wrong(problem: IllegalAction | None) -> dict[str, str] | None:
    return None if problem is None else {"code": problem.code, "en": problem.en, "fr": problem.fr}
