"""Game adapters: one per game, between the session and that game's rules engine.

``ADAPTERS["passe-murailles"]`` gives the adapter class; modules are imported on first
use so that one game's engine never slows down or breaks the start of another.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator, Mapping

from table.adapters.base import Alert, GameAdapter, text

__all__ = ["ADAPTERS", "Alert", "GameAdapter", "UnknownGame", "text"]

_ALL = {
    "passe-murailles": "table.adapters.passe_murailles:PasseMuraillesAdapter",
    "pass-pass": "table.adapters.pass_pass:PassPassAdapter",
    "ptipasspass": "table.adapters.ptipasspass:PtiPassPassAdapter",
    "passe-eclair": "table.adapters.passe_eclair:PasseEclairAdapter",
}
# Only the games whose adapter is installed are offered.
_WHERE = {name: where for name, where in _ALL.items() if importlib.util.find_spec(where.split(":")[0]) is not None}


class UnknownGame(KeyError):
    def __init__(self, name: str):
        super().__init__(name)
        self.en = f"Unknown game {name!r}; the games are: {', '.join(_WHERE)}."
        self.fr = f"Jeu inconnu {name!r} ; les jeux sont : {', '.join(_WHERE)}."

    def __str__(self) -> str:
        return self.en


class _Registry(Mapping[str, type[GameAdapter]]):
    def __getitem__(self, name: str) -> type[GameAdapter]:
        if name not in _WHERE:
            raise UnknownGame(name)
        module, cls = _WHERE[name].split(":")
        return getattr(importlib.import_module(module), cls)

    def __iter__(self) -> Iterator[str]:
        return iter(_WHERE)

    def __len__(self) -> int:
        return len(_WHERE)


ADAPTERS = _Registry()
