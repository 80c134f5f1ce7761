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

import copy
from typing import Any

from table.adapter import Alert, text
from table.observations import Observation
from table.passe_murailles import DropPeg, Landing, PhysicsError
from table.passe_murailles.landing import Expected, LandingMatcher, Match, Seen
from table.passe_murailles.phrases import doing
from table.passe_murailles.rewind import EarlierDrop, earlier_drops, with_drop

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

    def _expect_landings(self, obs: Observation, landings: list[Landing], pushed_off: int,
                         beam_seen: int | None = None) -> None:
        """``beam_seen``: a column whose beam already broke for one of these landings."""
        board = self.g.frame.board_position
        self.spills["expected"] += pushed_off
        for landing in landings:
            if landing.column == beam_seen:
                beam_seen = None
                self.beams["confirmed"] += 1
                continue
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
            missed = self._missed_drop_choice(s.column)
            if missed is not None:
                choices.append(missed)
            if not self.put_back:  # a peg dropped unseen some moves ago, falling now
                choices += self._earlier_choice(earlier_drops(self.g, None, lands_at=s.column, min_back=1))
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
            elif choice == DROPPED and alert.kind == "unexpected_beam":
                self._missed_drop_landed(obs, match.seen)
            elif choice == MISSED_EARLIER and alert.kind == "unexpected_beam":
                found = {d.key: d for d in earlier_drops(self.g, None, lands_at=s.column, min_back=1)}
                if obs.data.get("earlier") not in found:
                    raise PhysicsError("that drop no longer fits the game")
                self._put_in(obs, found[obs.data["earlier"]])  # its landing is the beam already seen
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

    def _missed_drop_landed(self, obs: Observation, seen: Seen) -> None:
        """A person says the beam was a peg dropped into the top hole over its column
        that the sensor missed: the drop is played now, and the beam already seen
        confirms its landing."""
        problem = self._drop_problem(DropPeg(seen.column), None)
        if problem is not None:
            raise PhysicsError(problem[0])
        self.top_holes["missed_by_beam"] += 1
        self._play_drop(obs, seen.column, None, beam_seen=seen.column)

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



# ---------------------------------------------------------------------- top holes
DROP_KINDS = ("extra_drop", "missed_drop", "late_drop", "wrong_colour")
EXTRA_DROP_S = 0.8    # a second drop in a hole this soon after a peg fell through it: a flicker?
CAMERA_WAIT_S = 1.0   # how far apart a sensor's drop and the camera's sighting of it may be
DROPPED = "dropped"         # a peg did go in: play the drop
NO_DROP = "no_drop"         # nothing went in: the sensor (or the camera) was wrong
REMOVED = "removed"         # the peg was taken out again
CAMERA_WRONG = "camera_wrong"  # the camera misread the colour: the drop stands
MISSED_BEFORE = "missed_before"  # the player before had dropped a peg the sensor missed (details: column)
MISSED_EARLIER = "missed_earlier"  # a drop missed a few moves ago (details: earlier = "at:column", .rewind)
MAX_EARLIER_OPTIONS = 12  # places offered for it, the most recent first


