"""The bridge's protocol state machine, fed by the Python board model (no I/O, no clock)."""

from __future__ import annotations

import logging

import pytest

from firmware_bridge.link import LinkState
from firmware_bridge.messages import encode_hello, encode_reply, encode_state
from firmware_bridge.positions import NotchMap
from firmware_bridge.protocol import FrameParser, encode_frame
from hardware.sim.board_model import BoardModel


def connected(link: LinkState, board: BoardModel, now: float = 0.0):
    """Connect, let the board answer the HELLO request, return the observations."""
    link.on_connect(now)
    return link.feed(b"".join(board.receive(link.take_outgoing(), int(now * 1000))), now + 0.01)


def sent_types(link: LinkState) -> list[str]:
    return [f.type for f in FrameParser().feed(link.take_outgoing())]


def test_handshake_reports_every_position_once_with_mapped_offsets():
    link, board = LinkState(), BoardModel(notches=(0, 1, 2, 3, 4, 2), board=3)
    obs = connected(link, board)
    assert [(o.kind, o.data) for o in obs] == [
        ("slide", {"slide": 1, "offset": -2, "mcu_ms": 0}), ("slide", {"slide": 2, "offset": -1, "mcu_ms": 0}),
        ("slide", {"slide": 3, "offset": 0, "mcu_ms": 0}), ("slide", {"slide": 4, "offset": 1, "mcu_ms": 0}),
        ("slide", {"slide": 5, "offset": 2, "mcu_ms": 0}), ("slide", {"slide": 6, "offset": 0, "mcu_ms": 0}),
        ("board", {"position": 3, "mcu_ms": 0})]
    assert all(o.source == "serial" and o.t == pytest.approx(0.01) for o in obs)
    assert link.health.firmware == "passeframe-py" and link.in_sync


def test_observation_time_is_the_wall_clock_when_given():
    link, board = LinkState(), BoardModel()
    connected(link, board)
    [obs] = link.feed(board.set_slide(2, 3, now_ms=700)[0], now=5.0, wall=1_700_000_000.5)
    assert obs.t == 1_700_000_000.5 and obs.data == {"slide": 2, "offset": 1, "mcu_ms": 700}


def test_a_snapshot_that_agrees_with_the_host_emits_nothing():
    link, board = LinkState(), BoardModel()
    connected(link, board)
    link.request_snapshot(1.0)
    assert link.feed(b"".join(board.receive(link.take_outgoing(), 1000)), 1.01) == []


def test_duplicate_and_reordered_frames_never_bring_back_an_old_position():
    link, board = LinkState(), BoardModel()
    connected(link, board)
    to_3 = board.set_slide(1, 3, 100)[0]
    to_4 = board.set_slide(1, 4, 110)[0]
    obs = link.feed(to_4, 1.0) + link.feed(to_3, 1.1) + link.feed(to_4, 1.2)
    assert [o.data["offset"] for o in obs] == [2]
    assert link.health.stale == 2
    assert link.positions()["slides"][1] == 2


def test_a_gap_asks_for_a_snapshot_at_once_and_the_snapshot_repairs_the_view():
    link, board = LinkState(), BoardModel()
    connected(link, board)
    board.set_slide(5, 4, 100)              # lost on the line
    link.feed(board.set_board(1, 110)[0], 1.0)
    assert link.health.gaps == 1 and link.health.missed_frames == 1 and not link.in_sync
    assert sent_types(link) == ["SNAP"]
    link.request_snapshot(1.0)
    obs = link.feed(b"".join(board.receive(link.take_outgoing(), 1010)), 1.02)
    assert [(o.kind, o.data.get("slide"), o.data.get("offset")) for o in obs] == [("slide", 5, 2)]
    assert link.in_sync and link.health.resyncs == 2 and link.health.corrections == 1


def test_snapshot_requests_are_retried_until_the_view_is_in_sync():
    link, board = LinkState(snapshot_retry_s=0.05), BoardModel()
    connected(link, board)
    board.set_slide(2, 0, 100)
    link.feed(board.set_slide(3, 0, 110)[0], 1.0)
    link.take_outgoing()
    link.tick(1.02)
    assert sent_types(link) == []
    link.tick(1.06)
    assert sent_types(link) == ["SNAP"]


def test_a_missed_heartbeat_makes_the_host_poll_for_the_state():
    link, board = LinkState(poll_after_s=0.6), BoardModel()
    connected(link, board)
    link.tick(0.5)
    assert sent_types(link) == []
    link.tick(0.7)
    assert sent_types(link) == ["SNAP"]


