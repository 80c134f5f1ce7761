"""The PtiPassPass cup grid rendered from above: cups down or lifted, tokens under the
lifted ones, a hand on a cup, a token held up over a cup.

The camera is placed at random (as a person would set it up) until the calibration shot
shows every marker; that shot also holds the colour calibration layout (three tokens and
a cup in the top row, see :data:`vision.tokens.CALIBRATION_LAYOUT`).

    >>> import numpy as np
    >>> scene = CupScene(np.random.default_rng(1), cells=[(0, 0), (0, 1)])
    >>> scene.lifted = {(0, 1)}; scene.tokens[(0, 1)] = ["green"]
    >>> frame = next(scene.frames(1))
    >>> frame.image.shape, frame.index
    ((720, 1280, 3), 1)
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from vision.profile import TableProfile
from vision.sources import Frame
from vision.synth.items import TOKEN_BGR, TOKEN_RADIUS_MM, token_discs
from vision.synth.scene import Disc, SceneStyle, _background, random_camera, render_table

SKIN_BGR = (110, 150, 205)
HAND_RADIUS_MM = 22.0       # a fist on a cup's bottom: the cup's rim still shows around it
CALIBRATION_TOKENS = {(0, 0): ["blue"], (0, 1): ["green"], (0, 2): ["orange"]}
CALIBRATION_CUP = (0, 4)
PLACINGS = 10


class CupScene:
    """The grid's physical state (what the simulated players do) and its rendering."""

    def __init__(self, rng: np.random.Generator, cells, *, profile: TableProfile | None = None,
                 fps: float = 30.0, t0: float = 0.0, style: SceneStyle | None = None):
        from vision.calibration import CalibrationError, calibrate
        from vision.markers import marker_pictures

        self.rng, self.profile = rng, profile or TableProfile.load()
        self.cells = [tuple(c) for c in cells]
        self.style = style or SceneStyle.clean()
        self.tokens: dict[tuple[int, int], list[str]] = {}   # what lies on each cell (under its cup)
        self.lifted: set[tuple[int, int]] = set()              # cells whose cup is up (or away)
        self.hand: tuple[int, int] | None = None               # a hand on this cell's cup
        self.held: tuple[tuple[int, int], str] | None = None   # a token held over a cup
        self.t, self.fps, self.index = t0, fps, 0
        self.background = _background(rng, (1280, 720))
        self.pictures = marker_pictures(self.profile)
        calibration_discs = token_discs(self.profile, CALIBRATION_TOKENS, {CALIBRATION_CUP})
        for attempt in range(PLACINGS):
            self.view = random_camera(rng, SceneStyle(fill=(0.8, 0.85), turn_max_deg=6))
            self.shot = self._draw(calibration_discs)
            try:
                calibrate(self.shot, self.profile)
                break
            except CalibrationError:
                if attempt == PLACINGS - 1:
                    raise

    def _draw(self, discs: list[Disc]) -> np.ndarray:
        return render_table([], self.view, self.rng, self.style, pictures=self.pictures,
                            background=self.background, discs=discs).image

    def discs(self) -> list[Disc]:
        covered = {c for c in self.cells if c not in self.lifted}
        visible = {c: v for c, v in self.tokens.items() if c in self.lifted}
        out = token_discs(self.profile, visible, covered)
        if self.hand is not None:
            out.append(Disc(self._centre(self.hand), HAND_RADIUS_MM, SKIN_BGR))
        if self.held is not None:
            cell, colour = self.held
            out.append(Disc(self._centre(cell), TOKEN_RADIUS_MM, TOKEN_BGR[colour]))
        return out

    def _centre(self, cell) -> tuple[float, float]:
        x0, y0, x1, y1 = self.profile.cell_rect_mm(*cell)
        return (x0 + x1) / 2, (y0 + y1) / 2

    def image(self) -> np.ndarray:
        return self._draw(self.discs())

    def frames(self, n: int, image: np.ndarray | None = None) -> Iterator[Frame]:
        """``n`` camera frames of the grid as it stands now (one rendering, a new time each)."""
        image = self.image() if image is None else image
        for _ in range(n):
            self.t += 1.0 / self.fps
            self.index += 1
            yield Frame(image, self.t, self.index)
