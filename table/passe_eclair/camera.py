"""Passe Éclair from the camera: each new card on the centre pile is a placement at the time
it landed, by the seat whose hand reached in just before.

The camera (``vision/pipeline.py`` with a ``vision/hands.py`` watcher) reports a card once
it lies still on the ``pile`` zone, with ``landed`` (the time of its first frame) and
``hands`` (the seats whose edge of the table a hand crossed just before). What it means:

* before play, a card turned onto the pile is the start card (the coach's turn);
* during play it is a placement of the one seat whose hand came in, judged by the rules at
  its landing time (a wrong card is flagged, never refused: it lies there);
* when two hands were in (or none was seen), a one-tap question asks who laid it, and the
  answer places it at the time it landed.
* a new top card the camera cannot name (``card_unknown``) is a question "which card?"
  among those the rules allow on the pile (the Gros Michi too: "no one can play" is asked
  after); the answer is then taken as the camera's sighting (placed for the one hand
  that came in, or asked who).
* a Gros Michi is placed as the rules need it, with the one-tap questions of
  :mod:`.camera_michi` (who to swap with; off anything but a dog, could no one play?);
* the card on top seen again (the camera reports a pile card again once it comes back from
  under a hand or a card taken away) or a card whose "who laid it?" or "under it or on it?"
  is open is not a new card (a card laid crooked may be seen unnamed two or three times).

    >>> from table.passe_eclair.adapter import PasseEclairAdapter
    >>> pe = PasseEclairAdapter(Observation.now("game_start", source="t", game="passe-eclair",
    ...                                         options={"players": 3}))
    >>> pe.observe(Observation.now("card_seen", source="camera", card="leon-marlon", zone="pile", hands=[]))
    >>> pe.observe(Observation.now("card_seen", source="camera", card="marlon-fabi", zone="pile", landed=5.0,
    ...                            hands=[2]))
    >>> pe.view()["pile"][-1]["by"], pe.view()["pile"][-1]["t"]
    (2, 5.0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from table.adapter import Alert, looks_like, text
from table.observations import (
    CARD_GONE,
    CARD_KINDS,
    CARD_SEEN,
    CARD_UNKNOWN,
    CARD_UNKNOWN_GONE,
    Observation,
)
from table.passe_eclair import ALL_CARD_IDS, DOG, MICHI, BadInput, IllegalAction, card_label
from table.passe_eclair import camera_lost as lost
from table.passe_eclair.camera_boxed import BOXED, Boxed
from table.passe_eclair.camera_michi import KINDS as MICHI_KINDS
from table.passe_eclair.camera_michi import MichiQuestions
from table.passe_eclair.camera_together import UNDER, Together

if TYPE_CHECKING:  # the adapter imports this module
    from table.passe_eclair.adapter import PasseEclairAdapter

CAMERA_KINDS = CARD_KINDS
PILE_ZONE = "pile"
WHO_PLACED = "camera_who_placed"
WHICH_CARD = "camera_which_card"


class PileCamera:
    """The camera half of :class:`~table.passe_eclair.adapter.PasseEclairAdapter`."""

    def __init__(self, adapter: PasseEclairAdapter, apply: Callable[[Observation, str, dict[str, Any], Any], bool]):
        self.a, self._apply = adapter, apply
        self.michi = MichiQuestions(adapter, apply)
        self.together = Together(self)
        self.boxed = Boxed(self)

    def observe(self, obs: Observation) -> None:
        self.together.withdraw_stale()
        if obs.kind in (CARD_SEEN, CARD_UNKNOWN) and obs.data.get("zone") == PILE_ZONE and self.boxed.waiting(obs):
            return   # the pile was cleared: asked what happened first (camera_boxed.py)
        if obs.kind in (CARD_UNKNOWN, CARD_UNKNOWN_GONE):
            self._unknown(obs)
            return
        card = obs.data.get("card")
        if obs.kind == CARD_GONE and obs.data.get("zone") == PILE_ZONE:
            self.together.gone(obs)    # taken back? (camera_together.py)
            if self.boxed.gone(obs):   # or the whole pile cleared (camera_boxed.py)
                self.together.pile_cleared()
            else:
                lost.top_gone(self, obs)   # never lost silently (camera_lost.py)
        if obs.kind == CARD_SEEN and obs.data.get("zone") == PILE_ZONE:
            lost.pile_seen(self)
        if obs.kind != CARD_SEEN or obs.data.get("zone") != PILE_ZONE or card not in ALL_CARD_IDS:
            return
        g = self.a.g
        landed = obs.data.get("landed")
        t = float(landed) if isinstance(landed, (int, float)) and not isinstance(landed, bool) else obs.t
        hands = self.hands(obs)
        if self.together.pending_taken_back(obs, card, t, hands):
            return   # the card asked about went back to its player's hand (camera_together.py)
        if lost.twin(self, obs, card, t):
            return
        if self._seen_again(card) and not lost.answered_copy(self, obs, card):
            self._hands_seen_too(card, hands)
            self.together.again(obs, card, t, hands)   # a copy over its twin? (camera_together.py)
            return
        if g.phase in ("dealt", "turning"):
            self._apply(obs, "passe_eclair.start_card", {"card": card}, t)
            return
        if g.phase == "round_won" and self.together.unwon(obs, card, t, hands):   # the winning card taken back
            return
        if g.phase not in ("playing", "michi"):
            return
        if self.together.seen(obs, card, t, hands) or g.phase != "playing":   # the card under a card taken back
            return
        hands = self.together.with_copy_hands(t, hands)
        if len(hands) == 1:
            self._place(obs, hands[0], card, t, hands)
            return
        if not hands and lost.named_later(self, obs, card, t):   # the unnamed card asked about, named now?
            return
        self.ask_who(obs, card, t, hands, hands if len(hands) > 1 else list(range(g.players)))

    def hands(self, obs: Observation) -> list[int]:
        """The seats whose hand the camera saw reach in for ``obs`` (``hands``, checked)."""
        return self.seats(obs.data.get("hands"))

    def seats(self, reported: Any) -> list[int]:
        """The players' seats among hands as the camera reported them: the hand watcher
        watches every side of the table, and with 3 players side 3 is nobody's."""
        return [s for s in reported or [] if isinstance(s, int) and not isinstance(s, bool)
                and 0 <= s < self.a.g.players]

    def ask_who(self, obs: Observation, card: str, t: float, hands: list[int], choices: list[int]) -> None:
        """Who laid ``card`` (landed at ``t``)? One tap among ``choices``."""
        names_en, names_fr = self.a._names("en"), self.a._names("fr")
        why_en = "two hands were in" if hands else "no hand was seen"
        why_fr = "deux mains étaient là" if hands else "aucune main n'a été vue"
        self.a.raise_alert(Alert(
            id=self.a.new_alert_id(obs), kind=WHO_PLACED, since=obs.t, seen=dict(obs.data),
            message=text(f"Who laid {card_label(card, 'en')}? ({why_en})",
                         f"Qui a posé la carte {card_label(card, 'fr')} ? ({why_fr})"),
            choices=[{"id": str(s), "label": text(names_en[s], names_fr[s])} for s in choices],
            expected={"card": card, "t": t}))

    def _place(self, obs: Observation, seat: int, card: str, t: float, hands: list[int]) -> None:
        """``seat`` laid ``card`` at ``t`` with ``hands`` in: placed (a Gros Michi asks what
        the rules need)."""
        if card == MICHI:
            self.michi.laid(obs, seat, t)
            if self.a.g.top is not None and self.a.g.top.card == MICHI and self.a.g.top.t == t:
                self.together.placed(hands)
        else:
            before = self.a.g.copy() if self.a.g.hand_sizes[seat] == 1 else None   # its last card: may win
            if self._apply(obs, "passe_eclair.place", {"seat": seat, "card": card}, t):
                self.together.placed(hands, before, seat, t, card)

    def _seen_again(self, card: str) -> bool:
        """The card on top already, or the card of an open "who laid it?" (or "under it or
        on it?"): seen again (a hand lifted off it, the card over it taken back, or named
        after a "which card?" answer), not laid again. (A copy laid squarely on its twin
        looks the same: missed.)"""
        g = self.a.g
        if g.phase in ("turning", "playing") and g.top is not None and g.top.card == card:
            return True
        return any(a.kind in (WHO_PLACED, UNDER, *MICHI_KINDS) and a.expected.get("card") == card
                   for a in self.a.open_alerts())

    def _hands_seen_too(self, card: str, hands: list[int]) -> None:
        """``card`` seen again while a question about it is open: the hands of this sighting
        count too (a pair seen unnamed with two hands in, then named with none: still a pair)."""
        for alert in self.a.open_alerts():
            if alert.kind in (WHO_PLACED, *MICHI_KINDS) and alert.expected.get("card") == card and hands:
                alert.seen["hands"] = sorted({*self.seats(alert.seen.get("hands")), *hands})

    def _unknown(self, obs: Observation) -> None:
        """A new top card the camera cannot name: ask which card (those the rules allow on
        the pile), never guess; withdrawn when it leaves or gets a name."""
        unknown = obs.data.get("unknown")
        if obs.kind == CARD_UNKNOWN_GONE:
            for alert in self.a.open_alerts():
                if alert.kind == WHICH_CARD and alert.expected.get("unknown") == unknown \
                        and lost.unknown_named(self, alert):   # else it still lies there: asked on
                    alert.resolved = "gone"
                    lost.later_sighting(self, alert, obs)
            return
        g = self.a.g
        if obs.data.get("zone") != PILE_ZONE or g.phase not in ("dealt", "turning", "playing"):
            return
        lost.pile_seen(self)
        hands = self.hands(obs)
        seats = hands or list(range(g.players))
        cards = sorted({c for s in seats for c in g.playable(s)} | ({MICHI} if g.top.card != DOG else set())) \
            if g.phase == "playing" else []
        cards += [c for c in ALL_CARD_IDS if c not in cards]   # then the rest: a wrong card lies there too
        cards, hint_en, hint_fr = looks_like(cards, obs.data.get("like"), card_label)
        self.a.raise_alert(Alert(
            id=self.a.new_alert_id(obs), kind=WHICH_CARD, since=obs.t, seen=dict(obs.data),
            message=text("A card was laid on the pile but not recognised: which card is it?" + hint_en,
                         "Une carte a été posée sur la pile mais pas reconnue : laquelle est-ce ?" + hint_fr),
            choices=[{"id": c, "label": text(card_label(c, "en"), card_label(c, "fr"))} for c in cards]
            + [{"id": "none", "label": text("No card", "Pas de carte")}],
            expected={"unknown": unknown, "obs": dict(obs.data), "t": obs.t}))

    def resolve(self, obs: Observation) -> bool:
        """Place the card of a "who laid it" question for the seat chosen, or name the card
        of a "which card" one (then placed as if the camera had named it); False if the
        alert is not one of this module's."""
        alert = self.a.find_alert(str(obs.data.get("alert")))
        if alert is None or alert.kind not in (WHO_PLACED, WHICH_CARD, lost.TWIN, UNDER, BOXED, *MICHI_KINDS):
            return False
        alert.resolved = str(obs.data.get("choice"))
        if alert.kind == lost.TWIN:
            lost.resolve_twin(self, alert, obs)
            return True
        if alert.kind in MICHI_KINDS:
            self.michi.resolve(alert, obs)
            return True
        if alert.kind == UNDER:
            self.together.resolve(alert, obs)
            return True
        if alert.kind == BOXED:
            self.boxed.resolve(alert, obs)
            return True
        if alert.kind == WHICH_CARD:
            t = lost.landed_at(alert)
            named = any(e.card == alert.resolved and e.t is not None and e.t >= t for e in self.a.g.pile)
            if alert.resolved in ALL_CARD_IDS and not named:   # named by the camera since: placed already
                seen = {**alert.expected["obs"], "card": alert.resolved, "zone": PILE_ZONE, "answered": True}
                seen.setdefault("landed", alert.expected["t"])
                self.observe(Observation(kind=CARD_SEEN, source=obs.source, t=obs.t, seq=obs.seq, data=seen))
            lost.later_sighting(self, alert, obs)
            return True
        if alert.resolved.isdigit():
            hands = self.seats(alert.seen.get("hands"))
            answer = Observation(kind=obs.kind, source=obs.source, t=obs.t, seq=obs.seq,
                                 data={**obs.data, "hands": hands})   # the Michi's questions say them
            try:
                self._place(answer, int(alert.resolved), alert.expected["card"], alert.expected["t"], hands)
            except (IllegalAction, BadInput) as exc:
                self.a.refuse_entry(obs, exc.en, exc.fr)
        return True
