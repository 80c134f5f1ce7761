"""Past games, read back from the event log: no second store.

Each ``game_start`` opens a game that runs to the next start. A game's summary (players,
scores, winners), its sentences and its end are what replaying its observations through
a fresh adapter gives, leaving out the undone ones, as the session itself does. Replays
are kept in a small cache keyed by the game's first and last row, so a listing reads the
log once and replays only games that changed.

    >>> from table.log import EventLog
    >>> from table.observations import Observation
    >>> log = EventLog(":memory:")
    >>> _ = log.append(Observation(kind="game_start", t=1_700_000_000.0, source="test",
    ...                            data={"game": "pass-pass", "options": {"players": 3, "names": ["Ana", "Bo", "Cy"]}}))
    >>> [g] = past_games(log)
    >>> g.seq, g.game, [p["name"]["en"] for p in g.players], g.over
    (1, 'pass-pass', ['Ana', 'Bo', 'Cy'], False)
    >>> print(to_csv([g]).splitlines()[0])
    game,start_utc,end_utc,game_id,players,scores,winners,over,events
"""

from __future__ import annotations

import csv
import io
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from table import games
from table import observations as K
from table.log import EventLog
from table.observations import Observation

log = logging.getLogger(__name__)

CACHE_SIZE = 64
def _cache_of(log_: EventLog) -> OrderedDict[tuple[int, int, int], PastGame]:
    """The replayed games of this log (kept on the log: two logs never share rows' keys)."""
    cache = getattr(log_, "_history_cache", None)
    if cache is None:
        cache = OrderedDict()
        log_._history_cache = cache  # type: ignore[attr-defined]
    return cache


@dataclass
class PastGame:
    """One game as the log tells it: ``seq`` is its ``game_start`` row (its id)."""

    seq: int
    game: str
    names: dict[str, str]
    started: float
    ended: float
    options: dict[str, Any]
    players: list[dict[str, Any]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    over: bool = False
    feed: list[dict[str, Any]] = field(default_factory=list)
    events: int = 0
    problem: dict[str, str] | None = None

    def result(self, lang: str = "en") -> str:
        """The result in words: who won (or that it was not finished)."""
        names = [p["name"].get(lang) or p["name"].get("en", "?") for p in self.players]
        if not self.over:
            return "Pas terminée" if lang == "fr" else "Not finished"
        won = [names[w] for w in self.winners if isinstance(w, int) and 0 <= w < len(names)]
        if not won:
            return "Égalité" if lang == "fr" else "Draw"
        joined = (" et " if lang == "fr" else " and ").join(won)
        if lang == "fr":
            return f"{joined} {'gagnent' if len(won) > 1 else 'gagne'}"
        return f"{joined} {'win' if len(won) > 1 else 'wins'}"

    def to_dict(self, *, feed: bool = False) -> dict[str, Any]:
        out = {"game": self.seq, "game_id": self.game, "names": self.names,
               "start_utc": _iso(self.started), "end_utc": _iso(self.ended), "options": self.options,
               "players": self.players, "winners": self.winners, "over": self.over, "events": self.events,
               "result": {"en": self.result("en"), "fr": self.result("fr")}}
        if self.problem:
            out["problem"] = self.problem
        if feed:
            out["feed"] = [{**f, "utc": _iso(f["t"]) if isinstance(f.get("t"), (int, float)) else None}
                           for f in self.feed]
        return out


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")


def _spans(log_: EventLog) -> list[tuple[Observation, list[Observation]]]:
    """Each game's start and the rows up to the next start, in log order."""
    out: list[tuple[Observation, list[Observation]]] = []
    for obs in log_.read():
        if obs.kind == K.GAME_START:
            out.append((obs, []))
        elif out:
            out[-1][1].append(obs)
    return out


def _replay(start: Observation, rows: list[Observation]) -> PastGame:
    game = str(start.data.get("game"))
    try:
        spec = games.get(game)
        names = dict(spec.names)
    except Exception:  # a game this version does not have any more
        spec, names = None, {"en": game, "fr": game}
    ended = max([start.t, *(o.t for o in rows)])
    past = PastGame(seq=start.seq or 0, game=game, names=names, started=start.t, ended=ended,
                    options=dict(start.data.get("options") or {}), events=len(rows))
    if spec is None:
        past.problem = {"en": "This game is not installed.", "fr": "Ce jeu n'est pas installé."}
        return past
    undone = {o.data.get("seq") for o in rows if o.kind == K.UNDO}
    try:
        adapter = spec.adapter_class()(start)
    except Exception as exc:
        past.problem = {"en": f"This game cannot be replayed: {exc}",
                        "fr": f"Cette partie ne peut être rejouée : {exc}"}
        return past
    for obs in rows:
        if obs.kind == K.UNDO or obs.seq in undone:
            continue
        try:
            adapter.observe(obs)
        except Exception:  # the session quarantined it too: left out
            log.debug("history: row %s left out of game %s", obs.seq, start.seq, exc_info=True)
    summary = adapter.summary()
    past.players = list(summary.get("players") or [])
    past.winners = list(summary.get("winners") or [])
    past.over = bool(summary.get("over"))
    past.feed = list(adapter.feed)
    return past


def past_games(log_: EventLog) -> list[PastGame]:
    """Every game in the log, newest first."""
    spans = _spans(log_)
    cache = _cache_of(log_)
    out = []
    for start, rows in spans:
        key = (start.seq or 0, rows[-1].seq if rows and rows[-1].seq else 0, len(rows))
        past = cache.get(key)
        if past is None:
            past = _replay(start, rows)
            cache[key] = past
            if len(cache) > CACHE_SIZE:
                cache.popitem(last=False)
        out.append(past)
    return out[::-1]


def past_game(log_: EventLog, seq: int) -> PastGame | None:
    """The game started at row ``seq``, or None."""
    return next((g for g in past_games(log_) if g.seq == seq), None)


def _players(g: PastGame, lang: str) -> str:
    return " / ".join(str(p["name"].get(lang) or p["name"].get("en")) for p in g.players)


def to_csv(past: list[PastGame], lang: str = "en") -> str:
    """One line per game (the listing as a spreadsheet)."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["game", "start_utc", "end_utc", "game_id", "players", "scores", "winners", "over", "events"])
    for g in past:
        names = [str(p["name"].get(lang) or p["name"].get("en")) for p in g.players]
        w.writerow([g.seq, _iso(g.started), _iso(g.ended), g.game, _players(g, lang),
                    " / ".join("" if p.get("score") is None else str(p["score"]) for p in g.players),
                    " / ".join(names[i] for i in g.winners if isinstance(i, int) and 0 <= i < len(names)),
                    "yes" if g.over else "no", g.events])
    return buf.getvalue()


def sheet_csv(g: PastGame) -> str:
    """One game's full sheet: the players' scores, then every sentence with its time."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["player", "score", "winner"])
    for i, p in enumerate(g.players):
        w.writerow([p["name"].get("en"), "" if p.get("score") is None else p["score"], "yes" if i in g.winners else ""])
    w.writerow([])
    w.writerow(["utc", "kind", "en", "fr"])
    for f in g.feed:
        t = f.get("t")
        w.writerow([_iso(t) if isinstance(t, (int, float)) else "", f.get("kind", ""),
                    f["text"].get("en", ""), f["text"].get("fr", "")])
    return buf.getvalue()


def to_json(past: list[PastGame]) -> str:
    return json.dumps({"games": [g.to_dict() for g in past]}, ensure_ascii=False)
