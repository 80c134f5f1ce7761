"""``passetable doctor``: passes on the simulated hardware; each injected fault fails its
own check, and only that one, with its own message and a fix in both languages."""

from __future__ import annotations

import json
import socket

import pytest

from table import doctor
from table.cli import main
from table.doctor import FAIL, OK, SKIP, Target, run_checks


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_sim(tmp_path, faults=(), game=None, only=None):
    target = Target.simulated(data_dir=tmp_path / "data", port=free_port(), faults=list(faults), game=game)
    with doctor.opened(target):
        return {r.id: r for r in run_checks(target, only)}


def test_every_check_passes_on_the_simulated_hardware(tmp_path, capsys):
    rc = main(["doctor", "--sim", "--json", "--data", str(tmp_path / "data"), "--port", str(free_port())])
    report = json.loads(capsys.readouterr().out)
    assert rc == 0 and report["ok"] is True
    statuses = {c["id"]: c["status"] for c in report["checks"]}
    assert list(statuses) == list(doctor.CHECKS)
    # the hardware checks really ran against the simulated parts
    for id_ in ("settings", "data", "log", "serial", "handshake", "slides", "pins", "camera", "port"):
        assert statuses[id_] == OK, (id_, report)
    assert statuses["deck"] == SKIP  # Passe-Murailles has no cards
    handshake = next(c for c in report["checks"] if c["id"] == "handshake")
    assert "protocol 2" in handshake["detail"]["en"] and "protocole 2" in handshake["detail"]["fr"]


# fault -> (the one check that must fail, a piece of its English message, of its French one)
FAULT_CASES = {
    "bad-settings": ("settings", "port must be int", "port must be int"),
    "disk-full": ("data", "only 5 MB free", "seulement 5 Mo libres"),
    "data-readonly": ("data", "is not writable", "n'est pas accessible en écriture"),
    "log-corrupt": ("log", "is damaged", "est abîmé"),
    "serial-unplugged": ("serial", "no sensor board at", "aucune carte capteurs sur"),
    "old-firmware": ("handshake", "speaks protocol 1", "parle le protocole 1"),
    "slide-stuck": ("slides", "slide(s) 3 between two notches", "réglette(s) 3 entre deux crans"),
    "beam-blocked": ("pins", "beam 4 (GPIO19) reads blocked", "faisceau 4 (GPIO19) lu coupé"),
    "pin-busy": ("pins", "confirm button (GPIO23) is taken", "bouton valider (GPIO23) est prise"),
    "camera-missing": ("camera", "the camera does not open", "la caméra ne s'ouvre pas"),
    "markers-hidden": ("camera", "not seen: 2", "non vus : 2"),
    "port-busy": ("port", "is taken by another program", "est pris par un autre programme"),
}


@pytest.mark.parametrize("fault", list(FAULT_CASES))
def test_each_injected_fault_fails_its_own_check(tmp_path, fault):
    check_id, en, fr = FAULT_CASES[fault]
    results = run_sim(tmp_path, [fault])
    failed = {id_ for id_, r in results.items() if r.status == FAIL}
    assert failed == {check_id}, {i: results[i].detail for i in failed}
    r = results[check_id]
    assert en in r.detail[0] and fr in r.detail[1]
    assert r.fix is not None and r.fix[0] and r.fix[1] and r.fix[0] != r.fix[1]  # a fix, in both languages


def test_a_fault_makes_the_command_exit_non_zero_and_print_the_fix(tmp_path, capsys):
    rc = main(["doctor", "--sim", "--fault", "slide-stuck", "--data", str(tmp_path), "--port", str(free_port())])
    out = capsys.readouterr().out
    assert rc == 1
    assert "✗ Each slide on a stable notch / Chaque réglette sur un cran stable" in out
    assert "fix: push each slide" in out and "à faire : poussez chaque réglette" in out
    assert "1 check(s) failed / 1 vérification(s) en échec" in out


def test_the_board_unplugged_skips_what_needs_it_instead_of_failing_it_twice(tmp_path):
    results = run_sim(tmp_path, ["serial-unplugged"])
    assert results["handshake"].status == SKIP and results["slides"].status == SKIP


def test_a_card_game_without_its_enrolled_deck_fails_the_deck_check(tmp_path):
    results = run_sim(tmp_path, game="pass-pass", only=["deck", "serial", "pins"])
    assert results["deck"].status == FAIL
    assert "0 of 48 cards enrolled" in results["deck"].detail[0]
    assert "passetable enroll --deck pass-pass" in results["deck"].fix[0]
    assert results["serial"].status == SKIP and results["pins"].status == SKIP  # no sensor board for cards


