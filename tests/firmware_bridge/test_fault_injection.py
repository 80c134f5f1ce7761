"""Fault injection over 10,000+ frames: 1 % of the bytes damaged (dropped or bit-flipped)
in both directions, plus duplicated and reordered frames. Run in virtual time at 115200
baud (hardware.sim.virtual_link), so the 1 s recovery bound is measured on the line's
own clock, not on this machine's load."""

from __future__ import annotations

import pytest

from hardware.sim.faults import Faults
from hardware.sim.virtual_link import VirtualLink


@pytest.mark.parametrize("seed", [1, 2])
def test_ten_thousand_frames_with_one_percent_damage(seed):
    faults = Faults(drop_byte=0.005, flip_bit=0.005, duplicate_frame=0.005, reorder_frame=0.005)
    report = VirtualLink(faults=faults, seed=seed).run(min_frames=10_000)

    assert report.frames_sent >= 10_000
    h = report.health
    # The faults did happen, and were caught by the CRC or the framing.
    assert h["crc_errors"] > 500 and h["malformed"] > 100 and h["gaps"] > 500 and h["stale"] > 0
    assert report.observations > 1000
    # Not one wrong position reached the session...
    assert report.wrong == []
    assert report.sync_mismatches == []
    # ...and after every gap the true state was back within 1 s.
    assert report.recoveries and max(report.recoveries) <= 1.0
    assert report.quiet_mismatches == []


def test_heavier_damage_still_never_reports_a_wrong_position():
    faults = Faults(drop_byte=0.02, flip_bit=0.02, duplicate_frame=0.02, reorder_frame=0.02)
    report = VirtualLink(faults=faults, seed=7).run(min_frames=3_000)
    assert report.health["crc_errors"] > 500
    assert report.wrong == [] and report.sync_mismatches == []


def test_the_checker_does_catch_a_wrong_position():
    """Guard against a checker that passes everything: a bridge that invents a move."""
    run = VirtualLink(faults=Faults(), seed=3)
    real_feed = run.link.feed

    def lying_feed(data, now, wall=None):
        out = real_feed(data, now, wall)
        for obs in out:
            if obs.kind == "slide":
                obs.data["offset"] = 2 if obs.data["offset"] != 2 else -2
        return out

    run.link.feed = lying_feed
    report = run.run(min_frames=200)
    assert report.wrong
