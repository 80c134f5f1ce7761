"""The simulated Passe Éclair camera table plays the Gros Michi: the card is laid by its
player's arm and seen by the camera (rendered frames through the real pipeline); the swap
partner — and, off anything but a dog, that no one could play — is one tap by a person
(source ``dashboard``); the swap is never typed; the page stays in step with the truth."""

from __future__ import annotations

import pytest

from hardware.sim_eclair import CameraPasseEclairTable, RoundFigures


@pytest.fixture(scope="module")
def model(rendered_decks):
    return rendered_decks("passe-eclair")


def _answers(session):
    """Every question a person answers, as (its kind, the choice, the source)."""
    answered, real = [], session.resolve

    def resolve(alert_id, choice, **kw):
        kind = next(a["kind"] for a in session.snapshot()["alerts"] if a["id"] == alert_id)
        answered.append((kind, choice, kw.get("source")))
        return real(alert_id, choice, **kw)

    session.resolve = resolve
    return answered


def _play_until_michi(table, session, max_steps):
    table.new_game()
    fig = RoundFigures()
    for _ in range(max_steps):
        table.step(fig)
        if any(o.kind == "card_seen" and o.data.get("card") == "michi" for o in session.log.read()):
            return fig
    raise AssertionError("no Gros Michi laid")


@pytest.mark.parametrize(("seed", "question"), [(18, "camera_michi_partner"), (5, "camera_michi_blocked")])
def test_a_michi_seen_by_the_camera_and_its_partner_tapped_once(model, session, seed, question):
    answered = _answers(session)
    table = CameraPasseEclairTable(session, model, seed=seed, players=(3,))
    fig = _play_until_michi(table, session, 14)
    assert fig.wrong == []
    michi = [(kind, choice, source) for kind, choice, source in answered if kind.startswith("camera_michi")]
    assert len(michi) == 1 and michi[0][0] == question and michi[0][2] == "dashboard"   # one tap
    assert session.snapshot()["alerts"] == []
    log = list(session.log.read())
    seen = [o for o in log if o.kind == "card_seen" and o.data.get("card") == "michi"]
    assert seen and {o.source for o in seen} == {"camera"}
    assert not [o for o in log if o.kind == "passe_eclair.michi_swap"]        # the swap is never typed
    assert not [o for o in log if o.source == "sim"]
    view = session.snapshot()["view"]
    assert view["hand_sizes"] == table.mind.hand_sizes()                      # swapped as the truth
    assert view["phase"] == table.mind.phase
    assert [(e["card"], e["by"]) for e in view["pile"]] == [(e.card, e.by) for e in table.mind.pile]
