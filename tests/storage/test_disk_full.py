"""Disk full, for real: the data folder is a small tmpfs that fills up while the table
plays through the real server. The page and /healthz say so, entries are refused in both
languages, nothing acknowledged is lost, and play resumes by itself once space is freed.

Needs root (``mount -t tmpfs``); skipped with the reason where it cannot mount."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import time

import pytest

from table.backup import Keeper
from table.log import EventLog
from table.observations import Observation
from table.session import LogUnwritable, Session
from web.app import create_app
from web.server import DashboardServer


@pytest.fixture
def small_disk(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(folder)],
                              capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"cannot mount a tmpfs here ({exc}): the disk-full test needs root")
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()}): the disk-full test needs root")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, timeout=10)


def _fill(folder) -> os.PathLike:
    filler = folder / "filler"
    with open(filler, "wb") as fh:
        try:
            while True:
                fh.write(b"\0" * 16384)
                fh.flush()
        except OSError:
            pass
    return filler


def _get(port: int, path: str) -> tuple[int, dict]:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("GET", path)
    r = c.getresponse()
    return r.status, json.loads(r.read())


def _post(port: int, path: str, body: dict) -> tuple[int, dict]:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    r = c.getresponse()
    return r.status, json.loads(r.read())


def test_a_full_disk_is_shown_refused_and_play_resumes_when_space_is_freed(small_disk):
    path = small_disk / "passetable.sqlite3"
    session = Session(EventLog(path))
    session.start_game("passe-murailles")
    server = DashboardServer(create_app(session), port=0, keeper=Keeper(session, daily=False, tick=0.2))
    server.start()
    acknowledged: list[int] = []
    try:
        assert _get(server.port, "/healthz")[0] == 200
        filler = _fill(small_disk)
        refused = None
        for i in range(20_000):
            try:
                acknowledged.append(session.submit(
                    Observation.now("board", source="test", position=2 + i % 2)).seq)
            except LogUnwritable as exc:
                refused = exc
                break
        assert refused is not None, "the tmpfs never filled up"
        assert refused.status == 503 and "full" in refused.en and "plein" in refused.fr

        status, health = _get(server.port, "/healthz")
        assert status == 503 and health["ok"] is False
        assert "full" in health["log"]["error"]["en"] and "plein" in health["log"]["error"]["fr"]
        status, state = _get(server.port, "/api/state")
        assert status == 200 and state["health"]["log"]["ok"] is False
        assert state["alerts"][0]["kind"] == "log_unwritable"
        status, answer = _post(server.port, "/api/games", {"game": "passe-murailles"})
        assert status == 503 and answer["error"]["code"] == "log_unwritable"
        assert answer["error"]["en"].startswith("Not recorded") and answer["error"]["fr"].startswith("Non enregistré")
        assert session.log.last_seq() == acknowledged[-1]

        os.unlink(filler)  # space freed: the keeper's next try clears it, nobody touches anything
        for _ in range(100):
            if _get(server.port, "/healthz")[0] == 200:
                break
            time.sleep(0.1)
        assert _get(server.port, "/healthz")[0] == 200
        assert "log_unwritable" not in [a["kind"] for a in _get(server.port, "/api/state")[1]["alerts"]]
        acknowledged.append(session.submit(Observation.now("board", source="test", position=3)).seq)
        status, answer = _post(server.port, "/api/games", {"game": "passe-murailles"})
        assert status == 201
        acknowledged.append(answer["seq"])
    finally:
        server.stop()
        session.log.close()
    again = EventLog(path)
    kept = {o.seq for o in again.read()}
    assert set(acknowledged) <= kept  # nothing acknowledged and then lost
