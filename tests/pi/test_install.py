"""hardware/pi/install.sh into a temporary root (DESTDIR): every file lands where it should,
systemd accepts the unit, udev parses the rule, a second run changes nothing, --uninstall
undoes it."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from table.config import _SECTIONS, load_config

REPO = Path(__file__).resolve().parents[2]
PI = REPO / "hardware" / "pi"
INSTALL = PI / "install.sh"
VENV_PASSETABLE = REPO / ".venv" / "bin" / "passetable"

EXPECTED = {
    "etc/passetable/table.toml": 0o640,  # readable by the service's group only: it may hold the PIN
    "etc/systemd/system/passetable.service": 0o644,
    "etc/udev/rules.d/99-passeframe.rules": 0o644,
    "etc/avahi/services/passetable.service": 0o644,
    "opt/passetable/kiosk.sh": 0o755,
}


def install(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    env = dict(os.environ, DESTDIR=str(root))
    done = subprocess.run(["bash", str(INSTALL), *args], env=env, capture_output=True, text=True, timeout=120)
    if check:
        assert done.returncode == 0, done.stderr + done.stdout
    return done


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() and not p.is_symlink() else
                                      os.readlink(p).encode() if p.is_symlink() else b"<dir>")
            for p in sorted(root.rglob("*"))}


def test_every_file_lands_where_it_should(tmp_path):
    done = install(tmp_path, "--name", "Table 3 & <co>", "--usb-id", "1A86:7523")
    for rel, mode in EXPECTED.items():
        path = tmp_path / rel
        assert path.is_file(), rel
        assert path.stat().st_mode & 0o777 == mode, rel
    assert (tmp_path / "var/lib/passetable").is_dir()
    assert (tmp_path / "var/lib/passetable").stat().st_mode & 0o777 == 0o750
    assert os.readlink(tmp_path / "usr/local/bin/passetable") == "/opt/passetable/venv/bin/passetable"
    # nothing outside the usual places, and no system change made (only printed)
    top = {p.relative_to(tmp_path).parts[0] for p in tmp_path.iterdir()}
    assert top == {"etc", "opt", "usr", "var"}
    assert "(DESTDIR) would run: systemctl enable passetable.service" in done.stdout
    assert "would run: useradd --system" in done.stdout or "usermod" in done.stdout
    # the settings: the commented template, valid, every key of every section present
    cfg = load_config(tmp_path / "etc/passetable/table.toml")
    assert (cfg.service.host, cfg.service.port, cfg.serial.port) == ("0.0.0.0", 80, "/dev/passeframe")
    assert cfg.service.data_dir == "/var/lib/passetable"
    # the Avahi file: "passetable — <name>", _http._tcp on the settings' port, XML-escaped
    svc = ET.parse(tmp_path / "etc/avahi/services/passetable.service").getroot()
    assert svc.find("name").text == "passetable — Table 3 & <co>"
    assert svc.find("service/type").text == "_http._tcp"
    assert svc.find("service/port").text == "80"
    # the udev rule got the extra board id, lower case
    rule = (tmp_path / "etc/udev/rules.d/99-passeframe.rules").read_text()
    assert 'ATTRS{idVendor}=="1a86", ATTRS{idProduct}=="7523", SYMLINK+="passeframe"' in rule
    assert "@PORT@" not in (tmp_path / "opt/passetable/kiosk.sh").read_text()
    # the firmware's source, for passetable firmware flash (an installed package has no C files)
    assert (tmp_path / "opt/passetable/firmware/Makefile").is_file()
    assert (tmp_path / "opt/passetable/firmware/main.c").is_file()
    assert not (tmp_path / "opt/passetable/firmware/build").exists()


@pytest.mark.skipif(shutil.which("avr-gcc") is None, reason="needs gcc-avr (setup.sh installs it)")
def test_the_installed_firmware_source_builds(tmp_path):
    install(tmp_path)
    from hardware.flash import build_hex

    image = build_hex(tmp_path / "build", tmp_path / "opt/passetable/firmware")
    assert image.read_text().startswith(":") and image.stat().st_size > 1000


def test_the_settings_template_lists_every_key():
    text = (PI / "table.toml").read_text()
    for section, cls in _SECTIONS.items():
        assert f"[{section}]" in text
        body = text.split(f"[{section}]", 1)[1].split("\n[", 1)[0]
        for f in dataclasses.fields(cls):
            assert re.search(rf"^#? ?{f.name} = ", body, re.M), f"[{section}] {f.name} missing from the template"
    from hardware.gpio.pins import DEFAULTS

    gpio = text.split("[gpio]", 1)[1]
    for key in ["beams", *DEFAULTS, "debounce_ms", "window_ms"]:
        assert re.search(rf"^{key} = ", gpio, re.M), key


def test_a_second_run_changes_nothing_and_keeps_the_owners_settings(tmp_path):
    install(tmp_path, "--port", "8080")
    settings = tmp_path / "etc/passetable/table.toml"
    assert load_config(settings).service.port == 8080
    settings.write_text(settings.read_text().replace('name = "passe-murailles"', 'name = "pass-pass"'))
    before = tree(tmp_path)
    done = install(tmp_path)
    assert "kept your" in done.stdout
    assert tree(tmp_path) == before
    assert load_config(settings).game.name == "pass-pass"
    svc = ET.parse(tmp_path / "etc/avahi/services/passetable.service").getroot()
    assert svc.find("service/port").text == "8080"  # from the kept settings


def test_kiosk_on_lite_uses_cage_and_on_the_desktop_autostarts(tmp_path):
    lite = tmp_path / "lite"
    install(lite, "--kiosk")
    assert (lite / "etc/systemd/system/passetable-kiosk.service").is_file()
    assert not (lite / "etc/xdg/autostart/passetable-kiosk.desktop").exists()
    desktop = tmp_path / "desktop"
    (desktop / "etc/xdg/autostart").mkdir(parents=True)
    install(desktop, "--kiosk")
    entry = (desktop / "etc/xdg/autostart/passetable-kiosk.desktop").read_text()
    assert "Exec=/opt/passetable/kiosk.sh" in entry
    kiosk = (desktop / "opt/passetable/kiosk.sh").read_text()
    assert "--kiosk" in kiosk and "http://127.0.0.1:80/tv" in kiosk


def test_uninstall_undoes_it_and_keeps_the_games_unless_purged(tmp_path):
    install(tmp_path, "--kiosk")
    (tmp_path / "var/lib/passetable/passetable.sqlite3").write_bytes(b"games")
    install(tmp_path, "--uninstall")
    left = {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file() or p.is_symlink()}
    assert left == {"etc/passetable/table.toml", "var/lib/passetable/passetable.sqlite3"}
    install(tmp_path, "--uninstall", "--purge")
    assert not [p for p in tmp_path.rglob("*") if p.is_file() or p.is_symlink()]


def test_bad_arguments_are_refused_in_both_languages(tmp_path):
    done = install(tmp_path, "--usb-id", "arduino", check=False)
    assert done.returncode == 2
    assert "--usb-id must look like" in done.stderr and "--usb-id doit ressembler" in done.stderr


def _verify_unit(root: Path, name: str, replace: dict[str, str]) -> subprocess.CompletedProcess:
    """``systemd-analyze verify`` on a copy of the installed unit whose absolute paths
    point into the temporary root (verify checks that ExecStart exists and is executable)."""
    text = (root / "etc/systemd/system" / name).read_text()
    for old, new in replace.items():
        text = text.replace(old, new)
    check = root / "verify"
    check.mkdir(exist_ok=True)
    (check / name).write_text(text)
    return subprocess.run(["systemd-analyze", "verify", "--man=no", str(check / name)], capture_output=True,
                          text=True, timeout=60)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze (apt-get install systemd)")
def test_systemd_accepts_the_units(tmp_path):
    install(tmp_path, "--kiosk")
    venv_bin = tmp_path / "opt/passetable/venv/bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "passetable").symlink_to(VENV_PASSETABLE)
    to_root = {"/opt/passetable/": f"{tmp_path}/opt/passetable/"}
    done = _verify_unit(tmp_path, "passetable.service", to_root)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    unit = (tmp_path / "etc/systemd/system/passetable.service").read_text()
    for line in ("Type=notify", "WatchdogSec=30", "Restart=on-failure", "ProtectSystem=strict",
                 "ReadWritePaths=/var/lib/passetable", "NoNewPrivileges=yes", "PrivateTmp=yes",
                 "ExecStart=/opt/passetable/venv/bin/passetable run --config /etc/passetable/table.toml"):
        assert line in unit
    done = _verify_unit(tmp_path, "passetable-kiosk.service", {**to_root, "/usr/bin/cage": shutil.which("true")})
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    # ...and the check does catch a mistake
    bad = _verify_unit(tmp_path, "passetable.service", {**to_root, "WatchdogSec=30": "WatchdogSec=thirty"})
    assert "Failed to parse sec value" in bad.stderr


def _udev_test(rules_dir: Path) -> str:
    """``udevadm test`` with only ``rules_dir`` as /etc/udev/rules.d (a private mount
    namespace, so the machine's own rules folder is untouched); returns its log."""
    script = f"mount --bind {rules_dir} /etc/udev/rules.d && udevadm test --action=add /sys/class/tty/tty0"
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=60)
    return done.stdout + done.stderr


