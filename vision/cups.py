"""PtiPassPass's cup grid seen from above: cups lifted and put back, what a lifted cup's
cell holds, a hand on a cup, a token held up over a cup; each debounced.

A cell is in one of four states, told apart by colour after the calibration shot
(:data:`vision.tokens.CALIBRATION_LAYOUT`: blue, green, orange tokens, bare mat, a cup):

* **open**: no cup on it (the rim of its mat is bare): the tokens lying there are read
  by :meth:`vision.tokens.ColourModel.count_tokens`;
* **cup**: a cup on it, nothing over the cup;
* **token**: a cup on it with a token held over its middle (shown on "Menteur !");
* **hand**: a cup on it with something over its middle that is neither cup nor token
  (the active player's hand naming that cup).

Observations (``source="camera"``), each once its state held for ``appear_frames``:
``cup_lifted`` {cell, colours} when a cell opens, ``cup_back`` {cell} when a cup covers an
open cell again, ``cup_touched`` {cell} when a hand comes onto a cup and ``cup_released``
{cell} when it leaves, ``token_held`` {cell, colour} when a token is held over a cup.

    >>> import numpy as np
    >>> from vision.calibration import calibrate
    >>> from vision.synth.cups import CupScene
    >>> scene = CupScene(np.random.default_rng(3), cells=[(r, c) for r in range(3) for c in range(3)])
    >>> cal = calibrate(scene.shot, scene.profile)
    >>> watcher = CupWatcher(CupColours.from_shot(scene.shot, cal, scene.profile), cal, scene.profile,
    ...                      cells=scene.cells)
    >>> _ = [watcher.process(f) for f in scene.frames(4)]                    # every cup down
    >>> scene.lifted = {(1, 2)}; scene.tokens[(1, 2)] = ["blue", "orange"]
    >>> [(o.kind, o.data) for f in scene.frames(4) for o in watcher.process(f)]
    [('cup_lifted', {'cell': [1, 2], 'colours': ['blue', 'orange']})]
    >>> scene.lifted = set(); scene.hand = (0, 1)
    >>> [(o.kind, o.data) for f in scene.frames(4) for o in watcher.process(f)]
    [('cup_touched', {'cell': [0, 1]}), ('cup_back', {'cell': [1, 2]})]
    >>> scene.hand = None
    >>> [(o.kind, o.data) for f in scene.frames(4) for o in watcher.process(f)]
    [('cup_released', {'cell': [0, 1]})]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from table.observations import Observation
from vision.calibration import Calibration
from vision.profile import TableProfile
from vision.stability import StabilityFilter
from vision.tokens import (
    CALIBRATION_LAYOUT,
    PX_PER_MM,
    RIM,
    TOKEN_COLOURS,
    ColourModel,
    _chroma,
    _patch,
    _ring,
)

CENTRE_MM = 7.0         # radius looked at over a cup's middle (a held token is 11 mm)
HAND_SHARE = 0.5        # farther than this share of the cup-to-nearest-token distance: a hand


@dataclass
class CupColours:
    """The grid's colour model: token classes (for open cells) and, over a covered cell,
    the chroma of a bare cup and of each token."""

    tokens: ColourModel
    centre: dict[str, list[float]]     # "cup" and each token colour -> chroma

    @classmethod
    def from_shot(cls, frame: np.ndarray, cal: Calibration, profile: TableProfile,
                  layout=CALIBRATION_LAYOUT) -> CupColours:
        model = ColourModel.from_shot(frame, cal, profile, layout)
        centre = {name: _centre_chroma(frame, cal, profile, layout["cells"][name])
                  for name in (*TOKEN_COLOURS, "cup")}
        return cls(model, centre)

    def over_cup(self, chroma: np.ndarray) -> str:
        """``"cup"``, a token colour, or ``"hand"`` for what lies over a cup's middle."""
        dist = {k: float(np.linalg.norm(chroma - np.asarray(v))) for k, v in self.centre.items()}
        best = min(dist, key=dist.get)
        nearest_token = min(float(np.linalg.norm(np.asarray(self.centre["cup"]) - np.asarray(self.centre[c])))
                            for c in TOKEN_COLOURS)
        return best if dist[best] <= HAND_SHARE * nearest_token else "hand"


