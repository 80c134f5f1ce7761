"""A Gros Michi the camera saw land on the pile: what the rules then need, asked by one tap.

The camera names the card and the hand gives its player; what it cannot see is said by
one tap on the page (RULES-DECISIONS, Passe Éclair 11):

* **On a dog** the Michi is legal: it is placed, then "who does X swap hands with?" offers
  the other seats (at 2 players there is only one: the swap is made with no question,
  unless the Michi landed with two hands in: slapped together, it may be taken back, so
  the one-choice question waits for a tap).
* **On any other card** it is legal only if no one could play, which hands hide: "could
  no one play?" offers one button per other seat ("yes — X swaps with Y", the Michi is
  placed and the hands swapped) and "no — a wrong card" (placed, flagged, to be spotted).
  Nothing is placed until the tap.

After the swap the pile goes to the box and the Michi player turns a new start card: the
camera's next pile card is that start card (``PileCamera`` in phase ``turning``).

    >>> from table.passe_eclair.adapter import PasseEclairAdapter
    >>> pe = PasseEclairAdapter(Observation.now("game_start", source="t", game="passe-eclair",
    ...                                         options={"players": 3}))
    >>> for card, hands in (("leon-marlon", []), ("dog", [0]), ("michi", [1])):
    ...     pe.observe(Observation.now("card_seen", source="camera", card=card, zone="pile", hands=hands))
    >>> [c["id"] for c in pe.open_alerts()[0].choices], pe.g.phase
    (['0', '2'], 'michi')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from table.adapter import Alert, text
from table.observations import Observation
from table.passe_eclair import DOG, MICHI, card_label

if TYPE_CHECKING:  # the adapter imports this module
    from table.passe_eclair.adapter import PasseEclairAdapter

MICHI_PARTNER = "camera_michi_partner"
MICHI_BLOCKED = "camera_michi_blocked"
WRONG = "wrong"
KINDS = (MICHI_PARTNER, MICHI_BLOCKED)


class MichiQuestions:
    """The Michi half of :class:`~table.passe_eclair.camera.PileCamera`."""

    def __init__(self, adapter: PasseEclairAdapter, apply):
        self.a, self._apply = adapter, apply

    def laid(self, obs: Observation, seat: int, t: float) -> None:
        """``seat`` laid a Gros Michi that landed at ``t`` (its player known)."""
        g = self.a.g
        if g.top is not None and g.top.card == DOG:
            if self._apply(obs, "passe_eclair.place", {"seat": seat, "card": MICHI}, t) and g.phase == "michi":
                # slapped with another hand in, it may be taken back: the swap waits for a tap
                self._ask_partner(obs, seat, confirm=len(self.a.camera.seats(obs.data.get("hands"))) > 1)
            return
        name = self._name(seat)
        top = {lang: card_label(g.top.card, lang) if g.top else "?" for lang in ("en", "fr")}
        choices = [{"id": str(s), "label": text(f"Yes: {name['en']} swaps with {self._name(s)['en']}",
                                                f"Oui : {name['fr']} échange avec {self._name(s)['fr']}")}
                   for s in self._others(seat)]
        choices.append({"id": WRONG, "label": text("No: a wrong card", "Non : c'est une mauvaise carte")})
        self.a.raise_alert(Alert(
            id=self.a.new_alert_id(obs), kind=MICHI_BLOCKED, since=obs.t, seen=dict(obs.data),
            message=text(f"Gros Michi by {name['en']} on {top['en']}: it goes only on a dog, or when no one "
                         "can play. Could no one play?",
                         f"Gros Michi de {name['fr']} sur {top['fr']} : il ne se pose que sur un chien, ou quand "
                         "personne ne peut jouer. Personne ne pouvait-il jouer ?"),
            choices=choices, expected={"seat": seat, "card": MICHI, "t": t}))

    def _ask_partner(self, obs: Observation, seat: int, *, confirm: bool = False) -> None:
        others = self._others(seat)
        if len(others) == 1 and not confirm:   # 2 players: the rules leave no choice
            self._apply(obs, "passe_eclair.michi_swap", {"seat": seat, "target": others[0]}, obs.t)
            return
        name = self._name(seat)
        self.a.raise_alert(Alert(
            id=self.a.new_alert_id(obs), kind=MICHI_PARTNER, since=obs.t, seen=dict(obs.data),
            message=text(f"Gros Michi! Who does {name['en']} swap hands with?",
                         f"Gros Michi ! Avec qui {name['fr']} échange-t-il ses cartes ?"),
            choices=[{"id": str(s), "label": text(self._name(s)["en"], self._name(s)["fr"])} for s in others],
            expected={"seat": seat}))

    def resolve(self, alert: Alert, obs: Observation) -> None:
        """The tap: the partner chosen (the swap), or "could no one play?" answered."""
        seat, choice = alert.expected["seat"], alert.resolved
        if alert.kind == MICHI_PARTNER:
            if choice.isdigit():
                self._apply(obs, "passe_eclair.michi_swap", {"seat": seat, "target": int(choice)}, obs.t)
            return
        if choice == WRONG:
            self._apply(obs, "passe_eclair.place", {"seat": seat, "card": MICHI}, alert.expected["t"])
        elif choice.isdigit():
            self._apply(obs, "passe_eclair.michi_swap",
                        {"seat": seat, "target": int(choice), "no_one_can_play": True}, alert.expected["t"])

    def _others(self, seat: int) -> list[int]:
        return [s for s in range(self.a.g.players) if s != seat]

    def _name(self, seat: int) -> dict[str, Any]:
        return {lang: self.a._names(lang)[seat] for lang in ("en", "fr")}
