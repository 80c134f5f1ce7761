#!/usr/bin/env bash
# Installs passetable as an appliance on Raspberry Pi OS (Bookworm or later, 64-bit):
#
#   sudo hardware/pi/install.sh [--name "Table 3"] [--port 80] [--hostname passetable]
#                               [--kiosk] [--usb-id 1a86:7523] [--no-apt]
#   sudo hardware/pi/install.sh --uninstall [--purge]
#
# What it does (each step is skipped when already done, so running it again is safe):
#   - system packages: python3-picamera2 and python3-lgpio (Raspberry Pi OS builds them for
#     its kernel and camera stack; pip builds would not match), python3-venv, avahi-daemon,
#     avrdude, gcc-avr, avr-libc, make, sqlite3; with --kiosk chromium (and cage on Lite);
#   - a system user "passetable" in the gpio, video and dialout groups;
#   - /opt/passetable/firmware, the sensor board's firmware source, built (gcc-avr);
#   - /opt/passetable/venv, a venv with --system-site-packages (it sees picamera2 and lgpio),
#     with passetable installed from this checkout; /usr/local/bin/passetable links to it;
#   - /etc/passetable/table.toml (commented, every key; an existing one is kept);
#   - /var/lib/passetable for the data (the event log, deck models, the PIN);
#   - the systemd unit, the udev rule (/dev/passeframe), the Avahi service file, and with
#     --kiosk the autostart of /tv on the Pi's own screen; then enables and starts the service.
#
# --uninstall removes all of that but keeps /etc/passetable and /var/lib/passetable (your
# settings and every game played); --purge removes those and the user too.
#
# DESTDIR=/some/dir lays every file under that directory instead of / and only prints the
# steps that would change the running system (packages, user, venv, services): the tests
# check an installation that way.
set -euo pipefail
umask 022  # the venv and files must be readable by the service's user whatever root's umask is

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$SRC/hardware/pi"
ROOT="${DESTDIR:-}"
ROOT="${ROOT%/}"

NAME=""
PORT=""
HOST_NAME="passetable"
KIOSK=0
USB_IDS=()
APT=1
UNINSTALL=0
PURGE=0

say() { printf 'install: %s\n' "$*"; }
die() { printf 'install: %s\ninstall : %s\n' "$1" "$2" >&2; exit 2; }
# Commands that change the running system: printed only under DESTDIR.
run() { if [[ -n "$ROOT" ]]; then say "(DESTDIR) would run: $*"; else "$@"; fi; }
# ...and those that may fail without harm (no udev or systemd running, as in a chroot).
soft() { run "$@" || say "warning: '$*' failed; do it once the Pi runs / attention : « $* » a échoué ; à refaire sur le Pi démarré"; }

while (($#)); do
  case "$1" in
    --name) NAME="${2:?--name needs a table name}"; shift 2 ;;
    --port) PORT="${2:?--port needs a number}"; shift 2 ;;
    --hostname) HOST_NAME="${2:?--hostname needs a name}"; shift 2 ;;
    --keep-hostname) HOST_NAME=""; shift ;;
    --kiosk) KIOSK=1; shift ;;
    --usb-id) USB_IDS+=("${2:?--usb-id needs VVVV:PPPP}"); shift 2 ;;
    --no-apt) APT=0; shift ;;
    --uninstall) UNINSTALL=1; shift ;;
    --purge) PURGE=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) die "unknown option $1 (see --help)" "option inconnue $1 (voir --help)" ;;
  esac
done

if [[ -z "$ROOT" && $(id -u) -ne 0 ]]; then
  die "run it as root: sudo $0" "lancez-le en root : sudo $0"
fi
[[ -z "$PORT" || "$PORT" =~ ^[0-9]+$ ]] || die "--port must be a number" "--port doit être un nombre"
for id in "${USB_IDS[@]}"; do
  [[ "$id" =~ ^[0-9a-fA-F]{4}:[0-9a-fA-F]{4}$ ]] || die "--usb-id must look like 1a86:7523, not $id" \
    "--usb-id doit ressembler à 1a86:7523, pas $id"
done

if [[ -z "$ROOT" && -r /etc/os-release ]]; then
  . /etc/os-release
  case "${VERSION_CODENAME:-}" in
    stretch|buster|bullseye) die "Raspberry Pi OS $VERSION_CODENAME is too old: Bookworm or later is needed" \
      "Raspberry Pi OS $VERSION_CODENAME est trop ancien : il faut Bookworm ou plus récent" ;;
  esac
  arch="$(dpkg --print-architecture 2>/dev/null || true)"
  [[ "$arch" == arm64 ]] || say "warning: made for 64-bit Raspberry Pi OS (arm64), this is $arch" \
    "/ attention : prévu pour Raspberry Pi OS 64 bits (arm64), ceci est $arch"
