"""A Passe Éclair card laid while two hands were in: the camera (rendered frames through
calibration, recogniser, stability filter and hands) asks who laid it, and one tap on the
page places it for that seat."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware.sim_cards import PILE_CENTRE_MM, draw_arm
from table.log import EventLog
from table.session import Session
from tests.browser import log_in, pin_guard
from web.app import create_app
from web.server import DashboardServer

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    from vision.decks import deck_card_ids
    from vision.enrol import enrol_directory
    from vision.synth.scene import card_photo

    base = tmp_path_factory.mktemp("pe-model")
    for i, card in enumerate(deck_card_ids("passe-eclair")):
        cv2.imwrite(str(base / f"{card}.png"), card_photo(card, 900_000 + i))
    enrol_directory("passe-eclair", base, base / "model")
    return base / "model"


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
        for _ in range(10):
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
            for obs in self.watcher.process(Frame(img, self.t, self.n)):
                self.session.submit(obs)

    def lay(self, card, arms):
        self.frames(arms, 0.6, 2)
        self.pile.append(card)
        self.frames(arms, 1.0, 1)
        self.frames(count=20)


def test_two_hands_in_a_question_one_tap_places_the_card(model_dir, tmp_path, page):
    session = Session(EventLog(tmp_path / "pe.sqlite3"))
    server = DashboardServer(create_app(session, guard=pin_guard()), port=0, max_streams=4)
    server.start()
    try:
        session.start_game("passe-eclair", {"players": 4, "names": ["Ana", "Bruno", "Chloé", "David"]},
                           source="test")
        camera = PileCamera(session, model_dir)
        camera.frames(count=3)
        camera.lay("leon-marlon", arms=[0])            # the coach turns the start card
        page.goto(server.url + "?lang=en")
        log_in(page)
        page.wait_for_function("() => document.body.dataset.version !== undefined")
        assert session.snapshot()["view"]["phase"] == "playing"
        camera.lay("marlon-fabi", arms=[1, 3])          # Bruno and David both reach the pile
        alert = next(a for a in session.snapshot()["alerts"] if a["kind"] == "camera_who_placed")
        assert sorted(c["id"] for c in alert["choices"]) == ["1", "3"]
        box = f".alert-box[data-alert='{alert['id']}']"
        page.wait_for_selector(box, timeout=15_000)
        page.click(f"{box} button.resolve[data-choice='3']")
        page.wait_for_selector(box, state="detached", timeout=15_000)
        top = session.snapshot()["view"]["pile"][-1]
        assert (top["card"], top["by"]) == ("marlon-fabi", 3)
        [resolve] = [o for o in session.log.read() if o.kind == "resolve"]
        assert resolve.source == "dashboard"
    finally:
        server.stop()
        session.log.close()
