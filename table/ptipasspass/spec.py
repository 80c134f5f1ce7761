"""PtiPassPass as the service knows it (registered in ``pyproject.toml``).

    >>> SPEC.check_options({"players": 7})["players"]
    Traceback (most recent call last):
    ...
    table.errors.Refused: PtiPassPass: players: must be at most 6.
"""

from __future__ import annotations

from pathlib import Path

from table.games import GameOptions, GameSpec, PlayerName, names_field, players_field, seat_field


class PtiPassPassOptions(GameOptions):
    players: int = players_field(4, 3, 6)
    names: list[PlayerName | None] = names_field(6)
    first: int = seat_field(6, "Starts", "Commence")


SPEC = GameSpec(
    id="ptipasspass",
    names={"en": "PtiPassPass", "fr": "PtiPassPass"},
    players=(3, 6),
    options=PtiPassPassOptions,
    adapter="table.ptipasspass.adapter:PtiPassPassAdapter",
    playout="table.ptipasspass.playout:random_playout",
    playout_options={"players": 4},
    simulator="hardware.sim_cups:make_simulation",  # the typed-entries table, or with --camera the filmed one
    sensors="hardware.gpio.seat_buttons:sensors",   # a real table: the seats' buttons
    camera="hardware.camera:cup_watcher",            # the cups seen from above (no deck to learn)
    static=Path(__file__).parent / "static",
)
