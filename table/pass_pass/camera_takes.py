"""Pass Pass from the camera, the takes: a card leaving the trick while it is being taken,
matched with a card coming to rest at a seat (``TAKE_WINDOW``), or asked about ("who took
it?"); a take seen at a seat whose turn has not come held until the earlier one is placed.
The rules are told in ``table/pass_pass/camera.py``'s docstring; this is the half of
:class:`~table.pass_pass.camera.CameraReader` that reads them (its state lives there).

    >>> from table.pass_pass.adapter import PassPassAdapter
    >>> pp = PassPassAdapter(Observation.now("game_start", source="t", game="pass-pass", options={"players": 3}))
    >>> pp.camera.next_deadline() is None   # no card left the trick unseen
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from table.adapter import text
from table.observations import Observation
from table.pass_pass import InvalidInput, TakeCard, TakeLow
from table.pass_pass.trick import second_take_options

if TYPE_CHECKING:
    from table.pass_pass.adapter import PassPassAdapter

TRICK_ZONE = "trick"
TAKE_PHASES = ("first_take", "second_take")
TAKE_WINDOW = 1.0   # s (frame time): a card leaving the trick and one coming to rest at a seat this close are one take


class TakeReading:
    """The takes of :class:`~table.pass_pass.camera.CameraReader` (its mixin: ``self.a``,
    ``arrivals``, ``unseen``, ``held``, ``held_plays``, ``low_seen`` are the reader's)."""

    a: PassPassAdapter

    def _gone(self, obs: Observation) -> None:
        """A card left the trick while it is being taken."""
        card_id = obs.data.get("card")
        if obs.data.get("zone") != TRICK_ZONE:
            return
        try:
            card = self._card(card_id) if isinstance(card_id, str) else None
        except (InvalidInput, ValueError, KeyError):
            return
        if card is not None:
            self._left_trick(obs, card)

    def _left_trick(self, obs: Observation, card) -> None:
        """A trick card (named while it lay there) left during a take: the taker is the seat
        where a card came to rest just before — the one read there as this card, else the
        only seat where any card came to rest. No seat, or two → "who took it?" (a card
        coming to rest at one seat just after answers it by itself)."""
        g = self.a.g
        if g.phase not in TAKE_PHASES or card not in g.table_cards or card.id in self.low_seen:
            return
        if any(a.kind == "camera_take_question" and a.expected["card"] == card.id for a in self.a.open_alerts()) \
                or any(c == card.id for c, _ in self.unseen):
            return
        recent = [a for a in self.arrivals if obs.t - a[1] <= TAKE_WINDOW]
        named = [a for a in recent if a[2] == card.id]
        blind = [a for a in recent if a[2] is None]   # read there as no card
        if named:
            used = named[-1:]
        elif len({a[0] for a in blind}) == 1 and not self.unseen:
            used = blind
        elif blind and not self.unseen:   # cards came to rest at two seats: the camera cannot say which took it
            self._ask_taker(obs, card)
            return
        else:   # no seat yet, or one read as a card still in the trick (that card may be leaving for it: its
            # card_gone comes later), or an unnamed card that may be the pile of a card that left unseen before
            self.unseen.append((card.id, obs.t))   # decided once the window passes
            return
        self.arrivals = [a for a in self.arrivals if a not in used]
        self._at_seat(obs, card, used[-1][0])

    def _ask_taker(self, obs: Observation, card) -> None:
        g = self.a.g
        self.unseen = [u for u in self.unseen if u[0] != card.id]
        self._alert(obs, "camera_take_question",
                    f"{card.name('en')} left the trick but the camera did not see who took it. Who has it?",
                    f"La carte {card.name('fr')} a quitté le pli sans que la caméra voie qui l'a prise. Qui l'a ?",
                    choices=[{"id": f"seat{s + 1}", "label": text(self._name(s, "en"), self._name(s, "fr"))}
                             for s in range(g.players)] + [{"id": "back", "label": text("Put back in the trick",
                                                                                       "Remise dans le pli")}],
                    expected={"card": card.id, "seat": g.to_act})

    def _arrived(self, obs: Observation, seat: int, name: str | None, foreign: str | None = None) -> None:
        """A card came to rest at ``seat`` during a take without naming a trick card that
        already left (``name``: a trick card still lying there, read at the seat first or
        misread; None: unnamed; ``foreign``: named as a card not from the trick). It is the
        taker of the one card that left the trick unseen within the window, or waits for a
        card leaving the trick."""
        if len(self.unseen) == 1 and name is None:
            card_id, _ = self.unseen.pop()
            self._at_seat(obs, self._card(card_id), seat)
            return
        self.arrivals.append((seat, obs.t, name, foreign))

    def _expire(self, obs: Observation) -> None:
        """Windows the clock has passed. A card that left the trick unseen and is still
        there to take: "who took it?". Arrivals no card leaving the trick matched: a card
        named there that did not come from the trick is an alert; an unnamed one (a pile's
        top read badly) is no news."""
        now = obs.t
        self._decide_unseen(obs, [u for u in self.unseen if now > u[1] + TAKE_WINDOW])
        old = [a for a in self.arrivals if now > a[1] + TAKE_WINDOW]
        if not old:
            return
        self.arrivals = [a for a in self.arrivals if a not in old]
        for seat, t, _, foreign in old:
            if foreign is not None and not self.a.g.is_over():   # not from the trick, or another seat's card
                self._at_seat(Observation("card_seen", t, "camera", {"card": foreign, "zone": f"seat{seat + 1}"}),
                              self._card(foreign), seat)

    def _decide_unseen(self, obs: Observation, late: list[tuple[str, float]], *, waited: bool = True) -> None:
        """The cards of ``late`` left the trick with no seat seen and the wait is over: the seat
        of a misread pile top (see :meth:`_misread_at`; only once a whole window has shown the
        card read there stayed in the trick), else "who took it?"."""
        self.unseen = [u for u in self.unseen if u not in late]
        g = self.a.g
        for card_id, left in late:
            card = self._card(card_id)
            if not g.is_over() and g.phase in TAKE_PHASES and card in g.table_cards:
                at = Observation(obs.kind, obs.t, obs.source, {"card": card_id, "zone": TRICK_ZONE}, seq=obs.seq)
                misread = self._misread_at(card_id, left) if waited else None
                if misread is not None:
                    self._at_seat(at, card, misread)
                else:
                    self._ask_taker(at, card)

    def _misread_at(self, card_id: str, left: float) -> int | None:
        """The one seat where, around the time ``card_id`` left the trick, a card came to rest
        read as a card that has stayed in the trick a whole window since (so a misread of
        the pile's top, not that card on its way), or None."""
        suspects = [a for a in self.arrivals if abs(a[1] - left) <= TAKE_WINDOW and a[2] is not None
                    and a[2] != card_id and a[2] in self.in_trick]
        if len({a[0] for a in suspects}) != 1:
            return None
        self.arrivals = [a for a in self.arrivals if a not in suspects]
        return suspects[0][0]

    def _pending_take(self) -> bool:
        """A card left the trick and its taker is not known yet (waiting, or asked)."""
        return bool(self.unseen) or any(a.kind == "camera_take_question" for a in self.a.open_alerts())

    def _replay_held(self) -> None:
        """Place the takes held back for an earlier one, once it is placed (or still hold them)."""
        held, self.held = self.held, []
        for obs, card_id, seat in held:
            if not self.a.g.is_over():
                self._at_seat(obs, self._card(card_id), seat)
        if self.held_plays and not self._pending_take():
            plays, self.held_plays = self.held_plays, []
            for obs in plays:
                if not self.a.g.is_over():
                    self._in_trick(obs, self._card(obs.data["card"]))

    def _not_from_trick(self, obs: Observation, card, seat: int) -> None:
        self._alert(obs, "camera_not_from_trick",
                    f"{card.name('en')} arrived in front of {self._name(seat, 'en')} but was not in the trick: "
                    "take it away.",
                    f"La carte {card.name('fr')} est arrivée devant {self._name(seat, 'fr')} sans venir du pli : "
                    "retirez-la.")

    def _seen_at_seat(self, obs: Observation, card, seat: int) -> None:
        """A card named at a seat. During a take, a card still lying in the trick as far as
        the camera knows is taken when it leaves (a pile's top misread as a trick card must
        take nothing), and a card that is not from the trick is an arrival with no name (an
        alert if no trick card leaves)."""
        g = self.a.g
        owner = next((s for s in range(g.players) if card in g.in_front(s)), None)
        if g.phase in TAKE_PHASES and owner != seat and self.last_round.get(card.id) != seat:
            if owner is None and card in g.table_cards and card.id in self.in_trick:
                self._arrived(obs, seat, card.id)
                return
            if owner is not None or card not in g.table_cards:   # misread, or really moved: said if no take explains it
                self._arrived(obs, seat, None, foreign=card.id)
                return
        self._at_seat(obs, card, seat)

    def _at_seat(self, obs: Observation, card, seat: int) -> None:
        g = self.a.g
        if card in g.in_front(seat) or (self.last_round.get(card.id) == seat and card not in g.seen_this_round()):
            return   # already this seat's (a forced take, seen again after being covered, or last round's)
        owner = next((s for s in range(g.players) if card in g.in_front(s)), None)
        if owner is not None:
            self._alert(obs, "camera_wrong_seat",
                        f"{card.name('en')} belongs in front of {self._name(owner, 'en')}, not "
                        f"{self._name(seat, 'en')}: move it back.",
                        f"La carte {card.name('fr')} va devant {self._name(owner, 'fr')}, pas devant "
                        f"{self._name(seat, 'fr')} : remettez-la.", expected={"seat": owner})
            return
        if card not in g.table_cards:
            self._not_from_trick(obs, card, seat)
            return
        if g.phase in TAKE_PHASES and seat != g.to_act and self._pending_take():
            if not any(h[1:] == (card.id, seat) for h in self.held):   # its turn comes once the earlier is placed
                self.held.append((obs, card.id, seat))
            return
        if g.phase in TAKE_PHASES and seat != g.to_act:
            self._alert(obs, "camera_wrong_taker",
                        f"{self._name(seat, 'en')} took {card.name('en')}, but {self._waiting('en')}: "
                        "put it back in the trick.",
                        f"{self._name(seat, 'fr')} a pris la carte {card.name('fr')}, mais {self._waiting('fr')} : "
                        "remettez-la dans le pli.", expected={"seat": g.to_act})
            return
        self._answered_by_camera(card.id)
        if g.phase == "first_take":
            self.apply(TakeCard(seat, card.id), obs)
        elif g.phase == "second_take":
            self._low_take(obs, card, seat)
        else:
            self._alert(obs, "camera_early_take",
                        f"{card.name('en')} left the trick before it was complete: put it back.",
                        f"La carte {card.name('fr')} a quitté le pli avant qu'il soit complet : remettez-la.")

    def _low_take(self, obs: Observation, card, seat: int) -> None:
        options = second_take_options(self.a.g.table_cards)
        if not any(card in option for option in options):
            low = " / ".join(", ".join(c.name("en") for c in o) for o in options)
            bas = " / ".join(", ".join(c.name("fr") for c in o) for o in options)
            self._alert(obs, "camera_not_lowest",
                        f"{card.name('en')} is not among the lowest cards ({low}): put it back in the trick.",
                        f"La carte {card.name('fr')} ne fait pas partie des plus faibles ({bas}) : remettez-la.",
                        expected=[[c.id for c in o] for o in options])
            return
        self.low_seen.append(card.id)
        seen = {self._card(c) for c in self.low_seen}
        for option in options:
            if set(option) <= seen:
                self.apply(TakeLow(seat, [c.id for c in option]), obs)
                return
