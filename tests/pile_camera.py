"""A fixed rendered camera over Passe Éclair's pile for tests: cards laid with arms reaching
in from seats, frames through the real vision pipeline into a session."""

from __future__ import annotations

import numpy as np

from hardware.sim_cards import PILE_CENTRE_MM, draw_arm


class PileCamera:
    """A fixed rendered camera over the pile, frames through the real pipeline into ``session``."""

    def __init__(self, session, model_dir, seed=5):
        from vision.calibration import CalibrationError, calibrate
        from vision.hands import HandWatcher
        from vision.markers import marker_pictures
        from vision.model import CardModel
        from vision.pipeline import TableWatcher
        from vision.profile import TableProfile
        from vision.recognise import CardRecogniser
        from vision.synth.scene import SceneStyle, _background, random_camera, render_table

        self.session, self.rng, self.t, self.n = session, np.random.default_rng(seed), 0.0, 0
        prof = TableProfile.load()
        cloth = _background(self.rng, (1280, 720))
        for _ in range(10):  # a camera placed until the calibration shot shows every marker
            self.view = random_camera(self.rng, SceneStyle(fill=(0.8, 0.85), turn_max_deg=6))
            self.base = render_table([], self.view, self.rng, SceneStyle.clean(), pictures=marker_pictures(prof),
                                     background=cloth).image
            try:
                cal = calibrate(self.base, prof)
                break
            except CalibrationError:
                continue
        self.watcher = TableWatcher(CardRecogniser(CardModel.load(model_dir)), cal, prof, empty_table=self.base,
                                    hands=HandWatcher(cal, prof, self.base, seats=4))
        self._render, self._style = render_table, SceneStyle.clean()
        self.pile: list[str] = []
        self.landed = 0.0
        self.record: list | None = None   # when a list: every frame rendered (for passetable watch)

    def frames(self, arms=(), reach=1.0, count=1):
        from vision.sources import Frame
        from vision.synth.scene import Placement

        for _ in range(count):
            img = self._render([Placement(c, PILE_CENTRE_MM, 0.0) for c in self.pile], self.view, self.rng,
                               self._style, background=self.base).image
            for seat in arms:
                img = draw_arm(img, self.view, seat, reach=reach, tone=3)   # a light skin on this cloth
            self.t += 1 / 30
            self.n += 1
            if self.record is not None:
                self.record.append(img)
            for obs in self.watcher.process(Frame(img, self.t, self.n)):
                self.session.submit(obs)

    def lay(self, card, arms):
        self.frames(arms, 0.6, 2)
        self.pile.append(card)
        self.frames(arms, 1.0, 1)
        self.landed = self.t
        self.frames(count=20)

