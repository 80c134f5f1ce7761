"""Passe Éclair as the scorekeeper sees it: hands are unknown, hand SIZES are tracked.

The full engine (:mod:`.game`) deals from a seeded deck and knows every hand. A real
table's scorekeeper knows only what lies face up, so :class:`ObservedGame` keeps the
centre pile, each seat's number of cards, the tokens and the round results, and judges
every placement with the same pure rule as the engine (:func:`.placement.placement_problem`).

    >>> g = ObservedGame(3, coach=0)
    >>> _ = g.turn_start_card("leon-marlon", t=0.0)
    >>> [e["type"] for e in g.place(1, "marlon-fabi", t=1.0)], g.hand_sizes
    (['placed'], [7, 6, 7])

Decisions for a table whose hands are unknown (the scorekeeper's entries):

* **What is entered.** Each card that *stays* on the pile, as (seat, card), one tap per
  card. Two cards landing together: the table takes the upper one back and enters only
  the lower one (tap times are not placement times, so no together window applies).
* **A wrong card** is recorded on the pile and flagged at once with the reason (it lies
  there physically); a ``spot`` entry sends it back: +1 card and +1 penalty card.
* **Hand sizes:** 7 dealt; −1 per placement and per footballer token spent; +2 per spotted
  wrong card (taken back + penalty; the rare "nothing left to draw" is not modelled);
  swapped by a Gros Michi. A seat reaching 0 cards with no flagged card of theirs on the
  pile wins the round; a seat with 0 cards cannot place.
* **No one can play** and **Gros Michi off a dog** depend on the hidden hands: the table
  says so (``blocked``; ``michi_swap(no_one_can_play=True)``) and is believed. A Michi
  swap off a dog without that word is carried out (the cards have moved) but flagged.
* **Start card:** the table enters each card the turner turns; dogs and Gros Michis
  are turned over until a footballer card shows, and only then does play start.
* **Cards left at the round's end** are the tracked sizes until the table corrects one
  (``count_cards``, one tap per seat on the page, before the tokens): who is due the
  consolation token follows the counts.
* **Tokens lie face down:** after a round is won the table enters the victory token
  drawn (its goal points) and, when one is due, the consolation token drawn. Who is due
  one follows RULINGS §3 (most cards left, a tie or 2 players gives none, or none left).
"""

from __future__ import annotations

import copy
from typing import Any

from table.rules import IllegalAction

from .cards import (
    ALL_CARD_IDS,
    FOOTBALLERS,
    MICHI,
    BadInput,
    card_label,
    parse_card,
    validate_card,
    validate_players,
    validate_seat,
)
from .feed import describe
from .placement import placement_problem
from .profile import HAND_SIZE, Profile, default_profile
from .scoring import GoalCount
from .state import PileCard

MAX_COUNT = 60  # the whole deck: no hand can hold more
PHASES = ("dealt", "turning", "playing", "michi", "round_won", "game_over")

_PHASE_TEXT = {
    "dealt": ("The round has not started: enter the start card the coach turns.",
              "Le tour n'a pas commencé : saisissez la carte de départ que retourne l'entraîneur."),
    "turning": ("A new start card must be turned first.", "Il faut d'abord retourner une nouvelle carte de départ."),
    "playing": ("The round is being played.", "Le tour est en cours."),
    "michi": ("Wait: the Gros Michi player must first swap hands.",
              "Attendez : le joueur du Gros Michi doit d'abord échanger ses cartes."),
    "round_won": ("The round is won: enter the victory token drawn first.",
                  "Le tour est gagné : saisissez d'abord le jeton de victoire tiré."),
    "game_over": ("The game is over.", "La partie est terminée."),
}


