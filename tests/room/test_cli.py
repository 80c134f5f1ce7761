"""``passetable hub`` as a person starts it (``python -m web.room.cli hub``), and its errors."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import urllib.request

from tests.support import wait_until
from web.room import cli


def test_add_subcommands_adds_hub():
    parser = argparse.ArgumentParser()
    cli.add_subcommands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["hub", "--mqtt", "mqtt://127.0.0.1:1883", "--port", "0"])
    assert args.func is cli.cmd_hub and args.port == 0 and args.host == "127.0.0.1"


def test_a_bad_broker_address_is_one_bilingual_line_and_exit_2(capsys):
    assert cli.main(["hub", "--mqtt", "http://nowhere"]) == 2
    err = capsys.readouterr().err
    assert "mqtt://host:1883" in err and "l'adresse du broker" in err and "Traceback" not in err


def test_the_hub_command_serves_the_room(broker, make_session):
    from web.room.publisher import TablePublisher

    session = make_session("bar-9")
    session.new_game("passe-murailles")
    pub = TablePublisher(session, url=broker.url, table="bar-9")
    pub.start()
    proc = subprocess.Popen([sys.executable, "-m", "web.room.cli", "hub", "--mqtt", broker.url, "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        url = re.search(r"(http://\S+/)", first).group(1)
        assert "ouvrez" in first

        def listed():
            with urllib.request.urlopen(url + "api/tables", timeout=5) as resp:
                return json.load(resp)

        assert wait_until(lambda: [t["table"] for t in listed()] == ["bar-9"], timeout=15)
        row = listed()[0]
        assert row["game"] == "passe-murailles" and [p["name"]["fr"] for p in row["players"]] == ["Rouge", "Bleu"]
        with urllib.request.urlopen(url + "?lang=en", timeout=5) as resp:
            assert "the room" in resp.read().decode()
    finally:
        proc.terminate()
        assert proc.wait(timeout=10) == 0
        pub.stop()
    assert "stopped" in proc.stdout.read()