fi

OPT="$ROOT/opt/passetable"
ETC="$ROOT/etc/passetable"
DATA="$ROOT/var/lib/passetable"
UNIT="$ROOT/etc/systemd/system/passetable.service"
KIOSK_UNIT="$ROOT/etc/systemd/system/passetable-kiosk.service"
RULE="$ROOT/etc/udev/rules.d/99-passeframe.rules"
AVAHI="$ROOT/etc/avahi/services/passetable.service"
AUTOSTART="$ROOT/etc/xdg/autostart/passetable-kiosk.desktop"
LINK="$ROOT/usr/local/bin/passetable"

# ------------------------------------------------------------------------- uninstall
if ((UNINSTALL)); then
  if [[ -z "$ROOT" ]] && command -v systemctl >/dev/null; then
    systemctl disable --now passetable.service passetable-kiosk.service 2>/dev/null || true
  fi
  rm -f "$UNIT" "$KIOSK_UNIT" "$RULE" "$AVAHI" "$AUTOSTART" "$LINK"
  rm -rf "$OPT"
  soft systemctl daemon-reload
  soft udevadm control --reload
  if ((PURGE)); then
    rm -rf "$ETC" "$DATA"
    if [[ -z "$ROOT" ]]; then
      id passetable >/dev/null 2>&1 && userdel passetable
      id passetable-kiosk >/dev/null 2>&1 && userdel passetable-kiosk
    fi
    say "removed passetable, its settings and its data / passetable, ses réglages et ses données sont supprimés"
  else
    say "removed passetable; kept $ETC and $DATA (--purge removes them) / passetable supprimé ; $ETC et $DATA" \
        "sont gardés (--purge les supprime)"
  fi
  exit 0
fi

# ------------------------------------------------------------------------- settings first (they give the port)
install -d -m 0755 "$ETC"
if [[ ! -f "$ETC/table.toml" ]]; then
  install -m 0640 "$HERE/table.toml" "$ETC/table.toml"  # it may hold the table's PIN
  [[ -n "$PORT" ]] && sed -i "s/^port = 80$/port = $PORT/" "$ETC/table.toml"
  say "wrote $ETC/table.toml"
else
  say "kept your $ETC/table.toml"
fi
if [[ -z "$PORT" ]]; then  # the port the settings say, for the Avahi file and the kiosk
  PORT="$(sed -n '/^\[service\]/,/^\[/{s/^port *= *\([0-9]\+\).*/\1/p}' "$ETC/table.toml" | head -n1)"
  PORT="${PORT:-8080}"
fi
[[ -n "$NAME" ]] || NAME="${HOST_NAME:-%h}"

# ------------------------------------------------------------------------- packages
if ((APT)); then
  PACKAGES=(python3-venv python3-pip python3-picamera2 python3-lgpio avahi-daemon avrdude sqlite3
            gcc-avr avr-libc make)
  if ((KIOSK)); then
    PACKAGES+=(chromium wget)
    [[ -e "$ROOT/usr/bin/startlxde-pi" || -e "$ROOT/usr/bin/wayfire" || -e "$ROOT/usr/bin/labwc" ]] \
      || PACKAGES+=(cage)
  fi
  missing=()
  for p in "${PACKAGES[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if ((${#missing[@]})); then
    say "system packages: ${missing[*]}"
    run apt-get update -qq
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi

# ------------------------------------------------------------------------- user and folders
if ! id passetable >/dev/null 2>&1; then
  run useradd --system --home-dir /var/lib/passetable --no-create-home --shell /usr/sbin/nologin \
      --user-group passetable
fi
for g in gpio video dialout; do
  getent group "$g" >/dev/null 2>&1 && run usermod -aG "$g" passetable
done
install -d -m 0750 "$DATA"
run chown -R passetable:passetable /var/lib/passetable
run chown root:passetable /etc/passetable/table.toml

