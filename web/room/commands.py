"""What a verified command from the hub does to the table's session.

    >>> from table.log import EventLog
    >>> from table.session import Session
    >>> session = Session(EventLog(":memory:"))
    >>> run_command(session, {"cmd": "new_game", "args": {"game": "passe-murailles"}})["ok"]
    True
    >>> try:
    ...     run_command(session, {"cmd": "resolve", "args": {"alert": "9-9", "choice": "accept"}})
    ... except CommandRefused as exc:
    ...     print(exc.code)
    no_alert

The session's own commands decide (``start_game`` / ``resolve``, raising
``table.session.Refused``); on a session that predates them, the older ``new_game`` and
a ``resolve`` observation checked against the snapshot's open alerts do the same.
Anything refused raises :class:`~web.room.signing.CommandRefused` with the reason in
both languages.
"""

from __future__ import annotations

from typing import Any

from table import observations as K
from table.observations import Observation
from web.room.signing import CommandRefused

try:
    from table.errors import Refused
except ImportError:  # a tree from before the session's own refusals
    Refused = ValueError

SOURCE = "hub"
# What a session raises for a command it will not apply: each carries en/fr (or a message).
REFUSALS = (Refused, ValueError, KeyError, TypeError)


def run_command(session, cmd: dict[str, Any]) -> dict[str, Any]:
    args = cmd.get("args") or {}
    try:
        if cmd["cmd"] == "new_game":
            seq = _new_game(session, args)
        else:
            seq = _resolve(session, args)
    except CommandRefused:
        raise
    except REFUSALS as exc:
        en, fr = getattr(exc, "en", None) or str(exc), getattr(exc, "fr", None) or str(exc)
        raise CommandRefused(str(getattr(exc, "code", "refused")), en, fr) from None
    return {"ok": True, "seq": seq}


def _new_game(session, args: dict[str, Any]) -> int | None:
    game, options = args.get("game"), args.get("options") or {}
    if not isinstance(game, str) or not isinstance(options, dict):
        raise CommandRefused("malformed", "new_game needs a game name and options as an object",
                             "new_game demande un nom de jeu et des options en objet")
    start = getattr(session, "start_game", None)
    obs = start(game, options, source=SOURCE) if start else session.new_game(game, options, source=SOURCE)
    return getattr(obs, "seq", None)


def _resolve(session, args: dict[str, Any]) -> int | None:
    alert_id, choice, details = args.get("alert"), args.get("choice"), args.get("details") or {}
    if not isinstance(alert_id, str) or not isinstance(choice, str) or not isinstance(details, dict):
        raise CommandRefused("malformed", "resolve needs an alert id and a choice",
                             "resolve demande un identifiant d'alerte et un choix")
    resolve = getattr(session, "resolve", None)
    if resolve is not None:
        obs = resolve(alert_id, choice, details, source=SOURCE)
        return getattr(obs, "seq", None)
    alert = next((a for a in session.snapshot()["alerts"] if a["id"] == alert_id), None)
    if alert is None:
        raise CommandRefused("no_alert", "no open alert with this id (already resolved?)",
                             "aucune alerte ouverte avec cet identifiant (déjà résolue ?)")
    if choice not in {c["id"] for c in alert["choices"]}:
        raise CommandRefused("bad_choice", f"this alert offers no choice {choice!r}",
                             f"cette alerte ne propose pas le choix {choice!r}")
    obs = session.submit(Observation(kind=K.RESOLVE, t=session.clock(), source=SOURCE,
                                     data={**details, "alert": alert_id, "choice": choice}))
    return obs.seq
