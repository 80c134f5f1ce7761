"""What every game adapter shares: the feed, alerts and the adapter interface.

An adapter sits between a session and one rules engine. It receives observations
(sensor facts and people's entries) in log order, turns them into engine actions, and
keeps what the page shows: a ``view`` (the game drawn as data), a ``feed`` of bilingual
lines, and ``alerts`` a person must resolve when the table and the rules disagree.

    >>> class Nothing(GameAdapter):
    ...     game = "nothing"
    ...     def observe(self, obs): self.say(obs.t, "Seen.", "Vu.")
    ...     def view(self): return {}
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, ClassVar

from table.observations import Observation


def text(en: str, fr: str) -> dict[str, str]:
    """A sentence in both languages of the dashboard."""
    return {"en": en, "fr": fr}


def looks_like(card_ids: list[str], like: object, label) -> tuple[list[str], str, str]:
    """A ``card_unknown``'s ``like`` (the card nobody enrolled it read nearest, vision.ghosts) as a
    hint for the question: ``card_ids`` with it first, and a sentence to add in each language
    (empty when it is not among them). ``label(card_id, lang)`` names a card.

        >>> looks_like(["a", "b"], "b", lambda c, lang: c.upper())
        (['b', 'a'], ' It looks like B, a card not enrolled yet.', ' Elle ressemble à B, une carte pas encore apprise.')
    """
    if not isinstance(like, str) or like not in card_ids:
        return card_ids, "", ""
    return ([like] + [c for c in card_ids if c != like],
            f" It looks like {label(like, 'en')}, a card not enrolled yet.",
            f" Elle ressemble à {label(like, 'fr')}, une carte pas encore apprise.")


@dataclass
class Alert:
    """A disagreement a person must settle. ``choices`` are the resolutions offered
    (each ``{"id", "label": {en, fr}}``); a ``resolve`` observation names one."""

    id: str
    kind: str
    message: dict[str, str]
    since: float
    expected: Any = None
    seen: Any = None
    choices: list[dict[str, Any]] = field(default_factory=list)
    resolved: str | None = None  # the choice taken, once resolved

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "kind": self.kind, "message": self.message, "since": self.since,
            "expected": self.expected, "seen": self.seen, "choices": self.choices,
        }


class GameAdapter:
    """Base of the per-game adapters; see the module docstring."""

    game: ClassVar[str] = ""
    #: observation kinds a person may enter on the game's page (checked by :meth:`check_entry`)
    dashboard_kinds: ClassVar[frozenset[str]] = frozenset()
    #: observation kinds a person may cancel with an ``undo`` observation
    undoable_kinds: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, start: Observation):
        self.options: dict[str, Any] = dict(start.data.get("options", {}))
        self.feed: list[dict[str, Any]] = []
        self.alerts: list[Alert] = []
        self._alert_no = 0

    # -- to override
    def observe(self, obs: Observation) -> None:
        raise NotImplementedError

    def view(self) -> dict[str, Any]:
        raise NotImplementedError

    def health(self) -> dict[str, Any]:
        return {}

    def summary(self, view: dict[str, Any] | None = None) -> dict[str, Any]:
        """Who plays, their scores, whose turn: what a TV, a café's hub or Home Assistant
        shows of any game, in one shape: ``{"players": [{"name": {en, fr}, "score",
        "team"}], "turn": seat or None, "over": bool, "winners": [seats]}``. The default
        reads the view's ``names``/``scores``/``to_act``/``over``/``winners`` (``view``: the
        one the caller already has, so that a snapshot draws the game once)."""
        view = self.view() if view is None else view
        names = view.get("names") or {}
        en = list(names.get("en") or [])
        fr = list(names.get("fr") or en)
        scores = view.get("scores") if isinstance(view.get("scores"), list) else [None] * len(en)
        return {"players": [{"name": {"en": a, "fr": b}, "score": s, "team": None}
                            for a, b, s in zip(en, fr, scores, strict=False)],
                "turn": view.get("to_act") if isinstance(view.get("to_act"), int) else None,
                "over": bool(view.get("over")), "winners": list(view.get("winners") or [])}

    def check_entry(self, kind: str, data: dict[str, Any]) -> dict[str, str] | None:
        """Why a person's entry would be refused now (``{"en", "fr"}``), or None."""
        return None

    def start_problem(self) -> dict[str, str] | None:
        """Why this game cannot be played from its start (``{"en", "fr"}``), or None."""
        return None

    def replica(self) -> dict[str, Any]:
        """What a reader outside the session may have: a private copy of the engine
        (``engine``) and any public progress the adapter adds (see ``Session.current_game``)."""
        engine = getattr(self, "g", None)
        return {"engine": copy.deepcopy(engine) if engine is not None else None}

    # -- shared helpers
    def say(self, t: float, en: str, fr: str, *, kind: str = "info", seq: int | None = None) -> None:
        self.feed.append({"t": t, "seq": seq, "kind": kind, "text": text(en, fr)})

    def raise_alert(self, alert: Alert) -> Alert:
        self.alerts.append(alert)
        self.say(alert.since, alert.message["en"], alert.message["fr"], kind="alert")
        return alert

    def new_alert_id(self, obs: Observation) -> str:
        """Alert ids unique within a game and the same on every replay."""
        self._alert_no += 1
        return f"{obs.seq or 0}-{self._alert_no}"

    def settle_alert(self, obs: Observation) -> None:
        """A ``resolve`` observation for an alert that needs no more than an answer."""
        alert = self.find_alert(str(obs.data.get("alert")))
        if alert is not None:
            alert.resolved = str(obs.data.get("choice"))

    def refuse_entry(self, obs: Observation, en: str, fr: str) -> None:
        """An entry that reached the log but the rules refuse now (two pages raced past
        ``check_entry``, or a replay after an earlier entry was undone): it stays in the
        log, is not applied, and a person is told."""
        self.raise_alert(Alert(
            id=self.new_alert_id(obs), kind="refused_entry", since=obs.t, seen=obs.data,
            message=text(f"Entry not applied: {en}", f"Saisie non appliquée : {fr}"),
            choices=[{"id": "ok", "label": text("Understood", "Compris")}]))

    def open_alerts(self) -> list[Alert]:
        return [a for a in self.alerts if a.resolved is None]

    def find_alert(self, alert_id: str) -> Alert | None:
        return next((a for a in self.open_alerts() if a.id == alert_id), None)
