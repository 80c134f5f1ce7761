"""Passe-Murailles: sensor facts → rule-checked moves, by whose turn it is.

The frame's sensors say where things *are* ("slide 3 is at +1", "board at 3", "a peg went
into top hole 4", "a beam under column 2 broke"). This adapter compares that with the
engine's position and turns each difference into the one move that explains it, played
by the player whose turn it is. A difference no legal move explains is not applied: an
alert tells the players what to put back, and the adapter waits until the sensors show
it put back.

The beams under the frame are checked against the landings the engine predicts (see
:mod:`table.passe_murailles.fusion`): disagreements raise alerts, and the disputed points
wait as ``pending`` in :meth:`view` until a person settles them. A peg dropped into the
top slide is played by whoever's turn it is; a ``colour`` in the ``peg_drop`` (the
camera's) that is not that player's raises an alert instead.

    >>> start = Observation.now("game_start", source="test", game="passe-murailles")
    >>> pm = PasseMuraillesAdapter(start)
    >>> pm.observe(Observation.now("slide", source="test", slide=2, offset=1))
"""

from __future__ import annotations

from typing import Any

from table import observations as K
from table.adapter import Alert, GameAdapter, text
from table.observations import Observation
from table.passe_murailles import DropPeg, IllegalAction, MoveBoard, MoveSlide, new_game
from table.passe_murailles.fusion import DROP_KINDS, BeamFusion, DropWitness, is_fusion_alert
from table.passe_murailles.seat import BOT_MOVE, BotSayings
from table.timers import TICK

PEG_SEEN = K.PEG_SEEN  # the camera's colour in a top hole (vision/pipeline.py): {column, colour}
# Observations stamped by the table's own clock: they move the beam windows on (a
# person's entry, stamped by a browser's request, does not).
SENSOR_TIME = frozenset({K.SLIDE, K.BOARD, K.PEG_DROP, K.BEAM, K.SIDE_SPILL, PEG_SEEN, TICK})
COLOUR = {"red": text("Red", "Rouge"), "blue": text("Blue", "Bleu")}


def _colour(c: str, lang: str) -> str:
    return COLOUR[c][lang]


