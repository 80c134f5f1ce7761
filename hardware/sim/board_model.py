"""The board's side of the protocol as the firmware speaks it, without I/O or clock.

Mirrors ``hardware/firmware/passeframe/src/passeframe.c``: a HELLO and a full state at
boot, one EV per settled change, one DROP per counted top-hole drop, a heartbeat
carrying the full state (with each hole's drop count) every 500 ms, and answers to
HELLO, SNAP, PING and SET. Positions are set directly (a slide "comes to rest" at a
notch) and drops are counted ones: the voltage decoding, hysteresis and settle time are
the firmware's, tested in simavr; the top-hole sensors are ``top_holes``.

    >>> board = BoardModel()
    >>> [f[:6] for f in board.boot(now_ms=0)]
    [b'$HELLO', b'$SNAP ']
    >>> board.set_slide(3, 4, now_ms=20)[0][:9]
    b'$EV 2 t=2'
    >>> board.drop(5, now_ms=30)[0][:20]
    b'$DROP 3 t=30 c=5 n=1'
"""

from __future__ import annotations

from collections.abc import Callable

from firmware_bridge import messages as msg
from firmware_bridge.protocol import MAX_HOST_FRAME, PROTOCOL_VERSION, SEQ_MODULO, FrameParser

FIRMWARE_NAME = "passeframe-py"
FIRMWARE_VERSION = "1.1.0"


