"""PtiPassPass from the seats' buttons: what the players only say aloud, as rule-checked steps.

Each seat has a **call** button and an **ok** button (``hardware/gpio/seat_buttons.py``; a
phone sends the same press as a ``seat_button.tap`` entry). What a press means
follows from the moment of the turn, never from the button alone:

* while a cup is named: another seat's *call* is "Doublon !"; once every other seat
  pressed *ok*, nobody called and the active player announces;
* announcing: the active player presses *ok* once (blue), twice (green) or three times
  (orange); the colour is taken when another seat presses (the announcement is over);
* after the colour: another seat's *call* is "Menteur !"; every other seat's *ok* lets
  the token go into the cup;
* after a round: any *ok* sets up the next one; with every hand empty, *ok* from every
  seat replays a stuck round.

The first call counts, **by edge time**: a call whose edge is earlier than the call
already applied (its callback ran second) takes its place while the lift or the shown
token is still awaited. A press the moment does not allow raises an alert saying why
(a fact from the pins is never refused nor dropped); a person's press is refused.

    >>> from table.ptipasspass.adapter import PtiPassPassAdapter
    >>> start = Observation.now("game_start", source="t", game="ptipasspass", options={"players": 3})
    >>> ppp = PtiPassPassAdapter(start)
    >>> ppp.observe(Observation.now(BUTTON, source="gpio", seat=1, button="call"))
    >>> [a.kind for a in ppp.open_alerts()]
    ['button_not_now']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from table.adapter import Alert, text
from table.observations import Observation
from table.ptipasspass.actions import (
    AbandonRound,
    AnnounceColour,
    CallDoublon,
    CallMenteur,
    NextRound,
    Pass,
)
from table.rules import IllegalAction

if TYPE_CHECKING:  # the adapter imports this module
    from table.ptipasspass.adapter import PtiPassPassAdapter

BUTTON = "seat_button"            # a press on the pins: a fact, never refused
TAP = "seat_button.tap"           # the same press from a phone: a person's entry, refused if impossible
ROLES = ("call", "ok")
PRESS_COLOURS = ("blue", "green", "orange")   # the active player's ok presses: 1, 2, 3
_COLOUR_FR = {"blue": "bleu", "green": "vert", "orange": "orange"}
UNDERSTOOD = [{"id": "ok", "label": text("Understood", "Compris")}]


class PressReader:
    """The buttons' half of :class:`~table.ptipasspass.adapter.PtiPassPassAdapter`."""

    def __init__(self, adapter: PtiPassPassAdapter):
        self.a = adapter
        self.oks: set[int] = set()          # seats that said OK in the open window
        self.colour_presses = 0             # the active player's ok presses while announcing
        self.last_call: dict[str, Any] | None = None   # the applied call: its edge time, seat, the game before

    # ------------------------------------------------------------------ checks
    def problem(self, data: dict[str, Any]) -> dict[str, str] | None:
        """Why this press means nothing now (``{"en", "fr"}``), or None; changes nothing."""
        g = self.a.g
        if g is None:
            return text("No game is running.", "Aucune partie en cours.")
        seat, role = data.get("seat"), data.get("button")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < g.players or role not in ROLES:
            return text(f"No such button: seat {seat!r}, {role!r}.", f"Bouton inconnu : place {seat!r}, {role!r}.")
        phase, active = g.phase, g.active
        who, qui = self.a._who(seat, "en"), self.a._who(seat, "fr")
        if phase == "over":
            return text("The game is over.", "La partie est terminée.")
        if phase == "round_over":
            return None if role == "ok" else text("The round is over: press OK to set up the next one.",
                                                  "La manche est finie : appuyez sur OK pour la suivante.")
        if phase in ("doublon_window", "menteur_window"):
            if seat == active:
                return text(f"{who} is the active player: the others call or say OK.",
                            f"{qui} est le joueur actif : ce sont les autres qui défient ou disent OK.")
            return None
        if phase == "announce":
            if seat == active:
                return None if role == "ok" and self.colour_presses < 3 else text(
                    f"{who}: press OK once for blue, twice for green, three times for orange.",
                    f"{qui} : OK une fois pour bleu, deux fois pour vert, trois fois pour orange.")
            if self.colour_presses == 0:
                return text(f"Wait: {self.a._who(active, 'en')} has not announced a colour yet.",
                            f"Attendez : {self.a._who(active, 'fr')} n'a pas encore annoncé de couleur.")
            return None
        if phase == "reveal_outcome":
            if role == "call" and self.last_call is not None and seat not in (active, self.last_call["seat"]):
                return None   # a second call: its edge may have come first
            return text("Not now: the table is showing what a cup or a token holds.",
                        "Pas maintenant : on regarde ce que montre un gobelet ou un jeton.")
        if phase == "swap_or_reveal":
            if role == "ok" and not any(sum(h.values()) for h in g.hands):
                return None   # every seat's OK: the round is stuck, replay it
            return text(f"Not now: {self.a._who(active, 'en')} swaps two cups or lifts three.",
                        f"Pas maintenant : {self.a._who(active, 'fr')} intervertit deux gobelets ou en soulève trois.")
        return text(f"Not now: {self.a._who(active, 'en')} first names a cup (a hand on it).",
                    f"Pas maintenant : {self.a._who(active, 'fr')} désigne d'abord un gobelet (la main dessus).")

    # ------------------------------------------------------------------ presses
    def observe(self, obs: Observation) -> None:
        why = self.problem(obs.data)
        if why is not None:
            self.a.raise_alert(Alert(id=self.a.new_alert_id(obs), kind="button_not_now", since=obs.t,
                                     message=text(f"Button ignored: {why['en']}", f"Bouton ignoré : {why['fr']}"),
                                     seen=dict(obs.data), choices=UNDERSTOOD))
            return
        seat, role, g = obs.data["seat"], obs.data["button"], self.a.g
        phase = g.phase
        try:
            if phase == "round_over":
                self._step(NextRound(), obs)
            elif phase == "announce" and seat == g.active:
                self.colour_presses += 1
            elif phase == "announce":
                colour = PRESS_COLOURS[self.colour_presses - 1]
                self._step(AnnounceColour(g.active, colour), obs)
                self._window(seat, role, obs)
            elif phase == "reveal_outcome":
                self._late_call(seat, obs)
            elif phase == "swap_or_reveal":
                self.oks.add(seat)
                if len(self.oks) == g.players:
                    self._step(AbandonRound(), obs)
            else:
                self._window(seat, role, obs)
        except IllegalAction as exc:
            self.a.refuse_entry(obs, exc.en, exc.fr)

    def _window(self, seat: int, role: str, obs: Observation) -> None:
        g = self.a.g
        if role == "call":
            call = CallDoublon(seat) if g.phase == "doublon_window" else CallMenteur(seat)
            before = g.copy()
            self._step(call, obs)
            self.last_call = {"t": obs.t, "seat": seat, "before": before, "call": type(call).__name__}
            return
        self.oks.add(seat)
        if self.oks >= {s for s in range(g.players) if s != g.active}:
            self._step(Pass(), obs)

    def _late_call(self, seat: int, obs: Observation) -> None:
        """A second call: the earlier edge wins (the lift or show is still awaited)."""
        last = self.last_call
        first, second = (seat, last["seat"]) if obs.t < last["t"] else (last["seat"], seat)
        en = f"{self.a._who(first, 'en')} called first; {self.a._who(second, 'en')}'s call is not heard."
        fr = f"{self.a._who(first, 'fr')} a appelé en premier ; l'appel de {self.a._who(second, 'fr')} ne compte pas."
        if obs.t < last["t"]:
            cls = CallDoublon if last["call"] == "CallDoublon" else CallMenteur
            self.a.g = last["before"].copy()
            self.a.entries.pop()
            self._step(cls(seat), obs)
            self.last_call = {**last, "t": obs.t, "seat": seat}
        self.a.say(obs.t, en, fr, seq=obs.seq)

    def _step(self, action: Any, obs: Observation) -> None:
        self.a.apply_step(action, obs)

    def after_step(self) -> None:
        """A step was applied (from any source): reset what belonged to the window before."""
        g = self.a.g
        if g is None:
            return
        if g.phase not in ("doublon_window", "menteur_window", "swap_or_reveal"):
            self.oks = set()
        if g.phase != "announce":
            self.colour_presses = 0
        if g.phase != "reveal_outcome":
            self.last_call = None

    def pending(self) -> dict[str, Any]:
        """What the page can show of presses not yet turned into a step."""
        return {"oks": sorted(self.oks), "colour_presses": self.colour_presses}


def colour_of_presses(n: int) -> str:
    """``1`` → blue, ``2`` → green, ``3`` → orange.

        >>> colour_of_presses(2)
        'green'
    """
    return PRESS_COLOURS[n - 1]


__all__ = ["BUTTON", "TAP", "PRESS_COLOURS", "PressReader", "ROLES", "colour_of_presses"]
