"""Fuzzing the frame parser: no input crashes it, blocks it or makes it hoard memory,
and whatever it returns is a well-formed frame."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.protocol import MAX_DEVICE_FRAME, FrameParser, decode_body, encode_frame

chunks = st.lists(st.binary(max_size=300), max_size=30)
# Bytes likely to matter to the grammar, so the fuzzer gets near-valid frames often.
grammar_bytes = st.lists(st.sampled_from(list(b"$*\r\n =0123456789ABCDEFHBSNAPEVst,?")), max_size=400).map(bytes)


def re_encoded(frame) -> bytes:
    return encode_frame(frame.type, frame.seq, frame.fields)


@settings(max_examples=400, deadline=None)
@given(chunks)
def test_arbitrary_bytes_never_crash_and_memory_stays_bounded(pieces):
    parser = FrameParser()
    for piece in pieces:
        for frame in parser.feed(piece):
            assert decode_body(re_encoded(frame)[1:-2]) == frame
        assert len(parser._buf) < MAX_DEVICE_FRAME
    counts = parser.counters()
    assert all(v >= 0 for v in counts.values())


@settings(max_examples=400, deadline=None)
@given(st.lists(grammar_bytes, max_size=10))
def test_near_valid_input_only_yields_well_formed_frames(pieces):
    parser = FrameParser()
    for piece in pieces:
        for frame in parser.feed(piece):
            assert frame.type.isupper() and 0 <= frame.seq < 65536
            assert decode_body(re_encoded(frame)[1:-2]) == frame


values = st.text(alphabet=st.sampled_from("0123456789?,abcXYZ.-"), min_size=1, max_size=12)
frames = st.builds(
    lambda t, seq, kv: encode_frame(t, seq, kv),
    st.sampled_from(["HB", "EV", "SNAP", "HELLO", "XYZ"]),
    st.integers(0, 65535),
    st.dictionaries(st.sampled_from(["t", "s", "b", "s1", "why"]), values, max_size=4),
)
noise = st.binary(max_size=40).map(lambda b: b.replace(b"$", b"").replace(b"\n", b""))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(noise, frames), min_size=1, max_size=12), st.integers(1, 50))
def test_every_frame_survives_noise_between_frames_and_any_chunking(pairs, chunk):
    stream = b"".join(n + f for n, f in pairs)
    parser = FrameParser()
    got = []
    for i in range(0, len(stream), chunk):
        got += parser.feed(stream[i:i + chunk])
    assert [re_encoded(f) for f in got] == [f for _, f in pairs]


device_values = st.text(alphabet=st.sampled_from("0123456789?,-x"), min_size=1, max_size=14)
device_frames = st.builds(
    lambda t, seq, kv: encode_frame(t, seq, kv),
    st.sampled_from(["HELLO", "SNAP", "HB", "EV", "PONG", "ACK", "NAK", "ZZZ"]),
    st.integers(0, 65535),
    st.dictionaries(st.sampled_from(["t", "s", "b", "s1", "s6", "s7", "why", "proto", "slides", "notches",
                                     "band", "re"]), device_values, max_size=6),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(device_frames, st.binary(max_size=20)), max_size=20))
def test_the_link_survives_any_well_framed_nonsense(pieces):
    from firmware_bridge.link import LinkState

    link = LinkState()
    link.on_connect(0.0)
    now = 0.0
    for piece in pieces:
        now += 0.01
        for obs in link.feed(piece, now):
            if obs.kind == "slide":
                assert 1 <= obs.data["slide"] <= 6 and -2 <= obs.data["offset"] <= 2
            else:
                assert obs.data["position"] in (1, 2, 3)
        link.tick(now)
    link.take_outgoing()
