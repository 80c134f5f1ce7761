"""gpiozero's ``MockFactory`` for a simulated table that runs for days.

gpiozero's mock pins keep every edge they ever saw (``pin.states``, for tests' assertions);
a simulated table's beams and buttons left running grow the process by it (~7,000 blocks an
hour, measured by the soak), which real pins never do. These pins keep the last few edges.

    >>> factory = simulated_pins()
    >>> pin = factory.pin(17)
    >>> for i in range(1000):
    ...     pin.drive_high() if i % 2 else pin.drive_low()
    >>> len(pin.states) <= 2 * KEEP_EDGES
    True
"""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory, MockPin

KEEP_EDGES = 32


class ForgetfulMockPin(MockPin):
    """A mock pin that keeps only its last :data:`KEEP_EDGES` edges."""

    def _change_state(self, value):
        changed = super()._change_state(value)
        if len(self.states) > 2 * KEEP_EDGES:
            del self.states[:-KEEP_EDGES]
        return changed


def simulated_pins() -> MockFactory:
    """A ``MockFactory`` whose pins forget old edges (for ``--sim`` tables, not for tests)."""
    return MockFactory(pin_class=ForgetfulMockPin)
