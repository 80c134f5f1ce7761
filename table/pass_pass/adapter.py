"""Pass Pass scorekeeper: the entries people type on the dashboard → the rules engine.

Until the camera reads the cards, a person keeps score on the dashboard: they enter each
card as it is played, then the first winner's pick and, when tied low cards leave a
choice, the second winner's; in team mode, the member each team records. Every entry is
an observation in the log, and any of them can be undone (the ``undo`` is logged too).
The engine runs in observed mode (``deal=False``): hands are unknown, a card already
seen this round is refused.

    >>> start = Observation.now("game_start", source="test", game="pass-pass", options={"players": 3})
    >>> pp = PassPassAdapter(start)
    >>> pp.observe(Observation.now("pass_pass.play", source="test", seat=0, card="blue-7"))

Observation kinds and their data (seats and teams 0-based):

==========================  ====================================================
``pass_pass.play``          seat, card (an id such as ``"purple-10"``)
``pass_pass.take``          seat (the first winner), card
``pass_pass.take_low``      seat (the second winner), cards (list of ids)
``pass_pass.record``        team, seat (team mode, end of round)
==========================  ====================================================

Options of ``game_start`` (the new-game form): ``players`` (3-5, or 4/6 in teams),
``teams`` (bool, default False), ``names`` (one per seat, in seat order round the
table; blank → "Player N"), ``first`` (the seat that leads, default 0), and
``deal_seed`` (only used by the simulated table to deal again; ignored here).
"""

from __future__ import annotations

from typing import Any, ClassVar

from table import observations as K
from table.adapter import GameAdapter, text
from table.observations import Observation
from table.pass_pass import (
    COLOUR_NAMES,
    Action,
    IllegalAction,
    InvalidInput,
    PlayCard,
    RecordMember,
    TakeCard,
    TakeLow,
    feed_line,
    new_game,
    round_points,
)
from table.pass_pass.camera import CAMERA_KINDS, CARD_SEEN, CameraReader
from table.pass_pass.game import Game

PLAY = "pass_pass.play"
TAKE = "pass_pass.take"
TAKE_LOW = "pass_pass.take_low"
RECORD = "pass_pass.record"
ENTRY_KINDS = frozenset({PLAY, TAKE, TAKE_LOW, RECORD})

MAX_NAME = 24
OPTION_KEYS = frozenset({"players", "teams", "names", "first", "deal_seed"})
# Feed line kinds the page styles (the rest are "info").
FEED_KIND = {"card_played": "move", "card_taken": "move", "pass_pass": "pass_pass",
             "instant_win": "end", "game_over": "end"}


def parse_options(options: dict[str, Any]) -> dict[str, Any]:
    """The checked setup ``{players, teams, names, first}``; bad options raise
    :class:`InvalidInput` (a ``ValueError``) saying what is wrong in both languages."""
    unknown = sorted(set(options) - OPTION_KEYS)
    if unknown:
        raise InvalidInput(f"Unknown Pass Pass option(s): {', '.join(unknown)}.",
                           f"Option(s) Pass Pass inconnue(s) : {', '.join(unknown)}.", code="bad_option")
    teams = options.get("teams", False)
    if not isinstance(teams, bool):
        raise InvalidInput("'teams' must be true or false.", "« teams » doit valoir true ou false.", code="bad_option")
    names = options.get("names") or []
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise InvalidInput("'names' must be a list of names.", "« names » doit être une liste de noms.",
                           code="bad_option")
    players = options.get("players", len(names) or None)
    # The engine's own check gives the sentence on the player count (3-5, or 4/6 in teams).
    game = new_game(players, teams=teams, first=options.get("first", 0), deal=False)
    if len(names) > players:
        raise InvalidInput(f"'names' must be a list of at most {players} names.",
                           f"« names » doit être une liste d'au plus {players} noms.", code="bad_option")
    cleaned = [n.strip()[:MAX_NAME] for n in names] + [""] * (players - len(names))
    filled = [n.strip() for n in cleaned if n.strip()]
    if len(set(filled)) != len(filled):
        raise InvalidInput("Two players have the same name; tell them apart.",
                           "Deux joueurs ont le même nom ; distinguez-les.", code="bad_option")
    return {"players": players, "teams": teams, "names": cleaned, "first": game.leader}


def action_of(kind: str, data: dict[str, Any]) -> Action:
    """The engine action an entry stands for; a malformed entry raises InvalidInput."""
    try:
        if kind == PLAY:
            return PlayCard(_int(data["seat"]), _card_id(data["card"]))
        if kind == TAKE:
            return TakeCard(_int(data["seat"]), _card_id(data["card"]))
        if kind == TAKE_LOW:
            cards = data["cards"]
            if not isinstance(cards, list):
                raise TypeError
            return TakeLow(_int(data["seat"]), [_card_id(c) for c in cards])
        if kind == RECORD:
            return RecordMember(_int(data["team"]), _int(data["seat"]))
    except (KeyError, TypeError):
        raise InvalidInput(f"Incomplete entry {kind}: {data!r}.", f"Saisie {kind} incomplète : {data!r}.",
                           code="bad_entry") from None
    raise InvalidInput(f"Pass Pass has no entry {kind!r}.", f"Pass Pass n'a pas de saisie {kind!r}.", code="bad_entry")


