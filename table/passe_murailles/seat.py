"""A seat for the machine on the real frame: the bot says its move, a person makes it.

With the game option ``bot`` (``"red"`` or ``"blue"``) the :class:`BotSeat` part, on the
bot's turn, searches a move (:func:`~table.passe_murailles.bot.bot_turn`, at
``bot_level`` 1..5, in its own thread, on a private copy of the game) and records it as a
``passe_murailles.bot_move`` observation (source ``"bot"``: an announcement, not a game
fact). The page and the TV show the sentence ("Bot : déplacez la coulisse 4 vers la
droite"), the GPIO buzzer beeps and the turn light is already the bot's; a person (or the
simulated hand) makes the move on the frame, and the sensors report it as usual. The
adapter (:class:`BotSayings`) compares the sensed move with the one asked: a different
move is played (the frame is the truth) and raises an alert saying what the bot asked.

    >>> session.start_game("passe-murailles", {"bot": "red", "bot_level": 1})  # doctest: +ELLIPSIS
    Observation(kind='game_start', ...)
    >>> seat = BotSeat(session, budget_s=0.05)
    >>> seat.announce_if_due()
    True
    >>> session.snapshot()["view"]["bot"]["say"]["fr"].startswith("Bot : ")
    True
    >>> seat.announce_if_due()         # already asked for this position
    False
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from table.adapter import Alert, text
from table.errors import Refused
from table.observations import Observation
from table.passe_murailles.actions import Action, MoveBoard, action_from_dict
from table.passe_murailles.bot import BotTurn, asked_otherwise, bot_turn
from table.passe_murailles.hints import hint
from table.passe_murailles.search import Searcher

log = logging.getLogger(__name__)

BOT_MOVE = "passe_murailles.bot_move"
SOURCE = "bot"
GAME = "passe-murailles"


class BotSayings:
    """The adapter's half: remember what the bot asked, check the move the frame shows."""

    def _bot_init(self) -> None:
        self.bot_asked: dict[str, Any] | None = None  # {player, action, say, level, moves}

    def _bot_said(self, obs: Observation) -> None:
        data = obs.data
        g = self.g
        if g.is_over() or data.get("player") != g.current_player or data.get("moves") != len(g.history):
            return  # said for a position that is gone (a move came first): nothing to remember
        self.bot_asked = dict(data)
        self.say(obs.t, data["say"]["en"], data["say"]["fr"], kind="bot", seq=obs.seq)

    def _bot_check(self, obs: Observation, outcome: Any) -> None:
        """After a move is played: was it the one the bot asked for?"""
        asked, self.bot_asked = self.bot_asked, None
        if asked is None or asked["player"] != outcome.player:
            return
        done: Action = outcome.action
        board = self.g.frame.board_position - (done.step if isinstance(done, MoveBoard) else 0)
        turn = BotTurn(asked["player"], action_from_dict(asked["action"]), asked["say"], asked.get("level", 0), 0, 0.0)
        problem = asked_otherwise(turn, done, board=board)
        if problem:
            self.raise_alert(Alert(id=self.new_alert_id(obs), kind="bot_mismatch", message=problem, since=obs.t,
                                   expected=asked["action"], seen=done.to_dict(),
                                   choices=[{"id": "ok", "label": text("Understood: the game goes on",
                                                                       "Compris : la partie continue")}]))

    def bot_view(self) -> dict[str, Any] | None:
        asked = self.bot_asked
        if asked is None or self.g.is_over() or asked["moves"] != len(self.g.history):
            return None
        return {"player": asked["player"], "say": asked["say"], "action": asked["action"]}


class BotSeat:
    """The service part that speaks for the bot (start/stop with the service)."""

    def __init__(self, session: Any, *, budget_s: float = 0.2, clock: Callable[[], float] = time.time):
        self.session = session
        self.budget_s = budget_s
        self.clock = clock
        self.searcher = Searcher()
        self._searcher_for: int | None = None   # the game the transposition table belongs to
        self._seat_of: tuple[int, bool] = (-1, False)  # (game's start seq, whether that game has a bot)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        session.subscribe(lambda obs, _session: self._wake.set())

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="bot-seat", daemon=True)
        self._thread.start()
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait()
            self._wake.clear()
            if self._stop.is_set():
                break
            try:
                self.announce_if_due()
            except Exception:  # the bot must never take the table down
                log.exception("the bot seat failed")

    def announce_if_due(self) -> bool:
        """Search and say the bot's move if it is the bot's turn and it has not spoken yet."""
        if not self._game_has_bot():
            return False  # the common case, checked without drawing the table for every sensor fact
        snap = self.session.snapshot()
        options_bot = (snap.get("view") or {}).get("bot_seat")
        if snap.get("game") != GAME or not options_bot or (snap["view"] or {}).get("bot"):
            return False
        if snap["view"]["over"] or snap["view"]["current_player"] != options_bot["player"] or snap["view"]["put_back"]:
            return False
        record = self.session.current_game()  # a private copy: the search runs outside the session's lock
        if record is None or record.game != GAME:
            return False
        if self._searcher_for != record.seq:
            self.searcher, self._searcher_for = Searcher(), record.seq
        game = record.engine
        turn = bot_turn(game, options_bot["level"], self.budget_s, searcher=self.searcher)
        try:
            self.session.submit(Observation(kind=BOT_MOVE, t=self.clock(), source=SOURCE, data={
                **turn.to_dict(), "moves": len(game.history)}))
        except Refused as exc:  # the log cannot be written now: try at the next change
            log.warning("the bot's move was not recorded: %s", exc.en)
            return False
        return True


    def _game_has_bot(self) -> bool:
        """Whether the current game was started with a ``bot`` (read once per game from its start)."""
        if self.session.game != GAME:
            return False
        seq = self.session.game_seq
        if self._seat_of[0] != seq:
            start = self.session.log.get(seq) if seq else None
            options = (start.data.get("options") or {}) if start is not None else {}
            self._seat_of = (seq, options.get("bot") in ("red", "blue"))
        return self._seat_of[1]


def hint_for_page(game: Any) -> dict[str, Any]:
    """What the page's hint button shows: the best move and every move's threat, for the
    player to move (``game`` is a private copy; it is left as it was)."""
    return hint(game, budget_s=0.2).to_dict()


def make_parts(session: Any, settings: Any = None) -> list[Any]:
    """The service parts this game adds (the CLI calls it): the bot's seat, idle unless a
    game is started with the ``bot`` option."""
    return [BotSeat(session)]
