"""Fixtures of the hardware tests."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def factory():
    """gpiozero's own mock pins, reset after the test."""
    f = MockFactory()
    yield f
    f.reset()
