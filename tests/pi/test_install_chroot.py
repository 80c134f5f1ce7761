"""hardware/pi/install.sh for real, in a throwaway copy of this Debian machine: an overlay of
``/`` (changes go to a tmpfs) in a private mount namespace, entered with chroot. The real
user, venv (pip from the machine's package index), settings, data folder and unit symlink
are made; the ``passetable`` user runs ``passetable doctor --sim`` from the venv; a second
run changes nothing; ``--uninstall --purge`` removes it. Nothing leaves the namespace.

Raspberry Pi OS's own packages (python3-picamera2, python3-lgpio) are not in Debian, so
the install runs with ``--no-apt``; no systemd runs in a chroot, so starting the service
is left out (the script says so and goes on)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SCRIPT = r"""
set -e
B="$1"; REPO="$2"
mount -t tmpfs tmpfs "$B" -o size=3g
mkdir -p "$B/upper" "$B/work" "$B/root"
mount -t overlay overlay -o "lowerdir=/,upperdir=$B/upper,workdir=$B/work" "$B/root"
for d in proc sys dev; do mount --rbind "/$d" "$B/root/$d"; done
mkdir -p "$B/root/srv/passetable"
cd "$REPO" && git ls-files -z | grep -zv '^tests/' | xargs -0 cp --parents -t "$B/root/srv/passetable"
in_root() { chroot "$B/root" /bin/bash -c "$1"; }
INSTALL='cd /srv/passetable && hardware/pi/install.sh --no-apt --name "Table 9"'
in_root 'if id passetable >/dev/null 2>&1; then userdel passetable; fi'
in_root "$INSTALL"
echo "== FIRST DONE"
in_root 'id -nG passetable'
in_root 'stat -c "%U:%G %a" /var/lib/passetable /etc/passetable/table.toml'
in_root 'grep include-system-site-packages /opt/passetable/venv/pyvenv.cfg'
in_root 'readlink /etc/systemd/system/multi-user.target.wants/passetable.service'
in_root 'cat /etc/hostname'
echo "== DOCTOR"
DOCTOR='cd /var/lib/passetable && runuser -u passetable -- /usr/local/bin/passetable doctor --sim --port 0 --json'
in_root "$DOCTOR" > "$B/doctor.json" 2> "$B/doctor.err" && echo "doctor rc=0" || echo "doctor rc=$?"
head -c 400 "$B/doctor.json"; echo
tail -c 1500 "$B/doctor.err"
echo "== SECOND"
FILES="etc/passetable etc/systemd/system/passetable.service etc/udev etc/avahi var/lib/passetable"
FILES="$FILES opt/passetable/kiosk.sh"
sums() { (cd "$B/upper" && find $FILES -type f -exec md5sum {} + | sort); }
before="$(sums)"
in_root "$INSTALL" >/dev/null 2>&1
after="$(sums)"
if [ "$before" = "$after" ]; then echo "second run: same files"; else
  echo "second run changed:"; diff <(echo "$before") <(echo "$after") || true; fi
echo "== PURGE"
in_root 'cd /srv/passetable && hardware/pi/install.sh --uninstall --purge' >/dev/null 2>&1
in_root 'id passetable >/dev/null 2>&1 && echo "user still there" || echo "user gone"'
in_root 'ls -d /opt/passetable /etc/passetable /var/lib/passetable /usr/local/bin/passetable \
         /etc/systemd/system/passetable.service 2>/dev/null | wc -l'
"""


def _sandbox_possible() -> bool:
    if os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("chroot") or not shutil.which("runuser"):
        return False
    probe = "mkdir -p /tmp/.p && mount -t tmpfs t /tmp/.p && mkdir /tmp/.p/u /tmp/.p/w /tmp/.p/m && " \
            "mount -t overlay o -o lowerdir=/,upperdir=/tmp/.p/u,workdir=/tmp/.p/w /tmp/.p/m"
    ok = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", probe],
                        capture_output=True).returncode == 0
    subprocess.run(["rmdir", "/tmp/.p"], capture_output=True)
    return ok and subprocess.run(["python3", "-c", "import ensurepip"], capture_output=True).returncode == 0


@pytest.mark.slow
@pytest.mark.skipif(not _sandbox_possible(), reason="needs root, unshare, an overlay of / and python3-venv")
def test_a_real_install_in_a_throwaway_copy_of_the_machine(tmp_path):
    box = tmp_path / "box"
    box.mkdir()
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "bash", "-c", SCRIPT, "sh", str(box),
                           str(REPO)], capture_output=True, text=True, timeout=900)
    out = done.stdout
    assert done.returncode == 0 and "== FIRST DONE" in out, done.stdout[-3000:] + done.stderr[-3000:]
    first = out.split("== FIRST DONE", 1)[1].split("== DOCTOR", 1)[0].splitlines()[1:]
    groups = first[0].split()
    assert "passetable" in groups and "video" in groups and "dialout" in groups  # gpio: only on Raspberry Pi OS
    assert first[1] == "passetable:passetable 750"   # the data folder
    assert first[2] == "root:passetable 640"         # the settings (they may hold the PIN)
    assert first[3] == "include-system-site-packages = true"
    assert first[4] == "/etc/systemd/system/passetable.service"  # enabled at boot
    assert first[5] == "passetable"
    assert "doctor rc=0" in out and '"ok": true' in out, out
    assert "second run: same files" in out, out
    assert out.rstrip().splitlines()[-2:] == ["user gone", "0"]
