"""The camera of the simulated Passe Éclair table (``hardware/sim_eclair.py``): the pile and
the seats' arms rendered as frames, through the real calibration, :class:`TableWatcher`
and :class:`HandWatcher` into the session.

    >>> rig = PileCameraRig(session, model_dir, seed=2)                 # doctest: +SKIP
    >>> rig.show([rig._image([("dog", 0.0, 0.0, 0.0)], arms=[1])])     # doctest: +SKIP
    >>> rig.settle([("dog", 0.0, 0.0, 0.0)], card="dog")                # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from hardware.sim_cards import PILE_CENTRE_MM, Abstaining, draw_arm
from hardware.sim_thread import FrameClock
from table.session import Session

MAX_FRAMES = 30               # a second: how long the players leave a card before the next one
RENDER_EVERY = 6              # frames drawn from one rendering (light and print change a little)
TONES = (3, 0, 1, 2)          # each seat's skin tone (draw_arm), the darkest at seat 4


class PileCameraRig(FrameClock):
    """A fixed camera over the table (with the seats' arms): frames of the pile through
    calibration, :class:`TableWatcher` and :class:`HandWatcher` into ``session``."""

    def __init__(self, session: Session, model_dir: str | Path, *, seed: int = 1, fps: float = 30.0,
                 clock: Any = None):
        from hardware.sim.camera_rig import place_camera
        from vision.hands import HandWatcher
        from vision.model import CardModel
        from vision.pipeline import TableWatcher
        from vision.profile import TableProfile
        from vision.recognise import CardRecogniser
        from vision.synth.scene import Placement, SceneStyle, render_table

        self.session, self.fps, self.frames = session, fps, 0
        self.start_clock(clock)
        self.profile = TableProfile.load()
        self._rng = np.random.default_rng(seed)
        rig = place_camera(self._rng, self.profile)
        self.view, self.shot = rig.view, rig.shot
        # same_frames: one rendering is shown for several frames (RENDER_EVERY); an identical frame
        # gets the same answer without the work (vision/repeat.py)
        self.watcher = TableWatcher(CardRecogniser(CardModel.load(model_dir), same_frames=True), rig.calibration,
                                    self.profile, empty_table=rig.shot,
                                    hands=HandWatcher(rig.calibration, self.profile, rig.shot, same_frames=True))
        self.unread: set[str] = set()
        self.watcher.recogniser = Abstaining(self.watcher.recogniser, self.unread)
        self._render, self._placement, self._style = render_table, Placement, SceneStyle.clean()
        self.seen: list[Any] = []
        self.glare = 0                # frames still to draw with a glare spot over the pile (the glare fault)
        self._pile_px = self._project(view=rig.view)

    @staticmethod
    def _project(view: np.ndarray) -> tuple[float, float]:
        from vision.synth.scene import project

        (x, y), = project(view, np.array([PILE_CENTRE_MM]))
        return float(x), float(y)

    def _image(self, pile: list[tuple[str, float, float, float]], arms=(), reach=1.0, hand=False) -> np.ndarray:
        placements = [self._placement(c, (PILE_CENTRE_MM[0] + dx, PILE_CENTRE_MM[1] + dy), a)
                      for c, a, dx, dy in pile]
        scene = self._render(placements, self.view, self._rng, self._style, background=self.shot,
                             hand_over=len(placements) - 1 if hand and placements else None, hand_reach=0.6)
        img = scene.image
        for arm in arms:   # a seat (at ``reach``) or (seat, its own reach)
            seat, r = arm if isinstance(arm, tuple) else (arm, reach)
            img = draw_arm(img, self.view, seat, reach=r, tone=TONES[seat % len(TONES)])
        if self.glare > 0:
            from vision.synth.effects import glare

            img = glare(img, self._rng, centre=self._pile_px, radius=self._rng.uniform(35, 70),
                        intensity=self._rng.uniform(90, 150))
        return img

    def show(self, images: list[np.ndarray], *, skip: int = 0) -> None:
        """One frame per image (the first ``skip`` lost: the camera stalled)."""
        from vision.sources import Frame

        for i, img in enumerate(images):
            self.t += 1.0 / self.fps
            self.frames += 1
            self.glare = max(0, self.glare - 1)
            if i < skip:
                continue
            for obs in self.watcher.process(Frame(img, self.t, self.frames)):
                self.seen.append(self.session.submit(obs))

    def settle(self, pile, *, card: str | None = None) -> int:
        """Frames of the still ``pile`` until the watcher holds ``card`` on the pile (or an
        unnamed card there; no ``card``: until nothing new is settling), at most ``MAX_FRAMES``."""
        image = self._image(pile)
        for i in range(MAX_FRAMES):
            if i and (i % RENDER_EVERY == 0 or self.glare):
                image = self._image(pile)
            self.show([image])
            # a copy of ``card`` buried in the pile is not the one just laid (a dog on a pile with a dog)
            held = card is not None and (self.watcher.shown_on_pile(card)
                                         or (card in self.unread and self.watcher.unknown.present))
            if i >= 6 and (held or (card is None and not self.watcher.cards._seen_run)):
                return i + 1
        return MAX_FRAMES
