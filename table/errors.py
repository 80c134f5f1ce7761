"""Refusals: what the session says when a command cannot be applied.

A refusal is never logged: the command is checked under the session's lock, and only
what passes is written to the event log. Every refusal carries a sentence in both
languages of the dashboard and a machine-readable ``code``.

    >>> err = Refused("no_game", "No game is running.", "Aucune partie en cours.", status=409)
    >>> err.code, err.status, str(err)
    ('no_game', 409, 'No game is running.')
"""

from __future__ import annotations

from typing import Any


class Refused(ValueError):
    """A command the session did not apply. ``status`` is the HTTP status the web layer
    answers with (4xx); ``code`` is stable for programs (tests, MQTT, the camera)."""

    def __init__(self, code: str, en: str, fr: str, *, status: int = 422):
        super().__init__(en)
        self.code, self.en, self.fr, self.status = code, en, fr, status

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "en": self.en, "fr": self.fr}


class UnknownGame(Refused, KeyError):
    """A game id no installed game answers to."""

    def __init__(self, name: str, known: list[str] | tuple[str, ...] = ()):
        listed = ", ".join(known) or "-"
        super().__init__("unknown_game", f"Unknown game {name!r}; the games are: {listed}.",
                         f"Jeu inconnu {name!r} ; les jeux sont : {listed}.", status=400)

    def __str__(self) -> str:  # KeyError would quote the message
        return self.en
