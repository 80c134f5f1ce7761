"""The Pass Pass score sheet: one line per finished round, Pass Pass marks, and who wins
on points at the end of round 3 (ruling 1).

    >>> best_by_points({0: 20, 1: 25, 2: 25}, {0: 0, 1: 1, 2: 1})
    [1, 2]

A round interrupted by an instant win is not scored (the rule book counts points only
"if no player made their 3rd Pass Pass" during the round), so it has no sheet line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RoundScore:
    """One line of the score sheet.

        >>> line = RoundScore(1, points=(9, 4, 12), pass_pass=(1, 0, 2))
        >>> line.points[2], RoundScore.from_dict(line.to_dict()) == line
        (12, True)

    ``points`` and ``pass_pass`` are per seat. In team mode ``recorded`` gives, per team,
    the seat whose score the team recorded (``None`` while that team has not chosen);
    in individual mode it is ``None``.
    """

    round: int
    points: tuple[int, ...]
    pass_pass: tuple[int, ...]
    recorded: tuple[int | None, ...] | None = None

    def team_points(self, team: int) -> int | None:
        seat = self.recorded[team] if self.recorded else None
        return None if seat is None else self.points[seat]

    def team_pass_pass(self, team: int) -> int | None:
        seat = self.recorded[team] if self.recorded else None
        return None if seat is None else self.pass_pass[seat]

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "points": list(self.points),
            "pass_pass": list(self.pass_pass),
            "recorded": None if self.recorded is None else list(self.recorded),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RoundScore:
        recorded = d.get("recorded")
        return cls(
            round=int(d["round"]),
            points=tuple(d["points"]),
            pass_pass=tuple(d["pass_pass"]),
            recorded=None if recorded is None else tuple(recorded),
        )


@dataclass(frozen=True)
class PassPassMarks:
    """A seat's Pass Pass ticks: ``per_round`` (one entry per round begun, the current
    one included, as marked so far) and their ``total``.

        >>> PassPassMarks((1, 0, 2)).total
        3
    """

    per_round: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.per_round)


def best_by_points(points: Mapping[int, int], pass_pass: Mapping[int, int]) -> list[int]:
    """The winners on points: most points; tie -> most Pass Pass; still tied -> all of
    them share the victory. Keys are seats (or teams); returns them sorted."""
    top = max((points[k], pass_pass[k]) for k in points)
    return sorted(k for k in points if (points[k], pass_pass[k]) == top)
