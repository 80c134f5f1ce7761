"""The compact snapshot a table publishes on ``passetable/<table>/state``: what a café's
hub page and Home Assistant need, not the whole table (no deck, no sensors).

It reads only the snapshot's ``summary`` (every game gives one, in one shape: players with
bilingual names, scores and teams, whose turn, winners; see ``GameAdapter.summary``),
never a game's own view, so a new game needs nothing here.

    >>> snap = {"version": 7, "game_seq": 1, "game": "first-to-10", "alerts": [],
    ...         "feed": [{"t": 5.0, "seq": 6, "kind": "move",
    ...                   "text": {"en": "Ana takes blue 1.", "fr": "Ana prend 1 bleu."}}],
    ...         "summary": {"players": [{"name": {"en": "Ana", "fr": "Ana"}, "score": 3, "team": None},
    ...                                 {"name": {"en": "Bo", "fr": "Bo"}, "score": 1, "team": None}],
    ...                     "turn": 1, "over": False, "winners": []}}
    >>> c = compact(snap, table="bar-1", t=9.0)
    >>> [(p["name"]["en"], p["score"]) for p in c["players"]], c["turn"], c["alerts"]
    ([('Ana', 3), ('Bo', 1)], 1, 0)
    >>> c["last"]["en"], c["seq"]
    ('Ana takes blue 1.', 6)
    >>> compact({"game": None}, table="bar-1", t=1.0)["players"]
    []
"""

from __future__ import annotations

from typing import Any


def compact(snap: dict[str, Any], *, table: str, t: float, url: str | None = None) -> dict[str, Any]:
    summary = snap.get("summary") or {}
    feed = snap.get("feed") or []
    players = []
    for p in summary.get("players") or []:
        player = {"name": p.get("name") or {"en": "?", "fr": "?"}, "score": p.get("score")}
        if p.get("team") is not None:
            player["team"] = p["team"]
        players.append(player)
    last = feed[-1] if feed else None
    winners = summary.get("winners") or []
    return {
        "table": table,
        "game": snap.get("game"),
        "version": snap.get("version"),
        "game_seq": snap.get("game_seq"),
        "seq": max((line.get("seq") or 0 for line in feed), default=snap.get("game_seq") or 0),
        "t": t,
        "players": players,
        "turn": summary.get("turn"),
        "over": bool(summary.get("over", False)),
        "winners": [w for w in winners if isinstance(w, int) and 0 <= w < len(players)],
        "alerts": len(snap.get("alerts") or []),
        "last": (last or {}).get("text"),
        "url": url,
    }
