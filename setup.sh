#!/usr/bin/env bash
# Sets up everything passetable's tests need on a Debian/Raspberry Pi OS machine:
# system packages (browser, MQTT broker, AVR toolchain, simavr) and a virtualenv in .venv
# with the package and its test extras. Safe to run again; skips what is already there.
set -euo pipefail
cd "$(dirname "$0")"

APT_PACKAGES=(chromium mosquitto gcc-avr avr-libc simavr libsimavr-dev libelf-dev make gcc pkg-config)
# The Raspberry Pi install's tests: systemd-analyze verify (systemd), udevadm (udev), and
# avrdude refusing a board that does not answer (tests/pi).
APT_PACKAGES+=(systemd udev avrdude)
# Card decks no one here drew, for the camera's tests and evaluation: AisleRiot's themes
# (gnome-cards-data), rasterised by rsvg-convert (librsvg2-bin); vision/synth2/themes.py.
APT_PACKAGES+=(gnome-cards-data librsvg2-bin)
# npm vendors axe-core for the accessibility checks (a machine with node already has it)
command -v npm >/dev/null 2>&1 || APT_PACKAGES+=(npm)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing system packages: ${missing[*]}"
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  # --no-install-recommends: gcc-avr would otherwise pull the whole Arduino IDE and Java.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [[ ! -x .venv/bin/python ]]; then
  echo "setup: creating .venv"
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
# axe-core for the browser tests' accessibility check (injected into the pages by Playwright;
# never served by the table), vendored with npm into the git-ignored .vendor folder.
if [[ ! -f .vendor/node_modules/axe-core/axe.min.js ]]; then
  if command -v npm >/dev/null 2>&1; then
    echo "setup: vendoring axe-core into .vendor"
    npm install --silent --no-audit --no-fund --prefix .vendor axe-core@4
  else
    echo "setup: npm is missing: the accessibility tests will fail (apt-get install npm)"
  fi
fi
# The frame's firmware, built as it would be flashed (its flash and RAM use are printed).
make -s -C hardware/firmware
echo "setup: done"
