"""Passe Éclair's pile when two cards landed together: the upper one is taken back.

Two players slap cards a few frames apart (within the 0.15 s window): the card below
stays, its player's; the one on top goes back to its player's hand (RULES-DECISIONS,
Passe Éclair 2). The camera seldom names the lower card before it is covered, so it
reports the upper card first and the lower one only once the upper one is taken back:

* the **top card seen leaving** (``card_gone`` with ``bare``: the watcher saw the cloth
  where part of it lay) soon after it landed: the next card the camera sees on the pile tells what
  happened. The card known under it (seen again): the top card went back to its player's
  hand. Another card: it had landed under the top card, just before it; the top card
  went back to hand, and the card under it is its player's: the other hand that was in
  when the pair landed, else a one-tap question.
* the **top card not seen leaving** (the cards lay square, the camera could not tell),
  landed lately with two hands in, and a card then seen with no hand in but its player's:
  the card known under it, seen on top again (the camera's ``again``), says the top card
  left the pile (back to its player's hand); a new card is either laid on it by that
  player or was under it, and one tap says which (and who laid it): never a guess.

    >>> TAKEN_BACK_S, FRAME_S
    (5.0, 0.03)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from table.adapter import Alert, text
from table.observations import Observation
from table.passe_eclair import DOG, card_label
from table.passe_eclair.camera_michi import MICHI_PARTNER
from table.passe_eclair.observed import describe_observed
from table.passe_eclair.placement import placement_problem

if TYPE_CHECKING:
    from table.passe_eclair.camera import PileCamera

UNDER = "camera_under"
PENDING_KINDS = ("camera_who_placed", "camera_michi_blocked")   # questions about a card not placed yet
BACK = "back"        # the answer "no new card: the top card went back to its player"
TAKEN_BACK_S = 5.0   # a card laid together is taken back at once: a top card older than this is not
FRAME_S = 0.03       # the card under landed just before the one over it (about a frame)


class Together:
    """What the camera saw of the top card: the hands in when each pile card landed, and
    the top card seen leaving (``taken``: its serial and when)."""

    def __init__(self, cam: PileCamera):
        self.cam, self.hands_at, self.taken, self.won = cam, {}, None, None
        self.copy_over = None   # the top card seen again with several hands in (see :meth:`again`)

    def withdraw_stale(self) -> None:
        """An open "under it or on it?" whose top card is no longer on top: moot."""
        g = self.cam.a.g
        for alert in self.cam.a.open_alerts():
            if alert.kind == UNDER and (g.phase not in ("playing", "michi") or g.top is None
                                        or g.top.serial != alert.expected.get("serial", g.top.serial)):
                alert.resolved = "moot"

    def placed(self, hands: list[int], before: Any = None, seat: int | None = None, t: float = 0.0,
               card: str | None = None) -> None:
        """The card just placed landed with ``hands`` in (``before``: the game before it, if
        it was its player's last card: kept while that won the round, in case it is taken back)."""
        g = self.cam.a.g
        if g.top is not None:
            self.hands_at[g.top.serial] = list(hands)
        self.won = {"game": before, "seat": seat, "t": t, "hands": list(hands), "card": card} \
            if before is not None and g.phase == "round_won" else None

    def unwon(self, obs: Observation, card: str, t: float, hands: list[int]) -> bool:
        """A card seen on the pile soon after a player won the round with their last card,
        with only that player's hand in: that card was taken back (it had landed together on
        this one, which lay under it). The round is not won: the game as before it, and this
        card placed just before it, by the other hand that was in (else asked)."""
        won = self.won
        if won is None or t - won["t"] > TAKEN_BACK_S or set(hands) != {won["seat"]} or card == won["card"]:
            return False   # (the winning card itself named again: a second "which card?" about it)
        a, self.won = self.cam.a, None
        a.g = won["game"]
        a.say(obs.t, f"Cards landed together: {a._names('en')[won['seat']]} takes their last card back, the round "
                     "goes on.",
              f"Cartes posées ensemble : {a._names('fr')[won['seat']]} reprend sa dernière carte, le tour continue.",
              kind="alert", seq=obs.seq)
        others = [s for s in won["hands"] if s != won["seat"]]
        if len(others) == 1:
            self.cam._place(obs, others[0], card, won["t"] - FRAME_S, others)
        else:
            self.cam.ask_who(obs, card, won["t"] - FRAME_S, others,
                             [s for s in range(a.g.players) if s != won["seat"]])
        return True

    def gone(self, obs: Observation) -> None:
        """The camera saw ``card`` leave the pile: the top card, laid lately? Remembered."""
        top = self._recent_top(obs)
        if top is not None and top.card == obs.data.get("card") and obs.data.get("bare"):
            self.taken = {"serial": top.serial, "hands": self.cam.hands(obs)}

    def pile_cleared(self) -> None:
        """The whole pile went (boxed): no card of it was taken back."""
        self.taken = None

    def pending_taken_back(self, obs: Observation, card: str, t: float, hands: list[int]) -> bool:
        """The top card seen again with one hand in while a card that landed on it lately,
        that hand among two, is still asked about ("who laid it?", "could no one play?"):
        that card went back to its player's hand (laid together), and the question is moot.
        True when so (said in the feed)."""
        g = self.cam.a.g
        if g.top is None or g.top.card != card or not obs.data.get("again"):
            return False
        upper = self._pending(card, t, hands)
        if upper is None or upper.expected.get("t", -1.0) < (g.top.t or 0.0):
            return False
        upper.resolved = BACK
        self._say_back(obs, hands[0], upper.expected["card"])
        return True

    def again(self, obs: Observation, card: str, t: float, hands: list[int]) -> None:
        """The top card seen again with several hands in while playing: a copy of it may
        have been slapped on it together with another card (the camera sees one card, the
        copy over its twin, and the card under the copy only once the copy is taken back).
        Remembered for :meth:`with_copy_hands`."""
        g = self.cam.a.g
        if g.phase == "playing" and obs.data.get("again") and len(hands) > 1 and g.top is not None \
                and g.top.card == card:
            self.copy_over = {"t": t, "hands": list(hands), "serial": g.top.serial}

    def with_copy_hands(self, t: float, hands: list[int]) -> list[int]:
        """The hands a card seen on the pile landed with: its own, and, soon after the top
        card was seen again with several hands in (:meth:`again`), those too. A card that
        lay hidden under a copy taken back is seen first with the hand that took the copy:
        asked among the hands of the pair, never given to that hand (the bench's together@0.2
        seed 68, round 9: a dog slapped with a copy of the start card on it, given to the
        copy's player)."""
        copy, self.copy_over = self.copy_over, None
        g = self.cam.a.g
        if copy is None or g.top is None or g.top.serial != copy["serial"] or not 0.0 <= t - copy["t"] <= TAKEN_BACK_S:
            return hands
        return sorted({*hands, *copy["hands"]})

    def seen(self, obs: Observation, card: str, t: float, hands: list[int]) -> bool:
        """A card named on the pile while playing: True when the top card may have been
        taken back (handled here: placed, taken back or asked), else False (laid on top)."""
        g = self.cam.a.g
        pending = self._pending(card, t, hands)
        if pending is not None:
            if not any(a.kind == UNDER and a.expected["card"] == card for a in self.cam.a.open_alerts()):
                self._ask_pending(obs, card, pending, hands[0])
            return True
        top = self._recent_top(obs)
        if top is None:
            return False
        under = g.pile[-2] if len(g.pile) > 1 else None
        same = under is not None and under.card == card   # the card known under it (or a copy: a dog)
        taken = self.taken is not None and self.taken["serial"] == top.serial
        if taken:
            self.taken = None
        elif not self._by_its_player(top, card, t, hands):
            return False
        if same and card != DOG and (taken or (obs.data.get("again") and not self._copy_may_be_laid(top, card))):
            self._take_back(obs, top)   # the card under it on top again: the top card left the pile
            return True
        if taken and not same:
            self._take_back(obs, top)
            self._under(obs, card, top)
            return True
        if not any(a.kind == UNDER and a.expected["card"] == card for a in self.cam.a.open_alerts()):
            self._ask(obs, card, top, same)
        return True

    def _copy_may_be_laid(self, top: Any, card: str) -> bool:
        """Could the top card's player have laid the other copy of ``card`` on it? Then ``card``
        on top again, the top card not seen leaving, is that copy as much as the card under it
        uncovered: asked, not decided (the bench's seed 71, round 40: a dog given back to its
        player, who had laid the second Vanessa → Fabi on it). Not when every copy lies on the
        pile, nor when the rules forbid it."""
        g = self.cam.a.g
        on_pile = sum(p.card == card for p in g.pile)
        return on_pile < g.profile.deck.count(card) and placement_problem(
            top.card, card, by=top.by, top_placed_by=top.by, players=g.players) is None

    def _by_its_player(self, top: Any, card: str, t: float, hands: list[int]) -> bool:
        """Only the top card's player's hand came in (taking it back?), soon after it landed
        with other hands in or none seen (a pair?), or the card would break a rule on it by
        that player (a single hand laying two cards in a row is not asked about)."""
        g = self.cam.a.g
        if not hands or set(hands) != {top.by} or t - top.t > TAKEN_BACK_S:
            return False
        return self.hands_at.get(top.serial) != [top.by] or placement_problem(
            top.card, card, by=top.by, top_placed_by=top.by, players=g.players) is not None

    def resolve(self, alert: Alert, obs: Observation) -> None:
        """The answer: ``on:S`` laid on the top card by S; ``under:S`` it lay under the top
        card (taken back), laid by S."""
        how, _, seat = alert.resolved.partition(":")
        top, card = self.cam.a.g.top, alert.expected["card"]
        if "pending" in alert.expected and seat.isdigit():   # asked while the upper card's question was open
            upper = self.cam.a.find_alert(alert.expected["pending"])
            t = alert.expected["t"]
            if how == "under":
                t = upper.expected["t"] - FRAME_S
                if not upper.resolved:
                    upper.resolved = BACK   # it went back to its player's hand: who laid it does not count
            self.cam._place(obs, int(seat), card, t, [int(seat)])
            return
        if top is None or top.serial != alert.expected["serial"]:
            return
        if how == BACK:
            self._take_back(obs, top)
        elif not seat.isdigit():
            return
        elif how == "on":
            self.cam._place(obs, int(seat), card, alert.expected["t"], self.cam.seats(alert.seen.get("hands")))
        elif how == "under":
            self._take_back(obs, top)
            self.cam._place(obs, int(seat), card, (top.t or obs.t) - FRAME_S, [int(seat)])

    # ------------------------------------------------------------------ inside
    def _pending(self, card: str, t: float, hands: list[int]) -> Alert | None:
        """An open question (who laid it? could no one play?) about another card that landed
        lately with two hands in, one of them the only hand in now (taking it back?)."""
        if len(hands) != 1:
            return None
        return next((a for a in self.cam.a.open_alerts() if a.kind in PENDING_KINDS
                     and a.expected.get("card") not in (None, card)
                     and hands[0] in (seen := self.cam.seats(a.seen.get("hands"))) and len(seen) >= 2
                     and 0 <= t - a.expected.get("t", t) <= TAKEN_BACK_S),
                    None)

    def _ask_pending(self, obs: Observation, card: str, upper: Alert, seat: int) -> None:
        """``card`` shows while the card seen before it is still asked about: under it (that
        card taken back by ``seat``) or laid on it by ``seat``? One tap."""
        self._raise(obs, card, upper.expected["card"], seat, self.cam.seats(upper.seen.get("hands")),
                    {"over_t": upper.expected["t"], "pending": upper.id})

    def _recent_top(self, obs: Observation) -> Any:
        g = self.cam.a.g
        top = g.top
        if g.phase not in ("playing", "michi") or top is None or top.by is None or top.t is None \
                or obs.t - top.t > TAKEN_BACK_S:
            return None
        return top

    def _take_back(self, obs: Observation, top: Any) -> None:
        """The top card went back to its player's hand (laid together on the card under it)."""
        g, a = self.cam.a.g, self.cam.a
        g.pile.remove(top)
        g.hand_sizes[top.by] += 1
        if g.top is not None:   # the card it landed on stays, its player's: that pair is settled
            self.hands_at[g.top.serial] = [g.top.by]
        if g.phase == "michi":   # a Gros Michi taken back: no swap
            g.phase, g.pending_michi = "playing", None
            for alert in a.open_alerts():
                if alert.kind == MICHI_PARTNER:
                    alert.resolved = BACK
        self._say_back(obs, top.by, top.card)

    def _say_back(self, obs: Observation, seat: int, card: str) -> None:
        """The feed: ``card`` went back to ``seat``'s hand (laid together on the top card)."""
        a, top = self.cam.a, self.cam.a.g.top
        event = {"type": "returned_to_hand", "seat": seat, "card": card, "reason": "together",
                 "under_serial": top.serial if top else None, "t": obs.t}
        a.say(obs.t, describe_observed(event, "en", a._names("en")), describe_observed(event, "fr", a._names("fr")),
              kind="alert", seq=obs.seq)

    def _under(self, obs: Observation, card: str, top: Any) -> None:
        """``card`` lay under ``top`` (taken back): placed just before it, by the other hand
        that was in when the pair landed, else asked."""
        t = top.t - FRAME_S
        others = [s for s in self.hands_at.get(top.serial, []) if s != top.by]
        if len(others) == 1:
            self.cam._place(obs, others[0], card, t, others)
            return
        seen = {**obs.data, "landed": t, "hands": others}
        self.cam.ask_who(Observation(kind=obs.kind, source=obs.source, t=obs.t, seq=obs.seq, data=seen),
                         card, t, others, [s for s in range(self.cam.a.g.players) if s != top.by])

    def _ask(self, obs: Observation, card: str, top: Any, same: bool) -> None:
        self._raise(obs, card, top.card, top.by, self.hands_at.get(top.serial, []),
                    {"over_t": top.t, "serial": top.serial}, back=same)

    def _raise(self, obs: Observation, card: str, over: str, taker: int, landed_with: list[int],
               expected: dict[str, Any], *, back: bool = False) -> None:
        """"``card`` shows where ``over`` lay: under it (``over`` back to ``taker``), laid by
        one of the other hands in when it landed first, or on it by ``taker`` (or another
        player)?" (``back``:
        or no new card, ``card`` being the card known under it)."""
        a = self.cam.a
        names = {lang: a._names(lang) for lang in ("en", "fr")}
        new, old = ({lang: card_label(c, lang) for lang in ("en", "fr")} for c in (card, over))
        under_by = [s for s in landed_with if s != taker]
        under_by += [s for s in range(a.g.players) if s not in under_by and s != taker]
        choices = [{"id": f"under:{s}", "label": text(
            f"Under {old['en']}, laid by {names['en'][s]} ({old['en']} went back to {names['en'][taker]})",
            f"Sous {old['fr']}, posée par {names['fr'][s]} ({old['fr']} est retournée à {names['fr'][taker]})")}
            for s in under_by]
        # on it: most likely by ``taker`` (the one hand in), but the hand watcher may have missed
        # another arm: every player can be named, so a true answer is always one tap
        choices += [{"id": f"on:{s}", "label": text(f"On {old['en']}, laid by {names['en'][s]}",
                                                    f"Sur {old['fr']}, posée par {names['fr'][s]}")}
                    for s in [taker, *(s for s in range(a.g.players) if s != taker)]]
        if back:
            choices.insert(0, {"id": BACK, "label": text(
                f"No new card: {old['en']} went back to {names['en'][taker]}",
                f"Pas de nouvelle carte : {old['fr']} est retournée à {names['fr'][taker]}")})
        a.raise_alert(Alert(
            id=a.new_alert_id(obs), kind=UNDER, since=obs.t, seen=dict(obs.data),
            message=text(f"{new['en']} shows on the pile where {old['en']} lay: was it under it (landed together), "
                         f"or laid on it?",
                         f"{new['fr']} apparaît sur la pile où était {old['fr']} : était-elle dessous (posées "
                         "ensemble), ou posée dessus ?"),
            choices=choices, expected={"card": card, "over": over, "t": obs.data.get("landed", obs.t), **expected}))


__all__ = ["UNDER", "Together"]
