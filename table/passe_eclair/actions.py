"""The actions a Passe Éclair game takes, and the :class:`Outcome` of applying one.

Actions check their own fields when built (bad card id, NaN time -> :class:`BadInput`,
a ValueError); seats are checked by the game, which knows how many there are.

    >>> a = Place(1, "marlon-fabi", t=12.5, answers=3)
    >>> action_from_dict(a.to_dict()) == a
    True
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .cards import FOOTBALLERS, BadInput, validate_card, validate_time


def _check_int(value: Any, what: str, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadInput(f"{what} must be a whole number >= 0, not {value!r}.",
                       f"{what} doit être un nombre entier >= 0, pas {value!r}.", code="bad_input")


@dataclass(frozen=True)
class Place:
    """Seat ``seat`` puts ``card`` on the centre pile at time ``t`` (seconds).

    ``answers`` is the serial of the pile card the player meant to answer, when known
    (the camera saw it on top as the hand moved in). A placement answering the card that
    is on top is never "together" with it; otherwise a card landing within the game's
    ``together_window`` of the top card (placed by someone else) lands together with it
    and goes back to hand."""

    seat: int
    card: str
    t: float
    answers: int | None = None

    def __post_init__(self) -> None:
        _check_int(self.seat, "seat")
        validate_card(self.card)
        object.__setattr__(self, "t", validate_time(self.t))
        _check_int(self.answers, "answers", optional=True)


@dataclass(frozen=True)
class Simultaneous:
    """Several cards that landed together (explicit input): only the lowest stays —
    the earliest ``t``, or the first listed on equal times — judged as a normal
    :class:`Place`; the others go back to their players' hands."""

    placements: tuple[Place, ...]

    def __post_init__(self) -> None:
        placements = tuple(self.placements)
        if len(placements) < 2 or not all(isinstance(p, Place) for p in placements):
            raise BadInput("Simultaneous needs at least two Place actions.",
                           "Simultaneous demande au moins deux actions Place.", code="bad_input")
        if len({p.seat for p in placements}) != len(placements):
            raise BadInput("One player cannot put down two cards at once.",
                           "Un joueur ne peut pas poser deux cartes d'un coup.", code="same_seat_twice")
        object.__setattr__(self, "placements", placements)


@dataclass(frozen=True)
class SpotWrong:
    """Someone spotted the wrong card of ``seat`` (the most recent flagged one, or the one
    with ``serial``): it goes back to that hand and the player draws one penalty card."""

    seat: int
    serial: int | None = None
    t: float | None = None

    def __post_init__(self) -> None:
        _check_int(self.seat, "seat")
        _check_int(self.serial, "serial", optional=True)
        object.__setattr__(self, "t", validate_time(self.t, optional=True))


@dataclass(frozen=True)
class Blocked:
    """No one can play: the centre pile goes to the box, the coach turns a new start card."""

    t: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "t", validate_time(self.t, optional=True))


@dataclass(frozen=True)
class MichiSwap:
    """Seat ``seat`` plays a Gros Michi (unless their Michi is already on the pile,
    waiting) and swaps hands with ``target``; the pile goes to the box and ``seat`` turns
    a new start card."""

    seat: int
    target: int
    t: float | None = None

    def __post_init__(self) -> None:
        _check_int(self.seat, "seat")
        _check_int(self.target, "target")
        object.__setattr__(self, "t", validate_time(self.t, optional=True))


@dataclass(frozen=True)
class SpendConsolation:
    """Before the start card is turned, ``seat`` gives up footballer consolation token
    ``token`` to put ``card`` (whose big footballer is that one) from hand into the box."""

    seat: int
    token: str
    card: str

    def __post_init__(self) -> None:
        _check_int(self.seat, "seat")
        if self.token not in FOOTBALLERS:
            raise BadInput(f"Only a footballer consolation token can be spent, not {self.token!r}.",
                           f"Seul un jeton de consolation footballeur peut être utilisé, pas {self.token!r}.",
                           code="bad_token")
        validate_card(self.card)


@dataclass(frozen=True)
class StartRound:
    """The coach turns the start card: play begins (after any consolation spending)."""

    t: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "t", validate_time(self.t, optional=True))


Action = Place | Simultaneous | SpotWrong | Blocked | MichiSwap | SpendConsolation | StartRound
ACTION_TYPES: dict[str, type] = {cls.__name__: cls for cls in
                                 (Place, Simultaneous, SpotWrong, Blocked, MichiSwap, SpendConsolation, StartRound)}


def action_to_dict(action: Action) -> dict[str, Any]:
    d: dict[str, Any] = {"action": type(action).__name__}
    for f in fields(action):
        value = getattr(action, f.name)
        d[f.name] = [action_to_dict(p) for p in value] if f.name == "placements" else value
    return d


def action_from_dict(d: dict[str, Any]) -> Action:
    """Rebuild an action from :func:`action_to_dict` output; unknown names raise BadInput."""
    if not isinstance(d, dict) or d.get("action") not in ACTION_TYPES:
        raise BadInput(f"Unknown Passe Éclair action {d!r}.", f"Action de Passe Éclair inconnue {d!r}.",
                       code="bad_action")
    cls = ACTION_TYPES[d["action"]]
    kwargs = {k: v for k, v in d.items() if k != "action"}
    if cls is Simultaneous:
        kwargs["placements"] = tuple(action_from_dict(p) for p in kwargs.get("placements", ()))
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise BadInput(f"Bad fields for {d['action']}: {exc}.", f"Champs invalides pour {d['action']} : {exc}.",
                       code="bad_action") from None


for _cls in ACTION_TYPES.values():
    _cls.to_dict = action_to_dict  # type: ignore[attr-defined]


@dataclass
class Outcome:
    """What an accepted action did: ``events`` are ordered dicts with a ``type``
    (see :mod:`table.passe_eclair.feed` for the bilingual lines)."""

    events: list[dict[str, Any]] = field(default_factory=list)

    def types(self) -> list[str]:
        return [e["type"] for e in self.events]
