"""Top-hole drops over the protocol (version 2): DROP frames, per-hole counts in the full
states, exactly-once delivery through losses and resets, and the refusal of an old board."""

from __future__ import annotations

import logging

import pytest

from firmware_bridge.link import LinkState
from firmware_bridge.messages import encode_drop, encode_hello, encode_state
from firmware_bridge.protocol import PROTOCOL_VERSION, FrameParser, encode_frame
from hardware.sim.board_model import BoardModel
from hardware.sim.faults import Faults
from hardware.sim.virtual_link import VirtualLink
from table.observations import PEG_DROP


def connected(link: LinkState, board: BoardModel, now: float = 0.0):
    link.on_connect(now)
    return link.feed(b"".join(board.receive(link.take_outgoing(), int(now * 1000))), now + 0.01)


def booted(link: LinkState, board: BoardModel):
    """The common start: the port opens, the board boots (DTR) and says so."""
    link.on_connect(0.0)
    link.take_outgoing()
    return link.feed(b"".join(board.boot(0)), 0.05)


def drops(observations):
    return [(o.data["column"], o.data.get("recovered", False)) for o in observations if o.kind == PEG_DROP]


def snapshot(link: LinkState, board: BoardModel, now: float):
    link.request_snapshot(now)
    return link.feed(b"".join(board.receive(link.take_outgoing(), int(now * 1000))), now + 0.01)


def test_protocol_version_is_2():
    assert PROTOCOL_VERSION == 2


def test_a_drop_becomes_a_peg_drop_observation_with_column_and_board_time():
    link, board = LinkState(), BoardModel()
    booted(link, board)
    [obs] = link.feed(board.drop(4, now_ms=1234)[0], now=2.0, wall=1_700_000_000.0)
    assert obs.kind == PEG_DROP and obs.source == "serial" and obs.t == 1_700_000_000.0
    assert obs.data == {"column": 4, "mcu_ms": 1234, "count": 1}
    assert link.health.drops == 1 and link.drop_counts() == [0, 0, 0, 0, 1, 0, 0]


def test_states_carry_the_counts_and_agreeing_ones_report_nothing():
    link, board = LinkState(), BoardModel()
    booted(link, board)
    link.feed(board.drop(2, 100)[0], 1.0)
    [frame] = FrameParser().feed(board.tick(500)[0])
    assert frame.fields["d"] == "0,0,1,0,0,0,0"
    assert snapshot(link, board, 1.1) == [] and link.health.drops == 1


def test_a_lost_drop_frame_is_made_up_by_the_next_full_state_exactly_once():
    link, board = LinkState(), BoardModel()
    booted(link, board)
    link.feed(board.set_board(3, 60)[0], 0.5)
    board.drop(1, 100)                                  # lost on the line
    board.drop(1, 900)                                  # lost too
    obs = link.feed(board.set_slide(2, 3, 1000)[0], 1.0)
    assert drops(obs) == [] and not link.in_sync        # the gap is seen...
    obs = snapshot(link, board, 1.0)                    # ...and the full state repairs it
    assert drops(obs) == [(1, True), (1, True)]
    made_up = [o.data for o in obs if o.kind == PEG_DROP]
    assert [d["count"] for d in made_up] == [1, 2]
    assert all(d["after_mcu_ms"] == 60 and d["mcu_ms"] == 1000 for d in made_up)  # between these times
    assert link.health.recovered_drops == 2
    assert drops(snapshot(link, board, 1.5)) == []      # and never again


def test_a_lost_drop_is_made_up_by_the_next_drop_in_that_hole():
    link, board = LinkState(), BoardModel()
    booted(link, board)
    board.drop(6, 100)                                   # lost
    obs = link.feed(board.drop(6, 300)[0], 1.0)
    assert drops(obs) == [(6, True), (6, False)]
    assert obs[0].data == {"column": 6, "mcu_ms": 300, "count": 1, "recovered": True, "after_mcu_ms": 0}
    assert obs[1].data == {"column": 6, "mcu_ms": 300, "count": 2}


