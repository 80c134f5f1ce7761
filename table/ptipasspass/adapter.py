"""PtiPassPass scorekeeper: the dashboard's entries, the seats' buttons and the camera → the rules engine.

Besides typed entries, the same steps come from the seats' buttons (``seat_button``
facts, or ``seat_button.tap`` from a phone: :mod:`table.ptipasspass.presses`) and from the
camera over the cup grid (``cup_touched``, ``cup_lifted``, ``cup_back``, ``token_held``:
:mod:`table.ptipasspass.camera`); all go through :meth:`PtiPassPassAdapter.apply_step`.

The dashboard knows what a person at the table sees and no more (the engine's OBSERVED
mode): which cup a player names, calls, the announced colour, and what a lifted cup or
a shown token showed. Each entry is one ``"ptipasspass.action"`` observation whose
``data["action"]`` is :func:`~table.ptipasspass.action_to_dict` of one engine step.

    >>> start = Observation.now("game_start", source="test", game="ptipasspass", options={"players": 3})
    >>> ppp = PtiPassPassAdapter(start)
    >>> place = {"action": "Place", "seat": 0, "colour": None, "cup": [0, 0]}
    >>> ppp.observe(Observation.now(ACTION, source="test", action=place))

Options (``game_start.data["options"]``): ``players`` (3–6, default 4), ``names`` (one
per seat, optional; blank names fall back to "Player N"), ``first`` (the starting seat,
default 0). Bad options do not crash the service: the adapter stays unstarted and its
view carries the bilingual reason, so the page can say what to fix.

Decisions taken here (see also :mod:`table.ptipasspass`):

* An entry the rules refuse is refused by :meth:`check_entry` before it is logged (HTTP
  422 with the engine's reason). If one reaches :meth:`observe` anyway (an undo earlier
  in the game made a later entry impossible), it is skipped with a feed line: the log
  keeps it, the game ignores it.
* Every entry can be undone; the page offers "undo the last entry".
"""

from __future__ import annotations

from typing import Any

from table import observations as K
from table.adapter import GameAdapter, text
from table.observations import Observation
from table.ptipasspass import Game, IllegalAction, action_from_dict, action_to_dict, describe, new_game
from table.ptipasspass.camera import CAMERA_KINDS, CupReader
from table.ptipasspass.presses import BUTTON, TAP, PressReader

ACTION = "ptipasspass.action"
DEFAULT_PLAYERS = 4
MAX_NAME = 24

# Feed line kinds, so the page can make round and game wins stand out.
_FEED_KIND = {"game_won": "end", "round_won": "round", "round_blocked": "round",
              "round_abandoned": "round", "round_started": "round", "victory_token": "round"}


# What a field of the wrong shape (a dict where a cup is expected...) makes the engine raise.
_MALFORMED = (TypeError, ValueError, KeyError, AttributeError)


def _malformed(exc: Exception) -> dict[str, str]:
    return text(f"This entry is malformed ({type(exc).__name__}: {exc}).",
                f"Cette entrée est mal formée ({type(exc).__name__} : {exc}).")


class OptionsError(Exception):
    """Game options the adapter cannot start from; ``en``/``fr`` say why."""

    def __init__(self, en: str, fr: str):
        super().__init__(en)
        self.en, self.fr = en, fr


def parse_options(options: dict[str, Any]) -> tuple[int, list[str], int]:
    """``(players, names, first)`` from the game options, or :class:`OptionsError`."""
    players = options.get("players", DEFAULT_PLAYERS)
    if isinstance(players, bool) or not isinstance(players, int) or not 3 <= players <= 6:
        raise OptionsError(f"PtiPassPass is for 3 to 6 players, not {players!r}.",
                           f"PtiPassPass se joue de 3 à 6 joueurs, pas {players!r}.")
    raw_names = options.get("names") or []
    if not isinstance(raw_names, list) or len(raw_names) > players or not all(
            isinstance(n, str) or n is None for n in raw_names):
        raise OptionsError(f"'names' must be a list of at most {players} names.",
                           f"« names » doit être une liste d'au plus {players} noms.")
    names = [(raw_names[s] or "").strip() if s < len(raw_names) else "" for s in range(players)]
    if any(len(n) > MAX_NAME for n in names):
        raise OptionsError(f"A name may have at most {MAX_NAME} characters.",
                           f"Un nom ne peut dépasser {MAX_NAME} caractères.")
    given = [n.casefold() for n in names if n]
    if len(given) != len(set(given)):
        raise OptionsError("Two players have the same name.", "Deux joueurs portent le même nom.")
    first = options.get("first", 0)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
        raise OptionsError(f"The first player must be a seat from 0 to {players - 1}.",
                           f"Le premier joueur doit être une place de 0 à {players - 1}.")
    return players, names, first