class PasseMuraillesAdapter(BotSayings, DropWitness, BeamFusion, GameAdapter):
    game = "passe-murailles"
    # a person may take back a resolution (the alert opens again)
    undoable_kinds = frozenset({K.RESOLVE})

    def __init__(self, start: Observation):
        super().__init__(start)
        self.g = new_game(profile=self.options.get("profile"), first=self.options.get("first", "red"))
        # Parts the players must put back before play goes on: ("slide", n) or ("board", 0)
        # → the position the rules expect there.
        self.put_back: dict[tuple[str, int], int] = {}
        self._fusion_init()
        self._drops_init()
        self._bot_init()
        first = self.g.current_player
        self.say(start.t, f"New game of Passe-Murailles: {_colour(first, 'en')} plays first.",
                 f"Nouvelle partie de Passe-Murailles : {_colour(first, 'fr')} commence.")
        self._setup_check(start)

    # ------------------------------------------------------------------ input
    def observe(self, obs: Observation) -> None:
        if obs.kind in SENSOR_TIME:
            self._fusion_expire(obs)
            self._drops_expire(obs)
        moves = len(self.g.history)
        if obs.kind == K.SLIDE:
            self._part_seen(obs, ("slide", int(obs.data["slide"])), int(obs.data["offset"]))
        elif obs.kind == K.BOARD:
            self._part_seen(obs, ("board", 0), int(obs.data["position"]))
        elif obs.kind == K.PEG_DROP:
            self._drop_reported(obs)
        elif obs.kind == PEG_SEEN:
            self._peg_seen(obs)
        elif obs.kind == K.BEAM:
            self._beam(obs)
        elif obs.kind == K.SIDE_SPILL:
            self._spill(obs)
        elif obs.kind == K.RESOLVE:
            self._resolve(obs)
        elif obs.kind == BOT_MOVE:
            self._bot_said(obs)
        # TICK: only moves time on (done above)
        if obs.kind in (K.SLIDE, K.BOARD, K.PEG_DROP):
            self._note_move(obs, moves)

    def next_deadline(self) -> float | None:
        times = [t for t in (self.matcher.next_deadline(), self._drops_deadline()) if t is not None]
        return min(times) if times else None

    def _engine_position(self, part: tuple[str, int]) -> int:
        frame = self.g.frame
        return frame.board_position if part[0] == "board" else frame.offset(part[1])

    def _part_seen(self, obs: Observation, part: tuple[str, int], seen: int) -> None:
        expected = self._engine_position(part)
        if part in self.put_back:
            if seen == self.put_back[part]:
                del self.put_back[part]
                self._close_put_back_alerts(obs)
            else:
                self._refresh_put_back()
            return
        if seen == expected:
            return  # a resync or a repeated report: nothing moved
        if self.put_back or self.g.is_over():
            why = (text("the game is over", "la partie est terminée") if self.g.is_over()
                   else text("something else must be put back first", "il faut d'abord remettre autre chose en place"))
            self._demand_put_back(obs, part, expected, why)
            return
        step = seen - expected
        if abs(step) != 1:
            self._demand_put_back(obs, part, expected, text(
                f"it moved {abs(step)} notches at once; a move is one notch",
                f"elle a bougé de {abs(step)} crans d'un coup ; un coup, c'est un cran"))
            return
        action = MoveBoard(step=step) if part[0] == "board" else MoveSlide(slide=part[1], step=step)
        try:
            outcome = self.g.apply(action)
        except IllegalAction as exc:
            self._demand_put_back(obs, part, expected, text(exc.en, exc.fr))
            self._offer_missed_earlier(action)
            return
        self._report(obs, outcome)

    def _play_drop(self, obs: Observation, column: int, colour: str | None, beam_seen: int | None = None) -> str | None:
        """Play a drop into ``column`` for the player to move; the player, or None (and
        an alert) when the rules refuse it. ``colour``: the peg's, when known."""
        try:
            if colour is not None and colour != self.g.current_player and not self.g.is_over():
                raise IllegalAction(f"the peg is {colour} but it is {self.g.current_player}'s turn",
                                    f"le pion est {_colour(colour, 'fr').lower()} mais c'est au tour de "
                                    f"{_colour(self.g.current_player, 'fr').lower()}")
            if self.put_back:
                raise IllegalAction("the frame is not in a legal position yet",
                                    "le cadre n'est pas encore dans une position légale")
            outcome = self.g.apply(DropPeg(column=column))
        except IllegalAction as exc:
            self._alert(obs, "bad_drop", text(
                f"A peg went into top hole {column + 1}, but it cannot be played: {exc.en}. "
                "Take it out, or accept it if the board is right.",
                f"Un pion est entré dans le trou {column + 1} du haut, mais il ne peut pas être joué : {exc.fr}. "
                "Retirez-le, ou acceptez-le si le jeu est correct."),
                expected=None, seen={"column": column},
                choices=[{"id": "removed", "label": text("The peg was taken out", "Le pion a été retiré")}])
            return None
        self._report(obs, outcome, beam_seen=beam_seen)
        return outcome.player

    def _resolve(self, obs: Observation) -> None:
        alert = self.find_alert(str(obs.data.get("alert")))
        if alert is None:
            return
        if is_fusion_alert(alert) and not self._fusion_settle(obs, alert):
            return
        if alert.kind in DROP_KINDS and not self._drop_settle(obs, alert):
            return
        if alert.kind == "put_back" and not self._put_back_settle(obs, alert):
            return
        alert.resolved = str(obs.data.get("choice"))
        self.say(obs.t, "Alert resolved.", "Alerte résolue.", seq=obs.seq)

    # ------------------------------------------------------------------ alerts
    def _setup_check(self, start: Observation) -> None:
        """At a new game every part must stand at its start position."""
        sensed = start.data.get("sensed") or {}
        for slide, offset in (sensed.get("slides") or {}).items():
            part = ("slide", int(slide))
            if offset is not None and int(offset) != self._engine_position(part):
                self.put_back[part] = self._engine_position(part)
        board = sensed.get("board")
        if board is not None and int(board) != self._engine_position(("board", 0)):
            self.put_back[("board", 0)] = self._engine_position(("board", 0))
        if self.put_back:
            self._alert(start, "setup", self._put_back_text(
                text("set up the frame for a new game", "installez le cadre pour une nouvelle partie")),
                expected=self._put_back_list(), seen=sensed)

    def _demand_put_back(self, obs: Observation, part: tuple[str, int], expected: int, why: dict[str, str]) -> None:
        self.put_back[part] = expected
        self._close_put_back_alerts(obs, quiet=True)
        self._alert(obs, "put_back", self._put_back_text(why), expected=self._put_back_list(), seen=obs.data)

    def _refresh_put_back(self) -> None:
        for alert in self.open_alerts():
            if alert.kind in ("put_back", "setup"):
                alert.expected = self._put_back_list()

    def _close_put_back_alerts(self, obs: Observation, quiet: bool = False) -> None:
        if self.put_back and not quiet:
            self._refresh_put_back()
            return
        for alert in self.open_alerts():
            if alert.kind in ("put_back", "setup"):
                alert.resolved = "put_back"
        if not quiet:
            self.say(obs.t, f"The frame is back in place. {self._turn_text('en')}",
                     f"Le cadre est remis en place. {self._turn_text('fr')}", seq=obs.seq)

    def _put_back_list(self) -> list[dict[str, Any]]:
        return [{"part": p, "number": n, "position": pos} for (p, n), pos in sorted(self.put_back.items())]

    def _put_back_text(self, why: dict[str, str]) -> dict[str, str]:
        parts_en, parts_fr = [], []
        for (part, n), pos in sorted(self.put_back.items()):
            if part == "board":
                parts_en.append(f"the board to position {pos}")
                parts_fr.append(f"le plateau en position {pos}")
            else:
                parts_en.append(f"slide {n} to notch {pos:+d}")
                parts_fr.append(f"la coulisse {n} au cran {pos:+d}")
        return text(f"Not allowed: {why['en']}. Put back {', '.join(parts_en)}.",
                    f"Interdit : {why['fr']}. Remettez {', '.join(parts_fr)}.")

    def _alert(self, obs: Observation, kind: str, message: dict[str, str], *, expected: Any, seen: Any,
               choices: list[dict[str, Any]] | None = None) -> None:
        self.raise_alert(Alert(id=self.new_alert_id(obs), kind=kind, message=message, since=obs.t,
                               expected=expected, seen=seen, choices=choices or []))

    # ------------------------------------------------------------------ feed
    def _report(self, obs: Observation, outcome: Any, beam_seen: int | None = None) -> None:
        self._bot_check(obs, outcome)
        who = outcome.player
        action = outcome.action
        if isinstance(action, DropPeg):
            en = f"{_colour(who, 'en')} dropped a peg into column {action.column + 1}"
            fr = f"{_colour(who, 'fr')} a posé un pion dans la colonne {action.column + 1}"
        elif isinstance(action, MoveSlide):
            side_en, side_fr = ("right", "droite") if action.step > 0 else ("left", "gauche")
            en = f"{_colour(who, 'en')} moved slide {action.slide} {side_en}"
            fr = f"{_colour(who, 'fr')} a déplacé la coulisse {action.slide} vers la {side_fr}"
        else:
            en = f"{_colour(who, 'en')} moved the board to position {self.g.frame.board_position}"
            fr = f"{_colour(who, 'fr')} a déplacé le plateau en position {self.g.frame.board_position}"
        extra_en, extra_fr = self._consequences(outcome)
        self.say(obs.t, en + extra_en + ".", fr + extra_fr + ".", kind="move", seq=obs.seq)
        self._expect_landings(obs, outcome.landings, len(outcome.pushed_off), beam_seen)
        for skipped in outcome.skipped:
            self.say(obs.t, f"{_colour(skipped, 'en')} loses this turn.", f"{_colour(skipped, 'fr')} passe son tour.",
                     seq=obs.seq)
        if self.g.is_over():
            self._announce_end(obs)

    def _consequences(self, outcome: Any) -> tuple[str, str]:
        en: list[str] = []
        fr: list[str] = []
        if outcome.pushed_off:
            n = len(outcome.pushed_off)
            en.append(f"{n} peg{'s' * (n > 1)} pushed off onto the table")
            fr.append(f"{n} pion{'s' * (n > 1)} poussé{'s' * (n > 1)} hors du cadre")
        for colour in ("red", "blue"):
            fallen = [l for l in outcome.landings if l.colour == colour]
            if not fallen:
                continue
            n = len(fallen)
            points = sum(l.points for l in fallen if l.scored)
            en.append(f"{n} {colour} peg{'s' * (n > 1)} fell, +{points} for {colour}")
            fr.append(f"{n} pion{'s' * (n > 1)} {_colour(colour, 'fr').lower()}{'s' * (n > 1)} "
                      f"tombé{'s' * (n > 1)}, +{points} pour {_colour(colour, 'fr').lower()}")
        if outcome.lost_turn:
            en.append(f"the peg fell through: {_colour(outcome.lost_turn, 'en')} loses the next turn")
            fr.append(f"le pion est tombé : {_colour(outcome.lost_turn, 'fr').lower()} perd son prochain tour")
        return (": " + "; ".join(en) if en else ""), (" : " + " ; ".join(fr) if fr else "")

    def _announce_end(self, obs: Observation) -> None:
        s = self.g.scores()
        winners = self.g.winners()
        if len(winners) == 2:
            self.say(obs.t, f"Game over: a draw, {s['red']}–{s['blue']}.",
                     f"Partie terminée : égalité, {s['red']}–{s['blue']}.", kind="end", seq=obs.seq)
        else:
            w = winners[0]
            self.say(obs.t, f"Game over: {_colour(w, 'en')} wins, {s['red']}–{s['blue']}.",
                     f"Partie terminée : {_colour(w, 'fr')} gagne, {s['red']}–{s['blue']}.", kind="end", seq=obs.seq)

    def _turn_text(self, lang: str) -> str:
        p = self.g.current_player
        if p is None:
            return ""
        return f"{_colour(p, lang)} to play." if lang == "en" else f"À {_colour(p, lang).lower()} de jouer."

    # ------------------------------------------------------------------ output
    def summary(self, view: dict[str, Any] | None = None) -> dict[str, Any]:
        colours = list(COLOUR)  # the players are the two colours, red first
        g = self.g
        return {"players": [{"name": COLOUR[c], "score": g.scores()[c], "team": None} for c in colours],
                "turn": None if g.is_over() else colours.index(g.current_player), "over": g.is_over(),
                "winners": [colours.index(c) for c in g.winners()]}

    def view(self) -> dict[str, Any]:
        g = self.g
        frame = g.frame
        profile = g.profile
        return {
            "columns": profile.columns,
            "slides": [
                {"number": n, "offset": frame.offset(n), "range": [profile.slide(n).low, profile.slide(n).high],
                 "holes": frame.hole_columns(n)}
                for n in range(1, 7)
            ],
            "board": {"position": frame.board_position,
                      "sections": {str(p): list(row) for p, row in profile.board_scores.items()}},
            "pegs": [p.to_dict() for p in g.pegs()],
            "scores": self._shown_scores(),
            "pending": self.pending_points(),
            "in_hand": g.in_hand(),
            "current_player": g.current_player,
            "over": g.is_over(),
            "winners": g.winners(),
            "open_columns": frame.open_columns(),
            "put_back": self._put_back_list(),
            "moves": len(g.history),
            "bot": self.bot_view(),
            "bot_seat": ({"player": self.options["bot"], "level": self.options.get("bot_level", 3)}
                         if self.options.get("bot") in ("red", "blue") else None),
            "hints": bool(self.options.get("hints")),
        }

    def _shown_scores(self) -> dict[str, int]:
        """The engine's scores less the points the beams dispute (shown as pending)."""
        pending = self.pending_points()
        return {c: s - pending[c] for c, s in self.g.scores().items()}

    def health(self) -> dict[str, Any]:
        return {**self.fusion_health(), **self.drops_health()}
