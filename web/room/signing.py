"""Commands from the hub, signed with the table's PIN (HMAC-SHA256), so that the broker's
ACLs are not the only lock on a table.

    >>> cmd = sign("4821", {"table": "bar-1", "cmd": "resolve", "args": {"alert": "12-1", "choice": "accept"}}, t=100.0)
    >>> v = Verifier("4821", table="bar-1", clock=lambda: 101.0)
    >>> v.verify(json.dumps(cmd).encode())["args"]["choice"]
    'accept'
    >>> try:
    ...     v.verify(json.dumps(cmd).encode())      # the same message twice: a replay
    ... except CommandRefused as exc:
    ...     print(exc.code, "/", exc.fr)
    replay / cette commande a déjà été reçue (un rejeu ?)

The signature covers the canonical JSON of every field but ``sig`` (sorted keys, no
spaces, UTF-8): the table name (a command for one table cannot be replayed on another
with the same PIN), a time (refused beyond ``WINDOW_S``) and an id (refused twice).
An observer of signed commands can try PINs offline, so a café should choose a long PIN.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

WINDOW_S = 60.0
COMMANDS = ("new_game", "resolve")


class CommandRefused(Exception):
    def __init__(self, code: str, en: str, fr: str):
        super().__init__(f"{en} / {fr}")
        self.code, self.en, self.fr = code, en, fr


def canonical(fields: dict[str, Any]) -> bytes:
    body = {k: v for k, v in fields.items() if k != "sig"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def signature(pin: str, fields: dict[str, Any]) -> str:
    return hmac.new(pin.encode(), canonical(fields), hashlib.sha256).hexdigest()


def sign(pin: str, command: dict[str, Any], *, t: float | None = None) -> dict[str, Any]:
    """``command`` (``table``, ``cmd``, ``args``) with an id, a time and its signature."""
    fields = {"id": uuid.uuid4().hex, "t": time.time() if t is None else t, **command}
    return {**fields, "sig": signature(pin, fields)}


class Verifier:
    """Checks commands for one table; remembers the ids seen within the time window."""

    def __init__(self, pin: str | None, *, table: str, clock: Callable[[], float] = time.time):
        self.pin, self.table, self.clock = pin, table, clock
        self._seen: OrderedDict[str, float] = OrderedDict()
        self.refused = 0

    def verify(self, payload: bytes) -> dict[str, Any]:
        try:
            return self._verify(payload)
        except CommandRefused:
            self.refused += 1
            raise

    def _verify(self, payload: bytes) -> dict[str, Any]:
        try:
            cmd = json.loads(payload)
        except (ValueError, UnicodeDecodeError):
            cmd = None
        if not isinstance(cmd, dict):
            raise CommandRefused("malformed", "a command must be a JSON object", "une commande doit être un objet JSON")
        if not self.pin:
            raise CommandRefused("no_pin", "this table has no PIN: it takes no commands",
                                 "cette table n'a pas de PIN : elle n'accepte aucune commande")
        sig = cmd.get("sig")
        if not isinstance(sig, str) or not hmac.compare_digest(sig, signature(self.pin, cmd)):
            raise CommandRefused("bad_signature", "the command is not signed with this table's PIN",
                                 "la commande n'est pas signée avec le PIN de cette table")
        if cmd.get("table") != self.table:
            raise CommandRefused("wrong_table", "the command is for another table",
                                 "la commande est pour une autre table")
        t, now = cmd.get("t"), self.clock()
        if not isinstance(t, (int, float)) or abs(now - t) > WINDOW_S:
            raise CommandRefused("stale", "the command is too old or from a clock that is wrong",
                                 "la commande est trop ancienne ou vient d'une horloge fausse")
        cid = cmd.get("id")
        if not isinstance(cid, str) or not cid:
            raise CommandRefused("malformed", "the command has no id", "la commande n'a pas d'identifiant")
        self._forget(now)
        if cid in self._seen:
            raise CommandRefused("replay", "this command was already received (a replay?)",
                                 "cette commande a déjà été reçue (un rejeu ?)")
        if cmd.get("cmd") not in COMMANDS or not isinstance(cmd.get("args", {}), dict):
            raise CommandRefused("unknown", f"unknown command {cmd.get('cmd')!r}",
                                 f"commande inconnue {cmd.get('cmd')!r}")
        self._seen[cid] = now
        return cmd

    def _forget(self, now: float) -> None:
        while self._seen and next(iter(self._seen.values())) < now - 2 * WINDOW_S:
            self._seen.popitem(last=False)