class ObservedGame(GoalCount):
    """A Passe Éclair game kept from the table's entries (see the module docstring).
    Every method checks first and changes nothing when it raises :class:`IllegalAction`
    (or :class:`BadInput` for data that cannot mean anything); it returns events shaped
    like the engine's (``describe_observed`` gives their lines).

        >>> g = ObservedGame(2, coach=1)
        >>> g.phase, g.hand_sizes, g.goal_points()
        ('dealt', [7, 7], [0, 0])
    """

    def __init__(self, players: int, *, coach: int = 0, profile: Profile | None = None):
        self.players = validate_players(players)
        self.coach = validate_seat(coach, players)
        self.profile = profile or default_profile()
        self.phase, self.round, self.turner = "dealt", 1, self.coach
        self.hand_sizes = [HAND_SIZE] * players
        self.pile: list[PileCard] = []
        self.next_serial = 0
        self.pending_michi: int | None = None
        self.round_over: dict[str, Any] | None = None  # set while phase == "round_won"
        self.victory_pool = list(self.profile.victory_tokens)
        self.consolation_pool = list(self.profile.consolation_tokens)
        self.victory_tokens: list[list[int]] = [[] for _ in range(players)]
        self.consolation_tokens: list[list[str]] = [[] for _ in range(players)]
        self.spent_tokens: list[list[str]] = [[] for _ in range(players)]
        self.results: list[dict[str, Any]] = []

    # ---- queries -----------------------------------------------------------------------
    @property
    def top(self) -> PileCard | None:
        return self.pile[-1] if self.pile else None

    @property
    def rounds(self) -> int:
        return self.profile.rounds

    def copy(self) -> ObservedGame:
        return copy.deepcopy(self)

    def wrong_cards(self) -> list[PileCard]:
        return [e for e in self.pile if e.wrong]

    def playable(self, seat: int) -> list[str]:
        """The card ids ``seat`` may put on the top card now (a hint for the page: a
        Gros Michi off a dog is left out, it needs the table's word that no one can play)."""
        top = self.top
        if self.phase != "playing" or top is None or self.hand_sizes[seat] == 0:
            return []
        return [c for c in ALL_CARD_IDS
                if placement_problem(top.card, c, by=seat, top_placed_by=top.by, players=self.players) is None]

    # ---- entries -----------------------------------------------------------------------
    def turn_start_card(self, card: str, t: float | None = None) -> list[dict[str, Any]]:
        """The turner turned ``card`` onto the centre; a footballer card starts play."""
        validate_card(card)
        self._require_phase("dealt", "turning")
        events: list[dict[str, Any]] = []
        if self.phase == "dealt":
            events.append({"type": "round_started", "round": self.round, "coach": self.coach, "t": t})
        entry = self._new_pile_card(card, None, t)
        if not parse_card(card).is_footballer:
            self.phase = "turning"
            events.append({"type": "turned_over", "seat": self.turner, "card": card, "serial": entry.serial})
            return events
        skipped = [e.card for e in self.pile[:-1] if e.by is None]
        self.phase = "playing"
        events.append({"type": "start_card", "seat": self.turner, "card": card, "serial": entry.serial,
                       "skipped": skipped})
        return events

    def place(self, seat: int, card: str, t: float | None = None) -> list[dict[str, Any]]:
        """``seat`` put ``card`` on the pile: recorded, and flagged ``wrong`` if it breaks a rule."""
        validate_seat(seat, self.players)
        validate_card(card)
        self._require_phase("playing")
        self._require_cards(seat)
        top = self.top
        problem = placement_problem(top.card, card, by=seat, top_placed_by=top.by, players=self.players)
        events = [self._put_down(seat, card, t, problem)]
        if card == MICHI and problem is None:
            self.phase, self.pending_michi = "michi", seat
        else:
            self._maybe_won(seat, events)
        return events

    def spot(self, seat: int, serial: int | None = None, t: float | None = None) -> list[dict[str, Any]]:
        """A wrong card of ``seat`` (the latest, or the one with ``serial``) was spotted."""
        validate_seat(seat, self.players)
        self._require_phase("playing", "michi")
        flagged = [e for e in self.pile if e.by == seat and e.wrong and (serial is None or e.serial == serial)]
        if not flagged:
            raise IllegalAction(f"No wrong card of seat {seat + 1} lies on the pile.",
                                f"Aucune mauvaise carte du joueur {seat + 1} n'est sur le tas.",
                                code="nothing_to_spot")
        entry = flagged[-1]
        self.pile.remove(entry)
        self.hand_sizes[seat] += 2
        return [{"type": "returned_to_hand", "seat": seat, "card": entry.card, "reason": "spotted",
                 "under_serial": entry.serial, "t": t, "wrong": entry.wrong},
                {"type": "penalty_draw", "seat": seat, "card": None, "cards_left": self.hand_sizes[seat]}]

    def blocked(self, t: float | None = None) -> list[dict[str, Any]]:
        """The table says no one can play: the pile goes to the box, the coach turns."""
        self._require_phase("playing")
        events: list[dict[str, Any]] = [{"type": "blocked", "coach": self.coach, "could_play": [], "t": t}]
        self._pile_to_box("blocked", events)
        self._carry_on(self.coach, events)
        return events

    def michi_swap(self, seat: int, target: int, t: float | None = None, *,
                   no_one_can_play: bool = False) -> list[dict[str, Any]]:
        """``seat`` plays a Gros Michi (unless already on the pile) and swaps hands with
        ``target``. Off a dog it is legal only when the table says ``no_one_can_play``."""
        validate_seat(seat, self.players)
        validate_seat(target, self.players)
        if target == seat:
            raise IllegalAction("The Gros Michi player swaps hands with another player.",
                                "Le joueur du Gros Michi échange ses cartes avec un autre joueur.", code="swap_self")
        self._require_phase("playing", "michi")
        events: list[dict[str, Any]] = []
        if self.phase == "michi" and self.pending_michi != seat:
            raise IllegalAction(f"Seat {self.pending_michi + 1} played the Gros Michi and swaps.",
                                f"C'est le joueur {self.pending_michi + 1} qui a joué le Gros Michi et échange.",
                                code="not_your_michi")
        if self.phase == "playing":
            self._require_cards(seat)
            top = self.top
            problem = placement_problem(top.card, MICHI, by=seat, top_placed_by=top.by, players=self.players)
            if problem is not None and problem.code == "michi_not_on_dog" and no_one_can_play:
                problem = None
            events.append(self._put_down(seat, MICHI, t, problem))
        sizes = self.hand_sizes
        sizes[seat], sizes[target] = sizes[target], sizes[seat]
        self.phase, self.pending_michi = "playing", None
        events.append({"type": "michi_swap", "seat": seat, "target": target, "took": sizes[seat],
                       "gave": sizes[target]})
        self._pile_to_box("michi", events)
        self._carry_on(seat, events)
        return events

    def round_tokens(self, points: int, consolation: str | None = None) -> list[dict[str, Any]]:
        """The victory token the winner drew (its goal points) and, when one is due, the
        consolation token drawn; then the next round is dealt or the game ends."""
        self._require_phase("round_won")
        over = self.round_over
        if isinstance(points, bool) or points not in self.victory_pool:
            left = ", ".join(str(p) for p in sorted(set(self.victory_pool)))
            raise BadInput(f"No victory token worth {points!r} is left (left: {left}).",
                           f"Il ne reste pas de jeton de victoire de {points!r} (restent : {left}).",
                           code="no_such_token")
        due = over["consolation_seat"]
        if due is None and consolation is not None:
            raise IllegalAction("No consolation token is due this round.",
                                "Aucun jeton de consolation n'est dû à ce tour.", code="no_consolation_due")
        if due is not None and consolation not in self.consolation_pool:
            raise BadInput(f"Enter the consolation token seat {due + 1} drew (one of the tokens left).",
                           f"Saisissez le jeton de consolation tiré par le joueur {due + 1} (un des jetons restants).",
                           code="no_such_token")
        winner = over["winner"]
        self.victory_pool.remove(points)
        self.victory_tokens[winner].append(points)
        events: list[dict[str, Any]] = [{"type": "round_won", "round": self.round, "seat": winner, "points": points,
                                         "hand_sizes": over["hand_sizes"]}]
        if due is not None:
            self.consolation_pool.remove(consolation)
            self.consolation_tokens[due].append(consolation)
            events.append({"type": "consolation", "round": self.round, "seat": due, "token": consolation,
                           "cards": over["hand_sizes"][due]})
        elif over["no_consolation"] is not None:
            events.append(over["no_consolation"])
        self.results.append({"round": self.round, "winner": winner, "points": points,
                             "consolation": None if due is None else {"seat": due, "token": consolation},
                             "hand_sizes": over["hand_sizes"]})
        self.round_over, self.coach = None, winner
        if not self.victory_pool or self.round >= self.rounds:
            self.phase = "game_over"
            events.append({"type": "game_over", "winners": self.winners(), "goal_points": self.goal_points()})
            return events
        self.round += 1
        self.phase, self.turner = "dealt", self.coach
        self.hand_sizes = [HAND_SIZE] * self.players
        events.append({"type": "deal", "round": self.round, "coach": self.coach, "hand_sizes": list(self.hand_sizes)})
        return events

    def count_cards(self, seat: int, cards: int) -> list[dict[str, Any]]:
        """After a round is won, before its tokens: ``seat`` really holds ``cards`` cards (the
        table counted them; the tracked size may be off when a card was missed). Who is due
        the consolation token follows the counts."""
        validate_seat(seat, self.players)
        self._require_phase("round_won")
        over = self.round_over
        if seat == over["winner"]:
            raise IllegalAction("The winner of the round has no card left.",
                                "Le gagnant du tour n'a plus de carte.", code="winner_count")
        if isinstance(cards, bool) or not isinstance(cards, int) or not 0 <= cards <= MAX_COUNT:
            raise BadInput(f"A count of cards left is a whole number from 0 to {MAX_COUNT}, not {cards!r}.",
                           f"Un nombre de cartes en main va de 0 à {MAX_COUNT}, pas {cards!r}.", code="bad_count")
        sizes = list(over["hand_sizes"])
        was, sizes[seat] = sizes[seat], cards
        due, no_consolation = self._consolation(over["winner"], sizes)
        over.update(hand_sizes=sizes, consolation_seat=due, no_consolation=no_consolation)
        self.hand_sizes = list(sizes)
        return [{"type": "cards_counted", "seat": seat, "cards": cards, "was": was, "consolation_seat": due}]

    def spend_token(self, seat: int, token: str) -> list[dict[str, Any]]:
        """Before the start card, ``seat`` gives up a footballer consolation token and puts
        one card with that footballer big into the box (the card itself is not entered)."""
        validate_seat(seat, self.players)
        self._require_phase("dealt")
        if token not in FOOTBALLERS or token not in self.consolation_tokens[seat]:
            raise IllegalAction(f"Seat {seat + 1} has no footballer consolation token {token!r}.",
                                f"Le joueur {seat + 1} n'a pas de jeton de consolation footballeur {token!r}.",
                                code="no_such_token")
        self._require_cards(seat)
        self.consolation_tokens[seat].remove(token)
        self.spent_tokens[seat].append(token)
        self.hand_sizes[seat] -= 1
        return [{"type": "token_spent", "seat": seat, "token": token, "cards_left": self.hand_sizes[seat]}]

    # ---- inside ------------------------------------------------------------------------
    def _require_phase(self, *phases: str) -> None:
        if self.phase not in phases:
            en, fr = _PHASE_TEXT[self.phase]
            raise IllegalAction(en, fr, code=f"phase_{self.phase}")

    def _require_cards(self, seat: int) -> None:
        if self.hand_sizes[seat] <= 0:
            raise IllegalAction(f"Seat {seat + 1} has no card left in hand.",
                                f"Le joueur {seat + 1} n'a plus de carte en main.", code="no_cards")

    def _new_pile_card(self, card: str, by: int | None, t: float | None, wrong: dict | None = None) -> PileCard:
        entry = PileCard(self.next_serial, card, by, t, wrong)
        self.next_serial += 1
        self.pile.append(entry)
        return entry

    def _put_down(self, seat: int, card: str, t: float | None, problem: IllegalAction | None) -> dict[str, Any]:
        top = self.top
        wrong = None if problem is None else {"code": problem.code, "en": problem.en, "fr": problem.fr}
        self.hand_sizes[seat] -= 1
        entry = self._new_pile_card(card, seat, t, wrong)
        return {"type": "placed", "seat": seat, "card": card, "serial": entry.serial, "on": top.card,
                "on_serial": top.serial, "answers": None, "overtaken": False, "t": t, "wrong": wrong,
                "cards_left": self.hand_sizes[seat]}

    def _maybe_won(self, seat: int, events: list[dict]) -> None:
        if self.hand_sizes[seat] == 0 and not any(e.by == seat and e.wrong for e in self.pile):
            self._end_round(seat, events)

    def _carry_on(self, turner: int, events: list[dict]) -> None:
        """After the pile went to the box: an empty hand wins, else ``turner`` turns."""
        for seat, size in enumerate(self.hand_sizes):
            if size == 0:
                self._end_round(seat, events)
                return
        self.phase, self.turner = "turning", turner

    def _pile_to_box(self, reason: str, events: list[dict]) -> None:
        events.append({"type": "pile_to_box", "reason": reason, "count": len(self.pile)})
        self.pile = []

    def _consolation(self, winner: int, sizes: list[int]) -> tuple[int | None, dict[str, Any] | None]:
        """Who is due a consolation token with these cards left (RULINGS §3), else why none."""
        if self.players <= 2:
            return None, None
        most = max(size for seat, size in enumerate(sizes) if seat != winner)
        holders = [seat for seat, size in enumerate(sizes) if seat != winner and size == most]
        if len(holders) > 1:
            return None, {"type": "no_consolation", "reason": "tie", "seats": holders, "cards": most}
        if not self.consolation_pool:
            return None, {"type": "no_consolation", "reason": "none_left", "seats": holders, "cards": most}
        return holders[0], None

    def _end_round(self, winner: int, events: list[dict]) -> None:
        sizes = list(self.hand_sizes)
        due, no_consolation = self._consolation(winner, sizes)
        self.round_over = {"winner": winner, "hand_sizes": sizes, "consolation_seat": due,
                           "no_consolation": no_consolation}
        self.phase, self.pending_michi = "round_won", None
        events.append({"type": "round_over", "round": self.round, "seat": winner, "consolation_seat": due})
        if self.pile:
            self._pile_to_box("round_end", events)
        events.append({"type": "hands_to_box", "count": sum(sizes)})


