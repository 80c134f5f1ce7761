"""Logging for ``passetable run``: a level, and a format the journal understands.

Under systemd the service's stderr goes to the journal (systemd sets ``JOURNAL_STREAM``
to that stream's device and inode). There each line starts with its syslog priority,
``<4>`` for a warning, which journald reads as the entry's level (``journalctl -p
warning`` then filters on it), and carries no timestamp (the journal has its own). In a
terminal, lines carry the time and the level's name instead.

    >>> import io
    >>> out = io.StringIO()
    >>> handler = setup_logging("info", stream=out, journal=True)
    >>> logging.getLogger("firmware_bridge").warning("port lost: %s", "EIO")
    >>> logging.getLogger("firmware_bridge").debug("not shown at info")
    >>> out.getvalue()
    '<4>firmware_bridge: port lost: EIO\\n'
    >>> remove_logging(handler)
    >>> parse_level("verbose")
    Traceback (most recent call last):
    ...
    ValueError: unknown log level 'verbose' (debug, info, warning, error) | niveau de journal inconnu 'verbose' ...
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}

# syslog priorities (sd-daemon.h): what journald reads from a "<N>" line prefix
_PRIORITY = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4, logging.INFO: 6, logging.DEBUG: 7}


def parse_level(name: str) -> int:
    key = str(name).strip().lower()
    if key not in LEVELS:
        choices = ", ".join(LEVELS)
        raise ValueError(f"unknown log level {name!r} ({choices}) | niveau de journal inconnu {name!r} ({choices})")
    return LEVELS[key]


class JournalFormatter(logging.Formatter):
    """``<priority>logger: message``, one line per record (a traceback's lines follow
    with the same priority, so ``journalctl -p err`` keeps them together)."""

    def format(self, record: logging.LogRecord) -> str:
        prio = _PRIORITY.get(record.levelno) or (3 if record.levelno >= logging.ERROR else 6)
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return "\n".join(f"<{prio}>{line}" for line in text.splitlines())


def journal_attached(stream: TextIO) -> bool:
    """Whether ``stream`` is the journal stream systemd gave this process."""
    want = os.environ.get("JOURNAL_STREAM", "")
    dev, _, ino = want.partition(":")
    if not (dev.isdigit() and ino.isdigit()):
        return False
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return st.st_dev == int(dev) and st.st_ino == int(ino)


def setup_logging(level: str | int = "info", *, stream: TextIO | None = None,
                  journal: bool | None = None) -> logging.Handler:
    """Sends the root logger's records at ``level`` and above to ``stream`` (stderr),
    journal-style when ``journal`` (detected when None). Returns the handler."""
    stream = sys.stderr if stream is None else stream
    levelno = parse_level(level) if isinstance(level, str) else int(level)
    if journal is None:
        journal = journal_attached(stream)
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JournalFormatter() if journal else
                         logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    handler.set_name("passetable")
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == "passetable"]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(levelno)
    # waitress says "Serving on ..." at INFO: keep it, but not its per-request chatter at DEBUG
    logging.getLogger("waitress.queue").setLevel(max(levelno, logging.INFO))
    return handler


def remove_logging(handler: logging.Handler) -> None:
    logging.getLogger().removeHandler(handler)
    logging.getLogger().setLevel(logging.WARNING)
