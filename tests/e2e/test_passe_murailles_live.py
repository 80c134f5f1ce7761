"""The whole service, as a person uses it: `passetable run --sim`, a real browser,
the score changing as the simulated players play."""

from __future__ import annotations

import pytest

from tests.browser import log_in

pytestmark = pytest.mark.browser


def _score(page, colour: str) -> int:
    text = page.locator(f"[data-testid=score-{colour}]").inner_text()
    return int(text.split()[1])


def test_score_changes_live_in_the_browser(run_service, page):
    service = run_service("--sim", "--pace", "0.05", "--seed", "7")
    assert service.first_line.startswith("passetable: open http://127.0.0.1:")
    page.goto(service.url)
    page.wait_for_selector("[data-testid=score-red]")
    assert page.locator("svg .slide").count() == 6
    assert _score(page, "red") == 0 and _score(page, "blue") == 0
    first_version = int(page.locator("body").get_attribute("data-version"))
    # No reload: the page must change by itself as the players play and pegs land.
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid^=score-]')]"
        ".some(e => Number(e.textContent.split(' ')[1]) > 0)",
        timeout=90_000,
    )
    assert _score(page, "red") + _score(page, "blue") > 0
    assert int(page.locator("body").get_attribute("data-version")) > first_version
    assert page.locator("#feed li").count() > 0


def test_language_switch_to_english_and_back(run_service, page):
    service = run_service("--sim", "--pace", "0.5", "--seed", "1")
    page.goto(service.url)
    assert page.locator("#new-game").inner_text() == "Nouvelle partie"
    page.click("#lang-en")
    page.wait_for_selector("[data-testid=score-red]")
    assert page.locator("#new-game").inner_text() == "New game"
    assert page.locator("[data-testid=score-red]").inner_text().startswith("Red")
    page.goto(service.url)  # the choice is remembered
    assert page.locator("#new-game").inner_text() == "New game"


def test_new_game_button_starts_over(run_service, page):
    service = run_service("--sim", "--pace", "0.05", "--seed", "3")
    page.goto(service.url)
    log_in(page)  # a scorekeeper: without it the tap would open the PIN dialog
    page.wait_for_function("() => document.querySelectorAll('#feed li').length > 6", timeout=60_000)
    page.click("#new-game")
    page.click("#setup-start")
    page.click("#confirm-yes")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#feed li')].some(li => li.textContent.includes('Nouvelle partie'))"
    )
    page.wait_for_function("() => document.querySelectorAll('[data-testid=score-red]').length == 1")


def test_bad_arguments_and_broken_profile_give_clear_messages(tmp_path):
    import subprocess
    import sys

    bad = tmp_path / "frame.toml"
    bad.write_text("[frame]\ncolumns = 7\n")  # no slides, no board
    proc = subprocess.run([sys.executable, "-m", "table.cli", "run", "--sim", "--profile", str(bad), "--port", "0",
                           "--data", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "broken profile" in proc.stderr and "profil invalide" in proc.stderr and str(bad) in proc.stderr
    assert "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "table.cli", "run", "--sim", "--pace", "-1"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--pace" in proc.stderr and "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "table.cli", "run", "--port", "eighty"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "invalid int value" in proc.stderr


def test_broken_settings_file_gives_a_clear_message(tmp_path):
    import subprocess
    import sys

    cfg = tmp_path / "table.toml"
    cfg.write_text('[serial]\nport = "/dev/ttyACM0"\n[gpio]\nbuzzer = 17\n')  # 17 is the red light's pin
    proc = subprocess.run([sys.executable, "-m", "table.cli", "run", "--config", str(cfg), "--port", "0",
                           "--data", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "broken settings" in proc.stderr and "GPIO17 is used twice" in proc.stderr
    cfg.write_text("[service]\nport = 80.5\n")
    proc = subprocess.run([sys.executable, "-m", "table.cli", "run", "--config", str(cfg)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "port must be int" in proc.stderr and "réglages invalides" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "table.cli", "run"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--sim" in proc.stderr


def test_a_card_game_runs_on_the_dashboard_alone(run_service):
    import requests

    service = run_service("--game", "pass-pass", trusted=True)   # no --sim, no hardware: a scorekeeper on the Pi
    assert requests.get(service.url + "api/state", timeout=10).json()["game"] is None
    assert '<option value="pass-pass" selected>' in requests.get(service.url, timeout=10).text
    r = requests.post(service.url + "api/games", json={"game": "pass-pass", "options": {"players": 3}}, timeout=10)
    assert r.status_code == 201
    assert requests.get(service.url + "api/state", timeout=10).json()["view"]["phase"] == "play"
