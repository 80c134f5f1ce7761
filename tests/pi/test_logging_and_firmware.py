"""Logging for ``run`` (levels, journal format when stderr is the journal) and
``passetable firmware version|flash`` against the simulated board and the real avrdude."""

from __future__ import annotations

import io
import json
import logging
import os
import shutil

import pytest

from table.cli import build_parser, main
from table.logsetup import journal_attached, remove_logging, setup_logging


def test_journal_lines_carry_their_level_and_a_terminal_gets_times(tmp_path, monkeypatch):
    out = tmp_path / "stderr"
    with open(out, "w") as stream:
        st = os.fstat(stream.fileno())
        monkeypatch.setenv("JOURNAL_STREAM", f"{st.st_dev}:{st.st_ino}")
        assert journal_attached(stream)
        handler = setup_logging("warning", stream=stream)
        try:
            logging.getLogger("web").error("boom")
            logging.getLogger("web").info("hidden at warning")
            try:
                raise ValueError("bad frame")
            except ValueError:
                logging.getLogger("firmware_bridge").exception("link failed")
        finally:
            remove_logging(handler)
    lines = out.read_text().splitlines()
    assert lines[0] == "<3>web: boom"
    assert lines[1] == "<3>firmware_bridge: link failed"
    assert all(line.startswith("<3>") for line in lines[1:]) and "ValueError: bad frame" in lines[-1]
    monkeypatch.setenv("JOURNAL_STREAM", "1:2")
    term = io.StringIO()
    handler = setup_logging("debug", stream=term)
    try:
        logging.getLogger("table").debug("detail")
    finally:
        remove_logging(handler)
    assert term.getvalue().rstrip().endswith("DEBUG   table: detail") and not term.getvalue().startswith("<")


def test_run_takes_a_log_level():
    args = build_parser().parse_args(["run", "--sim", "--log-level", "debug"])
    assert args.log_level == "debug"
    assert build_parser().parse_args(["run"]).log_level == "info"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "--log-level", "chatty"])


def test_firmware_version_asks_the_board(capsys):
    from hardware.sim_board import SimulatedBoard

    board = SimulatedBoard().start()
    try:
        assert main(["firmware", "version", "--port", board.port, "--json"]) == 0
    finally:
        board.stop()
    info = json.loads(capsys.readouterr().out)
    assert (info["firmware"], info["version"], info["protocol"], info["host_protocol"]) == \
        ("passeframe-py", "1.1.0", 2, 2)


def test_firmware_version_of_an_old_board_says_to_flash(capsys):
    from hardware.sim_board import SimulatedBoard

    board = SimulatedBoard(protocol=1).start()
    try:
        assert main(["firmware", "version", "--port", board.port]) == 1
    finally:
        board.stop()
    out = capsys.readouterr().out
    assert "protocol / protocole 1 (passetable: 2)" in out and "flash" in out


def test_firmware_version_without_a_board(tmp_path, capsys):
    assert main(["firmware", "version", "--port", str(tmp_path / "ttyNONE")]) == 1
    err = capsys.readouterr().err
    assert "no sensor board at" in err and "aucune carte capteurs sur" in err


def test_flash_dry_run_prints_the_avrdude_command(tmp_path, capsys):
    image = tmp_path / "fw.hex"
    image.write_text(":00000001FF\n")
    assert main(["firmware", "flash", "--port", "/dev/ttyUSB0", "--hex", str(image), "--baud", "57600",
                 "--dry-run"]) == 0
    assert capsys.readouterr().out.split() == ["avrdude", "-p", "atmega328p", "-c", "arduino", "-P", "/dev/ttyUSB0",
                                               "-b", "57600", "-D", "-U", f"flash:w:{image}:i"]


@pytest.mark.skipif(shutil.which("avrdude") is None, reason="needs avrdude (apt-get install avrdude)")
def test_flash_reports_avrdude_failing_on_a_silent_port(tmp_path, capsys):
    """A port where no bootloader answers (a pty nobody serves): avrdude gives up, and the
    command says so in both languages with avrdude's own last words."""
    image = tmp_path / "fw.hex"
    image.write_text(":00000001FF\n")
    master, slave = os.openpty()
    try:
        rc = main(["firmware", "flash", "--port", os.ttyname(slave), "--hex", str(image), "--attempts", "1"])
    finally:
        os.close(master)
        os.close(slave)
    err = capsys.readouterr().err
    assert rc == 1
    assert "avrdude failed on" in err and "avrdude a échoué sur" in err
    assert "avrdude" in err.split("\n", 2)[-1]  # avrdude's own message follows


def test_flash_refuses_a_missing_image(tmp_path, capsys):
    assert main(["firmware", "flash", "--port", "/dev/null", "--hex", str(tmp_path / "none.hex")]) == 2
    assert "pas d'image de micrologiciel" in capsys.readouterr().err
