"""Framing: CRC-16, encoding, and the incremental parser's resynchronisation."""

from __future__ import annotations

import pytest

from firmware_bridge.protocol import MAX_DEVICE_FRAME, Frame, FrameParser, crc16, decode_body, encode_frame


def test_crc_is_ccitt_false_not_xor():
    # The published check value of CRC-16/CCITT-FALSE.
    assert crc16(b"123456789") == 0x29B1
    # Two swapped bytes keep an XOR checksum but not this CRC.
    assert crc16(b"s3=4 s4=3") != crc16(b"s4=3 s3=4")


def test_encoded_frame_is_readable_text_with_crc():
    raw = encode_frame("EV", 42, {"t": 123456, "s3": 4})
    assert raw.startswith(b"$EV 42 t=123456 s3=4*") and raw.endswith(b"\r\n")
    assert int(raw[-6:-2], 16) == crc16(b"EV 42 t=123456 s3=4")


def test_round_trip_of_several_frames_fed_byte_by_byte():
    sent = [encode_frame("HELLO", 0, {"fw": "passeframe", "ver": "1.0.0"}),
            encode_frame("SNAP", 1, {"t": 5, "s": "2,2,?,2,2,2", "b": "?"}),
            encode_frame("HB", 65535, {})]
    parser = FrameParser()
    got = []
    for byte in b"".join(sent):
        got += parser.feed(bytes([byte]))
    assert [(f.type, f.seq) for f in got] == [("HELLO", 0), ("SNAP", 1), ("HB", 65535)]
    assert got[1].fields == {"t": "5", "s": "2,2,?,2,2,2", "b": "?"}
    assert parser.frames == 3 and parser.crc_errors == parser.malformed == 0


def test_noise_between_frames_is_skipped_and_counted():
    parser = FrameParser()
    data = b"boot garbage\x00\xff" + encode_frame("HB", 1, {"t": 1}) + b"xx" + encode_frame("HB", 2, {"t": 2})
    assert [f.seq for f in parser.feed(data)] == [1, 2]
    assert parser.noise_bytes == len(b"boot garbage\x00\xff") + 2


def test_bad_crc_is_dropped_and_the_next_frame_still_parses():
    bad = bytearray(encode_frame("EV", 7, {"t": 10, "s3": 4}))
    bad[bad.index(b"s3=4") + 3] = ord("3")  # the position changed in transit
    parser = FrameParser()
    got = parser.feed(bytes(bad) + encode_frame("EV", 8, {"t": 11, "s3": 1}))
    assert [(f.seq, f.fields["s3"]) for f in got] == [(8, "1")]
    assert parser.crc_errors == 1


def test_lost_line_end_resyncs_at_next_frame_start():
    first = encode_frame("EV", 7, {"t": 10, "s1": 0})[:-2]  # lost "\r\n"
    parser = FrameParser()
    got = parser.feed(first + encode_frame("EV", 8, {"t": 11, "s1": 1}))
    assert [f.seq for f in got] == [8]
    assert parser.malformed == 1


def test_too_long_frame_is_dropped_with_bounded_memory():
    parser = FrameParser()
    parser.feed(b"$HB 1 " + b"x" * 10_000)
    assert parser.too_long == 1
    assert len(parser._buf) < MAX_DEVICE_FRAME
    got = parser.feed(b"\r\n" + encode_frame("HB", 2, {"t": 1}))
    assert [f.seq for f in got] == [2]


def test_length_limit_counts_from_dollar_to_line_feed():
    raw = encode_frame("SNAP", 9, {"t": 123, "s": "2,2,2,2,2,2", "b": 2})
    assert [f.seq for f in FrameParser(max_length=len(raw)).feed(raw)] == [9]
    parser = FrameParser(max_length=len(raw) - 1)
    assert parser.feed(raw) == [] and parser.too_long == 1


def test_line_feed_without_carriage_return_is_accepted():
    raw = encode_frame("HB", 3, {"t": 1}).replace(b"\r\n", b"\n")
    assert [f.seq for f in FrameParser().feed(raw)] == [3]


@pytest.mark.parametrize("body", [
    b"ev 1 t=1",            # lower-case type
    b"EV 01 t=1",           # non-canonical sequence number
    b"EV 65536 t=1",        # out of range
    b"EV 1 t=1 t=2",        # duplicate key
    b"EV 1 T=1",            # upper-case key
    b"EV 1 t=",             # empty value
    b"EV  1 t=1",           # double space
    b"EVENTFULL 1",         # type too long
])
def test_grammar_errors_are_malformed_even_with_a_right_crc(body):
    line = body + b"*%04X" % crc16(body)
    assert decode_body(line) == "malformed"


def test_lower_case_crc_digits_are_malformed():
    body = next(b for b in (b"HB 1 t=%d" % i for i in range(100)) if any(c in b"ABCDEF" for c in b"%04X" % crc16(b)))
    assert isinstance(decode_body(body + b"*%04X" % crc16(body)), Frame)
    assert decode_body(body + b"*%04x" % crc16(body)) == "malformed"


@pytest.mark.parametrize("type_, fields", [
    ("ev", {}), ("EV", {"Bad": 1}), ("EV", {"k": "has space"}), ("EV", {"k": "a*b"}),
    ("EV", {"k": "x" * 33}), ("EV", {"k": ""}),
])
def test_encoding_refuses_what_the_grammar_forbids(type_, fields):
    with pytest.raises(ValueError):
        encode_frame(type_, 1, fields)
