"""Where the cups stand: cells, which cups touch (for a swap) and the lines (for a reveal).

The rule book's figure is lost (RULINGS §2): the default is a grid of 3 rows × N columns
(N = number of players). Two cups are *contiguous* when they share a side; a *line* is
three consecutive cups of one row, one column or one diagonal.

    >>> layout = default_layout(4)
    >>> len(layout.cells), len(layout.lines), layout.neighbours((0, 0))
    (12, 14, ((0, 1), (1, 0)))

Another table can be described by a profile (a dict or a TOML file) listing ``cells``
(pairs of integers), ``neighbours`` (pairs of cells) and ``lines`` (triples of cells):
see :func:`load_layout` and ``table/profiles/ptipasspass_layout.toml``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from table.rules import ProfileError

Cell = tuple[int, int]
Line = tuple[Cell, Cell, Cell]


class Layout:
    """An immutable cup layout. ``cells`` in reading order, ``lines`` as 3-tuples."""

    __slots__ = ("name", "cells", "lines", "_adjacent", "_line_index")

    def __init__(self, cells: Iterable[Cell], pairs: Iterable[tuple[Cell, Cell]],
                 lines: Iterable[Line], *, name: str = "custom"):
        self.name = name
        self.cells: tuple[Cell, ...] = tuple(cells)
        adjacent: dict[Cell, set[Cell]] = {c: set() for c in self.cells}
        for a, b in pairs:
            adjacent[a].add(b)
            adjacent[b].add(a)
        order = {c: i for i, c in enumerate(self.cells)}
        self._adjacent = {c: tuple(sorted(n, key=order.__getitem__)) for c, n in adjacent.items()}
        self.lines: tuple[Line, ...] = tuple(lines)
        # A line may be named in either direction: index it by its set of cells.
        self._line_index = {frozenset(line): line for line in self.lines}

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The cells sharing a side with ``cell`` (empty for an unknown cell)."""
        return self._adjacent.get(cell, ())

    def are_contiguous(self, a: Cell, b: Cell) -> bool:
        return b in self._adjacent.get(a, ())

    def has_cell(self, cell: object) -> bool:
        return cell in self._adjacent

    def find_line(self, cells: Iterable[Cell]) -> Line | None:
        """The layout's line made of exactly these three cells, in any order, or None."""
        cells = tuple(cells)
        if len(cells) != 3:
            return None
        return self._line_index.get(frozenset(cells))

    def contiguous_pairs(self) -> tuple[tuple[Cell, Cell], ...]:
        """Every unordered pair of contiguous cells, each once, in reading order."""
        order = {c: i for i, c in enumerate(self.cells)}
        return tuple((a, b) for a in self.cells for b in self._adjacent[a] if order[a] < order[b])

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "cells": [list(c) for c in self.cells],
            "neighbours": [[list(a), list(b)] for a, b in self.contiguous_pairs()],
            "lines": [[list(c) for c in line] for line in self.lines],
        }

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Layout) and set(self.cells) == set(other.cells)
                and self._adjacent.keys() == other._adjacent.keys()
                and all(set(self._adjacent[c]) == set(other._adjacent[c]) for c in self.cells)
                and self._line_index.keys() == other._line_index.keys())

    def __hash__(self) -> int:
        return hash((frozenset(self.cells), frozenset(self._line_index)))

    def __repr__(self) -> str:
        return f"Layout({self.name!r}, {len(self.cells)} cups, {len(self.lines)} lines)"


def default_layout(players: int) -> Layout:
    """The shipped grid: 3 rows × ``players`` columns, 6N−10 lines (8, 14, 20, 26)."""
    columns = players
    cells = [(r, c) for r in range(3) for c in range(columns)]
    pairs = [((r, c), (r, c + 1)) for r in range(3) for c in range(columns - 1)]
    pairs += [((r, c), (r + 1, c)) for r in range(2) for c in range(columns)]
    lines: list[Line] = [((r, c), (r, c + 1), (r, c + 2)) for r in range(3) for c in range(columns - 2)]
    lines += [((0, c), (1, c), (2, c)) for c in range(columns)]
    lines += [((0, c), (1, c + 1), (2, c + 2)) for c in range(columns - 2)]
    lines += [((0, c + 2), (1, c + 1), (2, c)) for c in range(columns - 2)]
    return Layout(cells, pairs, lines, name=f"grid 3x{columns}")


# --------------------------------------------------------------------------- profiles
def load_layout(source: Mapping[str, Any] | str | Path) -> Layout:
    """A layout from a profile dict or a TOML file path; :class:`ProfileError` if broken."""
    if isinstance(source, (str, Path)):
        try:
            with open(source, "rb") as fh:
                data: Mapping[str, Any] = tomllib.load(fh)
        except OSError as exc:
            raise ProfileError(f"cannot read the layout profile {source}: {exc}") from exc
        except tomllib.TOMLDecodeError as exc:
            raise ProfileError(f"layout profile {source} is not valid TOML: {exc}") from exc
        data = data.get("layout", data)  # the table may sit under a [layout] header
    elif isinstance(source, Mapping):
        data = source
    else:
        raise ProfileError(f"a layout profile is a dict or a file path, not {type(source).__name__}")
    return _layout_from_mapping(data)


def _layout_from_mapping(data: Mapping[str, Any]) -> Layout:
    for key in ("cells", "neighbours", "lines"):
        if key not in data:
            raise ProfileError(f"layout profile: missing '{key}' (it needs cells, neighbours and lines)")
    cells = [_cell(raw, "cells") for raw in _list(data["cells"], "cells")]
    if not cells:
        raise ProfileError("layout profile: 'cells' is empty")
    seen: set[Cell] = set()
    for cell in cells:
        if cell in seen:
            raise ProfileError(f"layout profile: cell {list(cell)} is listed twice")
        seen.add(cell)
    pairs = []
    for raw in _list(data["neighbours"], "neighbours"):
        pair = [_known(_cell(c, "neighbours"), seen, "neighbours") for c in _list(raw, "neighbours", 2)]
        if pair[0] == pair[1]:
            raise ProfileError(f"layout profile: cell {list(pair[0])} cannot neighbour itself")
        pairs.append((pair[0], pair[1]))
    lines: list[Line] = []
    for raw in _list(data["lines"], "lines"):
        line = tuple(_known(_cell(c, "lines"), seen, "lines") for c in _list(raw, "lines", 3))
        if len(set(line)) != 3:
            raise ProfileError(f"layout profile: line {[list(c) for c in line]} repeats a cell")
        lines.append(line)  # type: ignore[arg-type]
    if not lines:
        raise ProfileError("layout profile: 'lines' is empty: a reveal needs at least one line")
    if len({frozenset(line) for line in lines}) != len(lines):
        raise ProfileError("layout profile: a line is listed twice")
    return Layout(cells, pairs, lines, name=str(data.get("name", "custom")))


def _list(value: Any, key: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise ProfileError(f"layout profile: '{key}' must be a list, got {value!r}")
    if length is not None and len(value) != length:
        raise ProfileError(f"layout profile: each entry of '{key}' has {length} cells, got {value!r}")
    return list(value)


def _cell(value: Any, key: str) -> Cell:
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return (value[0], value[1])
    raise ProfileError(f"layout profile: in '{key}', a cell is a pair of integers [row, col], got {value!r}")


def _known(cell: Cell, cells: set[Cell], key: str) -> Cell:
    if cell not in cells:
        raise ProfileError(f"layout profile: '{key}' names cell {list(cell)}, which is not in 'cells'")
    return cell
