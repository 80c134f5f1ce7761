"""PtiPassPass from the camera: cups touched, lifted, put back and tokens held up → steps.

The camera (``vision/cups.py``) sees the cup grid from above. What a fact means follows
from the moment of the turn, never from the camera alone:

* ``cup_touched`` then ``cup_released`` while the active player is to name a cup: once no
  hand is on any cup, the one cup touched is the named one; an arm that lay over several
  cups asks which with one tap (never a guess);
* ``cup_lifted`` of the cup a Doublon! is about, or of one of the three cups of a reveal:
  what it holds is the lift's outcome. The engine checks it against what it knows (how
  many tokens went in, which colours are certain); a contradiction is an alert saying
  what it expected, and the step waits for the cup to be shown again or typed;
* an empty-handed active player lifting three cups in a line is the reveal (once the
  third is up); two neighbouring cells left bare at once and covered again, their cups
  slid away with their tokens, is the swap;
* ``token_held`` over a cup on "Menteur !": the token the accused shows.

A cup lifted at any other moment is an alert (put it back); hands and cups moved while
gathering after a round change nothing.

    >>> from table.ptipasspass.adapter import PtiPassPassAdapter
    >>> start = Observation.now("game_start", source="t", game="ptipasspass", options={"players": 3})
    >>> ppp = PtiPassPassAdapter(start)
    >>> ppp.observe(Observation.now(TOUCHED, source="camera", cell=[1, 2]))
    >>> ppp.observe(Observation.now(RELEASED, source="camera", cell=[1, 2]))
    >>> ppp.view()["phase"], ppp.view()["turn"]["cup"]
    ('doublon_window', [1, 2])
    >>> ppp.observe(Observation.now(LIFTED, source="camera", cell=[0, 0], colours=[]))
    >>> [a.kind for a in ppp.open_alerts()]
    ['camera_unexpected_lift']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from table.adapter import Alert, text
from table.observations import Observation
from table.ptipasspass.actions import CupShown, Place, Reveal, Swap, TokenShown
from table.ptipasspass.tokens import COLOUR_FR
from table.rules import IllegalAction

if TYPE_CHECKING:  # the adapter imports this module
    from table.ptipasspass.adapter import PtiPassPassAdapter

LIFTED, BACK, TOUCHED, RELEASED, HELD = "cup_lifted", "cup_back", "cup_touched", "cup_released", "token_held"
CAMERA_KINDS = frozenset({LIFTED, BACK, TOUCHED, RELEASED, HELD})
QUESTION = "camera_cup_question"
DONE = [{"id": "done", "label": text("Done", "C'est fait")}]


def _cup(cell) -> str:
    return f"({cell[0] + 1}, {cell[1] + 1})"


def _tokens(colours, lang: str) -> str:
    if not colours:
        return "nothing" if lang == "en" else "rien"
    return ", ".join(colours if lang == "en" else [COLOUR_FR[c] for c in colours])


class CupReader:
    """The camera half of :class:`~table.ptipasspass.adapter.PtiPassPassAdapter`."""

    def __init__(self, adapter: PtiPassPassAdapter):
        self.a = adapter
        self.up: set[tuple[int, int]] = set()              # cells whose cup is up now
        self.opened: dict[tuple[int, int], tuple] = {}     # lifted in this swap-or-reveal, what they showed
        self.touching: set[tuple[int, int]] = set()        # cups a hand is on now
        self.touched: list[tuple[int, int]] = []           # cups touched since the cup was to be named

    def _alert(self, obs: Observation, kind: str, en: str, fr: str, expected: Any = None) -> None:
        self.a.raise_alert(Alert(id=self.a.new_alert_id(obs), kind=kind, since=obs.t, message=text(en, fr),
                                 seen=dict(obs.data), expected=expected, choices=DONE))

    def observe(self, obs: Observation) -> None:
        g = self.a.g
        raw = obs.data.get("cell")
        cell = tuple(raw) if isinstance(raw, list) else None
        if g is None or g.is_over() or cell is None or not g.layout.has_cell(cell):
            return   # not a cup of this game (a mat beside the grid), or nothing to score
        if obs.kind != TOUCHED:
            self.touching.discard(cell)   # the cell is no longer under a hand (released, lifted, a token shown)
        if obs.kind == TOUCHED:
            self.touching.add(cell)
            if g.phase == "name_cup" and cell not in self.touched:
                self.touched.append(cell)
        elif obs.kind == RELEASED:
            if g.phase == "name_cup" and not self.touching and self.touched:
                self._named(obs)
        elif obs.kind == HELD and g.phase == "reveal_outcome" and g.turn.awaiting == "menteur":
            self._step(TokenShown(obs.data.get("colour")), obs, cell)
        elif obs.kind == LIFTED:
            self.up.add(cell)
            self._lifted(cell, tuple(obs.data.get("colours") or ()), obs)
        elif obs.kind == BACK:
            self.up.discard(cell)
            self._back(obs)

    def _named(self, obs: Observation) -> None:
        """Every hand is off the cups: one cup touched names it, several ask which."""
        g, touched, self.touched = self.a.g, self.touched, []
        if len(touched) == 1:
            self._step(Place(g.active, None, touched[0]), obs, touched[0])
            return
        who_en, who_fr = self.a._who(g.active, "en"), self.a._who(g.active, "fr")
        self.a.raise_alert(Alert(
            id=self.a.new_alert_id(obs), kind=QUESTION, since=obs.t, seen=[list(c) for c in touched],
            message=text(f"A hand lay over several cups: which cup did {who_en} name?",
                         f"Une main a couvert plusieurs gobelets : quel gobelet {who_fr} a-t-il désigné ?"),
            expected={"seat": g.active},
            choices=[{"id": f"{c[0]}-{c[1]}", "label": text(f"Cup {_cup(c)}", f"Gobelet {_cup(c)}")}
                     for c in touched]))

    def resolve(self, obs: Observation) -> bool:
        """The answer to "which cup?"; False if the alert is not this module's question."""
        alert = self.a.find_alert(str(obs.data.get("alert")))
        if alert is None or alert.kind != QUESTION:
            return False
        alert.resolved = str(obs.data.get("choice"))
        g = self.a.g
        if g.phase == "name_cup" and g.active == alert.expected["seat"]:
            row, col = (int(x) for x in alert.resolved.split("-"))
            self._step(Place(g.active, None, (row, col)), obs, (row, col))
        return True

    def _step(self, action: Any, obs: Observation, cell) -> None:
        try:
            self.a.apply_step(action, obs)
        except IllegalAction as exc:
            self._contradiction(action, obs, cell, exc)

    def _contradiction(self, action: Any, obs: Observation, cell, exc: IllegalAction) -> None:
        g = self.a.g
        if isinstance(action, CupShown):
            k = g.cup_knowledge[cell]
            self._alert(obs, "camera_contradiction",
                        f"Cup {_cup(cell)} shows {_tokens(action.tokens, 'en')}, but it should hold {k.count} "
                        f"token(s) (certain: {_tokens(k.known, 'en')}). {exc.en} Check the cup and lift it again.",
                        f"Le gobelet {_cup(cell)} montre {_tokens(action.tokens, 'fr')}, mais il devrait contenir "
                        f"{k.count} jeton(s) (sûrs : {_tokens(k.known, 'fr')}). {exc.fr} Vérifiez et soulevez-le "
                        "de nouveau.", expected={"cell": list(cell), "count": k.count, "known": list(k.known)})
        else:
            self._alert(obs, "camera_refused", f"The camera saw a move the rules refuse: {exc.en}",
                        f"La caméra a vu un coup que les règles refusent : {exc.fr}")

    # ------------------------------------------------------------------ lifts
    def _lifted(self, cell, colours: tuple, obs: Observation) -> None:
        g = self.a.g
        phase, awaiting = g.phase, g.turn.awaiting
        if phase == "reveal_outcome" and awaiting in ("doublon", "reveal"):
            if cell in g.turn.pending:
                self._step(CupShown(cell, colours), obs, cell)
            elif awaiting == "doublon":
                want = g.turn.cup
                self._alert(obs, "camera_wrong_cup",
                            f"Cup {_cup(cell)} was lifted, but the Doublon! is about cup {_cup(want)}: put it "
                            "back and lift that one.",
                            f"Le gobelet {_cup(cell)} a été soulevé, mais le « Doublon ! » porte sur le gobelet "
                            f"{_cup(want)} : reposez-le et soulevez celui-là.", expected={"cell": list(want)})
            return
        if phase == "swap_or_reveal":
            self.opened[cell] = colours
            line = next((ln for ln in g.layout.lines if all(c in self.opened for c in ln)), None)
            if line is not None:   # three cups in a line are up: the reveal
                shown, self.opened = dict(self.opened), {}
                self._step(Reveal(g.active, line), obs, cell)
                for c in line:
                    if self.a.g.phase == "reveal_outcome" and c in self.a.g.turn.pending:
                        self._step(CupShown(c, shown[c]), obs, c)
            return
        if phase not in ("round_over", "over"):
            self._alert(obs, "camera_unexpected_lift",
                        f"Cup {_cup(cell)} was lifted: a cup is lifted only on Doublon! or for a reveal. Put it "
                        "back without changing what it holds.",
                        f"Le gobelet {_cup(cell)} a été soulevé : on ne soulève un gobelet que sur « Doublon ! » "
                        "ou pour révéler. Reposez-le sans toucher à son contenu.")

    def _back(self, obs: Observation) -> None:
        """Every cup lifted in this swap-or-reveal is down again: a swap, or an alert."""
        g = self.a.g
        if g.phase != "swap_or_reveal" or not self.opened or any(c in self.up for c in self.opened):
            return
        opened, self.opened = self.opened, {}
        cells = sorted(opened)
        if len(cells) == 2 and g.layout.are_contiguous(*cells) and not any(opened.values()):
            self._step(Swap(g.active, cells[0], cells[1]), obs, cells[0])
            return
        names = ", ".join(_cup(c) for c in cells)
        self._alert(obs, "camera_lift_not_reveal",
                    f"Cups {names} were lifted and put back: a reveal lifts three cups in a line, a swap slides "
                    "two neighbouring cups without lifting them. Nothing was scored.",
                    f"Les gobelets {names} ont été soulevés puis reposés : on révèle en soulevant trois gobelets "
                    "alignés, on intervertit en faisant glisser deux gobelets voisins. Rien n'a été compté.")


__all__ = ["BACK", "CAMERA_KINDS", "CupReader", "HELD", "LIFTED", "QUESTION", "RELEASED", "TOUCHED"]