def _can_unshare() -> bool:
    if shutil.which("unshare") is None or shutil.which("udevadm") is None or os.geteuid() != 0:
        return False
    if not Path("/etc/udev/rules.d").is_dir() or not Path("/sys/class/tty/tty0").exists():
        return False
    return subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _can_unshare(), reason="needs udevadm (apt-get install udev), root and unshare")
def test_udev_parses_the_rule(tmp_path):
    install(tmp_path, "--usb-id", "1a86:7523")
    rules = tmp_path / "etc/udev/rules.d"
    log = _udev_test(rules)
    rule_file = "/etc/udev/rules.d/99-passeframe.rules"
    assert f"Reading rules file: {rule_file}" in log, log
    assert not [line for line in log.splitlines() if line.startswith(rule_file + ":")], log
    # the same check reports a broken rule
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "99-passeframe.rules").write_text((rules / "99-passeframe.rules").read_text()
                                                 + 'SUBSYSTEM=="tty", ATTRS{idVendor}=="2341" SYMLNK+="x"\n')
    assert f"{rule_file}:" in _udev_test(broken)


def test_the_units_command_line_is_one_the_cli_takes():
    import shlex

    from table.cli import build_parser

    unit = (PI / "passetable.service").read_text()
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    argv = shlex.split(exec_start.removeprefix("ExecStart="))
    assert argv[0] == "/opt/passetable/venv/bin/passetable"
    args = build_parser().parse_args(argv[1:])
    assert (args.command, args.config, args.log_level, args.sim) == ("run", "/etc/passetable/table.toml", "info", False)
