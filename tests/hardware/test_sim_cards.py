"""The simulated Pass Pass table seen by a rendered camera: frames through calibration and
TableWatcher into the session, the page in step with the simulated truth."""

from __future__ import annotations

import cv2
import pytest

from hardware.sim_cards import CameraPassPassTable, RoundFigures, parse_faults
from table.log import EventLog
from table.session import Session

ENROL_SEED = 900_000


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    from vision.decks import deck_card_ids
    from vision.enrol import enrol_directory
    from vision.synth.scene import card_photo

    base = tmp_path_factory.mktemp("pass-pass-model")
    for i, card in enumerate(deck_card_ids("pass-pass")):
        cv2.imwrite(str(base / f"{card}.png"), card_photo(card, ENROL_SEED + i))
    enrol_directory("pass-pass", base, base / "model")
    return base / "model"


def test_a_trick_played_before_the_camera_is_scored_from_its_frames(model_dir):
    session = Session(EventLog(":memory:"))
    table = CameraPassPassTable(session, model_dir, seed=4, setups=((3, False),))
    table.new_game()
    fig = RoundFigures()
    while table.mind.trick == 1 and not table.mind.is_over():   # the first trick: 3 plays, then the takes
        table.step(fig)
    assert fig.wrong == []
    view = session.snapshot()["view"]
    truth = [sorted(c.id for c in table.mind.in_front(s)) for s in range(3)]
    assert [sorted(s["in_front"]) for s in view["seats"]] == truth
    assert sum(len(t) for t in truth) == 3
    facts = [o for o in session.log.read() if o.kind in ("card_seen", "card_gone")]
    assert facts and {o.source for o in facts} == {"camera"}
    assert table.camera.frames > 0


def test_faults_are_named():
    assert parse_faults("crooked@0.25,hand") == {"crooked": 0.25, "hand": 1.0}
    with pytest.raises(ValueError, match="glow"):
        parse_faults("glow@0.1")
