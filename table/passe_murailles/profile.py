"""The geometry of one Passe-Murailles set: frame width, slide holes, board sections.

The rule book's figures are lost, so the holes and the board's numbers live in a
profile (a small TOML file) that a user can replace after measuring their own copy.

    >>> p = load_profile(None)                     # the shipped default
    >>> p.columns, len(p.slides), p.board_start
    (7, 6, 2)

A profile is checked when it is loaded; anything unusable raises
:class:`table.rules.ProfileError` naming the file and the problem.
"""

from __future__ import annotations

import os
import random
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from table.rules import ProfileError

SLIDE_COUNT = 6
BOARD_POSITIONS = (1, 2, 3)
DEFAULT_PEGS_PER_PLAYER = 8
DEFAULT_PROFILE_NAME = "passe_murailles.toml"

_TOP_KEYS = {"name", "frame", "slides", "board", "pegs"}


@dataclass(frozen=True)
class SlideSpec:
    """One slide: the column of each hole at offset 0 and the offsets it can reach."""

    holes: tuple[int, ...]
    low: int
    high: int
    start: int

    def offsets(self) -> range:
        return range(self.low, self.high + 1)


@dataclass(frozen=True, eq=False)
class Profile:
    """A validated Passe-Murailles geometry (build it with :func:`load_profile`).

        >>> p = load_profile(None)
        >>> p.slide(1).holes            # slides are numbered 1 (top) .. 6 (bottom)
        (0, 2, 4, 6)
        >>> p.points(position=1, column=3)  # section under column 3, board in position 1
        5
    """

    columns: int
    slides: tuple[SlideSpec, ...]
    board_start: int
    board_scores: Mapping[int, tuple[int, ...]]
    pegs_per_player: int = DEFAULT_PEGS_PER_PLAYER
    name: str = ""
    source: str = "<profile dict>"

    def slide(self, number: int) -> SlideSpec:
        return self.slides[number - 1]

    def points(self, position: int, column: int) -> int:
        """Score of the board section under ``column`` when the board is at ``position``."""
        return self.board_scores[position][column]

    def to_dict(self) -> dict[str, Any]:
        """The TOML shape as plain data (string keys, JSON-serialisable); loads back equal."""
        d: dict[str, Any] = {
            "frame": {"columns": self.columns},
            "slides": [
                {"holes": list(s.holes), "range": [s.low, s.high], "start": s.start}
                for s in self.slides
            ],
            "board": {
                "start": self.board_start,
                "positions": {str(p): list(self.board_scores[p]) for p in BOARD_POSITIONS},
            },
            "pegs": {"per_player": self.pegs_per_player},
        }
        if self.name:
            d["name"] = self.name
        return d

    def __eq__(self, other: object) -> bool:
        # The source label is where it came from, not what it is.
        if not isinstance(other, Profile):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash((self.columns, self.slides, self.board_start, self.pegs_per_player))


def profile_dict(
    columns: int,
    holes: Sequence[Sequence[int]],
    *,
    ranges: tuple[int, int] | Sequence[tuple[int, int]] = (-2, 2),
    starts: int | Sequence[int] = 0,
    board_start: int = 2,
    positions: Mapping[int, Sequence[int]] | None = None,
    pegs_per_player: int = DEFAULT_PEGS_PER_PLAYER,
) -> dict[str, Any]:
    """A profile dict in the TOML shape from a compact description, for tests and the
    simulator: ``holes`` lists slide 1's holes first. ``ranges``/``starts`` are one
    value for every slide or one per slide. Default board: position 1 scores
    ``column + 1``, position 2 nothing, position 3 ``10 * (column + 1)``.

        >>> p = load_profile(profile_dict(3, [[0, 2], [1], [0], [0], [0], [0]], board_start=1))
    """
    per_slide_ranges = [ranges] * len(holes) if _is_int(ranges[0]) else list(ranges)
    per_slide_starts = [starts] * len(holes) if _is_int(starts) else list(starts)
    if positions is None:
        positions = {
            1: [c + 1 for c in range(columns)],
            2: [0] * columns,
            3: [10 * (c + 1) for c in range(columns)],
        }
    return {
        "frame": {"columns": columns},
        "slides": [
            {"holes": list(h), "range": list(r), "start": s}
            for h, r, s in zip(holes, per_slide_ranges, per_slide_starts, strict=True)
        ],
        "board": {"start": board_start, "positions": {str(k): list(v) for k, v in positions.items()}},
        "pegs": {"per_player": pegs_per_player},
    }


