"""The systemd watchdog: the service says READY=1, then WATCHDOG=1 from its main loop;
when the main loop hangs, the pings stop (systemd's notify socket is one the test opens)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from table.cli import Service
from table.watchdog import Notifier, Watchdog


class FakeServer:
    url = "http://127.0.0.1:1/"

    def start(self):
        pass

    def stop(self):
        pass


@pytest.fixture
def notify_socket(tmp_path):
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    yield path, sock
    sock.close()


def receive(sock, timeout):
    """The next datagram's lines, or None when none came within ``timeout`` seconds."""
    sock.settimeout(timeout)
    try:
        return sock.recv(4096).decode().split("\n")
    except TimeoutError:
        return None


def drain(sock):
    got = []
    sock.setblocking(False)
    try:
        while True:
            got.append(sock.recv(4096).decode())
    except BlockingIOError:
        return got


def test_a_hung_main_loop_stops_the_watchdog_pings(notify_socket):
    path, sock = notify_socket
    hang, hanging, release = threading.Event(), threading.Event(), threading.Event()

    def alive():  # the service's liveness probe, run by its main loop
        if hang.is_set():
            hanging.set()
            release.wait()
        return True

    service = Service(FakeServer(), [])
    service.watchdog = Watchdog(Notifier(path), interval=0.02, alive=alive)
    runner = threading.Thread(target=service.run_until_stopped, daemon=True)
    runner.start()
    try:
        assert receive(sock, 10)[0] == "READY=1"
        pings = 0
        while pings < 5:  # the main loop feeds the watchdog
            assert receive(sock, 10) == ["WATCHDOG=1"]
            pings += 1
        hang.set()                       # the main loop now hangs in its probe
        assert hanging.wait(10)
        drain(sock)                      # a ping sent just before the hang
        assert receive(sock, 0.5) is None, "pings went on while the main loop hung"   # 25 intervals
        assert service.watchdog.pings >= 5
        release.set()                    # it comes back: the pings resume
        hang.clear()
        assert receive(sock, 10) == ["WATCHDOG=1"]
    finally:
        release.set()
        service.stop()
        runner.join(10)
    assert not runner.is_alive()
    assert drain(sock)[-1:] == ["STOPPING=1"]


def test_a_failing_probe_sends_no_ping(notify_socket):
    path, sock = notify_socket
    calls = []
    dog = Watchdog(Notifier(path), interval=0.0, alive=lambda: calls.append(1) or False)
    assert dog.tick() is False and dog.failures == 1
    assert receive(sock, 0.05) is None


def test_abstract_socket_address(tmp_path):
    name = f"passetable-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    try:
        assert Notifier("@" + name).ping()
        assert receive(sock, 5) == ["WATCHDOG=1"]
    finally:
        sock.close()


@pytest.mark.slow
def test_the_real_service_notifies_systemd(notify_socket, tmp_path):
    """``passetable run --sim`` as systemd starts it: NOTIFY_SOCKET and WATCHDOG_USEC set."""
    path, sock = notify_socket
    env = dict(os.environ, NOTIFY_SOCKET=path, WATCHDOG_USEC="200000", PYTHONUNBUFFERED="1")
    env.pop("WATCHDOG_PID", None)
    proc = subprocess.Popen([sys.executable, "-m", "table.cli", "run", "--sim", "--port", "0", "--data",
                             str(tmp_path / "data"), "--log-level", "warning"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        first = receive(sock, 60)
        assert first is not None and first[0] == "READY=1", first
        assert any(line.startswith("STATUS=serving http://") for line in first)
        assert receive(sock, 30) == ["WATCHDOG=1"]
        assert receive(sock, 30) == ["WATCHDOG=1"]
        proc.send_signal(signal.SIGTERM)
        lines = []
        while (got := receive(sock, 30)) is not None and "STOPPING=1" not in got:
            lines.append(got)
        assert got == ["STOPPING=1"]
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_deadlocked_session_stops_the_pings_of_the_real_service(notify_socket, tmp_path, monkeypatch):
    """The liveness probe ``_build_service`` wires in asks the session (under its lock): a
    thread that keeps the session's lock forever stops the pings."""
    from table import session as session_module
    from table.cli import _build_service
    from table.config import load_config

    path, sock = notify_socket
    made = []
    original = session_module.Session.__init__

    def remember(self, *args, **kwargs):
        original(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(session_module.Session, "__init__", remember)
    cfg = load_config(None)
    cfg.service.port, cfg.service.data_dir, cfg.game.name = 0, str(tmp_path / "data"), "pass-pass"
    service = _build_service(cfg, sim=False)
    service.watchdog = Watchdog(Notifier(path), interval=0.02, alive=service.alive)
    runner = threading.Thread(target=service.run_until_stopped, daemon=True)
    runner.start()
    try:
        assert receive(sock, 30)[0] == "READY=1"
        assert receive(sock, 10) == ["WATCHDOG=1"]
        (session,) = made
        with session._lock:                 # another thread deadlocked inside the session
            time.sleep(0.1)                 # a tick that had the lock just before may still ping
            drain(sock)
            assert receive(sock, 0.5) is None, "pings went on while the session was stuck"
        assert receive(sock, 10) == ["WATCHDOG=1"]
    finally:
        service.stop()
        runner.join(10)
    assert not runner.is_alive()


# A SIGTERM handler runs in the main thread, between any two lines of it: one that took a lock the
# main loop may hold at that moment (threading.Event.set() inside Event.wait()) would wait forever,
# and the service would never stop (CPython issue 126434). Each round fires the service's own handler
# at the k-th traced line after it is installed, in the main loop or in any Python code it calls.
SIGNAL_AT_EVERY_LINE = r"""
import contextlib, io, signal, sys
from table.cli import Service
from table.watchdog import Notifier, Watchdog

class Idle:
    url = "http://127.0.0.1:1/"
    def start(self): pass
    def stop(self): pass

for k in range(1, int(sys.argv[1]) + 1):
    service = Service(Idle(), [])
    service.watchdog = Watchdog(Notifier(None), interval=0.002)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)   # the last round's handler is not this one's
    seen = [0]
    def line(frame, event, arg):
        handler = signal.getsignal(signal.SIGTERM)
        if event == "line" and callable(handler):
            seen[0] += 1
            if seen[0] == k:
                handler(signal.SIGTERM, frame)
        return line
    sys.settrace(line)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            assert service.run_until_stopped() == 0
    finally:
        sys.settrace(None)
print("stopped", k)
"""


def test_a_sigterm_at_any_line_of_the_main_loop_stops_the_service():
    rounds = 300
    try:
        done = subprocess.run([sys.executable, "-c", SIGNAL_AT_EVERY_LINE, str(rounds)], capture_output=True,
                              text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("a SIGTERM taken at some line of the main loop never stopped the service")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["stopped", str(rounds)]
