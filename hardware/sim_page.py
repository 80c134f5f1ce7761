"""The simulated players at the page, the part the three simulated camera tables share:
each alert counted once however many looks it takes, an alert's one choice tapped, and an
answer the page refuses recorded (never passed over: it is a figure of the benches).

    >>> page = PageTaps()
    >>> page.first_look({"id": "7-1"}), page.first_look({"id": "7-1"})
    (True, False)
    >>> PageTaps.plain_choice({"choices": [{"id": "ok"}]}), PageTaps.plain_choice({"choices": []})
    ('ok', 'done')
"""

from __future__ import annotations

from typing import Any

from table.errors import Refused


class PageTaps:
    """What the players have looked at on the page, and their taps."""

    def __init__(self) -> None:
        self._looked: set[str] = set()   # alert ids counted in the figures

    def first_look(self, alert: dict[str, Any]) -> bool:
        """True the first time ``alert`` is seen (count it then)."""
        if alert["id"] in self._looked:
            return False
        self._looked.add(alert["id"])
        return True

    @staticmethod
    def plain_choice(alert: dict[str, Any]) -> str:
        """An alert that is not a question (a rule broken, an entry not applied): its one
        choice ("Understood"), else "Done"."""
        ids = [c["id"] for c in alert.get("choices") or []]
        return ids[0] if len(ids) == 1 else "done"

    @staticmethod
    def tap(session: Any, alert: dict[str, Any], choice: str, *, source: str, t: float, refused: list[str]) -> bool:
        """Answer ``alert`` with ``choice``; False (and the reason added to ``refused``) when the
        page refuses it: still open, the same alert comes back at the next look."""
        try:
            session.resolve(alert["id"], choice, source=source, t=t)
            return True
        except Refused as exc:
            refused.append(f"{alert.get('kind')} {choice}: {exc.en}")
            return False