def random_profile(rng: random.Random, columns: tuple[int, int] = (5, 9)) -> dict[str, Any]:
    """A valid random geometry (profile dict) for tests and the bot's strength benchmark:
    ``columns`` is the range of frame widths; slide 1 has a hole every second cell, slides
    2-6 every third or fourth cell at random phases, no column is open at the start, the
    board's position 2 scores nothing and positions 1 and 3 score 0-5 under each column.

        >>> import random
        >>> load_profile(random_profile(random.Random(1))).columns in range(5, 10)
        True
    """
    width = rng.randint(*columns)
    cells = range(-3, width + 3)
    ranges = [(-rng.randint(1, 2), rng.randint(1, 2)) for _ in range(SLIDE_COUNT)]
    starts = [rng.randint(low, high) for low, high in ranges]
    while True:
        top_phase = rng.randrange(2)
        holes = [[x for x in cells if x % 2 == top_phase]]
        for _ in range(SLIDE_COUNT - 1):
            period = rng.choice((3, 3, 4))
            phase = rng.randrange(period)
            holes.append([x for x in cells if (x - phase) % period == 0])
        under = [{h + start for h in slide} for slide, start in zip(holes[1:], starts[1:], strict=True)]
        if not any(all(c in row for row in under) for c in range(width)):
            break
    positions = {1: [0] * width, 2: [0] * width, 3: [0] * width}
    for position in (1, 3):
        while not any(positions[position]):
            positions[position] = [rng.randint(0, 5) for _ in range(width)]
    d = profile_dict(width, holes, ranges=ranges, starts=starts, board_start=2, positions=positions,
                     pegs_per_player=rng.randint(4, 8))
    d["name"] = f"random, {width} columns"
    return d


def load_profile(profile: Profile | str | os.PathLike | Mapping[str, Any] | None = None) -> Profile:
    """Load and check a profile: ``None`` (the shipped default), a TOML path, a dict
    (as ``tomllib`` gives it) or an already loaded :class:`Profile`."""
    if isinstance(profile, Profile):
        return profile
    if profile is None:
        resource = resources.files("table").joinpath("profiles", DEFAULT_PROFILE_NAME)
        source = f"shipped profile {DEFAULT_PROFILE_NAME}"
        try:
            text = resource.read_text(encoding="utf-8")
        except OSError as exc:
            raise ProfileError(f"{source}: cannot be read ({exc})") from exc
        return _parse_toml(text, source)
    if isinstance(profile, (str, os.PathLike)):
        source = os.fspath(profile)
        try:
            with open(source, "rb") as fh:
                raw = fh.read()
        except OSError as exc:
            raise ProfileError(f"{source}: cannot be read ({exc.strerror or exc})") from exc
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ProfileError(f"{source}: is not UTF-8 text ({exc.reason})") from exc
        return _parse_toml(text, source)
    if isinstance(profile, Mapping):
        return _validate(profile, "<profile dict>")
    raise ProfileError(
        f"a profile must be None, a path to a TOML file or a dict, not {type(profile).__name__}"
    )


def _parse_toml(text: str, source: str) -> Profile:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{source}: is not valid TOML ({exc})") from exc
    return _validate(data, source)


