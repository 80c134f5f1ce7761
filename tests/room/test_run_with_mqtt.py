"""``passetable run --sim --mqtt URL`` as a café owner starts it: the table appears on the
broker with its game, scores that follow the play, and its health; settings errors in
``[mqtt]`` stop it with a bilingual message."""

from __future__ import annotations

import subprocess
import sys
import time

from tests.room.helpers import Listener


def _wait(condition, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_the_running_service_publishes_its_table(broker, tmp_path):
    config = tmp_path / "table.toml"
    config.write_text('[mqtt]\ntable = "bar-2"\n', encoding="utf-8")
    listener = Listener(broker)
    proc = subprocess.Popen([sys.executable, "-m", "table.cli", "run", "--sim", "--game", "pass-pass", "--pace", "0.05",
                             "--port", "0", "--data", str(tmp_path / "data"), "--config", str(config),
                             "--mqtt", broker.url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().split()[2]
        state = _wait(lambda: listener.get("passetable/bar-2/state"))
        assert state["game"] == "pass-pass" and state["url"] == url and len(state["players"]) >= 3
        first_version = state["version"]
        _wait(lambda: (listener.get("passetable/bar-2/state") or {}).get("version", 0) > first_version + 5)
        assert _wait(lambda: listener.get("passetable/bar-2/health"))["status"] == "online"
    finally:
        proc.terminate()
        proc.wait(timeout=15)
        listener.close()


def test_broken_mqtt_settings_stop_the_service_with_a_message(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "table.cli", "run", "--game", "pass-pass", "--port", "0",
                           "--data", str(tmp_path), "--mqtt", "http://nowhere"], capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 2 and "mqtt" in proc.stderr.lower() and "passetable :" in proc.stderr
