"""The simulated Passe Éclair table: random legal games entered as a scorekeeper would.

A full-knowledge engine game (:func:`table.passe_eclair.playout_steps`, lenient mode, so
wrong cards lie on the pile until spotted) stands for the real players. Each of its
actions is turned into the entries a person taps on the dashboard (:func:`table_entries`:
only the cards that stay on the pile, the start cards turned, the tokens drawn...) and
submitted to the session with source ``"sim"``, ``pace`` seconds apart. The session never
sees the hands.

    >>> sim = make_simulation(session, pace=0.5, seed=1, restart_after=None)
    >>> sim.start()
    >>> sim.stop()

Started by ``passetable run --sim --game passe-eclair``. A game already in the log is not
resumed (the hands it was played with are unknown): the simulation starts a new one.
"""

from __future__ import annotations

import logging
import random
import threading
from typing import Any

from table import observations as K
from table.errors import Refused
from table.observations import Observation
from table.passe_eclair import (
    DOG,
    MICHI,
    Action,
    Game,
    MichiSwap,
    Outcome,
    PlayoutStyle,
    new_game,
    playout_steps,
)
from table.passe_eclair.adapter import (
    BLOCKED,
    MICHI_SWAP,
    PLACE,
    ROUND,
    SPEND,
    SPOT,
    START_CARD,
)
from table.session import Session
from table.simulation import PlayerThread

log = logging.getLogger(__name__)

GAME = "passe-eclair"
SOURCE = "sim"
NAMES = ("Léa", "Hugo", "Inès", "Tom")

Entry = tuple[str, dict[str, Any]]


def table_entries(action: Action, outcome: Outcome, *, phase_before: str, pile_before: list[str]) -> list[Entry]:
    """The dashboard entries ``(kind, data)`` a scorekeeper makes for one engine action
    (``phase_before``/``pile_before``: the engine's phase and pile cards, top last, before it).

    A Gros Michi put down off a dog because no one could play is entered with its swap
    (``michi_swap`` with ``no_one_can_play``), as the page offers it."""
    entries: list[Entry] = []
    events = outcome.events
    for i, e in enumerate(events):
        kind = e["type"]
        if kind == "start_card":
            entries += [(START_CARD, {"card": c}) for c in e["skipped"]]
            if e["card"] is not None:
                entries.append((START_CARD, {"card": e["card"]}))
        elif kind == "placed" and not isinstance(action, MichiSwap):
            if not (e["card"] == MICHI and e["wrong"] is None and e["on"] != DOG):
                entries.append((PLACE, {"seat": e["seat"], "card": e["card"]}))
        elif kind == "michi_swap":
            data: dict[str, Any] = {"seat": e["seat"], "target": e["target"]}
            michi_on = pile_before[-1] if phase_before == "playing" else pile_before[-2]
            if michi_on != DOG:
                data["no_one_can_play"] = True  # the engine allowed it: no one could play
            entries.append((MICHI_SWAP, data))
        elif kind == "returned_to_hand" and e["reason"] == "spotted":
            entries.append((SPOT, {"seat": e["seat"]}))
        elif kind == "blocked":
            entries.append((BLOCKED, {}))
        elif kind == "consolation_spent":
            entries.append((SPEND, {"seat": e["seat"], "token": e["token"]}))
        elif kind == "round_won":
            token = next((x["token"] for x in events[i + 1:] if x["type"] == "consolation"), None)
            entries.append((ROUND, {"points": e["points"], "consolation": token}))
    return entries


class SimulatedPasseEclairTable(PlayerThread):
    """Simulated players and their scorekeeper, in a background thread.

    ``pace``: seconds between entries (0: as fast as possible); ``restart_after``: the
    pause before a finished game is followed by a new one (None: never); ``players``:
    2-4 (None: chosen by the seeded RNG, 3 or 4)."""

    def __init__(self, session: Session, *, pace: float = 1.0, seed: int | None = None,
                 restart_after: float | None = 20.0, players: int | None = None,
                 style: PlayoutStyle = PlayoutStyle()):
        super().__init__()
        self.session = session
        self.pace = pace
        self.restart_after = restart_after
        self.style = style
        self.rng = random.Random(seed)
        self.players = players
        self.engine: Game | None = None  # the truth: the simulated players' hands
        self.entries = 0
        self._new_game = threading.Event()
        session.subscribe(self._on_observation)

    # ---------------------------------------------------------------- control
    thread_name = "sim-passe-eclair"

    def _interrupt(self) -> None:
        self._new_game.set()

    def _on_observation(self, obs: Observation, session: Session) -> None:
        if obs.kind == K.GAME_START and obs.source != SOURCE:
            self._new_game.set()  # someone pressed "new game": play that one

    # ---------------------------------------------------------------- play
    def start_game(self) -> Game:
        """Log a new game and deal its engine twin (same players and coach)."""
        players = self.players or self.rng.choice((3, 4))
        coach = self.rng.randrange(players)
        self.session.start_game(GAME, {"players": players, "names": list(NAMES[:players]), "coach": coach},
                              source=SOURCE)
        return self._engine_for(players, coach)

    def _engine_for(self, players: int, coach: int) -> Game:
        self.engine = new_game(players, coach=coach, strict=False, rng=random.Random(self.rng.getrandbits(64)))
        return self.engine

    def play_game(self, game: Game) -> bool:
        """Play ``game`` to its end, entry by entry; False if stopped or a new game came."""
        for action, outcome, g in self._steps(game):
            for kind, data in table_entries(action, outcome, phase_before=self._phase, pile_before=self._pile):
                if self._stop.is_set() or self._new_game.is_set():
                    return False
                try:
                    self.session.enter(kind, data, source=SOURCE)
                except Refused as exc:  # the scorekeeper's rules disagree: wait for a new game
                    log.warning("simulated Passe Éclair entry refused: %s", exc.en)
                    return True
                self.entries += 1
                if self.pace:
                    self._stop.wait(self.pace)
        return True

    def _steps(self, game: Game):
        """``playout_steps`` with the phase and pile before each action remembered."""
        self._phase, self._pile = game.phase, [e.card for e in game.pile]
        for step in playout_steps(self.rng, style=self.style, game=game):
            yield step
            self._phase, self._pile = game.phase, [e.card for e in game.pile]

    def _run(self) -> None:
        game = self.start_game()
        while not self._stop.is_set():
            if self._new_game.is_set():
                self._new_game.clear()
                game = self._follow_dashboard_game()
                if game is None:
                    self._new_game.wait(timeout=0.5)
                    continue
            try:
                finished = self.play_game(game)
            except Exception:  # a simulated player must never take the service down
                log.exception("simulated Passe Éclair table failed")
                finished = True
            if not finished:
                continue
            if self.restart_after is None:
                self._new_game.wait()
                continue
            if not self._new_game.wait(timeout=self.restart_after) and not self._stop.is_set():
                game = self.start_game()

    def _follow_dashboard_game(self) -> Game | None:
        """A game someone started on the dashboard: deal its twin, or None for another game."""
        record = self.session.current_game()
        if record is None or record.game != GAME or self._stop.is_set():
            return None
        return self._engine_for(record.engine.players, record.engine.coach)


def make_simulation(session: Session, *, pace: float, seed: int | None, restart_after: float | None,
                    **_: Any) -> SimulatedPasseEclairTable:
    """The simulated table ``passetable run --sim --game passe-eclair`` starts."""
    return SimulatedPasseEclairTable(session, pace=pace, seed=seed, restart_after=restart_after)