class DropWitness:
    """The top-hole half of the Passe-Murailles adapter: the sensor board's drops and the
    camera's ``peg_seen`` checked against each other and against the beams.

    What the adapter can infer, and what it cannot:

    * an **extra** drop: a second drop in a hole less than ``EXTRA_DROP_S`` after a peg
      fell through it (a dirty sensor's flicker counts as a drop in the firmware; no
      player drops twice that fast) is not played: an ``extra_drop`` alert asks;
    * a drop whose frame was lost (``recovered``) is played as any other when no move
      the board reported came between the last frame before the loss and the repair;
      otherwise the order is unknown (it may have come before those moves, by the other
      player): a ``late_drop`` alert asks;
    * a **missed** drop whose peg fell through to the board shows as a beam no landing
      explains: that alert (``unexpected_beam``) offers *a peg was dropped into top hole
      N*, when the player to move dropping there would land over that beam;
    * with a camera, a colour down a top hole (the first peg through aligned holes,
      ``Frame.seen_from_top``) with no drop reported within ``CAMERA_WAIT_S`` is a
      ``missed_drop`` alert, and so is the colour the game has there seen in a higher
      slide than the game has it (``slide``: a peg resting on one of its colour), or a
      drop just played seen stopping higher (on a peg the game does not know of); a drop
      whose peg stays in view is confirmed by the camera,
      and the wrong colour for whose turn it was is a ``wrong_colour`` alert (the drop
      is taken back until a person answers); both also offer the places a few moves
      back where a missed drop explains the colour (:mod:`.rewind`);
    * it **cannot** see a missed drop whose peg stops deeper than the camera reads, or
      any that does not fall through with no camera, until that peg falls (a beam
      nobody expected), nor who made a slide or board move: after such a miss, moves
      are credited by the turn the game believes, until an alert brings a person to
      the frame.
    """

    def _drops_init(self) -> None:
        self.top_holes = {"drops": 0, "recovered": 0, "extra_alerts": 0, "late_alerts": 0, "camera_seen": 0,
                          "camera_confirmed": 0, "camera_only": 0, "wrong_colour": 0, "missed_by_beam": 0,
                          "missed_before": 0, "missed_earlier": 0}
        self._fell_through: dict[int, float] = {}      # column -> t of the last drop played there that fell on
        self._awaiting_camera: dict[int, tuple[float, str]] = {}  # column -> (t, colour played), peg resting
        # camera-only colours: (t, column, colour, slide the camera reads it at or None)
        self._sightings: list[tuple[float, int, str, int | None]] = []
        self._move_mcu: int | None = None   # board time of the last move the sensor board reported
        self.drop_disputes: dict[str, dict[str, Any]] = {}          # alert id -> {"column", "colour"}
        self.hole_trouble: dict[int, int] = {}   # column -> extra or missed drops its sensor was asked about

    def _drops_deadline(self) -> float | None:
        times = [s[0] for s in self._sightings]
        return min(times) + CAMERA_WAIT_S if times else None

    def _drops_expire(self, obs: Observation) -> None:
        for item in [s for s in self._sightings if s[0] + CAMERA_WAIT_S < obs.t]:
            self._sightings.remove(item)
            _, column, colour, slide = item
            if self._known(column, colour, slide):
                continue  # the move that put it there was reported since
            self.top_holes["camera_only"] += 1
            self._drop_alert(obs, "missed_drop", column, colour, text(
                f"The camera sees a {NAMES[colour]['en']} peg in top hole {column + 1}, but its sensor reported no "
                "drop: did the sensor miss it?",
                f"La caméra voit un pion {NAMES[colour]['fr']} dans le trou {column + 1} du haut, mais son capteur "
                "n'a signalé aucun pion : l'a-t-il manqué ?"), [
                _choice(DROPPED, "A peg was dropped there: play it", "Un pion a été posé là : le jouer"),
                self._missed_before_choice(colour),
                *self._earlier_choice(earlier_drops(self.g, colour, shows_at=column, slide=slide, min_back=1)),
                _choice(NO_DROP, "No peg went in: ignore the camera", "Aucun pion n'est entré : ignorer la caméra")],
                slide=slide)
        for column, (t, _) in list(self._awaiting_camera.items()):
            if t + CAMERA_WAIT_S < obs.t:
                del self._awaiting_camera[column]

    def _note_move(self, obs: Observation, moves_before: int) -> None:
        """Remember the board time of a move the sensor board reported."""
        mcu = obs.data.get("mcu_ms")
        if mcu is not None and len(self.g.history) != moves_before:
            self._move_mcu = int(mcu)

    # ------------------------------------------------------------------ input
    def _drop_reported(self, obs: Observation) -> None:
        """A ``peg_drop`` from the top-hole sensors (or a person's entry)."""
        column = int(obs.data["column"])
        self.top_holes["drops"] += 1
        if obs.data.get("recovered"):
            self.top_holes["recovered"] += 1
            if self._maybe_out_of_order(obs):
                self.top_holes["late_alerts"] += 1
                self._drop_alert(obs, "late_drop", column, None, text(
                    f"A drop into top hole {column + 1} was reported late (its message was lost), after moves that "
                    "may have come later. Was it the last move?",
                    f"Un pion posé dans le trou {column + 1} du haut a été signalé en retard (son message s'est "
                    "perdu), après des coups qui sont peut-être venus après lui. Était-ce le dernier coup ?"), [
                    _choice(DROPPED, "Yes: play it now", "Oui : le jouer maintenant"),
                    _choice(NO_DROP, "It came earlier or not at all: ignore it (undo and enter the moves again if "
                            "needed)", "Il est venu avant, ou pas du tout : l'ignorer (annulez et refaites les coups "
                            "si besoin)")])
                return
        last = self._fell_through.get(column)
        if last is not None and obs.t - last <= EXTRA_DROP_S and not self._sighted(column, obs.t):
            self.top_holes["extra_alerts"] += 1
            self._drop_alert(obs, "extra_drop", column, None, text(
                f"The sensor of top hole {column + 1} reported a second peg {obs.t - last:.1f} s after the first one "
                "fell through: a flicker of the sensor, or a second peg?",
                f"Le capteur du trou {column + 1} du haut a signalé un second pion {obs.t - last:.1f} s après le "
                "passage du premier : un sursaut du capteur, ou un second pion ?"), [
                _choice(NO_DROP, "Nothing went in: ignore it", "Rien n'est entré : l'ignorer"),
                _choice(DROPPED, "A second peg went in: play it", "Un second pion est entré : le jouer")])
            return
        self._drop_played(obs, column, self._play_drop(obs, column, obs.data.get("colour")))

    def _maybe_out_of_order(self, obs: Observation) -> bool:
        """Whether a move reported by the board may have come between the recovered
        drop and its report (then its order, and so its player, is unknown)."""
        if self._move_mcu is None:
            return False
        after, told = obs.data.get("after_mcu_ms"), obs.data.get("mcu_ms")
        if told is not None and self._move_mcu > int(told):
            return False  # the board restarted since: nothing to compare
        return after is None or self._move_mcu > int(after)

    def _drop_played(self, obs: Observation, column: int, player: str | None) -> None:
        """Bookkeeping after a drop was played for ``player`` (None: it was not)."""
        if player is None:
            return
        if self.g.frame.peg_at(1, column) is None:
            self._fell_through[column] = obs.t
        else:
            self._fell_through.pop(column, None)
        if self._seen_colour(column) is None:
            return  # out of the camera's sight (deep in the frame, or on the board)
        sighting = next((s for s in self._sightings if s[1] == column and abs(s[0] - obs.t) <= CAMERA_WAIT_S), None)
        if sighting is not None:  # the camera saw it first
            self._sightings.remove(sighting)
            self._camera_confirms(obs, column, sighting[2], player, sighting[3])
        else:
            self._awaiting_camera[column] = (obs.t, player)

    def _peg_seen(self, obs: Observation) -> None:
        """The camera's colour down a top hole (``vision.pipeline``: a peg that stays in
        view, in the top hole or lower through aligned holes), with the slide it sits in
        when the camera can tell (``slide``)."""
        column, colour = int(obs.data["column"]), str(obs.data["colour"])
        slide = obs.data.get("slide")
        slide = None if slide is None else int(slide)
        if colour not in NAMES:
            return
        self.top_holes["camera_seen"] += 1
        waiting = self._awaiting_camera.pop(column, None)
        if waiting is not None and obs.t - waiting[0] <= CAMERA_WAIT_S:
            self._camera_confirms(obs, column, colour, waiting[1], slide)
            return
        if self._known(column, colour, slide):
            return  # a peg the game knows of (carried there, or uncovered by a slide)
        fell = self._fell_through.get(column)
        if (fell is not None and obs.t - fell <= CAMERA_WAIT_S and self.g.history[-1:] == [DropPeg(column)]
                and self.g.frame.peg_at(1, column) is None):
            # The peg just played there stays in the hole, where the game has it fall on: something the game
            # does not know of is under it, most likely a peg dropped earlier that the sensor missed.
            self._fell_through.pop(column, None)
            self._under_it(obs, column, colour, slide)
            return
        self._sightings.append((obs.t, column, colour, slide))

    def _under_it(self, obs: Observation, column: int, colour: str, slide: int | None) -> None:
        """The peg just played into ``column`` stopped higher than the game has it (in
        the top hole, or in slide ``slide``): something the game does not know of is
        under it, most likely a peg dropped earlier that the sensor missed."""
        self.top_holes["camera_only"] += 1
        where = (text(f"in top hole {column + 1}", f"dans le trou {column + 1} du haut") if slide in (None, 1) else
                 text(f"in slide {slide} under top hole {column + 1}",
                      f"dans la coulisse {slide} sous le trou {column + 1} du haut"))
        alert = self._drop_alert(obs, "missed_drop", column, colour, text(
            f"The camera sees a {NAMES[colour]['en']} peg resting {where['en']}, higher than the game has the last "
            "peg stop: is a peg the sensor missed under it?",
            f"La caméra voit un pion {NAMES[colour]['fr']} arrêté {where['fr']}, plus haut que là où le jeu fait "
            "s'arrêter le dernier pion : un pion manqué par le capteur est-il dessous ?"), [
            self._missed_before_choice(colour),
            _choice(NO_DROP, "No: ignore the camera", "Non : ignorer la caméra")], slide=slide)
        self.drop_disputes[alert.id]["retake"] = True

    def _seen_colour(self, column: int) -> str | None:
        """The colour the game expects the camera to see down top hole ``column``."""
        peg = self.g.frame.seen_from_top(column)
        return None if peg is None else self.g.frame.peg(peg).colour

    def _seen_slide(self, column: int) -> int | None:
        """The slide of the peg the game expects the camera to see down ``column``."""
        peg = self.g.frame.seen_from_top(column)
        return None if peg is None else self.g.frame.peg(peg).slide

    def _known(self, column: int, colour: str, slide: int | None) -> bool:
        """Whether the game has the camera see ``colour`` down ``column``, at ``slide`` or
        deeper (a camera seeing a peg higher than the game has one sees a peg the game
        does not know of; lower, one the game has that it cannot see, which is not a
        missed drop)."""
        if self._seen_colour(column) != colour:
            return False
        expected = self._seen_slide(column)
        return slide is None or expected is None or slide >= expected

    def _sighted(self, column: int, t: float) -> bool:
        return any(s[1] == column and abs(s[0] - t) <= CAMERA_WAIT_S for s in self._sightings)

    def _camera_confirms(self, obs: Observation, column: int, colour: str, player: str,
                         slide: int | None = None) -> None:
        self.top_holes["camera_confirmed"] += 1
        if colour == player:
            expected = self._seen_slide(column)
            if (slide is not None and expected is not None and slide < expected
                    and self.g.history[-1:] == [DropPeg(column)]):
                self._under_it(obs, column, colour, slide)   # it stopped higher than the game has it
            return
        self.top_holes["wrong_colour"] += 1
        taken_back = bool(self.g.history) and self.g.history[-1] == DropPeg(column)
        if taken_back:
            self.g.pop()
        self._drop_alert(obs, "wrong_colour", column, colour, text(
            f"The camera sees a {NAMES[colour]['en']} peg in top hole {column + 1}, but it was "
            f"{NAMES[player]['en']}'s turn" + (": the drop is not counted. Take the peg out." if taken_back else "."),
            f"La caméra voit un pion {NAMES[colour]['fr']} dans le trou {column + 1} du haut, mais c'était au tour de "
            f"{NAMES[player]['fr']}" + (" : le pion n'est pas compté. Retirez-le." if taken_back else ".")), [
            _choice(REMOVED, "The peg was taken out", "Le pion a été retiré"),
            self._missed_before_choice(colour),
            *self._earlier_choice(earlier_drops(self.g, colour, then_drop=column, slide=slide) if taken_back else []),
            _choice(CAMERA_WRONG, f"It is {NAMES[player]['en']}: count the drop",
                    f"Il est {NAMES[player]['fr']} : compter le pion")] if taken_back else [
            _choice(REMOVED, "Understood", "Compris")], slide=slide)

    # ------------------------------------------------------------------ alerts
    def _drop_alert(self, obs: Observation, kind: str, column: int, colour: str | None, message: dict[str, str],
                    choices: list[dict[str, Any]], slide: int | None = None) -> Alert:
        seen = {"column": column, "colour": colour, **({} if slide is None else {"slide": slide})}
        alert = self.raise_alert(Alert(id=self.new_alert_id(obs), kind=kind, message=message, since=obs.t,
                                       expected=None, seen=seen, choices=choices))
        self.drop_disputes[alert.id] = {"column": column, "colour": colour, "slide": slide}
        if kind in ("extra_drop", "missed_drop"):
            self.hole_trouble[column] = self.hole_trouble.get(column, 0) + 1
        return alert

    def _drop_settle(self, obs: Observation, alert: Alert) -> bool:
        """Carry out a person's answer to a top-hole alert; False if it cannot be done."""
        about = self.drop_disputes[alert.id]
        choice = str(obs.data.get("choice"))
        if choice in (NO_DROP, REMOVED):
            return True
        if choice == MISSED_BEFORE:
            backup = copy.deepcopy(self.g)
            if about.get("retake"):  # the drop the camera saw was played: take it back first
                if self.g.history[-1:] != [DropPeg(about["column"])]:
                    problem = ("moves were played since", "des coups ont été joués depuis")
                    return self._cannot(obs, *problem)
                self.g.pop()
            problem = self._missed_before(obs, about["column"], about["colour"], obs.data.get("column"))
            if problem is None:
                return True
            self.g = backup
            en, fr = problem
        elif choice == MISSED_EARLIER:
            problem = self._missed_earlier(obs, alert, about)
            if problem is None:
                return True
            en, fr = problem
        elif choice in (DROPPED, CAMERA_WRONG):
            colour = about["colour"] if alert.kind == "missed_drop" else None
            problem = self._drop_problem(DropPeg(about["column"]), colour)
            if problem is None:
                self._drop_played(obs, about["column"], self._play_drop(obs, about["column"], colour))
                return True
            en, fr = problem
        else:
            en, fr = f"unknown choice {choice!r}", f"choix inconnu {choice!r}"
        return self._cannot(obs, en, fr)

    def _cannot(self, obs: Observation, en: str, fr: str) -> bool:
        self.say(obs.t, f"That resolution cannot be applied ({en}); the alert stays open.",
                 f"Cette résolution ne peut pas être appliquée ({fr}) ; l'alerte reste ouverte.",
                 kind="alert", seq=obs.seq)
        return False

    def _missed_before_choice(self, colour: str) -> dict[str, Any]:
        """A colour seen out of turn is most often a drop the sensor missed earlier: the
        other player's, whose peg fell on into a lower slide (no camera sees it there),
        so the turns went out of step. A person says where it went in; both drops are
        played."""
        other = "blue" if colour == "red" else "red"
        holes = [(c, text(f"top hole {c + 1}", f"trou {c + 1} du haut")) for c in range(self.g.profile.columns)]
        return _choice(MISSED_BEFORE, f"{NAMES[other]['en'].capitalize()} had dropped a peg the sensor missed, "
                       "into…", f"{NAMES[other]['fr'].capitalize()} avait posé un pion que le capteur a manqué, dans…",
                       [_field("column", "Top hole", "Trou du haut", holes)])

    def _earlier_choice(self, found: list[EarlierDrop]) -> list[dict[str, Any]]:
        """*A drop the sensor missed a few moves ago*, one option per place in the
        history where it explains what the camera sees (:mod:`.rewind`); none if
        nowhere does."""
        if not found:
            return []
        history = self.g.history
        options = []
        for drop in found[:MAX_EARLIER_OPTIONS]:
            after = history[drop.at] if drop.at < len(history) else None
            when = doing(after, self._board_before(drop.at)) if after is not None else text("just now", "à l'instant")
            prefix = text("before ", "avant de ") if after is not None else text("", "")
            options.append((drop.key, text(f"top hole {drop.column + 1}, {prefix['en']}{when['en']}",
                                           f"trou {drop.column + 1} du haut, {prefix['fr']}{when['fr']}")))
        field = _field("earlier", "The missed drop", "Le pion manqué", options)
        return [_choice(MISSED_EARLIER, "A drop the sensor missed a few moves ago: put it back in and credit the "
                        "moves since again", "Un pion manqué par le capteur il y a quelques coups : le remettre et "
                        "recompter les coups depuis", [field])]

    def _offer_missed_earlier(self, move: Any) -> None:
        """A slide or board move the rules refuse for the player the game believes is
        moving may be the next player's, after a drop the sensor missed: the put-back
        alert also offers the places where such a drop makes the move legal."""
        alert = next((a for a in reversed(self.open_alerts()) if a.kind == "put_back"), None)
        if alert is None or len(self.put_back) != 1:
            return
        alert.choices = self._earlier_choice(earlier_drops(self.g, None, then=move))
        if alert.choices:
            self.drop_disputes[alert.id] = {"move": move}

    def _put_back_settle(self, obs: Observation, alert: Alert) -> bool:
        """The move refused was legal after a drop missed earlier: put that drop in,
        replay the moves since, then play the move (nothing to put back any more)."""
        move = self.drop_disputes.get(alert.id, {}).get("move")
        if str(obs.data.get("choice")) != MISSED_EARLIER or move is None or len(self.put_back) != 1:
            return self._cannot(obs, "the frame has changed since", "le cadre a changé depuis")
        found = {d.key: d for d in earlier_drops(self.g, None, then=move)}
        drop = found.get(obs.data.get("earlier"))
        if drop is None:
            return self._cannot(obs, "that drop no longer fits the game", "ce pion ne correspond plus à la partie")
        self._put_in(obs, drop)
        self.put_back.clear()
        self._report(obs, self.g.apply(move))
        return True

    def _put_in(self, obs: Observation, drop: EarlierDrop) -> None:
        """The game with ``drop`` put in its place and the moves since credited again."""
        replayed = len(self.g.history) - drop.at
        self.g = with_drop(self.g, drop)
        self.top_holes["missed_earlier"] += 1
        self.say(obs.t, f"A drop into top hole {drop.column + 1} that its sensor missed was put back {replayed} "
                 f"move{'s' * (replayed != 1)} ago; the moves since were credited again. {self._turn_text('en')}",
                 f"Un pion posé dans le trou {drop.column + 1} du haut, manqué par son capteur, a été remis il y a "
                 f"{replayed} coup{'s' * (replayed != 1)} ; les coups depuis ont été recomptés. "
                 f"{self._turn_text('fr')}", seq=obs.seq)

    def _board_before(self, at: int) -> int:
        trial = copy.deepcopy(self.g)
        for _ in range(len(self.g.history) - at):
            trial.pop()
        return trial.frame.board_position

    def _missed_earlier(self, obs: Observation, alert: Alert, about: dict[str, Any]) -> tuple[str, str] | None:
        """Put the missed drop the person chose into the history and replay the moves
        since (credited again by turn); after a wrong colour, the drop seen is then
        played for its colour. Nothing changes if that no longer fits."""
        key = obs.data.get("earlier")
        colour, column = about["colour"], about["column"]
        wrong = alert.kind == "wrong_colour"
        found = {d.key: d for d in earlier_drops(self.g, colour, then_drop=column if wrong else None,
                                                 shows_at=None if wrong else column, slide=about.get("slide"),
                                                 min_back=0 if wrong else 1)}
        if key not in found:
            return ("that drop no longer fits the game", "ce pion ne correspond plus à la partie")
        self._put_in(obs, found[key])
        if wrong:
            self._drop_played(obs, column, self._play_drop(obs, column, colour))
        return None

    def _missed_before(self, obs: Observation, column: int, colour: str, earlier: Any) -> tuple[str, str] | None:
        """Play the missed drop into ``earlier`` for the player to move, then the drop
        the camera saw into ``column``; nothing changes if either cannot be played."""
        if not isinstance(earlier, int) or not 0 <= earlier < self.g.profile.columns:
            return ("say the top hole the missed peg went into", "indiquez le trou du haut où le pion manqué est entré")
        trial = copy.deepcopy(self.g)
        problem = self._drop_problem(DropPeg(earlier), None)
        if problem is None:
            trial.apply(DropPeg(earlier))
            if trial.is_over() or colour != trial.current_player:
                problem = ("the turns would still not match the colour", "les tours ne correspondraient toujours pas "
                           "à la couleur")
            elif (refused := trial.refusal(DropPeg(column))) is not None:
                problem = (refused.en, refused.fr)
        if problem is not None:
            return problem
        self.top_holes["missed_before"] += 1
        self._drop_played(obs, earlier, self._play_drop(obs, earlier, None))
        self._awaiting_camera.pop(column, None)
        self._play_drop(obs, column, colour)
        self._fell_through.pop(column, None)
        return None

    def _drop_problem(self, action: DropPeg, colour: str | None) -> tuple[str, str] | None:
        """Why ``action`` cannot be played now for a peg of ``colour``, or None."""
        if self.g.is_over():
            return "the game is over", "la partie est terminée"
        if colour is not None and colour != self.g.current_player:
            return (f"it is {self.g.current_player}'s turn",
                    f"c'est au tour de {NAMES[self.g.current_player]['fr']}")
        problem = self.g.refusal(action)
        return None if problem is None else (problem.en, problem.fr)

    def _missed_drop_choice(self, column: int) -> dict[str, Any] | None:
        """For a beam no landing explains: *a peg dropped into the top hole over that
        column that its sensor missed*, if the player to move dropping there would land
        over it."""
        if self.put_back or self._drop_problem(DropPeg(column), None) is not None:
            return None
        peg = self.g.frame.next_in_hand(self.g.current_player)
        outcome = copy.deepcopy(self.g).apply(DropPeg(column))
        if not any(landing.peg == peg and landing.column == column for landing in outcome.landings):
            return None
        return _choice(DROPPED, f"A peg was dropped into top hole {column + 1}: its sensor missed it",
                       f"Un pion a été posé dans le trou {column + 1} du haut : son capteur l'a manqué")

    def drops_health(self) -> dict[str, Any]:
        """``top_holes``: counters; ``hole_warnings``: sensors to clean or check."""
        warnings = [text(f"Top hole {c + 1}: its sensor was wrong {n} times (extra or missed drops) — clean or "
                         "realign it.",
                         f"Trou du haut {c + 1} : son capteur s'est trompé {n} fois (pions en trop ou manqués) — "
                         "nettoyez-le ou réalignez-le.")
                    for c, n in sorted(self.hole_trouble.items()) if n >= SUSPECT_AFTER]
        return {"top_holes": dict(self.top_holes), "hole_warnings": warnings}
