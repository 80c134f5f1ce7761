"""Passe-Murailles as the service knows it (registered in ``pyproject.toml``).

A client may send a whole geometry (``profile``, as the TOML file's data) or the *name*
of a profile shipped in ``table/profiles/`` (replaced by its data before the game is
logged, so a replay never needs the file), but never a file path, and only within the
bounds a real frame can have:

    >>> SPEC.check_options({"first": "blue"})
    {'first': 'blue'}
    >>> SPEC.check_options({"profile": "passe_murailles"})["profile"]["frame"]
    {'columns': 7}
    >>> SPEC.check_options({"profile": "/etc/passwd"})
    Traceback (most recent call last):
    ...
    table.errors.Refused: Passe-Murailles: profile: no shipped profile is called '/etc/passwd' (known: passe_murailles).
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator

from table.games import GameOptions, GameSpec
from table.passe_murailles.profile import load_profile
from table.rules import ProfileError

# What a frame that fits on a café table can be: beyond this a profile is a mistake (or
# an attack that would make every restart slow).
MAX_COLUMNS = 16
MAX_PEGS_PER_PLAYER = 40
MAX_SLIDE_TRAVEL = 6
PROFILE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


def shipped_profiles() -> list[str]:
    """The frame profiles a client may name (the ``passe_murailles*.toml`` files shipped)."""
    folder = resources.files("table").joinpath("profiles")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.startswith("passe_murailles") and
                  p.name.endswith(".toml"))


class PasseMuraillesOptions(GameOptions):
    first: Literal["red", "blue"] = Field("red", title="Plays first", json_schema_extra={
        "fr": "Commence", "labels": {"red": {"en": "Red", "fr": "Rouge"}, "blue": {"en": "Blue", "fr": "Bleu"}}})
    profile: dict[str, Any] | str | None = Field(None, json_schema_extra={"hidden": True})
    beam_window_ms: float = Field(500, ge=50, le=5000, json_schema_extra={"hidden": True})
    bot: Literal["none", "red", "blue"] = Field("none", title="The machine plays", json_schema_extra={
        "fr": "La machine joue", "labels": {"none": {"en": "Nobody", "fr": "Personne"},
                                           "red": {"en": "Red", "fr": "Rouge"}, "blue": {"en": "Blue", "fr": "Bleu"}}})
    bot_level: int = Field(3, ge=1, le=5, title="Machine's level (1 beginner, 5 strongest)",
                           json_schema_extra={"fr": "Niveau de la machine (1 débutant, 5 le plus fort)"})
    hints: bool = Field(False, title="Hints on demand", json_schema_extra={"fr": "Conseils à la demande"})

    @field_validator("profile")
    @classmethod
    def _bounded_geometry(cls, value: dict[str, Any] | str | None) -> dict[str, Any] | None:
        if value is None:
            return None
        if isinstance(value, str):  # a name, never a path: looked up among the shipped profiles only
            known = shipped_profiles()
            if not PROFILE_NAME.fullmatch(value) or value not in known:
                raise ValueError(f"no shipped profile is called {value!r} (known: {', '.join(known)}) | aucun profil "
                                 f"livré ne s'appelle {value!r} (connus : {', '.join(known)})")
            value = load_profile(resources.files("table").joinpath("profiles", value + ".toml")).to_dict()
        try:
            profile = load_profile(value)
        except ProfileError as exc:
            raise ValueError(f"{exc} | profil invalide : {exc}") from None
        travel = max(max(abs(s.low), abs(s.high)) for s in profile.slides)
        if profile.columns > MAX_COLUMNS or profile.pegs_per_player > MAX_PEGS_PER_PLAYER or travel > MAX_SLIDE_TRAVEL:
            raise ValueError(
                f"a frame has at most {MAX_COLUMNS} columns, {MAX_PEGS_PER_PLAYER} pegs per player and slides "
                f"that move {MAX_SLIDE_TRAVEL} notches each way | un cadre a au plus {MAX_COLUMNS} colonnes, "
                f"{MAX_PEGS_PER_PLAYER} pions par joueur et des coulisses de {MAX_SLIDE_TRAVEL} crans de chaque côté")
        return value


def default_options(settings: Any) -> dict[str, Any]:
    """The frame's geometry every game starts with: the settings' profile file, or the
    shipped one (a broken file raises :class:`~table.rules.ProfileError` at start-up)."""
    return {"profile": load_profile(settings.game.profile).to_dict()}


SPEC = GameSpec(
    id="passe-murailles",
    names={"en": "Passe-Murailles", "fr": "Passe-Murailles"},
    players=(2, 2),
    options=PasseMuraillesOptions,
    adapter="table.passe_murailles.adapter:PasseMuraillesAdapter",
    playout="table.passe_murailles.playout:random_playout",
    simulator="hardware.frame:simulate",
    sensors="hardware.frame:attach",
    defaults=default_options,
    parts="table.passe_murailles.seat:make_parts",
    hint="table.passe_murailles.seat:hint_for_page",
    static=Path(__file__).parent / "static",
)
