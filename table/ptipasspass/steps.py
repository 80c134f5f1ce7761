"""The rules of each step of a PtiPassPass turn: what a call, a lift, a show or a
reveal does to the hands, the cups and the phase.

:class:`TurnSteps` is mixed into :class:`~table.ptipasspass.game.Game`, which owns the
state these methods change (``ledger``, ``turn``, ``_phase``, ``_active``, ``_victory``)
and dispatches each action to ``_on_<ActionName>`` after checking the phase.

    >>> from table.ptipasspass import new_game
    >>> game = new_game(3)
    >>> [e["type"] for e in game.apply(Place(0, "green", (0, 0))).events]
    ['cup_named']
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from table.ptipasspass.actions import (
    AbandonRound,
    AnnounceColour,
    CallDoublon,
    CallMenteur,
    CupShown,
    NextRound,
    Pass,
    Place,
    Reveal,
    Swap,
    TokenShown,
)
from table.ptipasspass.knowledge import TokenLedger
from table.ptipasspass.layout import Cell, Layout, Line
from table.ptipasspass.tokens import COLOUR_FR, check_colour, picks_form_set, winning_picks
from table.rules import IllegalAction

WINS_NEEDED = 2  # the second victory token wins the game


@dataclass(frozen=True)
class Turn:
    """The current turn so far (immutable: a step builds a new one)."""
    cup: Cell | None = None            # the named cup
    held: str | None = None            # full mode: the colour in the active player's fist
    announced: str | None = None
    caller: int | None = None          # the accuser whose call counted
    swapped: tuple[Cell, Cell] | None = None
    line: Line | None = None
    picks: tuple[str, str, str] | None = None
    awaiting: str | None = None        # "doublon" | "menteur" | "reveal" while lifted
    pending: tuple[Cell, ...] = ()     # lifted cups whose contents are still to enter
    shown: tuple[tuple[Cell, tuple[str, ...]], ...] = ()


def _event(type_: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, **fields}


class TurnSteps:
    """The step handlers of :class:`Game` (a mixin: it holds no state of its own)."""

    # The state, owned and initialised by Game.
    players: int
    mode: str
    layout: Layout
    ledger: TokenLedger
    turn: Turn
    round: int
    round_first: int
    round_winner: int | None
    next_first: int | None
    _phase: str
    _active: int
    _victory: list[int]
    _winners: list[int]
    victory_pool: int

    # ------------------------------------------------------------------ checks
    def _check_seat(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(f"There is no seat {seat!r} (seats 0 to {self.players - 1}).",
                                f"Il n'y a pas de place {seat!r} (places 0 à {self.players - 1}).",
                                code="bad_seat")
        return seat

    def _check_active(self, seat: object) -> None:
        if self._check_seat(seat) != self._active:
            raise IllegalAction(f"It is player {self._active + 1}'s turn, not player {seat + 1}'s.",  # type: ignore[operator]
                                f"C'est au tour du joueur {self._active + 1}, pas du joueur {seat + 1}.",  # type: ignore[operator]
                                code="not_your_turn")

    def _check_caller(self, seat: object) -> int:
        if self._check_seat(seat) == self._active:
            raise IllegalAction("The active player cannot challenge themselves.",
                                "Le joueur actif ne peut pas se défier lui-même.", code="caller_is_active")
        return seat  # type: ignore[return-value]

    def _check_cell(self, cell: object) -> Cell:
        cell = tuple(cell) if isinstance(cell, list) else cell
        if not self.layout.has_cell(cell):
            raise IllegalAction(f"There is no cup at {cell!r}.", f"Il n'y a pas de gobelet en {cell!r}.",
                                code="no_such_cup")
        return cell  # type: ignore[return-value]

    # ------------------------------------------------------------------ place turn
    def _on_Place(self, a: Place) -> list[dict[str, Any]]:
        self._check_active(a.seat)
        cup = self._check_cell(a.cup)
        if self.mode == "observed":
            if a.colour is not None:
                raise IllegalAction("In observed mode the held colour is secret: leave it empty.",
                                    "En mode observé la couleur tenue est secrète : laissez-la vide.",
                                    code="colour_is_secret")
        elif a.colour is None:
            raise IllegalAction("In full-knowledge mode, say which token is held.",
                                "En mode connaissance complète, indiquez le jeton tenu.", code="colour_needed")
        elif self.ledger.hands[a.seat][check_colour(a.colour)] == 0:
            raise IllegalAction(f"Player {a.seat + 1} holds no {a.colour} token.",
                                f"Le joueur {a.seat + 1} n'a pas de jeton {COLOUR_FR[a.colour]} en main.",
                                code="colour_not_in_hand")
        self.turn = Turn(cup=cup, held=a.colour)
        self._phase = "doublon_window"
        return [_event("cup_named", seat=a.seat, cup=cup)]

    def _on_CallDoublon(self, a: CallDoublon) -> list[dict[str, Any]]:
        caller = self._check_caller(a.seat)
        self.turn = replace(self.turn, caller=caller)
        events = [_event("doublon_called", seat=caller, active=self._active, cup=self.turn.cup)]
        return events + self._lift("doublon", (self.turn.cup,))

    def _on_AnnounceColour(self, a: AnnounceColour) -> list[dict[str, Any]]:
        self._check_active(a.seat)
        self.turn = replace(self.turn, announced=check_colour(a.colour))
        self._phase = "menteur_window"
        return [_event("colour_announced", seat=a.seat, colour=a.colour, cup=self.turn.cup)]

    def _on_CallMenteur(self, a: CallMenteur) -> list[dict[str, Any]]:
        caller = self._check_caller(a.seat)
        self.turn = replace(self.turn, caller=caller, awaiting="menteur")
        events = [_event("menteur_called", seat=caller, active=self._active, announced=self.turn.announced)]
        if self.mode == "full":
            return events + self._token_shown(self.turn.held)  # type: ignore[arg-type]
        self._phase = "reveal_outcome"
        return events + [_event("awaiting_token", seat=self._active)]

    def _on_Pass(self, a: Pass) -> list[dict[str, Any]]:
        if self._phase == "doublon_window":
            self._phase = "announce"
            return [_event("no_call", call="doublon", seat=self._active)]
        t = self.turn
        self.ledger.drop_in_cup(self._active, t.held, t.cup, claimed=t.announced)  # type: ignore[arg-type]
        events = [_event("no_call", call="menteur", seat=self._active),
                  _event("token_placed", seat=self._active, cup=t.cup, claimed=t.announced)]
        return events + self._end_turn()

    # ------------------------------------------------------------------ reveal turn
    def _on_Swap(self, a: Swap) -> list[dict[str, Any]]:
        self._check_active(a.seat)
        if self.turn.swapped is not None:
            raise IllegalAction("Only one swap per turn.", "Une seule interversion par tour.",
                                code="already_swapped")
        first, second = self._check_cell(a.a), self._check_cell(a.b)
        if not self.layout.are_contiguous(first, second):
            raise IllegalAction("Only two contiguous cups (sharing a side) may be swapped.",
                                "On ne peut intervertir que deux gobelets contigus (côte à côte).",
                                code="not_contiguous")
        self.ledger.swap(first, second)
        self.turn = replace(self.turn, swapped=(first, second))
        return [_event("cups_swapped", seat=a.seat, a=first, b=second)]

    def _on_Reveal(self, a: Reveal) -> list[dict[str, Any]]:
        self._check_active(a.seat)
        cells = tuple(self._check_cell(c) for c in a.line) if isinstance(a.line, (list, tuple)) else ()
        line = self.layout.find_line(cells)
        if line is None:
            raise IllegalAction("Lift three contiguous cups in a line (row, column or diagonal).",
                                "Soulevez trois gobelets contigus alignés (rangée, colonne ou diagonale).",
                                code="not_a_line")
        picks = self._check_picks(a.picks, cells)
        if picks is not None:  # one pick per named cell, kept in the layout's line order
            by_cell = dict(zip(cells, picks, strict=True))
            picks = tuple(by_cell[cell] for cell in line)  # type: ignore[assignment]
        self.turn = replace(self.turn, line=line, picks=picks)
        return [_event("reveal_started", seat=a.seat, line=line)] + self._lift("reveal", line)

    def _check_picks(self, picks: Any, cells: tuple[Cell, ...]) -> tuple[str, str, str] | None:
        if picks is None:
            return None
        if isinstance(picks, str) or len(picks) != 3:
            raise IllegalAction("Pick one colour per lifted cup (three in all).",
                                "Choisissez une couleur par gobelet soulevé (trois en tout).", code="bad_picks")
        picks = tuple(check_colour(p) for p in picks)
        if self.mode == "full":  # in observed mode picks can only be checked once shown
            for cell, pick in zip(cells, picks, strict=True):
                if pick not in self.ledger.cups[cell].known:
                    raise IllegalAction(f"Cup {cell} holds no {pick} token to pick.",
                                        f"Le gobelet {cell} n'a pas de jeton {COLOUR_FR[pick]} à choisir.",
                                        code="bad_picks")
        return picks  # type: ignore[return-value]

    def _on_AbandonRound(self, a: AbandonRound) -> list[dict[str, Any]]:
        if any(self.ledger.hand_size(s) for s in range(self.players)):
            raise IllegalAction("A round can be replayed only once every hand is empty.",
                                "On ne rejoue une manche que lorsque toutes les mains sont vides.",
                                code="hands_not_empty")
        return self._round_without_winner("round_abandoned")

    # ------------------------------------------------------------------ lifts and shows
    def _lift(self, kind: str, cells: tuple[Cell, ...]) -> list[dict[str, Any]]:
        self.turn = replace(self.turn, awaiting=kind, pending=tuple(cells), shown=())
        if self.mode == "full":
            events: list[dict[str, Any]] = []
            for cell in cells:
                events += self._cup_shown(cell, self.ledger.cups[cell].known)
            return events
        self._phase = "reveal_outcome"
        return [_event("awaiting_lift", seat=self._active, reason=kind, cups=list(cells))]

    def _on_CupShown(self, a: CupShown) -> list[dict[str, Any]]:
        cell = self._check_cell(a.cup)
        if self.turn.awaiting == "menteur":
            raise IllegalAction("No cup was lifted: enter the token shown on Menteur!.",
                                "Aucun gobelet n'a été soulevé : saisissez le jeton montré sur « Menteur ! ».",
                                code="wrong_input")
        if cell not in self.turn.pending:
            raise IllegalAction(f"Cup {cell} is not a lifted cup still to enter.",
                                f"Le gobelet {cell} n'est pas un gobelet soulevé encore à saisir.",
                                code="not_lifted")
        return self._cup_shown(cell, a.tokens)

    def _cup_shown(self, cell: Cell, tokens: Any) -> list[dict[str, Any]]:
        shown = self.ledger.record_lift(cell, tokens)
        self.turn = replace(self.turn, pending=tuple(c for c in self.turn.pending if c != cell),
                            shown=self.turn.shown + ((cell, shown),))
        events = [_event("cup_lifted", cup=cell, tokens=list(shown), reason=self.turn.awaiting)]
        if self.turn.pending:
            return events
        resolve = self._resolve_doublon if self.turn.awaiting == "doublon" else self._resolve_reveal
        return events + resolve()

    def _on_TokenShown(self, a: TokenShown) -> list[dict[str, Any]]:
        if self.turn.awaiting != "menteur":
            raise IllegalAction("Enter what the lifted cups show, not a single token.",
                                "Saisissez ce que montrent les gobelets soulevés, pas un seul jeton.",
                                code="wrong_input")
        return self._token_shown(check_colour(a.colour))

    def _token_shown(self, colour: str) -> list[dict[str, Any]]:
        t, active = self.turn, self._active
        if not self.ledger.may_hold(active, colour):
            raise IllegalAction(f"Player {active + 1} cannot be holding a {colour} token.",
                                f"Le joueur {active + 1} ne peut pas tenir de jeton {COLOUR_FR[colour]}.",
                                code="contradiction")
        lied = colour != t.announced
        if lied:  # caught lying: the token stays in the active player's hand
            self.ledger.learn_in_hand(active, colour)
        else:     # told the truth: the accuser takes the token
            self.ledger.give_to_hand(t.caller, [self.ledger.take_from_hand(active, colour)])  # type: ignore[arg-type]
        self.ledger.check_colour_totals()
        taker = active if lied else t.caller
        return [_event("menteur_resolved", accuser=t.caller, active=active, announced=t.announced,
                       shown=colour, lied=lied, taker=taker)] + self._end_turn()

    # ------------------------------------------------------------------ resolutions
    def _resolve_doublon(self) -> list[dict[str, Any]]:
        t, active = self.turn, self._active
        if self.ledger.cups[t.cup].count:  # type: ignore[index]
            taken = self.ledger.empty_cup_into_hand(t.cup, active)  # type: ignore[arg-type]
            event = _event("doublon_resolved", accuser=t.caller, active=active, cup=t.cup,
                           cup_held_tokens=True, taker=active, tokens=list(taken), count=len(taken))
        else:  # the cup was empty: the accuser takes the held token (colour secret if observed)
            colour = self.ledger.take_from_hand(active, t.held)
            self.ledger.give_to_hand(t.caller, [colour])  # type: ignore[arg-type]
            event = _event("doublon_resolved", accuser=t.caller, active=active, cup=t.cup,
                           cup_held_tokens=False, taker=t.caller,
                           tokens=[] if colour is None else [colour], count=1)
        return [event] + self._end_turn()

    def _resolve_reveal(self) -> list[dict[str, Any]]:
        t, seat = self.turn, self._active
        shown = dict(t.shown)
        tokens = [shown[cell] for cell in t.line]  # type: ignore[union-attr]
        best = winning_picks(tokens)
        declared = t.picks
        # The rule lets the player pick what suits them best: declared picks count when
        # they really make a set, otherwise the engine reports the best picks.
        usable = declared is not None and picks_form_set(declared) and all(
            p in cup for p, cup in zip(declared, tokens, strict=True))
        picks = declared if usable else best
        won = best is not None
        events = [_event("reveal", seat=seat, line=t.line, tokens=[list(x) for x in tokens], won=won,
                         picks=None if picks is None else list(picks),
                         declared_picks=None if declared is None else list(declared))]
        if not won:  # the cups go back where they stand (a swap stays done)
            return events + self._end_turn()
        self._victory[seat] += 1
        self.round_winner = seat
        events.append(_event("victory_token", seat=seat, total=self._victory[seat], pool=self.victory_pool))
        if self._victory[seat] >= WINS_NEEDED:
            self._phase = "over"
            self._winners = [seat]
            return events + [_event("game_won", seat=seat, round=self.round)]
        self._phase = "round_over"
        self.next_first = (seat + 1) % self.players
        return events + [_event("round_won", seat=seat, round=self.round, next_first=self.next_first)]

    # ------------------------------------------------------------------ turn and round ends
    def _end_turn(self) -> list[dict[str, Any]]:
        self._active = (self._active + 1) % self.players
        self.turn = Turn()
        hands_empty = not any(self.ledger.hand_size(s) for s in range(self.players))
        if hands_empty and len(self.ledger.nonempty_cups()) < 3:
            # Nobody can place and no line can show three tokens: the round is blocked.
            return self._round_without_winner("round_blocked")
        if self.ledger.hand_size(self._active):
            self._phase, kind = "name_cup", "place"
        else:
            self._phase, kind = "swap_or_reveal", "reveal"
        return [_event("turn_started", seat=self._active, kind=kind)]

    def _round_without_winner(self, why: str) -> list[dict[str, Any]]:
        self.turn = Turn()
        self.round_winner = None
        self.next_first = self._active  # the player whose turn it was starts the replay
        self._phase = "round_over"
        return [_event(why, round=self.round, next_first=self.next_first)]

    def _on_NextRound(self, a: NextRound) -> list[dict[str, Any]]:
        self.round += 1
        self.round_first = self._active = self.next_first  # type: ignore[assignment]
        self.next_first = self.round_winner = None
        self.ledger.new_round()
        self.turn = Turn()
        self._phase = "name_cup"
        return [_event("round_started", round=self.round, first=self._active),
                _event("turn_started", seat=self._active, kind="place")]