def test_an_intact_log_with_games_passes(tmp_path):
    from table.log import EventLog
    from table.observations import Observation

    log = EventLog(tmp_path / "data" / "passetable.sqlite3")
    log.append(Observation(kind="operator_note", source="test", data={"text": "hello"}, t=1.0))
    log.close()
    results = run_sim(tmp_path, only=["log"])
    assert results["log"].status == OK and "intact" in results["log"].detail[0]


def test_bad_settings_from_the_real_target_name_the_file_and_key(tmp_path):
    bad = tmp_path / "table.toml"
    bad.write_text("[gpio]\nbeams = [5, 5, 13, 19, 26, 16, 20]\n", encoding="utf-8")
    target = Target.real(str(bad), data_dir=str(tmp_path))
    result = run_checks(target, ["settings"])[0]
    assert result.status == FAIL and "GPIO5 is used twice" in result.detail[0]


def test_host_checks_on_the_real_target_say_what_is_wrong(tmp_path):
    target = Target.real(None, data_dir=str(tmp_path))
    target.clock_synced = lambda: False
    target.service_state = lambda: "failed"
    results = {r.id: r for r in run_checks(target, ["clock", "service"])}
    assert results["clock"].status == FAIL and "timedatectl" in results["clock"].fix[0]
    assert results["service"].status == FAIL and "passetable.service is failed" in results["service"].detail[0]
    target.clock_synced = lambda: True
    target.service_state = lambda: "active"
    results = {r.id: r for r in run_checks(target, ["clock", "service"])}
    assert results["clock"].status == OK and results["service"].status == OK


def test_the_kernel_clock_question_has_an_answer():
    assert doctor.kernel_clock_synced() in (True, False, None)


def test_fault_without_sim_is_refused(capsys):
    assert main(["doctor", "--fault", "disk-full"]) == 2
    assert "--fault demande --sim" in capsys.readouterr().err


def test_a_machine_without_gpio_says_so_once(tmp_path):
    from gpiozero.exc import BadPinFactory

    def no_gpio(pin):
        raise BadPinFactory("Unable to load any default pin factory!")

    target = Target.real(None, data_dir=str(tmp_path))
    target.service_state = lambda: None
    target.claim_input = no_gpio
    result = run_checks(target, ["pins"])[0]
    assert result.status == FAIL and result.detail[0].startswith("no GPIO pins here")
    assert "python3-lgpio" in result.fix[0] and "python3-lgpio" in result.fix[1]


def test_a_privileged_port_the_user_may_not_bind_is_judged_by_who_listens(tmp_path, monkeypatch):
    """``sudo -u passetable passetable doctor`` cannot bind port 80 (only the unit may):
    the check then asks whether anything listens there."""
    real_socket = socket.socket

    class NoPrivilegedBind(real_socket):
        def bind(self, address):
            raise PermissionError(13, "Permission denied")

    target = Target.real(None, data_dir=str(tmp_path))
    with real_socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    target.cfg.service.port = free
    monkeypatch.setattr(doctor.socket, "socket", NoPrivilegedBind)
    assert run_checks(target, ["port"])[0].status == OK
    monkeypatch.setattr(doctor.socket, "socket", real_socket)
    with socket.create_server(("127.0.0.1", 0)) as other:   # another program, not passetable
        target.cfg.service.port = other.getsockname()[1]
        monkeypatch.setattr(doctor.socket, "socket", NoPrivilegedBind)
        result = run_checks(target, ["port"])[0]
    assert result.status == FAIL and "is taken by another program" in result.detail[0]


def test_a_board_the_udev_rule_missed_is_named_with_its_usb_ids(tmp_path):
    """No /dev/passeframe, but a CH340 Nano clone on /dev/ttyUSB0: the fix says its ids."""
    dev, sys_root = tmp_path / "dev", tmp_path / "sys"
    dev.mkdir()
    (dev / "ttyUSB0").touch()
    (dev / "ttyACM3").touch()
    usb = sys_root / "devices/usb1/1-1"
    (usb / "1-1:1.0/ttyUSB0").mkdir(parents=True)
    (usb / "idVendor").write_text("1a86\n")
    (usb / "idProduct").write_text("7523\n")
    (sys_root / "class/tty/ttyUSB0").mkdir(parents=True)
    (sys_root / "class/tty/ttyUSB0/device").symlink_to(usb / "1-1:1.0/ttyUSB0")
    assert doctor.usb_serial_ports(str(dev), str(sys_root)) == [(str(dev / "ttyACM3"), None),
                                                                (str(dev / "ttyUSB0"), "1a86:7523")]
