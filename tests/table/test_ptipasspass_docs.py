"""The usage examples in the PtiPassPass docstrings run and say what they show."""

from __future__ import annotations

import doctest
import importlib
import random

import pytest

import table.ptipasspass as ptipasspass

MODULES = ["", ".tokens", ".layout", ".knowledge", ".actions", ".game", ".steps", ".legal",
           ".serial", ".feed", ".playout"]


@pytest.mark.parametrize("suffix", MODULES)
def test_docstring_examples(suffix):
    module = importlib.import_module("table.ptipasspass" + suffix)
    names = {name: getattr(ptipasspass, name) for name in ptipasspass.__all__}
    result = doctest.testmod(module, extraglobs={**names, "random": random})
    assert result.failed == 0
    assert result.attempted > 0
