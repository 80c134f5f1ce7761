"""What every route shares: the languages, bilingual JSON errors, reading a JSON body.

A body is read only within bounds (the server refuses more than 64 KB first): at most
16 levels of nesting, integers that fit in a double, texts of 2,000 characters and lists
of 1,000 items; anything else is a clear 400 or 422, never a crash.

    >>> BadRequest("Send a JSON object.", "Envoyez un objet JSON.").status
    400
    >>> check_bounds({"seq": 2**63})
    Traceback (most recent call last):
    ...
    web.errors.BadRequest: The number 9223372036854775808 is out of range.
    >>> nesting_depth(b'{"a": [[{"b": "]]]"}]]}')
    4
"""

from __future__ import annotations

import json
from typing import Any

from flask import request

LANGS = ("fr", "en")
MAX_BODY = 64 * 1024
MAX_DEPTH = 16
MAX_INT = 2**53
MAX_TEXT = 2000
MAX_ITEMS = 1000


class BadRequest(Exception):
    """A request the client must change; answered ``{"error": {"en", "fr"}}``."""

    def __init__(self, en: str, fr: str, status: int = 400, code: str = "bad_request"):
        super().__init__(en)
        self.en, self.fr, self.status, self.code = en, fr, status, code


def json_body() -> dict[str, Any]:
    """The request's JSON object within bounds, or :class:`BadRequest`."""
    raw = request.get_data(cache=True)  # over MAX_BODY, waitress (web.server) or werkzeug answered 413 already
    if nesting_depth(raw) > MAX_DEPTH:
        raise BadRequest(f"The JSON is nested more than {MAX_DEPTH} levels deep.",
                         f"Le JSON est imbriqué sur plus de {MAX_DEPTH} niveaux.", code="too_deep")
    try:
        body = json.loads(raw or b"null")
    except (ValueError, RecursionError):
        body = None
    if not isinstance(body, dict):
        raise BadRequest("Send a JSON object.", "Envoyez un objet JSON.")
    check_bounds(body)
    return body


def nesting_depth(raw: bytes) -> int:
    """How deep ``[``/``{`` nest in a JSON text (strings skipped), without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def check_bounds(value: Any) -> None:
    """Refuse (422) numbers, texts and lists no entry of this service can need."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        if abs(value) > MAX_INT:
            raise BadRequest(f"The number {value} is out of range.", f"Le nombre {value} est hors limites.", 422,
                             code="out_of_range")
    elif isinstance(value, float):
        if value != value or abs(value) > MAX_INT:  # NaN or huge
            raise BadRequest("A number is out of range.", "Un nombre est hors limites.", 422, code="out_of_range")
    elif isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise BadRequest(f"A text is longer than {MAX_TEXT} characters.",
                             f"Un texte dépasse {MAX_TEXT} caractères.", 422, code="too_long")
    elif isinstance(value, dict):
        if len(value) > MAX_ITEMS:
            raise BadRequest("Too many fields.", "Trop de champs.", 422, code="too_long")
        for key, item in value.items():
            check_bounds(key)
            check_bounds(item)
    elif isinstance(value, list):
        if len(value) > MAX_ITEMS:
            raise BadRequest(f"A list has more than {MAX_ITEMS} items.", f"Une liste a plus de {MAX_ITEMS} éléments.",
                             422, code="too_long")
        for item in value:
            check_bounds(item)


def page_lang() -> str:
    """The page's language: ``?lang=``, then the remembered choice, then French."""
    lang = request.args.get("lang") or request.cookies.get("lang") or "fr"
    return lang if lang in LANGS else "fr"