# ------------------------------------------------------------------------- the program
install -d -m 0755 "$OPT" "$(dirname "$LINK")"
if [[ -z "$ROOT" ]]; then
  # Debian's own python3, whatever else is on root's PATH (pyenv...): its dist-packages hold
  # picamera2 and lgpio, and the service's user must be able to run it.
  [[ -x "$OPT/venv/bin/python" ]] || /usr/bin/python3 -m venv --system-site-packages "$OPT/venv"
  # The venv must use Raspberry Pi OS's numpy: picamera2's compiled parts are built against it.
  constraints="$OPT/constraints.txt"
  : >"$constraints"
  sysnp="$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)"
  [[ -n "$sysnp" ]] && echo "numpy==$sysnp" >>"$constraints" && echo "opencv-python-headless<4.11" >>"$constraints"
  "$OPT/venv/bin/python" -m pip install -q --upgrade pip
  "$OPT/venv/bin/python" -m pip install -q --constraint "$constraints" "$SRC"
else
  say "(DESTDIR) would create $OPT/venv (--system-site-packages) and pip install $SRC"
fi
ln -sfn /opt/passetable/venv/bin/passetable "$LINK"
# The sensor board's firmware source (passetable firmware flash builds and writes it).
rm -rf "$OPT/firmware"
install -d -m 0755 "$OPT/firmware"
(cd "$SRC/hardware/firmware" && tar --exclude=./build -cf - .) | tar -xf - -C "$OPT/firmware"
if [[ -z "$ROOT" ]] && command -v avr-gcc >/dev/null; then
  make -s -C "$OPT/firmware" BUILD="$OPT/firmware/build" "$OPT/firmware/build/passeframe.hex" >/dev/null \
    || say "the firmware did not build (passetable firmware flash will say why)"
fi
install -m 0755 "$HERE/kiosk.sh" "$OPT/kiosk.sh"
sed -i "s/@PORT@/$PORT/g" "$OPT/kiosk.sh"

# ------------------------------------------------------------------------- system files
install -D -m 0644 "$HERE/passetable.service" "$UNIT"
install -D -m 0644 "$HERE/99-passeframe.rules" "$RULE"
for id in "${USB_IDS[@]}"; do
  v="${id%%:*}"; p="${id##*:}"
  echo "SUBSYSTEM==\"tty\", ATTRS{idVendor}==\"${v,,}\", ATTRS{idProduct}==\"${p,,}\", SYMLINK+=\"passeframe\"," \
       "GROUP=\"dialout\", MODE=\"0660\", ENV{ID_MM_DEVICE_IGNORE}=\"1\"" >>"$RULE"
done
install -d -m 0755 "$(dirname "$AVAHI")"
# & and / would break sed's replacement; escape them, and XML's < > &
xml_name="$(printf '%s' "$NAME" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g')"
sed_name="$(printf '%s' "$xml_name" | sed -e 's/[\/&]/\\&/g')"
sed -e "s/@TABLE_NAME@/$sed_name/" -e "s/@PORT@/$PORT/" "$HERE/passetable.avahi.service" >"$AVAHI"
chmod 0644 "$AVAHI"

if ((KIOSK)); then
  if [[ -e "$ROOT/etc/xdg/autostart" || -e "$ROOT/usr/bin/startlxde-pi" || -e "$ROOT/usr/bin/wayfire" \
        || -e "$ROOT/usr/bin/labwc" ]]; then
    install -D -m 0644 "$HERE/passetable-kiosk.desktop" "$AUTOSTART"   # the desktop session starts it
  else
    install -D -m 0644 "$HERE/passetable-kiosk.service" "$KIOSK_UNIT"  # Lite: cage on tty1
    id passetable-kiosk >/dev/null 2>&1 || run useradd --system --create-home --shell /usr/sbin/nologin \
      --groups video,render,input passetable-kiosk
    soft systemctl enable passetable-kiosk.service
  fi
fi

# ------------------------------------------------------------------------- hostname, services
if [[ -n "$HOST_NAME" && -z "$ROOT" && "$(hostname)" != "$HOST_NAME" ]]; then
  hostnamectl set-hostname "$HOST_NAME" 2>/dev/null || echo "$HOST_NAME" >/etc/hostname
  sed -i "s/^127\.0\.1\.1.*/127.0.1.1\t$HOST_NAME/" /etc/hosts
  say "hostname is now $HOST_NAME: http://$HOST_NAME.local/ / le nom de la machine est $HOST_NAME"
fi
soft udevadm control --reload
soft udevadm trigger --subsystem-match=tty --action=add
soft systemctl daemon-reload
run systemctl enable passetable.service
soft systemctl restart passetable.service
soft systemctl reload-or-restart avahi-daemon.service
say "done: passetable is at http://${HOST_NAME:-$(hostname)}.local$([[ "$PORT" == 80 ]] || echo ":$PORT")/" \
    "— check it: sudo -u passetable passetable doctor / vérifiez : sudo -u passetable passetable doctor"
