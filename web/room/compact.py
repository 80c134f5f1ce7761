"""The compact snapshot a table publishes on ``passetable/<table>/state``: what a café's
hub page and Home Assistant need, not the whole table (no deck, no sensors).

    >>> snap = {"version": 7, "game_seq": 1, "game": "pass-pass", "alerts": [],
    ...         "feed": [{"t": 5.0, "seq": 6, "kind": "move",
    ...                   "text": {"en": "Ana takes blue 1.", "fr": "Ana prend 1 bleu."}}],
    ...         "view": {"names": {"en": ["Ana", "Bo"], "fr": ["Ana", "Bo"]}, "scores": [3, 1], "to_act": 1,
    ...                  "over": False, "winners": []}}
    >>> c = compact(snap, table="bar-1", t=9.0)
    >>> [(p["name"]["en"], p["score"]) for p in c["players"]], c["turn"], c["alerts"]
    ([('Ana', 3), ('Bo', 1)], 1, 0)
    >>> c["last"]["en"], c["seq"]
    ('Ana takes blue 1.', 6)

It reads only the snapshot, never an engine, and never raises on a game it does not
know: such a game is shown with its name and no players.
"""

from __future__ import annotations

from typing import Any

# Passe-Murailles players are colours.
COLOURS = {"red": "rouge", "blue": "bleu", "green": "vert", "yellow": "jaune", "black": "noir", "white": "blanc"}


def compact(snap: dict[str, Any], *, table: str, t: float, url: str | None = None) -> dict[str, Any]:
    view = snap.get("view") or {}
    feed = snap.get("feed") or []
    names, scores, turn, winners = _players(snap.get("game"), view)
    players = [{"name": n, "score": s} for n, s in zip(names, scores)]
    teams = [seat.get("team") for seat in view.get("seats") or []]
    if view.get("teams") and len(teams) == len(names) and all(isinstance(t, int) for t in teams):
        # a team game scores per team: each player shows the team's score and its team
        players = [{"name": n, "score": scores[t] if t < len(scores) else None, "team": t}
                   for n, t in zip(names, teams)]
        winners = [seat for seat, t in enumerate(teams) if t in winners]  # the engine names winning teams
    last = feed[-1] if feed else None
    return {
        "table": table,
        "game": snap.get("game"),
        "version": snap.get("version"),
        "game_seq": snap.get("game_seq"),
        "seq": max((line.get("seq") or 0 for line in feed), default=snap.get("game_seq") or 0),
        "t": t,
        "players": players,
        "turn": turn,
        "over": bool(view.get("over", False)),
        "winners": [w for w in winners if isinstance(w, int) and 0 <= w < len(names)],
        "alerts": len(snap.get("alerts") or []),
        "last": (last or {}).get("text"),
        "url": url,
    }


def _players(game: str | None, view: dict[str, Any]) -> tuple[list[dict[str, str]], list[Any], int | None, list]:
    """(bilingual names, scores, index of whose turn, winners' indexes) for each game's view."""
    if game == "passe-murailles":
        scores = view.get("scores") or {}
        colours = list(scores)
        names = [{"en": c.capitalize(), "fr": COLOURS.get(c, c).capitalize()} for c in colours]
        current = view.get("current_player")
        turn = colours.index(current) if current in colours else None
        winners = [colours.index(w) for w in view.get("winners") or [] if w in colours]  # colours here
        return names, [scores[c] for c in colours], turn, winners
    raw = view.get("names") or {}
    en, fr = raw.get("en") or [], raw.get("fr") or raw.get("en") or []
    names = [{"en": str(a), "fr": str(b)} for a, b in zip(en, fr)]
    if "scores" in view and isinstance(view["scores"], list):
        scores = view["scores"]
    elif isinstance(view.get("goal_points"), list):  # Passe Éclair
        scores = view["goal_points"]
    elif isinstance(view.get("victory_tokens"), list):  # PtiPassPass: tokens won
        scores = [v if isinstance(v, int) else len(v) for v in view["victory_tokens"]]
    else:
        scores = [None] * len(names)
    turn = next((view[k] for k in ("to_act", "active") if isinstance(view.get(k), int)), None)
    if game == "passe-eclair":
        turn = None  # a real-time game: nobody waits for a turn
    return names, list(scores), turn, list(view.get("winners") or [])