def test_a_silent_board_is_noticed_and_greeted_again():
    link, board = LinkState(silence_timeout_s=1.5), BoardModel()
    connected(link, board)
    link.tick(1.4)
    link.take_outgoing()
    assert not link.health.silent
    link.tick(1.7)
    assert link.health.silent
    assert link.health.to_dict(1.7, link.parser.counters())["alive"] is False
    assert "HELLO" in sent_types(link)
    link.feed(board.tick(2000)[0], 2.0)
    assert not link.health.silent


def test_a_board_reset_is_not_a_gap_and_only_real_changes_are_reported():
    link, board = LinkState(), BoardModel()
    connected(link, board)
    for ms in range(0, 5000, 500):          # the count moves on
        link.feed(board.tick(ms)[0], ms / 1000)
    board.notches[3] = 0                    # moved while the MCU restarted
    obs = link.feed(b"".join(board.boot(0, reset_cause="e")), 6.0)
    assert link.health.gaps == 0 and link.health.board_resets == 1
    assert link.health.reset_cause == "e"
    assert [(o.data["slide"], o.data["offset"]) for o in obs] == [(4, -2)]


def test_unknown_positions_are_never_reported():
    link = LinkState()
    link.on_connect(0.0)
    obs = link.feed(encode_state("SNAP", 1, mcu_ms=5, notches=(None, 1, None, None, None, None), board=None), 0.1)
    assert [(o.data["slide"], o.data["offset"]) for o in obs] == [(2, -1)]
    assert link.positions() == {"slides": {1: None, 2: -1, 3: None, 4: None, 5: None, 6: None}, "board": None}


def test_known_positions_make_a_matching_first_snapshot_silent():
    known = {"slides": {i: 0 for i in range(1, 7)}, "board": 2}
    link = LinkState(known_positions=known)
    assert connected(link, BoardModel()) == []


def test_known_positions_are_checked():
    with pytest.raises(ValueError, match="outside"):
        LinkState(known_positions={"slides": {1: 5}})
    with pytest.raises(ValueError, match="board position"):
        LinkState(known_positions={"board": 4})


def test_the_notch_mapping_is_configurable():
    link = LinkState(notch_map=NotchMap(notch_offset=0, notches=5))
    obs = connected(link, BoardModel(notches=(0, 1, 2, 3, 4, 4)))
    assert [o.data["offset"] for o in obs if o.kind == "slide"] == [0, 1, 2, 3, 4, 4]


def test_unknown_message_types_are_ignored_with_a_warning(caplog):
    link, board = LinkState(), BoardModel()
    connected(link, board)
    board.seq += 1
    with caplog.at_level(logging.WARNING, logger="firmware_bridge"):
        obs = link.feed(encode_frame("TEMP", board.seq - 1, {"t": 9, "c": 21}), 1.0)
    assert obs == [] and link.health.unknown_types == 1
    assert "TEMP" in caplog.text
    link.feed(board.tick(500)[0], 1.1)
    assert link.health.gaps == 0            # its sequence number still counted


@pytest.mark.parametrize("fields", [
    {"t": 1, "s9": 1}, {"t": 1, "s3": 7}, {"t": 1, "s3": "?"}, {"t": 1, "b": 4}, {"t": 1, "s3": 1, "b": 1}, {"s3": 1},
])
def test_right_crc_but_impossible_content_is_dropped(fields):
    link, board = LinkState(), BoardModel()
    connected(link, board)
    assert link.feed(encode_frame("EV", board.seq, fields), 1.0) == []
    assert link.health.bad_content == 1


def test_an_incompatible_board_is_reported_and_its_positions_ignored():
    link = LinkState()
    link.on_connect(0.0)
    hello = encode_hello(0, mcu_ms=0, firmware="other", version="9", why="boot", notches=7)
    obs = link.feed(hello + encode_state("SNAP", 1, mcu_ms=1, notches=(6,) * 6, board=1), 0.1)
    assert obs == [] and "incompatible" in link.health.last_error


def test_acknowledged_thresholds_show_in_health():
    link, board = LinkState(), BoardModel()
    connected(link, board)
    reply = encode_reply("ACK", board.seq, mcu_ms=5, fields=[("re", 3), ("band", 20), ("hold", 50),
                                                            ("settle", 40), ("debounce", 10)])
    link.feed(reply, 1.0)
    assert link.health.thresholds == {"band": 20, "hold": 50, "settle": 40, "debounce": 10}


def test_board_model_refuses_bad_thresholds_like_the_firmware():
    board = BoardModel()
    link = LinkState()
    link.send_command(lambda seq: encode_frame("SET", seq, {"band": 70, "hold": 50}))
    [nak] = FrameParser().feed(b"".join(board.receive(link.take_outgoing(), 0)))
    assert nak.type == "NAK" and nak.fields["why"] == "range"
    assert board.thresholds["band"] == 25
