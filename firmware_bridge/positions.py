"""The one place where the firmware's notch index becomes the game's slide offset.

The board reports, for each slide, which reed switch of its ladder is closed: notch index
0 (leftmost) to ``notches - 1``. The game speaks of offsets in notches around the start
position (default −2…+2, start 0). ``notch_offset`` is the offset of notch index 0.

    >>> m = NotchMap()
    >>> m.to_offset(0), m.to_offset(2), m.to_notch(+2)
    (-2, 0, 4)
"""

from __future__ import annotations

from dataclasses import dataclass

BOARD_POSITIONS = (1, 2, 3)


@dataclass(frozen=True)
class NotchMap:
    """Notch index ↔ offset for every slide (all six slides share one geometry)."""

    notch_offset: int = -2
    notches: int = 5

    def __post_init__(self) -> None:
        if self.notches < 1:
            raise ValueError(f"a slide needs at least one notch, not {self.notches}")

    @property
    def offsets(self) -> range:
        return range(self.notch_offset, self.notch_offset + self.notches)

    def to_offset(self, notch: int) -> int:
        if not 0 <= notch < self.notches:
            raise ValueError(f"notch index {notch} is outside 0..{self.notches - 1}")
        return notch + self.notch_offset

    def to_notch(self, offset: int) -> int:
        if offset not in self.offsets:
            raise ValueError(
                f"slide offset {offset} is outside {self.offsets.start}..{self.offsets.stop - 1}")
        return offset - self.notch_offset


def check_board_position(position: int) -> int:
    if position not in BOARD_POSITIONS:
        raise ValueError(f"board position {position} is not one of 1, 2, 3")
    return position
