"""The meaning of frames: typed device messages, host commands, thresholds.

Both sides use this module: the bridge decodes what the board says and encodes its
commands; the pure-Python simulated board does the opposite. The C firmware
(``hardware/firmware/passeframe/src/``) implements the same table, see ``PROTOCOL.md``.

    >>> from firmware_bridge.protocol import FrameParser
    >>> [frame] = FrameParser().feed(encode_change(5, mcu_ms=900, slide=3, notch=4))
    >>> decode_device_frame(frame)
    Change(mcu_ms=900, slide=3, notch=4, board=None)
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.protocol import PROTOCOL_VERSION, Frame, encode_frame

SLIDES = 6
NOTCHES = 5
UNKNOWN = "?"
HEARTBEAT_PERIOD_S = 0.5

# Decoding thresholds the host may set (``SET``); the firmware checks the same limits.
# band: ADC counts around a notch's level to enter it; hold: counts to stay in it (≥ band,
# the hysteresis); settle: ms a new notch must hold before it is reported; debounce: ms
# the board inputs must hold. Notch levels are 170.5 counts apart, so 80 keeps bands apart.
THRESHOLD_LIMITS = {"band": (1, 80), "hold": (1, 80), "settle": (0, 2000), "debounce": (0, 1000)}
DEFAULT_THRESHOLDS = {"band": 25, "hold": 60, "settle": 50, "debounce": 20}


class MessageError(ValueError):
    """A frame whose CRC is right but whose content makes no sense; it is dropped."""


@dataclass(frozen=True)
class Hello:
    firmware: str
    version: str
    protocol: int
    slides: int
    notches: int
    why: str          # "boot" (the board just started) or "req" (answer to the host)
    mcu_ms: int
    reset_cause: str  # what reset the MCU: letters p(ower) e(xternal) b(rown-out) w(atchdog), or "-"


@dataclass(frozen=True)
class State:
    """A full picture (``SNAP`` or heartbeat ``HB``): notch index per slide, board position;
    ``None`` where the board does not know (a slide between notches since boot)."""

    mcu_ms: int
    notches: tuple[int | None, ...]
    board: int | None
    why: str  # "boot", "req" or "hb"


@dataclass(frozen=True)
class Change:
    """One position settled: a slide's notch index, or the board's position."""

    mcu_ms: int
    slide: int | None = None
    notch: int | None = None
    board: int | None = None


@dataclass(frozen=True)
class Reply:
    """``PONG``, ``ACK`` or ``NAK``: the board answering a host command."""

    type: str
    mcu_ms: int
    fields: dict[str, str]


DEVICE_TYPES = ("HELLO", "SNAP", "HB", "EV", "PONG", "ACK", "NAK")
HOST_TYPES = ("HELLO", "SNAP", "PING", "SET")


def _int(fields: dict[str, str], key: str, lo: int, hi: int) -> int:
    text = fields.get(key)
    if text is None or not text.isdigit() or len(text) > 10:
        raise MessageError(f"field {key}={text!r} is not a number")
    value = int(text)
    if not lo <= value <= hi:
        raise MessageError(f"field {key}={value} is outside {lo}..{hi}")
    return value


def _position(text: str, lo: int, hi: int) -> int | None:
    if text == UNKNOWN:
        return None
    if len(text) != 1 or not text.isdigit() or not lo <= int(text) <= hi:
        raise MessageError(f"position {text!r} is outside {lo}..{hi}")
    return int(text)


def decode_device_frame(frame: Frame, *, slides: int = SLIDES, notches: int = NOTCHES):
    """A :class:`Hello`, :class:`State`, :class:`Change` or :class:`Reply`; ``None`` for a
    type this host does not know (the caller warns and goes on)."""
    if frame.type not in DEVICE_TYPES:
        return None
    f = frame.fields
    mcu_ms = _int(f, "t", 0, 2**32 - 1)
    if frame.type == "HELLO":
        return Hello(firmware=f.get("fw", "?"), version=f.get("ver", "?"),
                     protocol=_int(f, "proto", 0, 255), slides=_int(f, "slides", 1, 16),
                     notches=_int(f, "notches", 1, 9), why=f.get("why", "?"),
                     mcu_ms=mcu_ms, reset_cause=f.get("rst", "-"))
    if frame.type in ("SNAP", "HB"):
        items = f.get("s", "").split(",")
        if len(items) != slides or "b" not in f:
            raise MessageError(f"a state needs {slides} slides and a board: {f}")
        return State(mcu_ms=mcu_ms, notches=tuple(_position(x, 0, notches - 1) for x in items),
                     board=_position(f["b"], 1, 3),
                     why="hb" if frame.type == "HB" else f.get("why", "req"))
    if frame.type == "EV":
        keys = [k for k in f if k != "t"]
        if len(keys) != 1:
            raise MessageError(f"an event carries exactly one change: {f}")
        key = keys[0]
        if key == "b":
            board = _position(f[key], 1, 3)
            if board is None:
                raise MessageError("an event never reports an unknown position")
            return Change(mcu_ms=mcu_ms, board=board)
        if len(key) == 2 and key[0] == "s" and key[1].isdigit() and 1 <= int(key[1]) <= slides:
            notch = _position(f[key], 0, notches - 1)
            if notch is None:
                raise MessageError("an event never reports an unknown position")
            return Change(mcu_ms=mcu_ms, slide=int(key[1]), notch=notch)
        raise MessageError(f"unknown event field {key!r}")
    return Reply(type=frame.type, mcu_ms=mcu_ms, fields=dict(f))


# ---- device side (what the board sends) --------------------------------------------

def _pos_text(value: int | None) -> str:
    return UNKNOWN if value is None else str(value)


def encode_hello(seq: int, *, mcu_ms: int, firmware: str, version: str, why: str,
                 slides: int = SLIDES, notches: int = NOTCHES, reset_cause: str = "-") -> bytes:
    return encode_frame("HELLO", seq, [
        ("t", mcu_ms), ("fw", firmware), ("ver", version), ("proto", PROTOCOL_VERSION),
        ("slides", slides), ("notches", notches), ("boards", 3), ("why", why), ("rst", reset_cause)])


def encode_state(type_: str, seq: int, *, mcu_ms: int, notches: tuple[int | None, ...],
                 board: int | None, why: str | None = None) -> bytes:
    fields = [("t", mcu_ms), ("s", ",".join(_pos_text(n) for n in notches)), ("b", _pos_text(board))]
    if why is not None:
        fields.append(("why", why))
    return encode_frame(type_, seq, fields)


def encode_change(seq: int, *, mcu_ms: int, slide: int | None = None, notch: int | None = None,
                  board: int | None = None) -> bytes:
    if board is not None:
        return encode_frame("EV", seq, [("t", mcu_ms), ("b", board)])
    return encode_frame("EV", seq, [("t", mcu_ms), (f"s{slide}", notch)])


def encode_reply(type_: str, seq: int, *, mcu_ms: int, fields: list[tuple[str, object]]) -> bytes:
    return encode_frame(type_, seq, [("t", mcu_ms), *fields])


# ---- host side (what the bridge sends) ---------------------------------------------

def encode_hello_request(seq: int) -> bytes:
    return encode_frame("HELLO", seq, [("proto", PROTOCOL_VERSION)])


def encode_snapshot_request(seq: int) -> bytes:
    return encode_frame("SNAP", seq)


def encode_ping(seq: int, token: int) -> bytes:
    return encode_frame("PING", seq, [("n", token)])


def encode_set_thresholds(seq: int, **changes: int) -> bytes:
    check_thresholds(DEFAULT_THRESHOLDS, changes, partial=True)
    return encode_frame("SET", seq, list(changes.items()))


def check_thresholds(current: dict[str, int], changes: dict[str, object], *,
                     partial: bool = False) -> dict[str, int]:
    """``current`` updated with ``changes``, or ``MessageError`` naming what is wrong.
    With ``partial`` the band ≤ hold rule is left to the board (it knows the other value)."""
    new = dict(current)
    for key, value in changes.items():
        if key not in THRESHOLD_LIMITS:
            raise MessageError(f"unknown threshold {key!r} (known: {', '.join(THRESHOLD_LIMITS)})")
        lo, hi = THRESHOLD_LIMITS[key]
        try:
            number = int(str(value))
        except ValueError:
            raise MessageError(f"threshold {key}={value!r} is not a whole number") from None
        if not lo <= number <= hi:
            raise MessageError(f"threshold {key}={number} is outside {lo}..{hi}")
        new[key] = number
    if not partial and new["band"] > new["hold"]:
        raise MessageError(f"band {new['band']} must not exceed hold {new['hold']}")
    return new