class BoardModel:
    """One MCU: positions (notch indexes, board 1..3), thresholds and a frame counter.

    Every method returns the frames the board sends in response, in order. ``on_frame``
    (optional) is called with each frame's sequence number and the positions it reflects.
    """

    def __init__(self, *, notches: tuple[int | None, ...] = (2,) * msg.SLIDES, board: int | None = 2,
                 notch_count: int = msg.NOTCHES, heartbeat_ms: int = 500,
                 firmware: str = FIRMWARE_NAME, version: str = FIRMWARE_VERSION,
                 on_frame: Callable[[int, tuple], None] | None = None, holes: int = msg.HOLES):
        self.notches = list(notches)
        self.board = board
        self.drops = [0] * holes  # each hole's drops since boot (the frames say them modulo 256)
        self.notch_count = notch_count
        self.heartbeat_ms = heartbeat_ms
        self.firmware = firmware
        self.version = version
        self.protocol = PROTOCOL_VERSION  # 1: speak like a board flashed before the top holes
        self.thresholds = dict(msg.DEFAULT_THRESHOLDS)  # kept across resets, like EEPROM
        self.on_frame = on_frame
        self.seq = 0
        self.reset_cause = "-"
        self.bad_commands = 0
        self._parser = FrameParser(max_length=MAX_HOST_FRAME)
        self._next_heartbeat_ms = 0

    def state(self) -> tuple[tuple[int | None, ...], int | None]:
        return tuple(self.notches), self.board

    # ---- what happens to the board --------------------------------------------------

    def boot(self, now_ms: int, reset_cause: str = "p") -> list[bytes]:
        """Power-on or reset: the count restarts at 0, host bytes in flight are lost."""
        self.seq = 0
        self.reset_cause = reset_cause
        self.drops = [0] * len(self.drops)
        self._parser = FrameParser(max_length=MAX_HOST_FRAME)
        self._next_heartbeat_ms = now_ms + self.heartbeat_ms
        return [self._hello(now_ms, "boot"), self._state("SNAP", now_ms, "boot")]

    def set_slide(self, slide: int, notch: int, now_ms: int) -> list[bytes]:
        if not 1 <= slide <= len(self.notches):
            raise ValueError(f"slide {slide} is not one of 1..{len(self.notches)}")
        if not 0 <= notch < self.notch_count:
            raise ValueError(f"notch {notch} is not one of 0..{self.notch_count - 1}")
        if self.notches[slide - 1] == notch:
            return []
        self.notches[slide - 1] = notch
        return [self._frame(lambda seq: msg.encode_change(seq, mcu_ms=now_ms, slide=slide, notch=notch))]

    def set_board(self, position: int, now_ms: int) -> list[bytes]:
        if position not in (1, 2, 3):
            raise ValueError(f"board position {position} is not one of 1, 2, 3")
        if self.board == position:
            return []
        self.board = position
        return [self._frame(lambda seq: msg.encode_change(seq, mcu_ms=now_ms, board=position))]

    def drop(self, column: int, now_ms: int) -> list[bytes]:
        """The firmware counted a drop in the top hole over ``column`` (0-based)."""
        if not 0 <= column < len(self.drops):
            raise ValueError(f"top hole {column} is not one of 0..{len(self.drops) - 1}")
        self.drops[column] += 1
        count = self.drops[column]
        return [self._frame(lambda seq: msg.encode_drop(seq, mcu_ms=now_ms, column=column, count=count))]

    def tick(self, now_ms: int) -> list[bytes]:
        """The heartbeat, when due."""
        if now_ms < self._next_heartbeat_ms:
            return []
        self._next_heartbeat_ms += self.heartbeat_ms
        if self._next_heartbeat_ms <= now_ms:  # fell far behind (stalled): no burst of HBs
            self._next_heartbeat_ms = now_ms + self.heartbeat_ms
        return [self._state("HB", now_ms, None)]

    def receive(self, data: bytes, now_ms: int) -> list[bytes]:
        """Bytes from the host; returns the answers to the complete commands."""
        before = self._parser.crc_errors + self._parser.malformed + self._parser.too_long
        out: list[bytes] = []
        for frame in self._parser.feed(data):
            out += self._command(frame, now_ms)
        bad = self._parser.crc_errors + self._parser.malformed + self._parser.too_long - before
        for _ in range(bad):
            self.bad_commands += 1
            out.append(self._reply("NAK", now_ms, [("why", "frame")]))
        return out

    # ---- answers --------------------------------------------------------------------

    def _command(self, frame, now_ms: int) -> list[bytes]:
        re_ = ("re", frame.seq)
        if frame.type == "HELLO":
            return [self._hello(now_ms, "req"), self._state("SNAP", now_ms, "req")]
        if frame.type == "SNAP":
            return [self._state("SNAP", now_ms, "req")]
        if frame.type == "PING":
            return [self._reply("PONG", now_ms, [re_, ("n", frame.fields.get("n", "0")), ("rxerr", 0)])]
        if frame.type == "SET":
            try:
                self.thresholds = msg.check_thresholds(self.thresholds, frame.fields)
            except msg.MessageError:
                return [self._reply("NAK", now_ms, [re_, ("why", "range")])]
            return [self._reply("ACK", now_ms, [re_, *self.thresholds.items()])]
        return [self._reply("NAK", now_ms, [re_, ("why", "type")])]

    def _frame(self, build: Callable[[int], bytes]) -> bytes:
        seq = self.seq
        self.seq = (self.seq + 1) % SEQ_MODULO
        data = build(seq)
        if self.on_frame is not None:
            self.on_frame(seq, self.state())
        return data

    def _hello(self, now_ms: int, why: str) -> bytes:
        return self._frame(lambda seq: msg.encode_hello(
            seq, mcu_ms=now_ms, firmware=self.firmware, version=self.version, why=why,
            slides=len(self.notches), notches=self.notch_count, reset_cause=self.reset_cause,
            holes=len(self.drops) if self.protocol >= 2 else None, protocol=self.protocol))

    def _state(self, type_: str, now_ms: int, why: str | None) -> bytes:
        return self._frame(lambda seq: msg.encode_state(
            type_, seq, mcu_ms=now_ms, notches=tuple(self.notches), board=self.board, why=why,
            drops=tuple(self.drops) if self.protocol >= 2 else None))

    def _reply(self, type_: str, now_ms: int, fields: list[tuple[str, object]]) -> bytes:
        return self._frame(lambda seq: msg.encode_reply(type_, seq, mcu_ms=now_ms, fields=fields))