class PtiPassPassAdapter(GameAdapter):
    """Keeps an observed-mode PtiPassPass game from the table's dashboard entries.

        >>> ppp = PtiPassPassAdapter(Observation.now("game_start", source="t", options={"players": 4}))
        >>> ppp.check_entry(ACTION, {"action": {"action": "Pass"}})["en"]
        'Not now: the table is waiting for the active player to hold a token and name a cup.'
    """

    game = "ptipasspass"
    dashboard_kinds = frozenset({ACTION, TAP})   # a phone may press a seat's button too
    undoable_kinds = frozenset({ACTION})

    def __init__(self, start: Observation):
        super().__init__(start)
        self.g: Game | None = None
        self.error: dict[str, str] | None = None
        self.names: list[str] = []
        self.entries: list[dict[str, Any]] = []   # applied entries: seq and the action dict
        self.skipped: list[int] = []              # seqs of logged entries the rules refused
        self.presses = PressReader(self)          # seat buttons (table/ptipasspass/presses.py)
        self.camera = CupReader(self)             # the cup grid seen from above (table/ptipasspass/camera.py)
        try:
            players, self.names, first = parse_options(self.options)
            self.g = new_game(players, first=first, mode="observed")
        except OptionsError as exc:
            self.error = text(exc.en, exc.fr)
            self.say(start.t, f"The game cannot start: {exc.en}", f"La partie ne peut pas commencer : {exc.fr}",
                     kind="alert", seq=start.seq)
            return
        starter_en, starter_fr = self._who(first, "en"), self._who(first, "fr")
        self.say(start.t, f"New game of PtiPassPass, {players} players: {starter_en} starts.",
                 f"Nouvelle partie de PtiPassPass à {players} joueurs : {starter_fr} commence.", seq=start.seq)

    def start_problem(self) -> dict[str, str] | None:
        return self.error

    def replica(self) -> dict[str, Any]:
        return {**super().replica(), "entries": len(self.entries)}

    # ------------------------------------------------------------------ input
    def check_entry(self, kind: str, data: dict[str, Any]) -> dict[str, str] | None:
        """Why the entry would be refused (``{"en", "fr"}``), or None if the rules take it."""
        if kind == TAP:
            return self.presses.problem(data)
        if kind != ACTION:
            return text(f"PtiPassPass does not take {kind!r} entries.",
                        f"PtiPassPass n'accepte pas les entrées {kind!r}.")
        try:
            self._game_or_refuse().copy().apply(self._parse(data))
        except IllegalAction as exc:
            return text(exc.en, exc.fr)
        except _MALFORMED as exc:  # a field of the wrong shape the engine did not expect
            return _malformed(exc)
        return None

    def observe(self, obs: Observation) -> None:
        if obs.kind in (BUTTON, TAP) and self.g is not None:
            self.presses.observe(obs)
            return
        if obs.kind in CAMERA_KINDS and self.g is not None:
            self.camera.observe(obs)
            return
        if obs.kind == K.RESOLVE:
            if not self.camera.resolve(obs):
                self.settle_alert(obs)
            return
        if obs.kind != ACTION:
            return  # sensor facts of other tables: nothing to do here
        try:
            action = self._parse(obs.data)
            self._game_or_refuse()
            self.apply_step(action, obs)
        except (IllegalAction, *_MALFORMED) as exc:
            why = text(exc.en, exc.fr) if isinstance(exc, IllegalAction) else _malformed(exc)
            if obs.seq is not None:
                self.skipped.append(obs.seq)
            self.say(obs.t, f"Entry ignored: {why['en']}", f"Entrée ignorée : {why['fr']}", kind="refused",
                     seq=obs.seq)

    def apply_step(self, action: Any, obs: Observation) -> None:
        """Apply one engine step, whatever brought it (an entry, a button, the camera):
        feed lines, the entries list; :class:`IllegalAction` if the rules refuse it."""
        outcome = self.g.apply(action)  # type: ignore[union-attr]
        self.entries.append({"seq": obs.seq, "action": action_to_dict(action), "kind": obs.kind,
                             "source": obs.source})
        for event in outcome.events:
            self.say(obs.t, describe(event, "en", self.display_names("en")),
                     describe(event, "fr", self.display_names("fr")),
                     kind=_FEED_KIND.get(event["type"], "move"), seq=obs.seq)
        self.presses.after_step()

    def _game_or_refuse(self) -> Game:
        if self.g is None:
            why = self.error or text("no game", "pas de partie")
            raise IllegalAction(f"This game did not start: {why['en']} Start a new game.",
                                f"Cette partie n'a pas commencé : {why['fr']} Commencez une nouvelle partie.",
                                code="not_started")
        return self.g

    @staticmethod
    def _parse(data: dict[str, Any]) -> Any:
        raw = data.get("action") if isinstance(data, dict) else None
        if not isinstance(raw, dict):
            raise IllegalAction("An entry needs an 'action' object.", "Une entrée doit contenir un objet « action ».",
                                code="bad_action")
        return action_from_dict(raw)

    # ------------------------------------------------------------------ names
    def _who(self, seat: int | None, lang: str) -> str:
        if seat is None:
            return "?"
        if seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return f"{'Joueur' if lang == 'fr' else 'Player'} {seat + 1}"

    def display_names(self, lang: str) -> list[str]:
        return [self._who(s, lang) for s in range(len(self.names))]

    # ------------------------------------------------------------------ output
    def summary(self, view: dict[str, Any] | None = None) -> dict[str, Any]:
        view = self.view() if view is None else view
        out = super().summary(view)  # the score is the victory tokens won; the active player is to play
        for player, tokens in zip(out["players"], view.get("victory_tokens") or [], strict=False):
            player["score"] = tokens
        return {**out, "turn": view.get("active") if view.get("started") else None}

    def view(self) -> dict[str, Any]:
        if self.g is None:
            return {"started": False, "error": self.error}
        typed = [e for e in self.entries if e["kind"] == ACTION]   # the page's undo: typed entries only
        last = typed[-1] if typed else None
        return {"started": True, "error": None, **self._game_view(self.g),
                "entries": len(self.entries), "last_entry": last, "skipped": list(self.skipped),
                "presses": self.presses.pending()}

    def _game_view(self, g: Game) -> dict[str, Any]:
        turn, knowledge = g.turn, g.cup_knowledge
        awaiting = g.awaiting
        if awaiting is not None:
            awaiting = {**awaiting, "cups": [list(c) for c in awaiting["cups"]]}
        return {
            "players": g.players,
            "names": {"en": self.display_names("en"), "fr": self.display_names("fr")},
            "layout": g.layout.to_dict(),
            "cups": [_cup_view(cell, knowledge[cell]) for cell in g.layout.cells],
            "phase": g.phase, "active": g.active, "round": g.round, "round_first": g.round_first,
            "hands": [{**hand, "size": sum(hand.values())} for hand in g.hands],
            "victory_tokens": g.victory_tokens, "victory_pool": g.victory_pool,
            "turn": {"cup": _cell(turn.cup), "announced": turn.announced, "caller": turn.caller,
                     "swapped": _cells(turn.swapped), "line": _cells(turn.line),
                     "shown": [{"cup": list(c), "tokens": list(t)} for c, t in turn.shown]},
            "awaiting": awaiting,
            "callers": [s for s in range(g.players) if s != g.active],
            "can_swap": g.phase == "swap_or_reveal" and turn.swapped is None,
            "can_abandon": g.phase == "swap_or_reveal" and not any(sum(h.values()) for h in g.hands),
            "round_winner": g.round_winner, "next_first": g.next_first,
            "winners": g.winners(), "over": g.is_over(),
            "banner": self._banner(g),
        }

    def _banner(self, g: Game) -> dict[str, str] | None:
        """The round or game result, while the table has it in front of them."""
        if g.is_over():
            w = g.winners()[0]
            return text(f"{self._who(w, 'en')} wins the game!", f"{self._who(w, 'fr')} gagne la partie !")
        if g.phase != "round_over":
            return None
        nxt_en, nxt_fr = self._who(g.next_first, "en"), self._who(g.next_first, "fr")
        if g.round_winner is None:
            return text(f"Round {g.round} is replayed: {nxt_en} starts.",
                        f"La manche {g.round} est rejouée : {nxt_fr} commence.")
        w = g.round_winner
        return text(f"{self._who(w, 'en')} wins round {g.round}! {nxt_en} starts the next one.",
                    f"{self._who(w, 'fr')} remporte la manche {g.round} ! {nxt_fr} commence la suivante.")

    def health(self) -> dict[str, Any]:
        return {"ptipasspass": {"entries": len(self.entries), "ignored": len(self.skipped),
                                "phase": None if self.g is None else self.g.phase}}


def _cell(cell: Any) -> list[int] | None:
    return None if cell is None else list(cell)


def _cells(cells: Any) -> list[list[int]] | None:
    return None if cells is None else [list(c) for c in cells]


def _cup_view(cell: Any, k: Any) -> dict[str, Any]:
    return {"cell": list(cell), "count": k.count, "known": list(k.known), "unknown": k.unknown,
            "claimed": list(k.claimed), "seen": None if k.seen is None else list(k.seen), "taken": list(k.taken)}


__all__ = ["ACTION", "OptionsError", "PtiPassPassAdapter", "parse_options"]
