"""Work done in steps: a generator that yields between its steps and returns what it made, so that
a long piece of work (reading a table of new cards) can be spread over the frames of a live camera
(:class:`vision.repeat.SpreadReading`) or run at once (:func:`run_to_the_end`), with the same result.

    >>> def counting(n):
    ...     total = 0
    ...     for k in range(n):
    ...         yield                  # a step ends here
    ...         total += k
    ...     return total
    >>> run_to_the_end(counting(4))
    6
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TypeVar

T = TypeVar("T")
Steps = Generator[None, None, T]   # the type of a work in steps that returns a T


def run_to_the_end(steps: Steps[T]) -> T:
    """What a work in steps returns, all its steps run now."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value
