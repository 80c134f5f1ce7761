"""Passe-Murailles: the beams under the frame checked against the engine's landings.

Mixed into :class:`~table.passe_murailles.adapter.PasseMuraillesAdapter`. After each
move the engine says which pegs land where; a beam over that column within the window
(game option ``beam_window_ms``, default 500) confirms it. Anything else raises an
alert with what was expected and what was seen, and the points in question are shown
as ``pending`` (left out of ``scores``) until a person chooses:

* ``physics`` — the engine was right (a dirty beam missed the peg, or flickered);
* ``sensors`` — the beams were right: the peg did not land (out of play on the table,
  no points), landed over the beam's column, or (a beam with no landing) the lowest
  peg over that column fell;
* ``entered`` — what happened, in ``details``: ``{"column": c}`` (0-based; ``None``:
  it did not reach the board) and, for a beam nobody expected, ``{"peg": "red-3"}``
  (``None``: nothing fell).

A beam over a column whose predicted peg was reported missing is shown on that alert as
a late fall (a jammed peg, most likely; a person confirms it, since a dirty beam can
flicker too) instead of raising an alert of its own. Side beams are
counted for the health panel only: a peg pushed off scores nothing either way.

    >>> from table.passe_murailles.adapter import PasseMuraillesAdapter
    >>> pm = PasseMuraillesAdapter(Observation("game_start", t=10.0, source="test", data={"game": "passe-murailles"}))
    >>> pm.observe(Observation("beam", t=12.3, source="gpio", data={"column": 4}))
    >>> pm.next_deadline()      # when a ``tick`` must come if nothing else does
    12.8
    >>> pm.observe(Observation("tick", t=12.9, source="timer"))     # no landing explains the beam
    >>> [(a.kind, a.message["en"]) for a in pm.open_alerts()]
    [('unexpected_beam', 'The beam over column 5 saw a peg fall, but no peg should have fallen there.')]
    >>> pm.beams["unexpected"], pm.next_deadline()
    (1, None)
"""

from __future__ import annotations

from typing import Any

from table.adapter import Alert, text
from table.observations import Observation
from table.passe_murailles import Landing, PhysicsError
from table.passe_murailles.landing import Expected, LandingMatcher, Match, Seen

FUSION_KINDS = ("missing_landing", "unexpected_beam", "wrong_column")
SUSPECT_AFTER = 3  # disagreements on one column before the health panel points at it
NAMES = {"red": text("red", "rouge"), "blue": text("blue", "bleu")}

PHYSICS = "physics"
SENSORS = "sensors"
ENTERED = "entered"


def _fr(peg: str) -> str:
    """A peg id said in French: ``red-3`` → ``rouge 3``."""
    colour, _, number = peg.partition("-")
    return f"{NAMES.get(colour, {'fr': colour})['fr']} {number}"


