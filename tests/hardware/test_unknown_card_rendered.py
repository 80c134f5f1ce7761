"""A card the recogniser abstains on, laid on the Passe Éclair pile in rendered frames
(calibration, recogniser, stability filter, hands): never a guess, the page asks which
card among those the rules allow there, and one tap places it for the seat whose hand
came in, at the time it landed."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware.sim_cards import PILE_CENTRE_MM, draw_arm
from table.log import EventLog
from table.session import Session

UNREAD = "marlon-fabi"   # enrolled without it, as an owner's ``--partial`` enrolment


@pytest.fixture(scope="module")
def partial_model(tmp_path_factory):
    from vision.decks import deck_card_ids
    from vision.enrol import enrol_directory
    from vision.synth.scene import card_photo

    base = tmp_path_factory.mktemp("pe-partial")
    for i, card in enumerate(deck_card_ids("passe-eclair")):
        if card != UNREAD:
            cv2.imwrite(str(base / f"{card}.png"), card_photo(card, 900_000 + i))
    enrol_directory("passe-eclair", base, base / "model", partial=True)
    return base / "model"


class PileCamera:
    """A fixed rendered camera over the pile, frames through the real pipeline into ``session``."""

    def __init__(self, session, model_dir, seed=5):
        from vision.calibration import calibrate
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
        self.view = random_camera(self.rng, SceneStyle(fill=(0.8, 0.85), turn_max_deg=6))
        self.base = render_table([], self.view, self.rng, SceneStyle.clean(), pictures=marker_pictures(prof),
                                 background=cloth).image
        cal = calibrate(self.base, prof)
        self.watcher = TableWatcher(CardRecogniser(CardModel.load(model_dir)), cal, prof, empty_table=self.base,
                                    hands=HandWatcher(cal, prof, self.base, seats=4))
        self._render, self._style = render_table, SceneStyle.clean()
        self.pile: list[str] = []
        self.landed = 0.0

    def frames(self, arms=(), reach=1.0, count=1):
        from vision.sources import Frame
        from vision.synth.scene import Placement

        for _ in range(count):
            img = self._render([Placement(c, PILE_CENTRE_MM, 0.0) for c in self.pile], self.view, self.rng,
                               self._style, background=self.base).image
            for seat in arms:
                img = draw_arm(img, self.view, seat, reach=reach, tone=3)
            self.t += 1 / 30
            self.n += 1
            for obs in self.watcher.process(Frame(img, self.t, self.n)):
                self.session.submit(obs)

    def lay(self, card, arms):
        self.frames(arms, 0.6, 2)
        self.pile.append(card)
        self.frames(arms, 1.0, 1)
        self.landed = self.t
        self.frames(count=20)


def test_an_unread_top_card_is_asked_and_one_tap_places_it_as_it_happened(partial_model):
    session = Session(EventLog(":memory:"))
    session.start_game("passe-eclair", {"players": 4}, source="test")
    camera = PileCamera(session, partial_model)
    camera.frames(count=3)
    camera.lay("leon-marlon", arms=[0])               # the coach turns the start card
    assert session.snapshot()["view"]["phase"] == "playing"
    camera.lay(UNREAD, arms=[1])                      # seat 1 lays the card the model lacks
    view = session.snapshot()["view"]
    assert view["pile"][-1]["card"] == "leon-marlon"  # no guess
    alert, = session.snapshot()["alerts"]
    ids = [c["id"] for c in alert["choices"]]
    assert alert["kind"] == "camera_which_card" and UNREAD in ids and ids[-1] == "none"
    assert "leon-marlon" not in ids                   # only what the rules allow on the pile
    session.resolve(alert["id"], UNREAD, source="dashboard")
    top = session.snapshot()["view"]["pile"][-1]
    assert (top["card"], top["by"]) == (UNREAD, 1) and session.snapshot()["alerts"] == []
    assert camera.landed <= top["t"] <= camera.landed + 3 / 30   # when it landed (frame clock), not the tap's
    asked = [o for o in session.log.read() if o.kind == "card_unknown"]
    assert len(asked) == 1 and asked[0].source == "camera" and asked[0].data["hands"] == [1]
