"""PtiPassPass as the service knows it (registered in ``pyproject.toml``).

    >>> SPEC.check_options({"players": 7})["players"]
    Traceback (most recent call last):
    ...
    table.errors.Refused: PtiPassPass: players: must be at most 6.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, StringConstraints

from table.games import GameOptions, GameSpec

Name = Annotated[str, StringConstraints(max_length=24)]


class PtiPassPassOptions(GameOptions):
    players: int = Field(4, ge=3, le=6, title="Players", json_schema_extra={"fr": "Joueurs"})
    names: list[Name | None] = Field(default_factory=list, max_length=6, title="Names",
                                     json_schema_extra={"fr": "Noms", "per_seat": True})
    first: int = Field(0, ge=0, le=5, title="Starts", json_schema_extra={"fr": "Commence", "seat": True})


SPEC = GameSpec(
    id="ptipasspass",
    names={"en": "PtiPassPass", "fr": "PtiPassPass"},
    players=(3, 6),
    options=PtiPassPassOptions,
    adapter="table.ptipasspass.adapter:PtiPassPassAdapter",
    playout="table.ptipasspass.playout:random_playout",
    playout_options={"players": 4},
    simulator="table.ptipasspass.sim:make_simulation",
    static=Path(__file__).parent / "static",
)
