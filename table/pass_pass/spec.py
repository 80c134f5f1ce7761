"""Pass Pass as the service knows it: names, options with bounds, adapter, playout,
simulated table, page and deck (registered in ``pyproject.toml``).

    >>> SPEC.check_options({"players": 4, "names": ["Ana", "Bruno"]})
    {'players': 4, 'names': ['Ana', 'Bruno']}
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, StringConstraints

from table.games import Deck, GameOptions, GameSpec
from table.pass_pass.cards import COLOURS, VALUES

Name = Annotated[str, StringConstraints(max_length=24)]


class PassPassOptions(GameOptions):
    players: int = Field(4, ge=3, le=6, title="Players", json_schema_extra={"fr": "Joueurs"})
    teams: bool = Field(False, title="Teams (4 or 6 players)", json_schema_extra={"fr": "En équipes (4 ou 6 joueurs)"})
    names: list[Name] = Field(default_factory=list, max_length=6, title="Names",
                              json_schema_extra={"fr": "Noms", "per_seat": True})
    first: int = Field(0, ge=0, le=5, title="Leads first", json_schema_extra={"fr": "Commence", "seat": True})
    deal_seed: int | None = Field(None, ge=0, le=2**31, title="Deal seed (simulated table)",
                                  json_schema_extra={"fr": "Graine de la donne (table simulée)", "hidden": True})


SPEC = GameSpec(
    id="pass-pass",
    names={"en": "Pass Pass", "fr": "Pass Pass"},
    players=(3, 6),
    options=PassPassOptions,
    adapter="table.pass_pass.adapter:PassPassAdapter",
    playout="table.pass_pass.playout:random_playout",
    playout_options={"players": 4},
    simulator="table.pass_pass.sim:make_simulation",
    static=Path(__file__).parent / "static",
    deck=Deck("pass-pass", tuple(f"{c}-{v}" for c in COLOURS for v in VALUES)),
)
