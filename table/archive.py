"""The games archive: finished games compacted to their moves and results, and the raw
sensor facts pruned after a number of days.

When a game ends (another one starts), the session records it here in one row of the
log's ``archive`` table: the game, its options, its start and end, what people entered
(entries, resolutions, undos), the engine's record (``to_dict()``: moves and scores) and
the final view, as compressed JSON. The raw sensor facts of an archived game (slides,
drops, beams: every observation that is not a start, an undo, a resolution or a person's
entry) stay in the log for ``keep_days`` days, for a replay after a bug fix, and are
then deleted by :func:`prune`. The current game, every ``game_start`` and the newest
row are never pruned (so seqs never go back).

    >>> from table.log import EventLog
    >>> from table.session import Session
    >>> from table.observations import Observation
    >>> session = Session(EventLog(":memory:"))
    >>> _ = session.start_game("passe-murailles", t=1000.0)
    >>> _ = session.submit(Observation("slide", t=1001.0, source="sim", data={"slide": 1, "offset": 1}))
    >>> _ = session.start_game("passe-murailles", t=1002.0)
    >>> [(g["game_seq"], g["game"], g["raw_facts"]) for g in games(session.log)]
    [(1, 'passe-murailles', 1)]
    >>> prune(session.log, keep_days=1, now=1001.0 + 86400 + 1)
    1
    >>> [o.kind for o in session.log.read()]
    ['game_start', 'game_start']
    >>> load(session.log, 1)["result"]["over"]
    False
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from table import observations as K
from table.log import EventLog

#: kinds that are never pruned: they say what people did and where games begin
KEPT_KINDS = (K.GAME_START, K.UNDO, K.RESOLVE)
PERSON_SOURCES = ("dashboard",)
KEEP_DAYS = 30

_SCHEMA = """CREATE TABLE IF NOT EXISTS archive (
    game_seq INTEGER PRIMARY KEY,
    end_seq  INTEGER NOT NULL,
    game     TEXT NOT NULL,
    started  REAL NOT NULL,
    ended    REAL NOT NULL,
    raw      INTEGER NOT NULL,
    record   BLOB NOT NULL
)"""


def _ensure(log: EventLog) -> None:
    log.execute(_SCHEMA)


def record_game(log: EventLog, adapter: Any, game_seq: int, end_seq: int) -> int:
    """Archive the game that started at ``game_seq`` and ended before ``end_seq``;
    returns the size in bytes of its compressed record."""
    _ensure(log)
    rows = list(log.read(after=game_seq - 1, upto=end_seq - 1))
    if not rows:
        return 0
    kept = [o.to_dict() for o in rows if o.kind in KEPT_KINDS or o.source in PERSON_SOURCES]
    raw = len(rows) - len(kept)
    engine = getattr(adapter, "g", None)
    try:
        engine_record = engine.to_dict() if engine is not None and hasattr(engine, "to_dict") else None
    except Exception:
        engine_record = None
    try:
        over = bool(engine.is_over()) if engine is not None else False
    except Exception:
        over = False
    record = {"game": adapter.game, "game_seq": game_seq, "end_seq": end_seq, "options": adapter.options,
              "entries": kept, "result": {"over": over, "view": adapter.view(), "engine": engine_record},
              "feed": adapter.feed}
    blob = zlib.compress(json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str).encode(), 9)
    log.execute("INSERT OR REPLACE INTO archive (game_seq, end_seq, game, started, ended, raw, record) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)", (game_seq, end_seq, adapter.game, rows[0].t, rows[-1].t, raw, blob))
    return len(blob)


def games(log: EventLog) -> list[dict[str, Any]]:
    """The archived games, oldest first, with their size (``bytes``) and raw fact count."""
    _ensure(log)
    rows = log.execute("SELECT game_seq, end_seq, game, started, ended, raw, length(record) FROM archive "
                       "ORDER BY game_seq")
    return [{"game_seq": r[0], "end_seq": r[1], "game": r[2], "started": r[3], "ended": r[4], "raw_facts": r[5],
             "bytes": r[6]} for r in rows]


def load(log: EventLog, game_seq: int) -> dict[str, Any] | None:
    """The archived record of one game (entries, result, feed), or None."""
    _ensure(log)
    rows = log.execute("SELECT record FROM archive WHERE game_seq=?", (game_seq,))
    return json.loads(zlib.decompress(rows[0][0])) if rows else None


def prune(log: EventLog, *, keep_days: float = KEEP_DAYS, now: float) -> int:
    """Delete the raw sensor facts of archived games older than ``keep_days``; returns
    how many rows went. Kinds in :data:`KEPT_KINDS`, people's entries, the current game
    (anything from the last start on) and the newest row stay."""
    _ensure(log)
    cutoff = now - keep_days * 86400.0
    last_start = log.last_seq(K.GAME_START)
    newest = log.last_seq()
    kinds = ",".join(f"'{k}'" for k in KEPT_KINDS)
    people = ",".join(f"'{s}'" for s in PERSON_SOURCES)
    gone = 0
    for game_seq, end_seq in log.execute("SELECT game_seq, end_seq FROM archive WHERE ended < ? AND raw > 0",
                                         (cutoff,)):
        upper = min(end_seq, last_start, newest)
        before = log.execute("SELECT COUNT(*) FROM observations WHERE seq > ? AND seq < ?", (game_seq, upper))[0][0]
        log.execute(f"DELETE FROM observations WHERE seq > ? AND seq < ? AND kind NOT IN ({kinds}) "
                    f"AND source NOT IN ({people})", (game_seq, upper))
        after = log.execute("SELECT COUNT(*) FROM observations WHERE seq > ? AND seq < ?", (game_seq, upper))[0][0]
        log.execute("UPDATE archive SET raw = 0 WHERE game_seq = ?", (game_seq,))
        gone += before - after
    return gone
