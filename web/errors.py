"""What every route shares: the languages, bilingual JSON errors, reading a JSON body.

    >>> BadRequest("Send a JSON object.", "Envoyez un objet JSON.").status
    400
"""

from __future__ import annotations

from typing import Any

from flask import request

LANGS = ("fr", "en")


class BadRequest(Exception):
    """A request the client must change; answered ``{"error": {"en", "fr"}}``."""

    def __init__(self, en: str, fr: str, status: int = 400, code: str = "bad_request"):
        super().__init__(en)
        self.en, self.fr, self.status, self.code = en, fr, status, code


def json_body() -> dict[str, Any]:
    """The request's JSON object, or :class:`BadRequest`."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadRequest("Send a JSON object.", "Envoyez un objet JSON.")
    return body


def page_lang() -> str:
    """The page's language: ``?lang=``, then the remembered choice, then French."""
    lang = request.args.get("lang") or request.cookies.get("lang") or "fr"
    return lang if lang in LANGS else "fr"
