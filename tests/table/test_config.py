"""Settings: defaults with no file, and clear errors for broken files."""

import pytest

from table.config import ConfigError, load_config


def test_defaults_need_no_file():
    cfg = load_config(None)
    assert (cfg.service.host, cfg.service.port, cfg.game.name) == ("127.0.0.1", 8080, "passe-murailles")
    assert str(cfg.log_path).endswith("data/passetable.sqlite3")


def test_file_values_override_defaults(tmp_path):
    f = tmp_path / "table.toml"
    f.write_text('[service]\nport = 9000\n[serial]\nport = "/dev/ttyACM0"\n[sim]\npace = 1\n[gpio]\nconfirm = 5\n')
    cfg = load_config(f)
    assert cfg.service.port == 9000 and cfg.serial.port == "/dev/ttyACM0"
    assert cfg.sim.pace == 1.0 and cfg.gpio == {"confirm": 5}


@pytest.mark.parametrize(
    "body, message",
    [
        ("[service\nport = 1", "not valid TOML"),
        ("[servce]\nport = 1", "unknown section [servce]"),
        ("[service]\nprot = 1", "unknown key 'prot'"),
        ('[service]\nport = "eighty"', "port must be int"),
        ("[service]\nport = true", "port must be int"),
        ("service = 3", "[service] must be a table"),
    ],
)
def test_broken_files_name_the_problem(tmp_path, body, message):
    f = tmp_path / "table.toml"
    f.write_text(body)
    with pytest.raises(ConfigError) as err:
        load_config(f)
    assert message in str(err.value) and str(f) in str(err.value)


def test_missing_file_is_named(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "nope.toml")
