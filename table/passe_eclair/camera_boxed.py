"""Passe Éclair's pile boxed before anyone tapped "no one can play".

Players often clear the pile into the box and the coach turns the next card before
anyone taps the page (or never tap). The camera then sees the pile's cards leave, the
bare cloth where they lay (``card_gone`` with ``bare``), and a card turned on the empty
pile. That new card is not a placement of whoever turned it: one tap says what happened.

* the **top card and the card under it both leave** (bare) during play (or the start card
  alone): "The pile was cleared: could no one play?" Yes: no one can play (the pile goes
  to the box), and the cards the camera saw since on the empty pile are the new start
  card(s). No: nothing changes (the players put the cards back); the cards seen since are
  judged as placements.
* while asked, the cards seen on the pile wait for the answer (never placed by a guess).

    >>> BOXED
    'camera_boxed'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from table.adapter import Alert, text
from table.observations import Observation

if TYPE_CHECKING:
    from table.passe_eclair.camera import PileCamera

BOXED = "camera_boxed"
BLOCKED = "passe_eclair.blocked"
CLEARED_WITHIN_S = 1.0   # the pile's cards leave together: the top and the one under it this close


class Boxed:
    """The pile cards seen leaving (bare), and the open "was the pile cleared?" question."""

    def __init__(self, cam: PileCamera):
        self.cam, self.left = cam, {}

    def gone(self, obs: Observation) -> bool:
        """A pile card seen leaving: True when the top of the pile has gone with the card
        under it (the pile cleared): asked, and a take-back is not what happened."""
        g = self.cam.a.g
        if g.phase != "playing" or not obs.data.get("bare") or g.top is None:
            return False
        self.left[obs.data.get("card")] = float(obs.data.get("left", obs.t))
        top, under = g.top, (g.pile[-2] if len(g.pile) > 1 else None)
        gone = [self.left.get(e.card) for e in (top, under) if e is not None]
        if None in gone or (under is None and top.by is not None) or max(gone) - min(gone) > CLEARED_WITHIN_S:
            return False
        if not self._asked():
            self._ask(obs)
        return True

    def waiting(self, obs: Observation) -> bool:
        """A card seen on the pile while the question is open: kept for the answer."""
        alert = self._asked()
        if alert is None:
            return False
        alert.expected["seen"].append({"kind": obs.kind, "t": obs.t, "data": dict(obs.data)})
        return True

    def resolve(self, alert: Alert, obs: Observation) -> None:
        """Yes: no one could play (the pile to the box); then the cards seen since."""
        self.left.clear()
        if alert.resolved == "yes":
            self.cam._apply(obs, BLOCKED, {}, alert.expected["t"])
        for seen in alert.expected["seen"]:
            self.cam.observe(Observation(kind=seen["kind"], source=obs.source, t=seen["t"], seq=obs.seq,
                                         data=seen["data"]))

    def _asked(self) -> Alert | None:
        return next((a for a in self.cam.a.open_alerts() if a.kind == BOXED), None)

    def _ask(self, obs: Observation) -> None:
        a = self.cam.a
        for alert in a.open_alerts():   # "which card was laid on it?": the pile left, nothing came on it
            if (alert.expected or {}).get("gone"):   # (a refused entry expects nothing)
                alert.resolved = "boxed"
        a.raise_alert(Alert(
            id=a.new_alert_id(obs), kind=BOXED, since=obs.t, seen=dict(obs.data),
            message=text("The pile was cleared: could no one play?",
                         "La pile a été enlevée : personne ne pouvait-il jouer ?"),
            choices=[{"id": "yes", "label": text("Yes: no one could play, the pile went to the box",
                                                 "Oui : personne ne pouvait jouer, la pile est allée dans la boîte")},
                     {"id": "no", "label": text("No: the cards are put back",
                                                "Non : les cartes sont remises")}],
            expected={"t": float(obs.data.get("left", obs.t)), "seen": []}))