def _validate(data: Mapping[str, Any], source: str) -> Profile:
    def fail(problem: str) -> ProfileError:
        return ProfileError(f"{source}: {problem}")

    def table(parent: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
        if key not in parent:
            raise fail(f"missing [{where}] table")
        value = parent[key]
        if not isinstance(value, Mapping):
            raise fail(f"[{where}] must be a table, not {_kind(value)}")
        return value

    def integer(parent: Mapping[str, Any], key: str, where: str) -> int:
        if key not in parent:
            raise fail(f"missing key '{key}' in {where}")
        value = parent[key]
        if not _is_int(value):
            raise fail(f"'{key}' in {where} must be an integer, not {_kind(value)}")
        return value

    def no_unknown(mapping: Mapping[str, Any], allowed: set[str], where: str) -> None:
        unknown = sorted(str(k) for k in mapping if k not in allowed)
        if unknown:
            raise fail(f"unknown key(s) {', '.join(unknown)} in {where} (expected {', '.join(sorted(allowed))})")

    if not isinstance(data, Mapping):
        raise fail(f"a profile must be a table, not {_kind(data)}")
    no_unknown(data, _TOP_KEYS, "the profile")

    frame = table(data, "frame", "frame")
    no_unknown(frame, {"columns"}, "[frame]")
    columns = integer(frame, "columns", "[frame]")
    if columns < 1:
        raise fail(f"[frame] columns must be at least 1, not {columns}")

    slides_raw = data.get("slides")
    if slides_raw is None:
        raise fail("missing [[slides]] (6 entries, the first is slide 1, the top one)")
    if not isinstance(slides_raw, (list, tuple)):
        raise fail(f"[[slides]] must be a list of tables, not {_kind(slides_raw)}")
    if len(slides_raw) != SLIDE_COUNT:
        raise fail(f"there must be exactly {SLIDE_COUNT} [[slides]] entries, not {len(slides_raw)}")
    slides = []
    for number, raw in enumerate(slides_raw, start=1):
        where = f"[[slides]] entry {number}"
        if not isinstance(raw, Mapping):
            raise fail(f"{where} must be a table, not {_kind(raw)}")
        no_unknown(raw, {"holes", "range", "start"}, where)
        holes = _int_list(raw, "holes", where, fail)
        if not holes:
            raise fail(f"{where}: 'holes' must list at least one hole")
        if len(set(holes)) != len(holes):
            raise fail(f"{where}: 'holes' lists the same column twice: {holes}")
        low_high = _int_list(raw, "range", where, fail)
        if len(low_high) != 2:
            raise fail(f"{where}: 'range' must be [lowest, highest], not {low_high}")
        low, high = low_high
        if low >= high:
            raise fail(f"{where}: 'range' {low_high} must have lowest < highest (a slide moves)")
        start = integer(raw, "start", where)
        if not low <= start <= high:
            raise fail(f"{where}: 'range' {low_high} does not contain start {start}")
        slides.append(SlideSpec(holes=tuple(holes), low=low, high=high, start=start))

    board = table(data, "board", "board")
    no_unknown(board, {"start", "positions"}, "[board]")
    board_start = integer(board, "start", "[board]")
    if board_start not in BOARD_POSITIONS:
        raise fail(f"[board] start must be 1, 2 or 3, not {board_start}")
    positions = table(board, "positions", "board.positions")
    keys = {str(k): k for k in positions}
    if set(keys) != {"1", "2", "3"}:
        raise fail(f"[board.positions] must have exactly the keys 1, 2 and 3, not {sorted(keys)}")
    scores: dict[int, tuple[int, ...]] = {}
    for position in BOARD_POSITIONS:
        where = f"[board.positions] {position}"
        row = positions[keys[str(position)]]
        if not isinstance(row, (list, tuple)) or not all(_is_int(v) for v in row):
            raise fail(f"{where} must be a list of integers, not {row!r}")
        if len(row) != columns:
            raise fail(f"{where} has {len(row)} scores but the frame has {columns} columns")
        if any(v < 0 for v in row):
            raise fail(f"{where}: scores cannot be negative: {list(row)}")
        scores[position] = tuple(row)

    per_player = DEFAULT_PEGS_PER_PLAYER
    if "pegs" in data:
        pegs = table(data, "pegs", "pegs")
        no_unknown(pegs, {"per_player"}, "[pegs]")
        per_player = integer(pegs, "per_player", "[pegs]")
        if per_player < 1:
            raise fail(f"[pegs] per_player must be at least 1, not {per_player}")

    name = data.get("name", "")
    if not isinstance(name, str):
        raise fail(f"'name' must be a string, not {_kind(name)}")

    return Profile(
        columns=columns,
        slides=tuple(slides),
        board_start=board_start,
        board_scores=scores,
        pegs_per_player=per_player,
        name=name,
        source=source,
    )


def _int_list(raw: Mapping[str, Any], key: str, where: str, fail) -> list[int]:
    if key not in raw:
        raise fail(f"missing key '{key}' in {where}")
    value = raw[key]
    if not isinstance(value, (list, tuple)) or not all(_is_int(v) for v in value):
        raise fail(f"{where}: '{key}' must be a list of integers, not {value!r}")
    return list(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind(value: Any) -> str:
    return {dict: "a table", list: "a list", str: "a string"}.get(type(value), type(value).__name__)
