"""A broker that wants TLS and a password: tables and hub connect with mqtts://, a CA
file, a username and password; a wrong password is a health warning, not a stop."""

from __future__ import annotations

import subprocess

import pytest

from tests.room.helpers import Broker
from tests.support import wait_until
from web.room.hub import RoomHub
from web.room.publisher import TablePublisher


def _openssl(*args: str, cwd) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def tls_broker(tmp_path):
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    _openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.crt", "-days", "1", "-subj", "/CN=room-ca",
             cwd=tmp_path)
    _openssl("req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1", cwd=tmp_path)
    (tmp_path / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
             "-out", "server.crt", "-days", "1", "-extfile", "san.ext", cwd=tmp_path)
    subprocess.run(["mosquitto_passwd", "-b", "-c", str(tmp_path / "passwords"), "bar-1", "s3cret"], check=True,
                   capture_output=True)
    subprocess.run(["mosquitto_passwd", "-b", str(tmp_path / "passwords"), "hub", "hub-pass"], check=True,
                   capture_output=True)
    extra = (f"cafile {tmp_path}/ca.crt\ncertfile {tmp_path}/server.crt\nkeyfile {tmp_path}/server.key\n"
             f"password_file {tmp_path}/passwords\n")
    broker = Broker(tmp_path, extra=extra)
    broker.conf.write_text(broker.conf.read_text().replace("allow_anonymous true", "allow_anonymous false"))
    broker.start()
    yield broker, tmp_path / "ca.crt"
    broker.stop()


def test_tables_and_hub_over_tls_with_passwords(tls_broker, make_session):
    broker, ca = tls_broker
    url = f"mqtts://127.0.0.1:{broker.port}"
    session = make_session("bar-1")
    session.start_game("passe-murailles")
    good = TablePublisher(session, url=url, table="bar-1", username="bar-1", password="s3cret", ca_file=str(ca))
    wrong = TablePublisher(make_session("bar-2"), url=url, table="bar-2", username="bar-1", password="guess",
                           ca_file=str(ca))
    anonymous_plain = TablePublisher(make_session("bar-3"), url=broker.url, table="bar-3")  # no TLS, no login
    hub = RoomHub(url=url, username="hub", password="hub-pass", ca_file=str(ca))
    parts = [good, wrong, anonymous_plain, hub]
    for p in parts:
        p.start()
    try:
        assert wait_until(lambda: [(t["table"], t["online"]) for t in hub.tables()] == [("bar-1", True)], timeout=15)
        assert hub.tables()[0]["game"] == "passe-murailles"
        assert good.health()["connected"]
        assert wait_until(lambda: wrong.health().get("last_error"), timeout=10)
        assert not wrong.health()["connected"] and "warning" in wrong.health()
        assert not anonymous_plain.health()["connected"]
    finally:
        for p in parts:
            p.stop()
