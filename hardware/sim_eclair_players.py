"""The simulated Passe Éclair players at the page: how they answer what the camera asks,
from what they know of the physical table (the cards laid, by whom, when each showed, the
cards taken back) and what the page shows. A part of
:class:`hardware.sim_eclair.CameraPasseEclairTable`, which holds that knowledge
(``pile``, ``by``, ``when``, ``returned``, the Michi's swap partner, a pile boxed with no
tap) and the round's figures; kept apart so that the table's steps and the players'
answers can each be read in one sitting.

    >>> _tally_key({"kind": "camera_who_placed", "seen": {"hands": [1]}})
    'camera_who_placed:hands'
"""

from __future__ import annotations

from typing import Any

PERSON = "dashboard"          # a person tapping the page (the setup form, answers, what no camera sees)
MICHI_QUESTIONS = ("camera_michi_partner", "camera_michi_blocked")
QUESTION_KINDS = ("camera_who_placed", *MICHI_QUESTIONS, "camera_which_card", "camera_twin", "camera_under",
                  "camera_boxed")   # the page asking what the camera could not tell; the rest are alerts
OVER_SLACK_S = 1.0            # the page's landing time of a card vs the truth's (a glare delays it ~0.5 s)
ANSWER_SLACK_S = 0.2          # an unnamed card's first frame may come a few frames after the card showed


class PlayersAtThePage:
    """The players' taps on the page's questions (see the module docstring)."""

    def _answer(self) -> int:
        """Tap the page's open questions as the players would; how many were answered."""
        n = 0
        for alert in self.session.snapshot()["alerts"]:
            kind = alert.get("kind", "")
            ids = [c["id"] for c in alert.get("choices") or []]
            if kind == "camera_who_placed":
                card = alert["expected"]["card"]
                seat = next((s for (c, *_), s in [*zip(reversed(self.pile), reversed(self.by)),
                                                  *(((c,), s) for c, s, _ in reversed(self.returned))]
                             if c == card), None)
                choice = str(seat) if str(seat) in ids else None
            elif kind in MICHI_QUESTIONS:   # the swap partner, or yes, no one could play: the truth's
                choice = None if self._michi_target is None else str(self._michi_target)
                if choice is None:   # the swap is not decided yet: asked on
                    continue
            elif kind == "camera_which_card":
                choice = self._which_card(alert, ids)
            elif kind == "camera_twin":
                choice = self._twin(alert)
            elif kind == "camera_under":
                choice = self._under(alert, ids)
            elif kind == "camera_boxed":   # "could no one play?": yes if the players boxed the pile so
                choice, self._boxing = ("yes" if self._boxing else "no"), False
            else:
                choice = self.page.plain_choice(alert)
            if self.page.first_look(alert):
                question = kind in QUESTION_KINDS
                self._fig.questions += question
                self._fig.alerts += not question
                key = _tally_key(alert)
                self._fig.asked[key] = self._fig.asked.get(key, 0) + 1   # what is asked most (the bench's tally)
            if choice is None:
                self._fig.wrong.append(f"no true answer among {ids} for {alert.get('message')}")
                continue
            n += self.page.tap(self.session, alert, choice, source=PERSON, t=self.rig.t, refused=self._fig.refused)
        return n

    def _which_card(self, alert: dict[str, Any], ids: list[str]) -> str | None:
        """What the players answer to "which card?": the card laid on the pile by the time
        the camera's sighting began, unless the page shows it already ("no card"); None when
        the true card is not among the choices."""
        expected = alert["expected"]
        i = self._laid_by((expected.get("obs") or {}).get("landed", expected.get("t")))
        if i is None:
            return "none"
        card = self.pile[i][0]
        return card if card in ids else None

    def _under(self, alert: dict[str, Any], ids: list[str]) -> str | None:
        """"Was it under that card, or laid on it?": no new card if the table holds one card
        less than the page (its top card taken back); on it if that card (the one that
        landed then) lies under it on the table, else under (it was taken back); by whom."""
        card, over, view = alert["expected"]["card"], alert["expected"]["over"], self.session.snapshot()["view"]
        laid = [(c, s) for (c, *_), s in zip(self.pile, self.by)]
        if "back" in ids and len(laid) == view["pile_size"] - 1:
            return "back"
        i = max((j for j, (c, _) in enumerate(laid) if c == card), default=None)
        if i is None:   # laid on it and taken back since (the upper card of a pair)
            seat = next((s for c, s, _ in reversed(self.returned) if c == card), None)
            return None if seat is None or f"on:{seat}" not in ids else f"on:{seat}"
        # on it if the card it lies on is the copy of ``over`` that landed about when the page says
        over_t = alert["expected"]["over_t"]
        taken = any(c == over and abs(w - over_t) <= OVER_SLACK_S for c, _, w in self.returned)
        on = not taken and i > 0 and laid[i - 1][0] == over and abs(self.when[i - 1] - over_t) <= OVER_SLACK_S
        choice = ("on:" if on else "under:") + str(laid[i][1])
        return choice if choice in ids else None

    def _twin(self, alert: dict[str, Any]) -> str:
        """"Was another copy laid on its twin?": yes (by whom) when the last card laid by then
        is that copy and the page does not show it yet."""
        i = self._laid_by(alert["expected"]["t"])
        if i is None or self.pile[i][0] != alert["expected"]["card"]:
            return "none"
        return "turned" if self.by[i] is None else str(self.by[i])

    def _on_top(self, card: str, seat: int | None, shown_before: int) -> bool:
        """Has the page added a card since the lay began (``shown_before`` cards then), and
        is its top the card just laid, by its player, landed about then? (What its player
        looks at first: :meth:`_laid_by` counts copies down the page's pile, which a turned
        card the camera missed shifts by one; the top alone is the last copy when the
        player lays a dog on their own dog and the page missed it.)"""
        view = self.session.snapshot()["view"]
        top = view["pile"][-1] if view["pile"] else None
        return view["pile_size"] > shown_before and top is not None and top["card"] == card \
            and top["by"] == seat and top.get("t") is not None and abs(top["t"] - self.when[-1]) <= OVER_SLACK_S

    def _laid_by(self, t: float) -> int | None:
        """The truth pile's index of the last card that showed by ``t`` if the page does not
        show it yet (what a player at the table knows), else None."""
        laid = [i for i, w in enumerate(self.when) if w <= t + ANSWER_SLACK_S]
        if not laid:
            return None
        i = laid[-1]
        card = self.pile[i][0]
        view = self.session.snapshot()["view"]
        start = max(0, view["pile_size"] - len(view["pile"]))   # the page draws the top of the pile only
        copies = sum(c == card for c, *_ in self.pile[start:i + 1])
        return None if sum(e["card"] == card for e in view["pile"]) >= copies else i


def _tally_key(alert: dict[str, Any]) -> str:
    """The bench's name for a question: its kind, ``:gone`` for a top card the camera lost,
    and for "who laid it?" whether a hand was seen."""
    key = alert.get("kind", "") + (":gone" if (alert.get("expected") or {}).get("gone") else "")
    if key == "camera_who_placed":
        key += ":hands" if (alert.get("seen") or {}).get("hands") else ":no-hand"
    return key