def test_duplicated_and_reordered_drop_frames_count_once():
    link, board = LinkState(), BoardModel()
    booted(link, board)
    first, second = board.drop(0, 100)[0], board.drop(3, 110)[0]
    obs = link.feed(second, 1.0) + link.feed(first, 1.01) + link.feed(second, 1.02)
    assert drops(obs) == [(3, False)]
    assert drops(snapshot(link, board, 1.1)) == [(0, True)]   # the one stale frame hid


def test_a_board_reset_restarts_the_counts_without_spurious_drops():
    link, board = LinkState(), BoardModel()
    booted(link, board)
    for column in (2, 2, 5):
        link.feed(board.drop(column, 100)[0], 1.0)
    obs = link.feed(b"".join(board.boot(0, reset_cause="w")), 2.0)
    assert drops(obs) == [] and link.drop_counts() == [0] * 7
    assert drops(link.feed(board.drop(2, 50)[0], 2.1)) == [(2, False)]


def test_a_reset_whose_hello_was_lost_rebaselines_with_a_warning(caplog):
    link, board = LinkState(), BoardModel()
    booted(link, board)
    for _ in range(3):
        link.feed(board.drop(4, 100)[0], 1.0)
    board.boot(0)                                        # HELLO and SNAP lost
    with caplog.at_level(logging.WARNING, logger="firmware_bridge"):
        # Its first frames look stale (numbers restarted), then heartbeats get through.
        obs = [o for ms in range(500, 5000, 500) for o in link.feed(board.tick(ms)[0], 3 + ms / 1000)]
        obs += link.feed(board.drop(4, 5100)[0], 8.2)
    assert drops(obs) == [(4, False)]
    assert "behind" in caplog.text


def test_connecting_to_a_running_board_takes_its_counts_as_they_are():
    board = BoardModel()
    board.boot(0)
    for column in (0, 1, 1):
        board.drop(column, 10)
    link = LinkState()
    assert drops(connected(link, board)) == []
    assert link.drop_counts() == [1, 2, 0, 0, 0, 0, 0]


def test_known_counts_after_a_service_restart_bring_the_drops_made_meanwhile():
    board = BoardModel()
    board.boot(0)
    board.drop(3, 10)
    link = LinkState(known_positions={"slides": {i: 0 for i in range(1, 7)}, "board": 2, "drops": [0] * 7})
    assert drops(connected(link, board)) == [(3, True)]
    with pytest.raises(ValueError, match="7 numbers"):
        LinkState(known_positions={"drops": [0, 0]})


def test_the_drop_count_wraps_at_256():
    link, board = LinkState(), BoardModel()
    booted(link, board)
    board.drops[5] = 254
    link.feed(b"".join(board.receive(b"", 0)), 0.1)
    snapshot(link, board, 0.2)                           # the host learns 254 (as recovered drops)
    obs = link.feed(board.drop(5, 100)[0], 1.0) + link.feed(board.drop(5, 200)[0], 1.1)
    assert drops(obs) == [(5, False), (5, False)] and link.drop_counts()[5] == 0


@pytest.mark.parametrize("fields", [
    {"t": 1, "c": 7, "n": 1}, {"t": 1, "c": 0, "n": 256}, {"t": 1, "n": 1}, {"t": 1, "c": "x", "n": 1},
])
def test_impossible_drop_frames_are_dropped(fields):
    link, board = LinkState(), BoardModel()
    booted(link, board)
    assert link.feed(encode_frame("DROP", board.seq, fields), 1.0) == []
    assert link.health.bad_content == 1


def test_a_state_with_the_wrong_number_of_counts_is_dropped():
    link, board = LinkState(), BoardModel()
    booted(link, board)
    bad = encode_state("HB", board.seq, mcu_ms=5, notches=(2,) * 6, board=2, drops=(0,) * 6)
    assert link.feed(bad, 1.0) == [] and link.health.bad_content == 1


