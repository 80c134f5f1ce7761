"""The benchmarks' machine line (``table.bench.machine``) names the CPU, from /proc/cpuinfo as a PC and a Raspberry
Pi write it: the same code ran 2-3 times slower on one 2-core VM here than on another."""

import platform

from table.bench import machine

PC = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9R45\nflags\t\t: fpu vme\n\n"
PI = ("processor\t: 0\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd\n\n"
      "Hardware\t: BCM2835\nRevision\t: c03114\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4\n")


def test_a_pc_is_named_by_its_model_name(tmp_path):
    (tmp_path / "cpuinfo").write_text(PC)
    assert machine(str(tmp_path / "cpuinfo")).startswith("AMD EPYC 9R45, ")


def test_a_raspberry_pi_is_named_by_its_board(tmp_path):
    (tmp_path / "cpuinfo").write_text(PI)
    assert machine(str(tmp_path / "cpuinfo")).startswith("Raspberry Pi 4 Model B Rev 1.4, ")


def test_without_cpuinfo_the_architecture_is_named(tmp_path):
    assert machine(str(tmp_path / "missing")).startswith(f"{platform.processor() or platform.machine()}, ")


def test_the_line_gives_the_cores_python_and_system(tmp_path):
    (tmp_path / "cpuinfo").write_text(PC)
    line = machine(str(tmp_path / "cpuinfo"))
    assert line.endswith(f" cores, Python {platform.python_version()}, {platform.system()}")
