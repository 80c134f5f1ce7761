"""Passe Éclair as the service knows it (registered in ``pyproject.toml``).

    >>> SPEC.check_options({"players": 3})
    {'players': 3}
    >>> len(SPEC.deck.card_ids)
    22
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, StringConstraints

from table.games import Deck, GameOptions, GameSpec
from table.passe_eclair import ALL_CARD_IDS

Name = Annotated[str, StringConstraints(max_length=24)]


class PasseEclairOptions(GameOptions):
    players: int = Field(3, ge=2, le=4, title="Players", json_schema_extra={"fr": "Joueurs"})
    names: list[Name] = Field(default_factory=list, max_length=4, title="Names",
                              json_schema_extra={"fr": "Noms", "per_seat": True})
    coach: int = Field(0, ge=0, le=3, title="Oldest (coach)",
                       json_schema_extra={"fr": "Le plus âgé (entraîneur)", "seat": True})


SPEC = GameSpec(
    id="passe-eclair",
    names={"en": "Passe Éclair", "fr": "Passe Éclair"},
    players=(2, 4),
    options=PasseEclairOptions,
    adapter="table.passe_eclair.adapter:PasseEclairAdapter",
    playout="table.passe_eclair.playout:random_playout",
    playout_options={"players": 3},
    simulator="table.passe_eclair.sim:make_simulation",
    static=Path(__file__).parent / "static",
    deck=Deck("passe-eclair", tuple(dict.fromkeys(ALL_CARD_IDS))),
)
