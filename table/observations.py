"""Observations: timestamped facts with their source, the only input of a session.

Sensors (the slide-frame board over serial, GPIO beams and buttons, the camera) and
people (dashboard taps, corrections) produce observations; nothing else does. The event
log stores them, and a game's state is whatever replaying them gives.

    >>> obs = Observation.now("slide", source="serial", slide=3, offset=1)
    >>> obs.kind, obs.data["slide"], obs.data["offset"]
    ('slide', 3, 1)

An observation is plain data (JSON-serialisable ``data``) so it can be logged, sent over
MQTT and replayed after a bug fix.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

# The kinds the Passe-Murailles frame produces; other games and people add their own
# kinds (``"pass_pass.play"``, ``"operator.resolve"``...). Each kind's data fields:
SLIDE = "slide"            # slide: 1..6, offset: int notches
BOARD = "board"            # position: 1..3
PEG_DROP = "peg_drop"      # column: top hole the peg went into (0..W-1); colour: optional
BEAM = "beam"              # column: beam under slide 6 broken by a landing peg (0..W-1)
SIDE_SPILL = "side_spill"  # side: "left" | "right", a peg pushed off onto the table
PEG_SEEN = "peg_seen"      # column, colour: the camera sees a peg resting in a top hole
CARD_SEEN = "card_seen"    # card, zone, corners_mm: the camera names a card lying in a zone
CARD_GONE = "card_gone"    # card, zone: that card left the zone
CARD_UNKNOWN = "card_unknown"            # zone, corners_mm, unknown (id): a whole card the camera cannot name
CARD_UNKNOWN_GONE = "card_unknown_gone"  # zone, unknown: that unnamed card left, or got a name
CARD_KINDS = frozenset({CARD_SEEN, CARD_GONE, CARD_UNKNOWN, CARD_UNKNOWN_GONE})  # what card games take from the camera
TOKEN_SEEN = "token_seen"  # cell, colours: what a lifted cup's cell shows
GAME_START = "game_start"  # game: "passe-murailles" | ..., options: dict
UNDO = "undo"              # seq: the log sequence number of the observation to cancel
RESOLVE = "resolve"        # alert: alert id, choice: how a person settled it (+ details)


@dataclass(frozen=True)
class Observation:
    """One fact: what (``kind`` and ``data``), when (``t``, seconds since the epoch on
    the service's clock, or the sensor's own clock converted to it) and who said so
    (``source``: ``"serial"``, ``"gpio"``, ``"camera"``, ``"dashboard"``, ``"sim"``...)."""

    kind: str
    t: float
    source: str
    data: dict[str, Any] = field(default_factory=dict)
    seq: int | None = None  # set by the event log once the observation is durable

    @classmethod
    def now(cls, kind: str, *, source: str, t: float | None = None, **data: Any) -> Observation:
        return cls(kind=kind, t=time.time() if t is None else t, source=source, data=data)

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "t": self.t, "source": self.source, "data": self.data}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Observation:
        return cls(kind=d["kind"], t=float(d["t"]), source=d["source"], data=dict(d.get("data", {})), seq=d.get("seq"))