def _seat_name(seat: int, lang: str, names: list[str] | None) -> str:
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"Joueur {seat + 1}" if lang == "fr" else f"Seat {seat + 1}"


def describe_observed(event: dict[str, Any], lang: str = "fr", names: list[str] | None = None) -> str:
    """The feed line of an :class:`ObservedGame` event (engine events go to ``describe``)."""
    kind, fr = event.get("type"), lang == "fr"
    if kind == "turned_over":
        who, card = _seat_name(event["seat"], lang, names), card_label(event["card"], lang)
        return (f"{who} retourne {card} : on retourne la carte suivante." if fr
                else f"{who} turns {card}: the next card is turned on it.")
    if kind == "round_over":
        who = _seat_name(event["seat"], lang, names)
        line = (f"{who} a posé sa dernière carte et gagne le tour {event['round']} ! Saisissez le jeton de "
                "victoire tiré" if fr else
                f"{who} placed their last card and wins round {event['round']}! Enter the victory token drawn")
        if event["consolation_seat"] is not None:
            other = _seat_name(event["consolation_seat"], lang, names)
            line += (f" et le jeton de consolation de {other}" if fr else f" and {other}'s consolation token")
        return line + "."
    if kind == "cards_counted":
        who = _seat_name(event["seat"], lang, names)
        n = event["cards"]
        line = (f"{who} a {n} carte{'s' if n > 1 else ''} en main (compté ; suivi : {event['was']})." if fr
                else f"{who} holds {n} card{'s' if n != 1 else ''} (counted; tracked: {event['was']}).")
        if event["consolation_seat"] is not None:
            other = _seat_name(event["consolation_seat"], lang, names)
            line += (f" Jeton de consolation : {other}." if fr else f" Consolation token: {other}.")
        return line
    if kind == "token_spent":
        who = _seat_name(event["seat"], lang, names)
        return (f"{who} utilise son jeton {event['token']} et met une carte dans la boîte ({event['cards_left']} "
                "en main)." if fr else
                f"{who} spends their {event['token']} token and puts a card in the box "
                f"({event['cards_left']} in hand).")
    return describe(event, lang, names)


__all__ = ["ObservedGame", "PHASES", "describe_observed"]