def test_an_old_firmware_is_refused_with_both_versions_named_in_english_and_french(caplog):
    link = LinkState()
    link.on_connect(0.0)
    link.take_outgoing()
    hello = encode_hello(0, mcu_ms=0, firmware="passeframe", version="1.0.0", why="boot", holes=None, protocol=1)
    old_state = encode_frame("SNAP", 1, {"t": 56, "s": "1,1,1,1,1,1", "b": 2, "why": "boot"})
    with caplog.at_level(logging.ERROR, logger="firmware_bridge"):
        obs = link.feed(hello + old_state + encode_drop(2, mcu_ms=60, column=1, count=1), 0.1)
    assert obs == []
    refused = link.refused
    assert "protocol 1" in refused and "needs protocol 2" in refused and "passeframe 1.0.0" in refused
    assert "protocole 1" in refused and "demande le protocole 2" in refused
    assert caplog.text.count("protocol 1") == 1
    health = link.health.to_dict(0.2, link.parser.counters())
    assert health["refused"] == refused and health["last_error"] == refused and not health["in_sync"]
    link.tick(0.5)
    link.tick(1.0)
    assert FrameParser().feed(link.take_outgoing()) == []  # no polling a board it cannot use


def test_a_board_with_another_number_of_holes_is_refused():
    link = LinkState(holes=5)
    board = BoardModel()
    obs = connected(link, board)
    assert obs == [] and "7 top holes" in link.refused and "7 trous du haut" in link.refused


def test_a_board_flashed_with_the_new_firmware_is_accepted_again():
    link = LinkState()
    link.on_connect(0.0)
    link.feed(encode_hello(0, mcu_ms=0, firmware="passeframe", version="1.0.0", why="boot", holes=None,
                           protocol=1), 0.1)
    assert link.refused
    obs = link.feed(b"".join(BoardModel().boot(0)), 5.0)
    assert link.refused is None and len(obs) == 7 and link.in_sync


def test_drops_reach_the_session_exactly_once_through_a_faulty_line():
    faults = Faults(drop_byte=0.005, flip_bit=0.005, duplicate_frame=0.005, reorder_frame=0.005)
    report = VirtualLink(faults=faults, seed=4).run(min_frames=5_000)
    assert report.drops > 300 and report.health["recovered_drops"] > 20   # losses did hit drops
    assert report.drop_mismatches == []
    assert report.drop_observations == report.drops
    assert report.wrong == [] and report.quiet_mismatches == []


def test_the_drop_checker_does_catch_a_doubled_drop():
    run = VirtualLink(faults=Faults(), seed=3)
    real_feed = run.link.feed

    def doubling_feed(data, now, wall=None):
        out = real_feed(data, now, wall)
        return out + [o for o in out if o.kind == PEG_DROP]

    run.link.feed = doubling_feed
    assert run.run(min_frames=300).drop_mismatches


def test_known_counts_with_unknown_holes_take_the_board_s_count_for_those():
    board = BoardModel()
    board.boot(0)
    for column in (1, 3, 3):
        board.drop(column, 10)
    # the session had logged hole 4 at 1 (one more drop came while it was away); hole 2 never
    link = LinkState(known_positions={"drops": [None, None, None, 1, None, None, None], "drops_mcu_ms": 5})
    assert drops(connected(link, board, now=1.0)) == [(3, True)]
    assert link.drop_counts() == [0, 1, 0, 2, 0, 0, 0]


def test_a_board_restarted_while_the_service_was_away_brings_no_made_up_drops(caplog):
    board = BoardModel()
    board.boot(0)                                  # booted again since: its clock starts from 0
    for column in (3, 3, 3):
        board.drop(column, 10)
    link = LinkState(known_positions={"drops": [0, 0, 0, 1, 0, 0, 0], "drops_mcu_ms": 90_000})
    with caplog.at_level(logging.WARNING, logger="firmware_bridge"):
        assert drops(connected(link, board, now=1.0)) == []
    assert link.drop_counts() == [0, 0, 0, 3, 0, 0, 0] and "restarted while the service was away" in caplog.text
