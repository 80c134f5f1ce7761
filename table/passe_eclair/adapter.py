"""Passe Éclair scorekeeper: the table's entries on the dashboard → the observed game.

The table does not know the players' hands, so the full engine (which deals from a
seeded deck) cannot run here. The adapter keeps a :class:`~table.passe_eclair.observed.ObservedGame`:
the centre pile, each seat's number of cards, tokens and round results; every card is
judged at once by the engine's pure rule (``placement_problem``). A wrong card that lies
on the pile is recorded and flagged with the reason (never refused: it is physically
there); entries that cannot have happened (a seat with no cards, the wrong phase, a
token not left) are refused by :meth:`PasseEclairAdapter.check_entry` before logging.

    >>> start = Observation.now("game_start", source="test", game="passe-eclair", options={"players": 3})
    >>> pe = PasseEclairAdapter(start)
    >>> pe.observe(Observation.now("passe_eclair.start_card", source="test", card="leon-marlon"))

Observation kinds and their data (seats 0-based; ``t`` of the observation is the time):

===============================  ===============================================================
``passe_eclair.start_card``      card: the card the coach (or Michi player) turns onto the centre
``passe_eclair.place``           seat, card: a card that stays on the pile (one tap per card)
``passe_eclair.spot``            seat, serial (optional): a wrong card spotted → back + penalty
``passe_eclair.blocked``         (none): no one can play, the pile goes to the box
``passe_eclair.michi_swap``      seat, target, no_one_can_play (bool, optional)
``passe_eclair.count``           seat, cards: after a round is won, the cards ``seat`` counted in hand
``passe_eclair.round``           points (victory token drawn), consolation (token id or null)
``passe_eclair.spend``           seat, token: a footballer consolation token spent
===============================  ===============================================================

Options of ``game_start``: ``players`` (2-4; default: the number of names, else 4),
``names`` (one per seat; blank → "Player N"), ``coach`` (the oldest player's seat, default 0).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from table import observations as K
from table.adapter import GameAdapter, text
from table.observations import Observation
from table.passe_eclair import ALL_CARD_IDS, BadInput, IllegalAction, card_label
from table.passe_eclair.camera import CAMERA_KINDS, PileCamera
from table.passe_eclair.cards import validate_players
from table.passe_eclair.observed import ObservedGame, describe_observed

START_CARD = "passe_eclair.start_card"
PLACE = "passe_eclair.place"
SPOT = "passe_eclair.spot"
BLOCKED = "passe_eclair.blocked"
MICHI_SWAP = "passe_eclair.michi_swap"
ROUND = "passe_eclair.round"
SPEND = "passe_eclair.spend"
COUNT = "passe_eclair.count"
ENTRY_KINDS = frozenset({START_CARD, PLACE, SPOT, BLOCKED, MICHI_SWAP, ROUND, SPEND, COUNT})

MAX_NAME = 24
OPTION_KEYS = frozenset({"players", "names", "coach"})
PILE_SHOWN = 12  # the pile cards the page draws (top last)


def parse_options(options: dict[str, Any]) -> dict[str, Any]:
    """The checked setup ``{players, names, coach}``; bad options raise :class:`BadInput`
    (a ``ValueError``) saying what is wrong in both languages."""
    unknown = sorted(set(options) - OPTION_KEYS)
    if unknown:
        raise BadInput(f"Unknown Passe Éclair option(s): {', '.join(unknown)}.",
                       f"Option(s) Passe Éclair inconnue(s) : {', '.join(unknown)}.", code="bad_option")
    names = options.get("names") or []
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise BadInput("'names' must be a list of names.", "« names » doit être une liste de noms.",
                       code="bad_option")
    players = validate_players(options.get("players", len(names) or 4))
    if len(names) > players:
        raise BadInput(f"'names' must list at most {players} names.",
                       f"« names » doit lister au plus {players} noms.", code="bad_option")
    cleaned = [n.strip()[:MAX_NAME] for n in names] + [""] * (players - len(names))
    filled = [n for n in cleaned if n]
    if len(set(filled)) != len(filled):
        raise BadInput("Two players have the same name; tell them apart.",
                       "Deux joueurs ont le même nom ; distinguez-les.", code="bad_option")
    game = ObservedGame(players, coach=options.get("coach", 0))  # checks the coach's seat
    return {"players": players, "names": cleaned, "coach": game.coach}


def _int(data: dict[str, Any], key: str, *, optional: bool = False) -> int | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"'{key}' must be a whole number, not {value!r}.",
                       f"« {key} » doit être un nombre entier, pas {value!r}.", code="bad_entry")
    return value


def _str(data: dict[str, Any], key: str, *, optional: bool = False) -> str | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise BadInput(f"'{key}' must be a text id, not {value!r}.",
                       f"« {key} » doit être un identifiant texte, pas {value!r}.", code="bad_entry")
    return value


def apply_entry(game: ObservedGame, kind: str, data: dict[str, Any], t: float | None) -> list[dict[str, Any]]:
    """Apply one entry to ``game``; raises IllegalAction/BadInput (nothing changed) if it cannot be."""
    entries: dict[str, Callable[[], list[dict[str, Any]]]] = {
        START_CARD: lambda: game.turn_start_card(_str(data, "card"), t),
        PLACE: lambda: game.place(_int(data, "seat"), _str(data, "card"), t),
        SPOT: lambda: game.spot(_int(data, "seat"), _int(data, "serial", optional=True), t),
        BLOCKED: lambda: game.blocked(t),
        MICHI_SWAP: lambda: game.michi_swap(_int(data, "seat"), _int(data, "target"), t,
                                            no_one_can_play=data.get("no_one_can_play") is True),
        ROUND: lambda: game.round_tokens(_int(data, "points"), _str(data, "consolation", optional=True)),
        SPEND: lambda: game.spend_token(_int(data, "seat"), _str(data, "token")),
        COUNT: lambda: game.count_cards(_int(data, "seat"), _int(data, "cards")),
    }
    if kind not in entries:
        raise BadInput(f"Passe Éclair has no entry {kind!r}.", f"Passe Éclair n'a pas de saisie {kind!r}.",
                       code="bad_entry")
    return entries[kind]()


# Feed line kinds the page styles (the rest are "info").
def _feed_kind(event: dict[str, Any]) -> str:
    if event["type"] == "placed":
        return "alert" if event.get("wrong") else "move"
    return {"round_over": "end", "round_won": "end", "game_over": "end", "michi_swap": "move",
            "returned_to_hand": "alert"}.get(event["type"], "info")


class PasseEclairAdapter(GameAdapter):
    """Keeps score of a real Passe Éclair table from the dashboard's entries.

        >>> pe = PasseEclairAdapter(Observation.now("game_start", source="t", game="passe-eclair",
        ...                                         options={"players": 2, "names": ["Ana", "Bo"]}))
        >>> pe.check_entry("passe_eclair.place", {"seat": 0, "card": "dog"})["en"]
        'The round has not started: enter the start card the coach turns.'
    """

    game = "passe-eclair"
    dashboard_kinds: ClassVar[frozenset[str]] = ENTRY_KINDS
    undoable_kinds: ClassVar[frozenset[str]] = ENTRY_KINDS

    def __init__(self, start: Observation):
        super().__init__(start)
        self.setup = parse_options(self.options)
        self.g = ObservedGame(self.setup["players"], coach=self.setup["coach"])
        self.entries: list[tuple[int | None, str]] = []  # (seq, kind) of each applied entry
        self.camera = PileCamera(self, self._enter)
        names = {lang: ", ".join(self._names(lang)) for lang in ("en", "fr")}
        coach = {lang: self._names(lang)[self.g.coach] for lang in ("en", "fr")}
        self.say(start.t,
                 f"New game of Passe Éclair: {names['en']}. {coach['en']} is the coach and deals 7 cards each.",
                 f"Nouvelle partie de Passe Éclair : {names['fr']}. {coach['fr']} est l'entraîneur et distribue "
                 "7 cartes.", seq=start.seq)

    def _names(self, lang: str) -> list[str]:
        return [n or (f"Joueur {s + 1}" if lang == "fr" else f"Player {s + 1}")
                for s, n in enumerate(self.setup["names"])]

    # ------------------------------------------------------------------ input
    def check_entry(self, kind: str, data: dict[str, Any]) -> dict[str, str] | None:
        """None if the entry can be recorded now, else the reason in both languages (it is
        tried on a copy). A wrong card is NOT refused: it is recorded and flagged."""
        try:
            apply_entry(self.g.copy(), kind, data, None)
        except IllegalAction as exc:  # BadInput is an IllegalAction too
            return text(exc.en, exc.fr)
        return None

    def observe(self, obs: Observation) -> None:
        if obs.kind == K.RESOLVE:
            if not self.camera.resolve(obs):
                self.settle_alert(obs)
            return
        if obs.kind in CAMERA_KINDS:   # the pile seen by the camera (table/passe_eclair/camera.py)
            self.camera.observe(obs)
            return
        if obs.kind not in ENTRY_KINDS:
            return
        self._enter(obs, obs.kind, obs.data, obs.t)

    def _enter(self, obs: Observation, kind: str, data: dict[str, Any], t: float | None) -> bool:
        """Apply one entry (typed, or made of what the camera saw); False if refused."""
        try:
            events = apply_entry(self.g, kind, data, t)
        except (IllegalAction, BadInput) as exc:
            self.refuse_entry(obs, exc.en, exc.fr)
            return False
        self.entries.append((obs.seq, kind))
        for event in events:
            self.say(obs.t, describe_observed(event, "en", self._names("en")),
                     describe_observed(event, "fr", self._names("fr")), kind=_feed_kind(event), seq=obs.seq)
        return True

    # ------------------------------------------------------------------ output
    def summary(self, view: dict[str, Any] | None = None) -> dict[str, Any]:
        view = self.view() if view is None else view
        out = super().summary(view)  # a real-time game: nobody waits for a turn; goal points are the score
        for player, points in zip(out["players"], view["goal_points"], strict=False):
            player["score"] = points
        return {**out, "turn": None}

    def view(self) -> dict[str, Any]:
        g = self.g
        return {
            "players": g.players,
            "names": {"en": self._names("en"), "fr": self._names("fr")},
            "phase": g.phase, "round": g.round, "rounds": g.rounds, "coach": g.coach, "turner": g.turner,
            "top": _pile_card(g.top) if g.top else None,
            "pile": [_pile_card(e) for e in g.pile[-PILE_SHOWN:]],
            "pile_size": len(g.pile),
            "wrong_cards": [_pile_card(e) for e in g.wrong_cards()],
            "hand_sizes": list(g.hand_sizes),
            "playable": [g.playable(seat) for seat in range(g.players)],
            "pending_michi": g.pending_michi,
            "round_over": self._round_over(),
            "victory_tokens": [list(v) for v in g.victory_tokens],
            "consolation_tokens": [list(c) for c in g.consolation_tokens],
            "spent_tokens": [list(s) for s in g.spent_tokens],
            "goal_points": g.goal_points(),
            "results": list(g.results),
            "over": g.is_over(),
            "winners": g.winners(),
            "prompt": self._prompt(),
            "cards": list(ALL_CARD_IDS),
            "last_entry": None if not self.entries else {"seq": self.entries[-1][0], "kind": self.entries[-1][1]},
        }

    def _round_over(self) -> dict[str, Any] | None:
        over = self.g.round_over
        if over is None:
            return None
        return {"winner": over["winner"], "hand_sizes": over["hand_sizes"],
                "consolation_seat": over["consolation_seat"],
                "victory_choices": sorted(set(self.g.victory_pool)),
                "consolation_choices": sorted(set(self.g.consolation_pool))}

    def _prompt(self) -> dict[str, str]:
        """What the table enters next, in a sentence."""
        g = self.g
        turner = {lang: self._names(lang)[g.turner] for lang in ("en", "fr")}
        if g.phase in ("dealt", "turning"):
            return text(f"Tap the start card {turner['en']} turns.",
                        f"Touchez la carte de départ que retourne {turner['fr']}.")
        if g.phase == "playing":
            return text("Tap each card that stays on the pile, in the row of its player.",
                        "Touchez chaque carte qui reste sur le tas, dans la ligne de son joueur.")
        if g.phase == "michi":
            who = {lang: self._names(lang)[g.pending_michi] for lang in ("en", "fr")}
            return text(f"Gros Michi! Who does {who['en']} swap hands with?",
                        f"Gros Michi ! Avec qui {who['fr']} échange-t-il ses cartes ?")
        if g.phase == "round_won":
            return text("Check each player's cards left (one tap corrects a count), then enter the victory token "
                        "drawn (and the consolation token, if one is due).",
                        "Vérifiez les cartes restées en main (une touche corrige un nombre), puis saisissez le "
                        "jeton de victoire tiré (et le jeton de consolation s'il est dû).")
        return text("The game is over.", "La partie est terminée.")

    def health(self) -> dict[str, Any]:
        return {"passe_eclair": {"entries": len(self.entries), "refused": len(self.alerts)}}


def _pile_card(entry: Any) -> dict[str, Any]:
    return {**entry.to_dict(), "label": text(card_label(entry.card, "en"), card_label(entry.card, "fr"))}
