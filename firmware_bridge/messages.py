"""The meaning of frames: typed device messages, host commands, thresholds.

Both sides use this module: the bridge decodes what the board says and encodes its
commands; the pure-Python simulated board does the opposite. The C firmware
(``hardware/firmware/passeframe/src/``) implements the same table, see ``PROTOCOL.md``.

    >>> from firmware_bridge.protocol import FrameParser
    >>> [frame] = FrameParser().feed(encode_change(5, mcu_ms=900, slide=3, notch=4))
    >>> decode_device_frame(frame)
    Change(mcu_ms=900, slide=3, notch=4, board=None)
    >>> [frame] = FrameParser().feed(encode_drop(6, mcu_ms=950, column=2, count=1))
    >>> decode_device_frame(frame)
    Drop(mcu_ms=950, column=2, count=1)
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.protocol import PROTOCOL_VERSION, Frame, encode_frame

SLIDES = 6
NOTCHES = 5
HOLES = 7            # top-hole sensors, one over each column of the frame's window
DROP_COUNT_MODULO = 256  # the board counts each hole's drops since boot, modulo this
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
    holes: int = 0    # top-hole sensors (0: a protocol-1 board, which has none)


@dataclass(frozen=True)
class State:
    """A full picture (``SNAP`` or heartbeat ``HB``): notch index per slide, board position;
    ``None`` where the board does not know (a slide between notches since boot);
    ``drops``: each top hole's drop count since boot (modulo 256), ``None`` if absent."""

    mcu_ms: int
    notches: tuple[int | None, ...]
    board: int | None
    why: str  # "boot", "req" or "hb"
    drops: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Change:
    """One position settled: a slide's notch index, or the board's position."""

    mcu_ms: int
    slide: int | None = None
    notch: int | None = None
    board: int | None = None


@dataclass(frozen=True)
class Drop:
    """A peg went into the top hole over ``column`` (0-based); ``count`` is that hole's
    drop count since boot, this one included (modulo 256)."""

    mcu_ms: int
    column: int
    count: int


@dataclass(frozen=True)
class Reply:
    """``PONG``, ``ACK`` or ``NAK``: the board answering a host command."""

    type: str
    mcu_ms: int
    fields: dict[str, str]


DEVICE_TYPES = ("HELLO", "SNAP", "HB", "EV", "DROP", "PONG", "ACK", "NAK")
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


def _drop_counts(text: str | None, holes: int) -> tuple[int, ...] | None:
    if text is None:
        return None
    items = text.split(",")
    if len(items) != holes or not all(x.isdigit() and len(x) <= 3 and int(x) < DROP_COUNT_MODULO for x in items):
        raise MessageError(f"drop counts {text!r}: {holes} numbers 0..{DROP_COUNT_MODULO - 1} expected")
    return tuple(int(x) for x in items)


def decode_device_frame(frame: Frame, *, slides: int = SLIDES, notches: int = NOTCHES, holes: int = HOLES):
    """A :class:`Hello`, :class:`State`, :class:`Change`, :class:`Drop` or :class:`Reply`;
    ``None`` for a type this host does not know (the caller warns and goes on)."""
    if frame.type not in DEVICE_TYPES:
        return None
    f = frame.fields
    mcu_ms = _int(f, "t", 0, 2**32 - 1)
    if frame.type == "HELLO":
        return Hello(firmware=f.get("fw", "?"), version=f.get("ver", "?"),
                     protocol=_int(f, "proto", 0, 255), slides=_int(f, "slides", 1, 16),
                     notches=_int(f, "notches", 1, 9), why=f.get("why", "?"),
                     mcu_ms=mcu_ms, reset_cause=f.get("rst", "-"),
                     holes=_int(f, "holes", 0, 16) if "holes" in f else 0)
    if frame.type in ("SNAP", "HB"):
        items = f.get("s", "").split(",")
        if len(items) != slides or "b" not in f:
            raise MessageError(f"a state needs {slides} slides and a board: {f}")
        return State(mcu_ms=mcu_ms, notches=tuple(_position(x, 0, notches - 1) for x in items),
                     board=_position(f["b"], 1, 3),
                     why="hb" if frame.type == "HB" else f.get("why", "req"),
                     drops=_drop_counts(f.get("d"), holes))
    if frame.type == "DROP":
        return Drop(mcu_ms=mcu_ms, column=_int(f, "c", 0, holes - 1), count=_int(f, "n", 0, DROP_COUNT_MODULO - 1))
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
                 slides: int = SLIDES, notches: int = NOTCHES, reset_cause: str = "-",
                 holes: int | None = HOLES, protocol: int = PROTOCOL_VERSION) -> bytes:
    """``holes=None`` and ``protocol=1`` give what a protocol-1 board said (tests)."""
    fields: list[tuple[str, object]] = [
        ("t", mcu_ms), ("fw", firmware), ("ver", version), ("proto", protocol),
        ("slides", slides), ("notches", notches), ("boards", 3)]
    if holes is not None:
        fields.append(("holes", holes))
    return encode_frame("HELLO", seq, [*fields, ("why", why), ("rst", reset_cause)])


def encode_state(type_: str, seq: int, *, mcu_ms: int, notches: tuple[int | None, ...],
                 board: int | None, why: str | None = None, drops: tuple[int, ...] | None = None) -> bytes:
    fields = [("t", mcu_ms), ("s", ",".join(_pos_text(n) for n in notches)), ("b", _pos_text(board))]
    if drops is not None:
        fields.append(("d", ",".join(str(n % DROP_COUNT_MODULO) for n in drops)))
    if why is not None:
        fields.append(("why", why))
    return encode_frame(type_, seq, fields)


def encode_change(seq: int, *, mcu_ms: int, slide: int | None = None, notch: int | None = None,
                  board: int | None = None) -> bytes:
    if board is not None:
        return encode_frame("EV", seq, [("t", mcu_ms), ("b", board)])
    return encode_frame("EV", seq, [("t", mcu_ms), (f"s{slide}", notch)])


def encode_drop(seq: int, *, mcu_ms: int, column: int, count: int) -> bytes:
    return encode_frame("DROP", seq, [("t", mcu_ms), ("c", column), ("n", count % DROP_COUNT_MODULO)])


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
