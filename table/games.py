"""The games this table knows: one :class:`GameSpec` per game, found by entry point.

Each game lives in its own folder (``table/<game>/``: engine, adapter, feed sentences,
playout, simulated players, page script and style, deck) and is registered once, by a
line in ``pyproject.toml``::

    [project.entry-points."passetable.games"]
    pass-pass = "table.pass_pass.spec:SPEC"

The rest of the service (session, CLI, dashboard, vision, hardware) knows games only
through this registry:

    >>> sorted(games())[:2]
    ['pass-pass', 'passe-eclair']
    >>> get("pass-pass").names["fr"]
    'Pass Pass'
    >>> get("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    table.errors.UnknownGame: Unknown game 'chess'; the games are: pass-pass, passe-eclair, ...

Options are checked against the game's schema (a pydantic model with bounds, unknown
keys refused) before anything is logged; the same schema gives the dashboard's setup
form (:meth:`GameSpec.describe`).
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from table.errors import Refused, UnknownGame

log = logging.getLogger(__name__)

GROUP = "passetable.games"


class GameOptions(BaseModel):
    """Base of every game's option schema: strict types, unknown keys refused, and a
    bilingual label per field (``json_schema_extra={"fr": "…"}`` beside ``title``)."""

    model_config = ConfigDict(extra="forbid", strict=True)


PlayerName = Annotated[str, StringConstraints(max_length=24)]


def players_field(default: int, low: int, high: int) -> Any:
    """The number of players, as every game's setup form asks it."""
    return Field(default, ge=low, le=high, title="Players", json_schema_extra={"fr": "Joueurs"})


def names_field(most: int) -> Any:
    """One optional name per seat (the form draws one box per player)."""
    return Field(default_factory=list, max_length=most, title="Names",
                 json_schema_extra={"fr": "Noms", "per_seat": True})


def seat_field(most: int, en: str, fr: str) -> Any:
    """A seat chosen among the players (the form lists them by name)."""
    return Field(0, ge=0, le=most - 1, title=en, json_schema_extra={"fr": fr, "seat": True})


@dataclass(frozen=True)
class Deck:
    """The cards of a game as the camera knows them: ids in a stable order, their size
    lying in portrait (millimetres), and how people say each one."""

    id: str
    card_ids: tuple[str, ...]
    card_size_mm: tuple[float, float] = (63.0, 88.0)
    labels: dict[str, dict[str, str]] = field(default_factory=dict)  # card id -> {en, fr}


@dataclass(frozen=True)
class GameSpec:
    """Everything the service needs to know about one game.

    ``adapter``, ``playout`` and ``simulator`` are ``"module:attribute"`` strings,
    imported on first use so that one game never slows down or breaks another's start.
    The simulator factory is called as ``factory(session, *, pace, seed, restart_after,
    settings, game_options, faults)`` and returns a part with ``start()``/``stop()`` (or
    a list of them). ``sensors`` names the factory of the hardware a real table of this
    game needs, called as ``factory(session, settings, game_options)`` (None: the
    dashboard alone can keep the game). ``defaults(settings)`` gives the options every new
    game of it starts with (e.g. the frame's geometry from the settings). ``parts`` names
    a factory ``factory(session, settings) -> [part]`` of service parts the game adds (a
    bot's seat); ``hint`` a function ``hint(engine) -> dict`` behind the page's hint button.
    ``camera`` names the factory of the reader that turns this game's camera frames into
    observations, ``factory(shot, profile, *, model, session) -> watcher`` (``shot``: the
    calibration picture; the watcher has ``process(frame) -> [Observation]``); None for a
    game with a ``deck``: the card watcher (``hardware.camera.card_watcher``).
    """

    id: str
    names: dict[str, str]
    players: tuple[int, int]
    options: type[GameOptions]
    adapter: str | type
    playout: str | None = None
    playout_options: dict[str, Any] = field(default_factory=dict)
    simulator: str | None = None
    sensors: str | None = None
    defaults: Callable[[Any], dict[str, Any]] | None = None
    parts: str | None = None
    hint: str | None = None
    static: Path | None = None
    deck: Deck | None = None
    camera: str | None = None

    def load(self, what: str) -> Any:
        """Import one of the ``"module:attribute"`` references of this spec (a game under
        development may give the object itself)."""
        ref = getattr(self, what)
        if not isinstance(ref, str):
            return ref
        module, _, attr = ref.partition(":")
        return getattr(importlib.import_module(module), attr)

    def adapter_class(self) -> Any:
        return self.load("adapter")

    def check_options(self, options: Any) -> dict[str, Any]:
        """The options as the client gave them, once the schema accepts them; raises
        :class:`~table.errors.Refused` (code ``bad_options``) saying what is wrong."""
        if not isinstance(options, dict):
            raise Refused("bad_options", "'options' must be an object.", "« options » doit être un objet.", status=400)
        try:
            checked = self.options.model_validate(options)
        except ValidationError as exc:
            en, fr = explain(exc)
            raise Refused("bad_options", f"{self.names['en']}: {en}", f"{self.names['fr']} : {fr}",
                          status=422) from None
        return checked.model_dump(mode="json", exclude_unset=True)

    def describe(self) -> dict[str, Any]:
        """What the dashboard shows of this game: names, players, the options' JSON
        schema (its setup form), whether a page script and style ship with it."""
        return {"id": self.id, "names": self.names, "players": list(self.players),
                "options": self.options.model_json_schema(), "sensors": self.sensors,
                "script": bool(self.static and (self.static / "page.js").is_file()),
                "style": bool(self.static and (self.static / "page.css").is_file())}


