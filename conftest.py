"""What the docstring examples of the packages may use without building it themselves
(``pytest --doctest-modules``): a session on a real SQLite file, the settings' defaults,
gpiozero's mock pins, and the names most examples start from."""

from __future__ import annotations

import pytest
from _pytest.doctest import DoctestItem


@pytest.fixture(autouse=True)
def _doctest_names(request, tmp_path):
    if not isinstance(request.node, DoctestItem):
        yield
        return
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from table.config import load_config
    from table.log import EventLog
    from table.observations import Observation
    from table.session import Session

    Device.pin_factory = MockFactory()
    session = Session(EventLog(tmp_path / "doctest.sqlite3"))
    request.getfixturevalue("doctest_namespace").update(
        session=session, settings=load_config(None), cfg=load_config(None), EventLog=EventLog, Session=Session,
        Observation=Observation, MockFactory=MockFactory, tmp_path=tmp_path)
    yield
    session.log.close()
    Device.pin_factory.reset()