def entry_of(action: Action) -> tuple[str, dict[str, Any]]:
    """The observation ``(kind, data)`` a person types for ``action`` (the inverse of
    :func:`action_of`; the simulated table uses it)."""
    d = action.to_dict()
    kind = {"play": PLAY, "take": TAKE, "take_low": TAKE_LOW, "record": RECORD}[d.pop("type")]
    return kind, d


def _int(x: Any) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise TypeError
    return x


def _card_id(x: Any) -> str:
    if not isinstance(x, str):
        raise TypeError
    return x


class PassPassAdapter(GameAdapter):
    """Keeps score of a real Pass Pass table from the dashboard's entries.

        >>> pp = PassPassAdapter(Observation.now("game_start", source="t", game="pass-pass",
        ...                                      options={"players": 4, "names": ["Ana", "Bo", "Cy", "Di"]}))
        >>> pp.check_entry("pass_pass.play", {"seat": 1, "card": "blue-3"})["en"]
        "It is not player 2's turn to play now."
    """

    game = "pass-pass"
    dashboard_kinds: ClassVar[frozenset[str]] = ENTRY_KINDS
    undoable_kinds: ClassVar[frozenset[str]] = ENTRY_KINDS | {CARD_SEEN}  # a misread card can be cancelled

    def __init__(self, start: Observation):
        super().__init__(start)
        self.setup = parse_options(self.options)
        # seeded from the start's place in the log, so that every replay (and a snapshot) is the same game
        self.g: Game = new_game(self.setup["players"], teams=self.setup["teams"], first=self.setup["first"],
                                deal=False, seed=start.seq or 0)
        #: the actions applied so far, in order, with the seq of their entry
        self.actions: list[Action] = []
        self.entry_seqs: list[int | None] = []
        self.camera = CameraReader(self, FEED_KIND)  # card_seen / card_gone facts (table/pass_pass/camera.py)
        names = ", ".join(self.name(s, "en") for s in range(self.g.players))
        noms = ", ".join(self.name(s, "fr") for s in range(self.g.players))
        mode_en = " in teams" if self.g.teams else ""
        mode_fr = " par équipes" if self.g.teams else ""
        self.say(start.t, f"New game of Pass Pass{mode_en}: {names}. {self.name(self.g.leader, 'en')} leads.",
                 f"Nouvelle partie de Pass Pass{mode_fr} : {noms}. {self.name(self.g.leader, 'fr')} commence.",
                 seq=start.seq)

    @staticmethod
    def check_options(options: dict[str, Any]) -> dict[str, str] | None:
        """None if a game can start with ``options``, else the reason in both languages
        (for a caller that checks before logging the ``game_start``)."""
        try:
            parse_options(options)
        except InvalidInput as exc:
            return text(exc.en, exc.fr)
        return None

    def name(self, seat: int, lang: str) -> str:
        given = self.setup["names"][seat]
        return given or (f"Joueur {seat + 1}" if lang == "fr" else f"Player {seat + 1}")

    def _names(self, lang: str) -> list[str]:
        return [self.name(s, lang) for s in range(self.g.players)]

    # ------------------------------------------------------------------ input
    def replica(self) -> dict[str, Any]:
        return {**super().replica(), "actions": list(self.actions), "setup": dict(self.setup)}

    def check_entry(self, kind: str, data: dict[str, Any]) -> dict[str, str] | None:
        """None if the entry is legal now, else the reason in both languages (nothing
        changes: the entry is tried on a copy of the game)."""
        try:
            Game.from_dict(self.g.to_dict()).apply(action_of(kind, data))
        except (IllegalAction, InvalidInput) as exc:
            return text(exc.en, exc.fr)
        return None

    def observe(self, obs: Observation) -> None:
        if obs.kind == K.RESOLVE:
            if not self.camera.resolve(obs):
                self.settle_alert(obs)
            return
        if obs.kind in CAMERA_KINDS:
            self.camera.observe(obs)
            return
        if obs.kind not in ENTRY_KINDS:
            return
        try:
            action = action_of(obs.kind, obs.data)
            outcome = self.g.apply(action)
        except (IllegalAction, InvalidInput) as exc:
            self.refuse_entry(obs, exc.en, exc.fr)
            return
        self.actions.append(action)
        self.entry_seqs.append(obs.seq)
        for event in outcome.events:
            self.say(obs.t, feed_line(event, "en", self._names("en")), feed_line(event, "fr", self._names("fr")),
                     kind=FEED_KIND.get(event["type"], "info"), seq=obs.seq)

    def next_deadline(self) -> float | None:
        """When the camera reader needs a ``tick`` (a take window ending), if ever."""
        return None if self.g.is_over() else self.camera.next_deadline()

    # ------------------------------------------------------------------ output
    def summary(self, view: dict[str, Any] | None = None) -> dict[str, Any]:
        view = self.view() if view is None else view
        out = super().summary(view)
        if self.g.teams:  # scores and winners are per team: each player shows its team's
            teams = [seat["team"] for seat in view["seats"]]
            out["players"] = [{"name": {"en": en, "fr": fr}, "score": view["scores"][team], "team": team}
                              for en, fr, team in zip(view["names"]["en"], view["names"]["fr"], teams, strict=True)]
            out["winners"] = [seat for seat, team in enumerate(teams) if team in view["winners"]]
        return out

    def view(self) -> dict[str, Any]:
        g = self.g
        return {
            "players": g.players,
            "teams": g.teams,
            "team_count": g.team_count,
            "names": {"en": self._names("en"), "fr": self._names("fr")},
            "phase": g.phase,
            "round": g.round,
            "trick": g.trick,
            "leader": g.leader,
            "to_act": g.to_act,
            "deck": [{"id": c.id, "color": c.color, "value": c.value, "diamonds": c.diamonds}
                     for c in g.deck.cards()],
            "colours": COLOUR_NAMES,
            "seen": sorted(c.id for c in g.seen_this_round()),
            "current_trick": [{"seat": seat, "card": card.id} for seat, card in g.current_trick],
            "table_cards": [c.id for c in g.table_cards],
            "last_trick": None if g.last_trick is None else g.last_trick.to_dict(),
            "prompt": self._prompt(),
            "seats": [self._seat(seat) for seat in range(g.players)],
            "team_marks": self._team_marks(),
            "sheet": [line.to_dict() for line in g.round_scores],
            "scores": _listed(g.scores()),
            "pass_pass_totals": _listed(g.pass_pass_totals()),
            "over": g.is_over(),
            "winners": g.winners(),
            "won_by": g.won_by,
            "ranking": self._ranking() if g.is_over() else [],
            "last_entry": self._last_entry(),
        }

    def _seat(self, seat: int) -> dict[str, Any]:
        g = self.g
        marks = g.pass_pass_marks(seat)
        cards = g.in_front(seat)
        return {"seat": seat, "team": g.team_of(seat) if g.teams else None,
                "in_front": [c.id for c in cards], "points": round_points(cards),
                "marks": list(marks.per_round), "marks_total": marks.total}

    def _team_marks(self) -> list[int]:
        """Per team, the Pass Pass counting towards 3: recorded ones plus the best
        member's ticks in the round being played (none once the round is recorded)."""
        g = self.g
        if not g.teams:
            return []
        recorded = g.pass_pass_totals()
        playing = g.phase in ("play", "first_take", "second_take") or (g.is_over() and g.won_by == "pass_pass")
        return [recorded[t] + (max(g.pass_pass_marks(s).per_round[-1] for s in g.members(t)) if playing else 0)
                for t in range(g.team_count)]

    def _prompt(self) -> dict[str, Any] | None:
        """What the page must ask now, with the choices it offers."""
        g = self.g
        kind = g.phase
        if kind == "play":
            return {"kind": "play", "seat": g.to_act}
        if kind == "first_take":
            return {"kind": "take", "seat": g.to_act, "options": [a.card.id for a in g.legal_actions()]}
        if kind == "second_take":
            return {"kind": "take_low", "seat": g.to_act,
                    "options": [[c.id for c in a.cards] for a in g.legal_actions()]}
        if kind == "record":
            line = g.round_scores[-1]
            return {"kind": "record", "teams": [
                {"team": t, "members": list(g.members(t)), "suggested": g.suggested_member(t),
                 "recorded": line.recorded[t]} for t in range(g.team_count)]}
        return None

    def _ranking(self) -> list[dict[str, Any]]:
        """The final places, seats (or teams): winners first, then by points, then by
        Pass Pass; equal (points, Pass Pass) share a place."""
        g = self.g
        points, pass_pass = g.scores(), g.pass_pass_totals()
        winners = set(g.winners())
        key = {k: (k in winners, points[k], pass_pass[k]) for k in points}
        order = sorted(points, key=lambda k: (key[k], -k), reverse=True)
        out: list[dict[str, Any]] = []
        for i, k in enumerate(order):
            place = out[-1]["place"] if out and key[order[i - 1]] == key[k] else i + 1
            out.append({"place": place, "who": k, "points": points[k], "pass_pass": pass_pass[k],
                        "winner": k in winners})
        return out

    def _last_entry(self) -> dict[str, Any] | None:
        """The latest applied entry, which the page's undo button cancels."""
        if not self.actions:
            return None
        return {"seq": self.entry_seqs[-1], "action": self.actions[-1].to_dict()}

    def health(self) -> dict[str, Any]:
        return {"pass_pass": {"entries": len(self.actions), "refused": len(self.alerts)}}


def _listed(by_key: dict[int, int]) -> list[int]:
    return [by_key[k] for k in sorted(by_key)]
