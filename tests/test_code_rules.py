"""The rules the code keeps, checked on every run: lint, the allowed imports (the
contracts in ``pyproject.toml``), no import cycles, and no game named outside its folder
in the layers that must know games only through the registry."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PACKAGES = ("table", "web", "vision", "hardware", "firmware_bridge")


def _run(tool: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / tool), *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing():
    result = _run("ruff", "check", ".", "--output-format", "concise")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_import_contracts_are_kept():
    result = _run("lint-imports")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr


def test_no_two_modules_import_each_other_even_indirectly():
    graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True)
    cycles = sorted({tuple(sorted((m, imported))) for m in graph.modules
                     for imported in graph.find_modules_directly_imported_by(m)
                     if graph.find_shortest_chain(importer=imported, imported=m)})
    assert cycles == []


GAME_IDS = re.compile(r"passe-murailles|pass-pass|ptipasspass|passe-eclair")


@pytest.mark.parametrize("path", sorted([*(ROOT / "web").glob("*.py"), ROOT / "table/session.py",
                                         ROOT / "table/log.py", ROOT / "table/cli.py"]), ids=lambda p: p.name)
def test_no_game_is_named_where_games_come_from_the_registry(path):
    assert GAME_IDS.findall(path.read_text()) == []