# --------------------------------------------------------------------------- errors
_EN_ERRORS = {
    "extra_forbidden": "unknown option",
    "missing": "required",
    "int_type": "must be a whole number",
    "bool_type": "must be true or false",
    "string_type": "must be a text",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "greater_than_equal": "must be at least {ge}",
    "less_than_equal": "must be at most {le}",
    "greater_than": "must be more than {gt}",
    "less_than": "must be less than {lt}",
    "too_long": "is too long (at most {max_length})",
    "too_short": "is too short (at least {min_length})",
    "string_too_long": "is too long (at most {max_length} characters)",
    "string_too_short": "is too short",
    "literal_error": "must be {expected}",
    "enum": "must be {expected}",
}
_FR_ERRORS = {
    "extra_forbidden": "option inconnue",
    "missing": "obligatoire",
    "int_type": "doit être un nombre entier",
    "bool_type": "doit valoir true ou false",
    "string_type": "doit être un texte",
    "list_type": "doit être une liste",
    "dict_type": "doit être un objet",
    "greater_than_equal": "doit valoir au moins {ge}",
    "less_than_equal": "doit valoir au plus {le}",
    "greater_than": "doit valoir plus de {gt}",
    "less_than": "doit valoir moins de {lt}",
    "too_long": "est trop long (au plus {max_length})",
    "too_short": "est trop court (au moins {min_length})",
    "string_too_long": "est trop long (au plus {max_length} caractères)",
    "string_too_short": "est trop court",
    "literal_error": "doit valoir {expected}",
    "enum": "doit valoir {expected}",
}


def explain(exc: ValidationError) -> tuple[str, str]:
    """A pydantic validation error as one English and one French sentence.

        >>> class O(GameOptions):
        ...     players: int = 3
        >>> try:
        ...     O.model_validate({"players": "4", "pegs": 1})
        ... except ValidationError as e:
        ...     print(explain(e)[1])
        players : doit être un nombre entier ; pegs : option inconnue.
        >>> try:
        ...     O.model_validate({"players": 1.5})
        ... except ValidationError as e:
        ...     print(explain(e)[0])
        players: must be a whole number.
    """
    en, fr = [], []
    for err in exc.errors(include_url=False):
        where = ".".join(str(p) for p in err["loc"]) or "options"
        ctx = dict(err.get("ctx") or {})
        msg_en, msg_fr = err["msg"], err["msg"]
        try:
            msg_en = _EN_ERRORS[err["type"]].format(**ctx)
            msg_fr = _FR_ERRORS[err["type"]].format(**ctx)
        except (KeyError, IndexError):  # a rarer check: pydantic's own English words
            pass
        if err["type"] == "value_error":  # our own validators say both languages: "en | fr"
            msg_en, _, msg_fr = str(ctx.get("error", msg_en)).partition(" | ")
            msg_fr = msg_fr or msg_en
        en.append(f"{where}: {msg_en}")
        fr.append(f"{where} : {msg_fr}")
    return "; ".join(en) + ".", " ; ".join(fr) + "."


# --------------------------------------------------------------------------- registry
_lock = threading.Lock()
_found: dict[str, GameSpec] | None = None
_added: dict[str, GameSpec] = {}


def _discover() -> dict[str, GameSpec]:
    found: dict[str, GameSpec] = {}
    for ep in entry_points(group=GROUP):
        try:
            spec = ep.load()
        except Exception:  # a broken plugin must not take the other games down
            log.exception("game %s (%s) cannot be loaded", ep.name, ep.value)
            continue
        if not isinstance(spec, GameSpec) or spec.id != ep.name:
            log.error("entry point %s does not name a GameSpec with id %r", ep.value, ep.name)
            continue
        found[spec.id] = spec
    return found


def games() -> dict[str, GameSpec]:
    """Every installed game by id, in a stable order."""
    global _found
    with _lock:
        if _found is None:
            _found = _discover()
        merged = {**_found, **_added}
    return dict(sorted(merged.items()))


def get(game_id: Any) -> GameSpec:
    """The spec of ``game_id``; :class:`~table.errors.UnknownGame` if none."""
    known = games()
    if not isinstance(game_id, str) or game_id not in known:
        raise UnknownGame(str(game_id), list(known))
    return known[game_id]


def register(spec: GameSpec) -> None:
    """Add a game at run time (tests, a game under development); entry points are the
    way to ship one."""
    with _lock:
        _added[spec.id] = spec


def unregister(game_id: str) -> None:
    with _lock:
        _added.pop(game_id, None)
