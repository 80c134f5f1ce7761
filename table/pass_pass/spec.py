"""Pass Pass as the service knows it: names, options with bounds, adapter, playout,
simulated table, page and deck (registered in ``pyproject.toml``).

    >>> SPEC.check_options({"players": 4, "names": ["Ana", "Bruno"]})
    {'players': 4, 'names': ['Ana', 'Bruno']}
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from table.games import Deck, GameOptions, GameSpec, PlayerName, names_field, players_field, seat_field
from table.pass_pass.cards import COLOURS, VALUES


class PassPassOptions(GameOptions):
    players: int = players_field(4, 3, 6)
    teams: bool = Field(False, title="Teams (4 or 6 players)", json_schema_extra={"fr": "En équipes (4 ou 6 joueurs)"})
    names: list[PlayerName] = names_field(6)
    first: int = seat_field(6, "Leads first", "Commence")
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
    simulator="hardware.sim_cards:make_simulation",  # the typed-entries table, or with --camera the filmed one
    static=Path(__file__).parent / "static",
    deck=Deck("pass-pass", tuple(f"{c}-{v}" for c in COLOURS for v in VALUES)),
)
