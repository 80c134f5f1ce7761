"""Passe Éclair as the service knows it (registered in ``pyproject.toml``).

    >>> SPEC.check_options({"players": 3})
    {'players': 3}
    >>> len(SPEC.deck.card_ids)
    22
"""

from __future__ import annotations

from pathlib import Path

from table.games import Deck, GameOptions, GameSpec, PlayerName, names_field, players_field, seat_field
from table.passe_eclair import ALL_CARD_IDS


class PasseEclairOptions(GameOptions):
    players: int = players_field(3, 2, 4)
    names: list[PlayerName] = names_field(4)
    coach: int = seat_field(4, "Oldest (coach)", "Le plus âgé (entraîneur)")


SPEC = GameSpec(
    id="passe-eclair",
    names={"en": "Passe Éclair", "fr": "Passe Éclair"},
    players=(2, 4),
    options=PasseEclairOptions,
    adapter="table.passe_eclair.adapter:PasseEclairAdapter",
    playout="table.passe_eclair.playout:random_playout",
    playout_options={"players": 3},
    simulator="hardware.sim_eclair:make_simulation",  # the typed-entries table, or with --camera the filmed one
    static=Path(__file__).parent / "static",
    deck=Deck("passe-eclair", tuple(dict.fromkeys(ALL_CARD_IDS))),
    camera="hardware.camera:pile_watcher",   # the cards, and whose hand reached the pile
)
