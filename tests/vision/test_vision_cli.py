"""The command-line contract that outside checks use."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from vision import cli
from vision.synth.scene import random_scene

ROOT = Path(__file__).resolve().parents[2]


def run(argv):
    parser = argparse.ArgumentParser(prog="passetable")
    cli.add_subcommands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_enroll_then_recognize_json(photo_dirs, tmp_path, capsys):
    out = tmp_path / "model"
    assert run(["enroll", "--deck", "passe-eclair", "--images", str(photo_dirs["passe-eclair"]),
                "--out", str(out)]) == 0
    assert "22 cards" in capsys.readouterr().out
    scene = random_scene(2_000_201, "passe-eclair", 3)
    a, b = tmp_path / "a.jpg", tmp_path / "b.png"
    cv2.imwrite(str(a), scene.image)
    cv2.imwrite(str(b), random_scene(2_000_202, "passe-eclair", 1).image)
    assert run(["recognize", "--model", str(out), str(a), str(b), "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    docs = [json.loads(line) for line in lines]
    assert [d["image"] for d in docs] == [str(a), str(b)]
    for d in docs:
        for card in d["cards"]:
            assert set(card) == {"card", "confidence", "corners"}
            assert card["card"] is None or isinstance(card["card"], str)
            assert len(card["corners"]) == 4 and all(len(p) == 2 for p in card["corners"])
            assert 0 <= card["corners"][0][0] <= 1280 and 0 <= card["corners"][0][1] <= 720
    named = {c["card"] for c in docs[0]["cards"] if c["card"]}
    assert named <= {c.card for c in scene.cards} and len(named) >= 2


def test_errors_are_one_line_and_exit_2(photo_dirs, tmp_path, capsys, model_dirs):
    assert run(["enroll", "--deck", "pass-pass", "--images", str(photo_dirs["passe-eclair"]),
                "--out", str(tmp_path / "m")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "missing" in err[0] and "purple-1.png" in err[0]
    assert run(["recognize", "--model", str(tmp_path), str(tmp_path / "x.jpg")]) == 2
    assert "not a card model" in capsys.readouterr().err
    bad = tmp_path / "bad.jpg"
    bad.write_text("garbage")
    assert run(["recognize", "--model", str(model_dirs["pass-pass"]), str(bad), "--json"]) == 2
    captured = capsys.readouterr()
    assert "cannot read image" in captured.err and captured.out == ""


def test_markers_sheet_is_written(tmp_path, capsys):
    assert run(["markers", "--out", str(tmp_path / "m.pdf")]) == 0
    assert (tmp_path / "m.pdf").read_bytes().startswith(b"%PDF-1.4")
    assert run(["markers", "--out", str(tmp_path / "m.xyz")]) == 2


@pytest.mark.slow
def test_module_entry_point_has_no_traceback(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "vision.cli", "recognize", "--model", str(tmp_path), "x.jpg"],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr and p.stderr.count("\n") == 1


def test_a_card_not_enrolled_is_said_unknown_with_the_card_it_looks_like(photo_dirs, tmp_path, capsys):
    photos = tmp_path / "photos"
    photos.mkdir()
    for path in photo_dirs["pass-pass"].iterdir():
        if path.stem != "purple-1":
            shutil.copy(path, photos)
    out = tmp_path / "model"
    assert run(["enroll", "--deck", "pass-pass", "--images", str(photos), "--out", str(out), "--partial"]) == 0
    assert "47 of the 48 cards" in capsys.readouterr().out
    image = tmp_path / "purple-1.png"
    cv2.imwrite(str(image), random_scene(50_000, ["purple-1"], 1).image)   # as in test_vision_partial_deck.py
    assert run(["recognize", "--model", str(out), str(image)]) == 0
    assert capsys.readouterr().out.strip() == f"{image}: unknown card (like purple-1, not enrolled)"


def test_a_partial_enrolment_says_which_enrolled_cards_wait_for_more_of_the_deck(photo_dirs, tmp_path, capsys):
    photos = tmp_path / "photos"
    photos.mkdir()
    for path in photo_dirs["pass-pass"].glob("purple-*.png"):   # one colour only: nothing to piece a blue card on
        shutil.copy(path, photos)
    out_dir = str(tmp_path / "m")
    assert run(["enroll", "--deck", "pass-pass", "--images", str(photos), "--out", out_dir, "--partial"]) == 0
    out = capsys.readouterr().out
    assert "enrolled 12 of the 48 cards" in out
    assert "12 of the enrolled cards are not named yet either" in out and "purple-1, purple-10" in out