def _choice(cid: str, en: str, fr: str, fields: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """One way to settle an alert; ``fields`` are the details the page asks for with it
    (each ``{"name", "label", "options": [{"value", "label"}]}``, sent back as
    ``details``)."""
    choice: dict[str, Any] = {"id": cid, "label": text(en, fr)}
    if fields:
        choice["fields"] = fields
    return choice


def _field(name: str, en: str, fr: str, options: list[tuple[Any, dict[str, str]]]) -> dict[str, Any]:
    return {"name": name, "label": text(en, fr), "options": [{"value": v, "label": lab} for v, lab in options]}


class BeamFusion:
    """The beam-checking half of the Passe-Murailles adapter (see the module)."""

    def _fusion_init(self) -> None:
        window_ms = self.options.get("beam_window_ms", 500)
        self.matcher = LandingMatcher(float(window_ms) / 1000)
        self.beams = {"confirmed": 0, "missing": 0, "unexpected": 0, "wrong_column": 0, "late": 0}
        self.spills = {"expected": 0, "seen": 0}
        self.disagreements: dict[int, int] = {}
        self.disputes: dict[str, Match] = {}  # alert id -> what it is about
        self.late_candidates: list[tuple[Expected, str]] = []  # missing landings a late beam may confirm

    # ------------------------------------------------------------------ input
    def next_deadline(self) -> float | None:
        return self.matcher.next_deadline()

    def _fusion_expire(self, obs: Observation) -> None:
        """Every observation moves time on: windows closed before ``obs.t`` are judged."""
        for match in self.matcher.expire(obs.t):
            self._mismatch(obs, match)

    def _expect_landings(self, obs: Observation, landings: list[Landing], pushed_off: int) -> None:
        board = self.g.frame.board_position
        self.spills["expected"] += pushed_off
        for landing in landings:
            match = self.matcher.expect(Expected(landing.peg, landing.colour, landing.column, landing.points,
                                                 landing.scored, obs.t, board))
            if match is not None:
                self.beams["confirmed"] += 1

    def _beam(self, obs: Observation) -> None:
        seen = Seen(int(obs.data["column"]), obs.t, obs.seq, self.g.frame.board_position)
        late = next(((e, a) for e, a in self.late_candidates if e.column == seen.column), None)
        if late is not None and not self.matcher.waiting(seen.column, seen.t):
            self._confirm_late(obs, *late)
            return
        if self.matcher.see(seen) is not None:
            self.beams["confirmed"] += 1

    def _spill(self, obs: Observation) -> None:
        self.spills["seen"] += 1

    def _confirm_late(self, obs: Observation, expected: Expected, alert_id: str) -> None:
        """A beam over a column whose peg was reported missing: most likely the jammed
        peg falling at last, but a dirty beam can flicker too, so a person still says
        so (one press of *confirm*); the alert now shows what was seen."""
        self.late_candidates.remove((expected, alert_id))
        self.beams["late"] += 1
        late = obs.t - expected.t
        alert = self.find_alert(alert_id)
        if alert is None:  # already accepted as landed: this is the peg
            self.say(obs.t, f"Peg {expected.peg} fell over column {expected.column + 1} {late:.1f} s late.",
                     f"Le pion {_fr(expected.peg)} est tombé dans la colonne {expected.column + 1} avec {late:.1f} s "
                     "de retard.", seq=obs.seq)
            return
        alert.seen = {"column": expected.column, "t": obs.t, "late_by": round(late, 3)}
        alert.message = text(
            f"{alert.message['en']} Its beam broke {late:.1f} s late: a jammed peg? Confirm that it landed.",
            f"{alert.message['fr']} Son faisceau a été coupé avec {late:.1f} s de retard : un pion coincé ? "
            "Confirmez qu'il est tombé.")
        self.say(obs.t, f"The beam over column {expected.column + 1} broke {late:.1f} s late.",
                 f"Le faisceau de la colonne {expected.column + 1} a été coupé avec {late:.1f} s de retard.",
                 seq=obs.seq)

    # ------------------------------------------------------------------ alerts
    def _mismatch(self, obs: Observation, match: Match) -> None:
        e, s = match.expected, match.seen
        for column in {x.column for x in (e, s) if x is not None}:
            self.disagreements[column] = self.disagreements.get(column, 0) + 1
        if match.kind == "missing":
            self.beams["missing"] += 1
            gain = self._gain(e)
            alert = self._fusion_alert(obs, "missing_landing", match, text(
                f"Peg {e.peg} should have landed over column {e.column + 1}{gain['en']}, but its beam saw nothing. "
                "Did it land?",
                f"Le pion {_fr(e.peg)} aurait dû tomber dans la colonne {e.column + 1}{gain['fr']}, mais son faisceau "
                "n'a rien vu. Est-il tombé ?"), [
                _choice(PHYSICS, "It landed: keep the points", "Il est tombé : garder les points"),
                _choice(SENSORS, "It did not land: no points", "Il n'est pas tombé : pas de points"),
                _choice(ENTERED, "Say where it went", "Indiquer où il est allé", [self._column_field()])])
            self.late_candidates.append((e, alert.id))
        elif match.kind == "unexpected":
            self.beams["unexpected"] += 1
            peg = self._peg_over(s.column)
            choices = [_choice(PHYSICS, "Nothing fell: ignore the beam", "Rien n'est tombé : ignorer le faisceau")]
            if peg is not None:
                pts = self.g.profile.points(s.board, s.column)
                choices.append(_choice(SENSORS, f"Peg {peg} fell: +{pts}", f"Le pion {_fr(peg)} est tombé : +{pts}"))
            pegs = [(p.id, text(f"peg {p.id} (slide {p.slide})", f"pion {_fr(p.id)} (coulisse {p.slide})"))
                    for p in self.g.pegs() if p.where == "frame"]
            choices.append(_choice(ENTERED, "Say which peg fell", "Indiquer quel pion est tombé", [_field(
                "peg", "Peg", "Pion", [(None, text("nothing fell", "rien n'est tombé")), *pegs])]))
            self._fusion_alert(obs, "unexpected_beam", match, text(
                f"The beam over column {s.column + 1} saw a peg fall, but no peg should have fallen there.",
                f"Le faisceau de la colonne {s.column + 1} a vu tomber un pion, mais aucun pion ne devait "
                "tomber là."), choices, candidate=peg)
        else:
            self.beams["wrong_column"] += 1
            other = self.g.profile.points(e.board, s.column)
            self._fusion_alert(obs, "wrong_column", match, text(
                f"Peg {e.peg} should have landed over column {e.column + 1}{self._gain(e)['en']}, but the beam over "
                f"column {s.column + 1} broke instead.",
                f"Le pion {_fr(e.peg)} aurait dû tomber dans la colonne {e.column + 1}{self._gain(e)['fr']}, "
                "mais c'est "
                f"le faisceau de la colonne {s.column + 1} qui a été coupé."), [
                _choice(PHYSICS, f"Column {e.column + 1}, as the frame says", f"Colonne {e.column + 1}, comme le "
                        "prévoit le cadre"),
                _choice(SENSORS, f"Column {s.column + 1}, as the beam says (+{other})",
                        f"Colonne {s.column + 1}, comme le dit le faisceau (+{other})"),
                _choice(ENTERED, "Say where it went", "Indiquer où il est allé", [self._column_field()])])

    def _column_field(self) -> dict[str, Any]:
        columns = [(c, text(f"column {c + 1}", f"colonne {c + 1}")) for c in range(self.g.profile.columns)]
        return _field("column", "Landed over", "Tombé dans la",
                      [*columns, (None, text("did not reach the board", "n'a pas atteint le plateau"))])

    def _fusion_alert(self, obs: Observation, kind: str, match: Match, message: dict[str, str],
                      choices: list[dict[str, Any]], candidate: str | None = None) -> Alert:
        expected = match.expected.to_dict() if match.expected else None
        seen = match.seen.to_dict() if match.seen else None
        if seen is not None and candidate is not None:
            seen["candidate"] = candidate
        alert = self.raise_alert(Alert(id=self.new_alert_id(obs), kind=kind, message=message,
                                       since=obs.t, expected=expected, seen=seen, choices=choices))
        self.disputes[alert.id] = match
        return alert

    def _gain(self, e: Expected) -> dict[str, str]:
        if not e.scored:
            return text(" (no points: it fell on its own drop)", " (sans points : tombé en étant posé)")
        return text(f" (+{e.points} for {NAMES[e.colour]['en']})", f" (+{e.points} pour {NAMES[e.colour]['fr']})")

    def _peg_over(self, column: int) -> str | None:
        """The lowest peg in the frame over ``column``: the one that falls first."""
        pegs = [p for p in self.g.pegs() if p.where == "frame" and p.column == column]
        return max(pegs, key=lambda p: p.slide).id if pegs else None

    # ------------------------------------------------------------------ resolving
    def _fusion_settle(self, obs: Observation, alert: Alert) -> bool:
        """Carry out a person's choice; False (and a feed line) if it cannot be done."""
        match = self.disputes[alert.id]
        choice = str(obs.data.get("choice"))
        e, s = match.expected, match.seen
        try:
            if choice == PHYSICS:
                return True
            if choice == SENSORS:
                if alert.kind == "missing_landing":
                    self._correct(obs, e.peg, None)
                elif alert.kind == "wrong_column":
                    self._correct(obs, e.peg, s.column, self.g.profile.points(e.board, s.column))
                else:
                    peg = (alert.seen or {}).get("candidate")
                    if peg is None:
                        raise PhysicsError("no peg stood over that column")
                    self._correct(obs, peg, s.column, self.g.profile.points(s.board, s.column))
            elif choice == ENTERED:
                self._entered(obs, alert, match)
            else:
                raise PhysicsError(f"unknown choice {choice!r}")
        except (PhysicsError, KeyError, TypeError, ValueError) as exc:
            self.say(obs.t, f"That resolution cannot be applied ({exc}); the alert stays open.",
                     f"Cette résolution ne peut pas être appliquée ({exc}) ; l'alerte reste ouverte.",
                     kind="alert", seq=obs.seq)
            return False
        if alert.kind == "missing_landing":
            self.late_candidates = [(x, a) for x, a in self.late_candidates if a != alert.id]
        return True

    def _entered(self, obs: Observation, alert: Alert, match: Match) -> None:
        column = obs.data.get("column", "missing")
        if alert.kind == "unexpected_beam":
            peg = obs.data.get("peg")
            if peg is None:
                return  # nothing fell
            column = match.seen.column if column == "missing" else column
            board = match.seen.board
        else:
            peg, board = match.expected.peg, match.expected.board
        if column == "missing":
            raise ValueError("say the column the peg landed over (column: null if it did not reach the board)")
        if column is not None and not isinstance(column, int):
            raise ValueError(f"column must be a number, not {column!r}")
        points = None
        if column is not None:
            if not 0 <= column < self.g.profile.columns:
                raise ValueError(f"column {column} is outside the frame (0..{self.g.profile.columns - 1})")
            points = self.g.profile.points(board, column)
        self._correct(obs, str(peg), column, points)

    def _correct(self, obs: Observation, peg: str, column: int | None, points: int | None = None) -> None:
        follow = self.g.correct(peg, column, points)
        if column is None:
            self.say(obs.t, f"Corrected: peg {peg} did not reach the board (no points).",
                     f"Corrigé : le pion {_fr(peg)} n'a pas atteint le plateau (pas de points).", seq=obs.seq)
        else:
            self.say(obs.t, f"Corrected: peg {peg} landed over column {column + 1} (+{points}).",
                     f"Corrigé : le pion {_fr(peg)} est tombé dans la colonne {column + 1} (+{points}).", seq=obs.seq)
        for landing in follow:
            self.say(obs.t, f"Peg {landing.peg} fell with it over column {landing.column + 1} (+{landing.points}).",
                     f"Le pion {_fr(landing.peg)} est tombé avec lui dans la colonne {landing.column + 1} "
                     f"(+{landing.points}).", seq=obs.seq)

    # ------------------------------------------------------------------ output
    def pending_points(self) -> dict[str, int]:
        """Points the score holds back: landings the beams dispute, per colour."""
        pending = {"red": 0, "blue": 0}
        for alert in self.open_alerts():
            match = self.disputes.get(alert.id)
            if match is not None and match.expected is not None and match.expected.scored:
                pending[match.expected.colour] += match.expected.points
        return pending

    def fusion_health(self) -> dict[str, Any]:
        waiting = len(self.matcher.expected) + len(self.matcher.seen)
        suspects = []
        for column, n in sorted(self.disagreements.items()):
            if n >= SUSPECT_AFTER:
                suspects.append(text(
                    f"Column {column + 1}: {n} disagreements between its beam and the frame's physics — "
                    "clean or realign the beam, or check the frame profile.",
                    f"Colonne {column + 1} : {n} désaccords entre son faisceau et la physique du cadre — "
                    "nettoyez ou réalignez le faisceau, ou vérifiez le profil du cadre."))
        return {"beams": dict(self.beams, waiting=waiting,
                              disagreements={str(c + 1): n for c, n in sorted(self.disagreements.items())}),
                "side_beams": dict(self.spills), "beam_warnings": suspects}


def is_fusion_alert(alert: Alert) -> bool:
    return alert.kind in FUSION_KINDS

