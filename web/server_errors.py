"""What waitress answers by itself, before the app sees a request, in the app's own shape.

waitress refuses some requests while it parses them: a body over the limit (413, from the
``Content-Length`` alone, or as soon as a chunked body passes it), a header block too large
(431), a malformed request (400). Its own answer is English plain text; a phone's page
expects ``{"error": {"en", "fr", "code"}}`` like every other refusal, and the security
headers. :class:`BilingualChannel` is waitress's channel with that error task.

    >>> status, headers, body = bilingual_error(413)
    >>> status, json.loads(body)["error"]["code"]
    ('413 Request Entity Too Large', 'too_large')
"""

from __future__ import annotations

import json

from waitress.channel import HTTPChannel
from waitress.task import ErrorTask

from web.app import SECURITY_HEADERS
from web.errors import MAX_BODY

_REASONS = {400: "Bad Request", 413: "Request Entity Too Large", 431: "Request Header Fields Too Large",
            500: "Internal Server Error", 501: "Not Implemented"}
_WORDS = {
    400: ("The request is malformed.", "La requête est mal formée.", "bad_request"),
    413: (f"The request is too large ({MAX_BODY // 1024} KB at most).",
          f"La requête est trop grande ({MAX_BODY // 1024} Ko au plus).", "too_large"),
    431: ("The request's headers are too large.", "Les en-têtes de la requête sont trop grands.", "too_large"),
    500: ("Internal error; the table's log is safe. See the service log.",
          "Erreur interne ; le journal de la table est intact. Voir le journal du service.", "internal"),
    501: ("This transfer encoding is not supported.", "Ce codage de transfert n'est pas pris en charge.",
          "not_implemented"),
}


def bilingual_error(code: int) -> tuple[str, list[tuple[str, str]], bytes]:
    """Status line, headers and JSON body for a refusal waitress makes itself."""
    en, fr, name = _WORDS.get(code, _WORDS[400])
    body = json.dumps({"error": {"en": en, "fr": fr, "code": name}}, ensure_ascii=False).encode()
    headers = [("Content-Type", "application/json"), *SECURITY_HEADERS.items()]
    return f"{code} {_REASONS.get(code, 'Bad Request')}", headers, body


class BilingualErrorTask(ErrorTask):
    """waitress's error task with the app's JSON body; still closes the connection (the
    rest of a refused body is never read)."""

    def execute(self):
        status, headers, body = bilingual_error(self.request.error.code)
        self.status = status
        self.response_headers.extend(headers)
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class BilingualChannel(HTTPChannel):
    error_task_class = BilingualErrorTask
