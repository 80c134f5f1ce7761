"""Framing of the slide-frame serial protocol: CRC-16, frame encoding, incremental parser.

A frame is one line of printable ASCII that a person can read on a serial terminal::

    $EV 42 t=123456 s3=4*9C1B\\r\\n

``$`` starts a frame, then the message type, the sequence number, ``key=value`` fields,
``*`` and the CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of everything between ``$``
and ``*`` in four upper-case hex digits, then ``\\r\\n``. ``PROTOCOL.md`` has the whole
grammar and the message types; this module knows only the grammar, not the meanings.

    >>> parser = FrameParser()
    >>> [f.type for f in parser.feed(b"noise" + encode_frame("HB", 7, {"t": "500"}))]
    ['HB']

The parser never raises on its input and never holds more than one frame's worth of
bytes: a bad CRC, a broken or too long frame is dropped and counted, and the stream
resynchronises at the next ``$``.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

PROTOCOL_VERSION = 2  # 2: top-hole drops (DROP, the d= counts of SNAP/HB, holes= in HELLO)
SEQ_MODULO = 65536
# Longest frames, ``$`` to ``\n`` included. The MCU has 2 KiB of RAM, so what the host
# sends it is kept short; what the board sends fits the longest HELLO with room to spare.
MAX_DEVICE_FRAME = 128
MAX_HOST_FRAME = 64

_TYPE = rb"[A-Z]{1,8}"
_SEQ = rb"0|[1-9][0-9]{0,4}"
_KEY = rb"[a-z][a-z0-9]{0,7}"
# Printable ASCII except space, '$' (frame start), '*' (CRC mark) and '=' (separator).
_VALUE = rb"[!-#%-)+-<>-~]{1,32}"
_BODY_RE = re.compile(rb"(" + _TYPE + rb") (" + _SEQ + rb")((?: " + _KEY + rb"=" + _VALUE + rb")*)")
_HEX4_RE = re.compile(rb"[0-9A-F]{4}")


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of ``data`` (``crc16(b"123456789") == 0x29B1``)."""
    return binascii.crc_hqx(data, 0xFFFF)


@dataclass(frozen=True)
class Frame:
    """One well-formed frame: its type, sequence number and fields (all text)."""

    type: str
    seq: int
    fields: dict[str, str] = field(default_factory=dict)


def encode_frame(type_: str, seq: int, fields: Mapping[str, object] | Iterable[tuple[str, object]] = ()) -> bytes:
    """The bytes of one frame; raises ``ValueError`` for a type, key or value the grammar
    does not allow (a programming error, never a line error)."""
    pairs = fields.items() if isinstance(fields, Mapping) else fields
    body = f"{type_} {seq % SEQ_MODULO}" + "".join(f" {k}={v}" for k, v in pairs)
    raw = body.encode("ascii")
    if not _BODY_RE.fullmatch(raw):
        raise ValueError(f"not a valid frame body: {body!r}")
    return b"$" + raw + b"*%04X\r\n" % crc16(raw)


def decode_body(line: bytes) -> Frame | str:
    """Decode what lies between ``$`` and the line end: a :class:`Frame`, or the name of
    the counter the failure belongs to (``"crc_errors"`` or ``"malformed"``)."""
    if line.endswith(b"\r"):
        line = line[:-1]
    star = line.rfind(b"*")
    if star < 0 or not _HEX4_RE.fullmatch(line, star + 1):
        return "malformed"
    body = line[:star]
    if crc16(body) != int(line[star + 1:], 16):
        return "crc_errors"
    m = _BODY_RE.fullmatch(body)
    if m is None:
        return "malformed"
    fields: dict[str, str] = {}
    for pair in m.group(3).split():
        key, _, value = pair.partition(b"=")
        k = key.decode("ascii")
        if k in fields:
            return "malformed"
        fields[k] = value.decode("ascii")
    seq = int(m.group(2))
    if seq >= SEQ_MODULO:
        return "malformed"
    return Frame(m.group(1).decode("ascii"), seq, fields)


class FrameParser:
    """Turns a byte stream into frames, whatever it is fed and in whatever pieces.

    Counters (plain ints, read them at will): ``frames`` (good ones), ``crc_errors``,
    ``too_long``, ``malformed`` (broken framing or grammar) and ``noise_bytes`` (bytes
    outside any frame).

        >>> p = FrameParser()
        >>> p.feed(b"$HB 1 t=5*0000\\r\\n"), p.crc_errors
        ([], 1)
    """

    def __init__(self, max_length: int = MAX_DEVICE_FRAME):
        self.max_length = max_length
        self._buf = bytearray()
        self._in_frame = False
        self.frames = 0
        self.crc_errors = 0
        self.too_long = 0
        self.malformed = 0
        self.noise_bytes = 0

    def reset(self) -> None:
        """Forget any partial frame (after the port was reopened)."""
        self._buf.clear()
        self._in_frame = False

    def feed(self, data: bytes) -> list[Frame]:
        buf = self._buf
        buf += data
        out: list[Frame] = []
        while buf:
            if not self._in_frame:
                start = buf.find(b"$")
                if start < 0:
                    self.noise_bytes += len(buf)
                    buf.clear()
                    break
                self.noise_bytes += start
                del buf[: start + 1]
                self._in_frame = True
            end = buf.find(b"\n")
            restart = buf.find(b"$", 0, end if end >= 0 else len(buf))
            if restart >= 0:
                # A new frame began before this one ended: a byte was lost; resync there.
                self.malformed += 1
                del buf[:restart]
                self._in_frame = False
                continue
            if end < 0:
                if len(buf) + 2 > self.max_length:
                    self.too_long += 1
                    buf.clear()
                    self._in_frame = False
                break
            line = bytes(buf[:end])
            del buf[: end + 1]
            self._in_frame = False
            if len(line) + 2 > self.max_length:
                self.too_long += 1
                continue
            result = decode_body(line)
            if isinstance(result, Frame):
                self.frames += 1
                out.append(result)
            else:
                setattr(self, result, getattr(self, result) + 1)
        return out

    def counters(self) -> dict[str, int]:
        return {
            "frames": self.frames,
            "crc_errors": self.crc_errors,
            "too_long": self.too_long,
            "malformed": self.malformed,
            "noise_bytes": self.noise_bytes,
        }
