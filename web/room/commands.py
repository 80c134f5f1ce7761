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

The session's own commands decide (``start_game`` / ``resolve``, source ``"hub"``); what
they refuse (``table.session.Refused``) comes back as
:class:`~web.room.signing.CommandRefused` with the same code and sentences.
"""

from __future__ import annotations

from typing import Any

from table.session import Refused
from web.room.signing import CommandRefused

SOURCE = "hub"


def run_command(session, cmd: dict[str, Any]) -> dict[str, Any]:
    args = cmd.get("args") or {}
    try:
        if cmd["cmd"] == "new_game":
            obs = _new_game(session, args)
        else:
            obs = _resolve(session, args)
    except Refused as exc:
        raise CommandRefused(exc.code, exc.en, exc.fr) from None
    return {"ok": True, "seq": obs.seq}


def _new_game(session, args: dict[str, Any]):
    game, options = args.get("game"), args.get("options") or {}
    if not isinstance(game, str) or not isinstance(options, dict):
        raise CommandRefused("malformed", "new_game needs a game name and options as an object",
                             "new_game demande un nom de jeu et des options en objet")
    return session.start_game(game, options, source=SOURCE)


def _resolve(session, args: dict[str, Any]):
    alert_id, choice, details = args.get("alert"), args.get("choice"), args.get("details") or {}
    if not isinstance(alert_id, str) or not isinstance(choice, str) or not isinstance(details, dict):
        raise CommandRefused("malformed", "resolve needs an alert id and a choice",
                             "resolve demande un identifiant d'alerte et un choix")
    return session.resolve(alert_id, choice, details, source=SOURCE)