@lru_cache(maxsize=8)
def _rim(h: int, w: int) -> np.ndarray:
    return _ring(h, w, RIM[0] * min(h, w), RIM[1] * min(h, w))


@lru_cache(maxsize=8)
def _middle(h: int, w: int) -> np.ndarray:
    return _ring(h, w, 0, CENTRE_MM * PX_PER_MM)


def _centre_chroma(frame, cal, profile: TableProfile, cell) -> list[float]:
    x0, y0, x1, y1 = profile.cell_rect_mm(*cell)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    patch = _patch(frame, cal, (cx - CENTRE_MM, cy - CENTRE_MM, cx + CENTRE_MM, cy + CENTRE_MM))
    h, w = patch.shape[:2]
    return _chroma(np.median(patch[_middle(h, w)].reshape(-1, 3), axis=0))


def read_grid_cell(frame: np.ndarray, cal: Calibration, profile: TableProfile, colours: CupColours,
                   cell: tuple[int, int]) -> tuple:
    """``("open", colours...)``, ``("cup",)``, ``("token", colour)`` or ``("hand",)``."""
    patch = _patch(frame, cal, profile.cell_rect_mm(*cell))   # the rim alone first: most cells hold a cup
    h, w = patch.shape[:2]
    rim_bgr = np.median(patch[_rim(h, w)].reshape(-1, 3), axis=0) + 1.0   # as the colour model measured it
    covers = colours.tokens.cover_classes
    rim = np.asarray(_chroma(rim_bgr))
    near = {k: float(np.linalg.norm(rim - np.asarray(v))) for k, v in covers.items()}
    if min(near, key=near.get) != "cup":
        return ("open", *colours.tokens.count_tokens(frame, cal, profile, cell))
    over = colours.over_cup(np.asarray(_centre_chroma(frame, cal, profile, cell)))
    return ("cup",) if over == "cup" else ("hand",) if over == "hand" else ("token", over)


class CupWatcher:
    """Frames → cup observations for the cells of the game's layout. Not thread-safe."""

    def __init__(self, colours: CupColours, calibration: Calibration, profile: TableProfile, *,
                 cells: list[tuple[int, int]], appear_frames: int = 3, source: str = "camera"):
        self.colours, self.cal, self.profile, self.source = colours, calibration, profile, source
        self.cells = [tuple(c) for c in cells]
        self.filter = StabilityFilter(appear_frames, 1)
        self.state: dict[tuple[int, int], tuple] = {cell: ("cup",) for cell in self.cells}  # last reported

    def process(self, frame) -> list[Observation]:
        """Observations confirmed by this frame (``frame`` has ``.image`` and ``.t``)."""
        current = {(cell, read_grid_cell(frame.image, self.cal, self.profile, self.colours, cell)): None
                   for cell in self.cells}
        out = []
        for ch in self.filter.update(current, frame.t):
            if ch.kind != "seen":
                continue
            cell, state = ch.key
            before, self.state[cell] = self.state[cell], state
            obs = self._change(cell, before, state, ch.t)
            if obs is not None:
                out.append(obs)
        return out

    def _change(self, cell, before: tuple, state: tuple, t: float) -> Observation | None:
        data: dict = {"cell": list(cell)}
        if state[0] == "open":
            if before[0] == "open":
                return None   # tokens taken out of a lifted cup: the lift was already reported
            return Observation.now("cup_lifted", source=self.source, t=t, **data, colours=list(state[1:]))
        if before[0] == "open":
            return Observation.now("cup_back", source=self.source, t=t, **data)
        if state[0] == "hand":
            return Observation.now("cup_touched", source=self.source, t=t, **data)
        if state[0] == "token":
            return Observation.now("token_held", source=self.source, t=t, **data, colour=state[1])
        if before[0] == "hand":
            return Observation.now("cup_released", source=self.source, t=t, **data)
        return None
