"""The bridge's brain, without I/O or clock: bytes in, observations and commands out.

:class:`LinkState` is fed the bytes read from the port with the time they arrived, and
says what to send back (``take_outgoing``). It checks sequence numbers, asks for a full
state after any gap, drops duplicates and stale frames, notices a silent board, and turns
positions into :class:`~table.observations.Observation` objects — only when a position
differs from what the host last reported, so a resync never produces spurious moves and
an unknown position is never reported.

    >>> link = LinkState()
    >>> link.on_connect(now=0.0); link.take_outgoing()[:7]
    b'$HELLO '
    >>> link.feed(b"...frames...", now=0.1)
    []

Time ``now`` is any monotonic clock in seconds; observations are stamped with ``wall``
(seconds since the epoch) when given, else with ``now``.
"""

from __future__ import annotations

import logging

from firmware_bridge import messages as msg
from firmware_bridge.health import LinkHealth
from firmware_bridge.positions import NotchMap, check_board_position
from firmware_bridge.protocol import PROTOCOL_VERSION, SEQ_MODULO, Frame, FrameParser
from table.observations import BOARD, SLIDE, Observation

log = logging.getLogger("firmware_bridge")


def seq_after(a: int, b: int) -> bool:
    """Whether sequence number ``a`` comes after ``b`` (modulo 65536, half-window)."""
    return 0 < (a - b) % SEQ_MODULO < SEQ_MODULO // 2


class LinkState:
    """Protocol state of one connection to the board (kept across reconnects)."""

    def __init__(self, *, notch_map: NotchMap | None = None, slides: int = msg.SLIDES,
                 snapshot_retry_s: float = 0.05, hello_retry_s: float = 0.5,
                 silence_timeout_s: float = 1.5, poll_after_s: float = 0.6,
                 known_positions: dict[str, object] | None = None):
        self.notch_map = notch_map = notch_map or NotchMap()
        self.slides = slides
        self.snapshot_retry_s = snapshot_retry_s
        self.hello_retry_s = hello_retry_s
        self.silence_timeout_s = silence_timeout_s
        # A heartbeat is due every 0.5 s: a longer quiet means frames were lost that no
        # later frame has revealed yet, so ask for the state instead of waiting.
        self.poll_after_s = poll_after_s
        self.parser = FrameParser()
        self.health = LinkHealth()
        # What the host last reported to the session (offsets / board position).
        self._slides: dict[int, int | None] = {k: None for k in range(1, slides + 1)}
        self._board: int | None = None
        if known_positions:
            for slide, offset in dict(known_positions.get("slides") or {}).items():
                if int(slide) not in self._slides:
                    raise ValueError(f"known position for slide {slide}: there are slides 1..{slides}")
                if offset is not None:
                    notch_map.to_notch(offset)  # raises ValueError when out of range
                self._slides[int(slide)] = offset
            board = known_positions.get("board")
            self._board = None if board is None else check_board_position(board)  # type: ignore[arg-type]
        self._ever_synced = False
        self._outbox = bytearray()
        self._host_seq = 0
        self._last_seq: int | None = None
        self._hole: int | None = None        # newest missing seq no full state has covered
        self._snapshot_sent_at: float | None = None
        self._hello_sent_at: float | None = None
        self._hello_seen = False
        self._compatible = True
        self._warned_types: set[str] = set()

    # ---- connection events ----------------------------------------------------------

    def on_connect(self, now: float) -> None:
        h = self.health
        h.connected, h.connected_at, h.silent, h.in_sync = True, now, False, False
        h.reconnects += h.connects > 0
        h.connects += 1
        self.parser.reset()
        self._outbox.clear()  # nothing queued for the old connection goes to the new one
        self._last_seq = None
        self._hole = None
        self._hello_seen = False
        self._snapshot_sent_at = None
        self._send_hello(now)

    def on_disconnect(self, now: float, reason: str | None = None) -> None:
        self.health.connected = False
        self.health.in_sync = False
        if reason:
            self.health.last_error = reason

    def request_snapshot(self, now: float) -> None:
        self._send(msg.encode_snapshot_request(self._next_host_seq()))
        self._snapshot_sent_at = now

    def take_outgoing(self) -> bytes:
        out = bytes(self._outbox)
        self._outbox.clear()
        return out

    def positions(self) -> dict[str, object]:
        """What the host believes (and last reported): ``{"slides": {1: offset|None, ...},
        "board": position|None}``."""
        return {"slides": dict(self._slides), "board": self._board}

    @property
    def in_sync(self) -> bool:
        return self.health.in_sync

    @property
    def last_seq(self) -> int | None:
        return self._last_seq

    # ---- time passing ---------------------------------------------------------------

    def tick(self, now: float) -> None:
        """Retries and timeouts; call it often (every few tens of ms)."""
        h = self.health
        if not h.connected:
            return
        last = h.connected_at
        if h.last_frame_at is not None and h.last_frame_at > last:
            last = h.last_frame_at
        silent = now - last > self.silence_timeout_s
        if silent and not h.silent:
            log.warning("board silent for %.1f s on %s", now - last, h.port or "the port")
        h.silent = silent
        if not self._hello_seen or silent:
            if now - self._hello_sent_at >= self.hello_retry_s:
                self._send_hello(now)
            return
        overdue = now - last > self.poll_after_s
        if (not h.in_sync or overdue) and (self._snapshot_sent_at is None
                                           or now - self._snapshot_sent_at >= self.snapshot_retry_s):
            self.request_snapshot(now)

    # ---- bytes in -------------------------------------------------------------------

    def feed(self, data: bytes, now: float, wall: float | None = None) -> list[Observation]:
        self.health.bytes += len(data)
        out: list[Observation] = []
        for frame in self.parser.feed(data):
            self._handle(frame, now, now if wall is None else wall, out)
        return out

    def _handle(self, frame: Frame, now: float, wall: float, out: list[Observation]) -> None:
        h = self.health
        try:
            message = msg.decode_device_frame(frame, slides=self.slides, notches=self.notch_map.notches)
        except msg.MessageError as exc:
            h.bad_content += 1
            log.debug("dropped %s %d: %s", frame.type, frame.seq, exc)
            return
        h.last_frame_at = now
        if h.silent:
            log.info("board talks again on %s", h.port or "the port")
            h.silent = False
        if isinstance(message, msg.Hello) and message.why == "boot":
            self._on_hello(frame, message)  # a new count from 0: no gap, nothing is stale
            return
        if not self._accept_seq(frame.seq, now):
            return
        if isinstance(message, msg.Hello):
            self._on_hello(frame, message)
        elif message is None:
            h.unknown_types += 1
            level = logging.DEBUG if frame.type in self._warned_types else logging.WARNING
            self._warned_types.add(frame.type)
            log.log(level, "ignored unknown message type %r (seq %d)", frame.type, frame.seq)
        elif isinstance(message, msg.State):
            if message.why == "hb":
                h.last_heartbeat_at = now
            self._on_state(frame.seq, message, wall, out)
        elif isinstance(message, msg.Change):
            self._on_change(message, wall, out)
        else:
            self._on_reply(message)

    def _accept_seq(self, seq: int, now: float) -> bool:
        h = self.health
        if self._last_seq is not None:
            if not seq_after(seq, self._last_seq):
                h.stale += 1
                return False
            missed = (seq - self._last_seq) % SEQ_MODULO - 1
            if missed:
                h.gaps += 1
                h.missed_frames += missed
                self._hole = (seq - 1) % SEQ_MODULO
                h.in_sync = False
                if self._snapshot_sent_at is None or now - self._snapshot_sent_at >= self.snapshot_retry_s:
                    self.request_snapshot(now)
        self._last_seq = seq
        return True

    def _on_hello(self, frame: Frame, hello: msg.Hello) -> None:
        h = self.health
        h.firmware, h.firmware_version = hello.firmware, hello.version
        h.protocol_version, h.reset_cause = hello.protocol, hello.reset_cause
        self._compatible = (hello.protocol == PROTOCOL_VERSION and hello.slides == self.slides
                            and hello.notches == self.notch_map.notches)
        if not self._compatible:
            h.last_error = (f"incompatible board: protocol {hello.protocol}, {hello.slides} slides, "
                            f"{hello.notches} notches (expected {PROTOCOL_VERSION}, {self.slides}, "
                            f"{self.notch_map.notches}); positions ignored")
            log.error(h.last_error)
        if hello.why == "boot":
            h.board_resets += 1
        # Until a full state follows, the host cannot know what changed meanwhile.
        self._hello_seen = True
        self._last_seq = frame.seq
        self._hole = None
        h.in_sync = False

    def _on_state(self, seq: int, state: msg.State, wall: float, out: list[Observation]) -> None:
        if not self._compatible:
            return
        before = len(out)
        for slide, notch in enumerate(state.notches, start=1):
            if notch is not None:
                self._report_slide(slide, notch, state.mcu_ms, wall, out)
        if state.board is not None:
            self._report_board(state.board, state.mcu_ms, wall, out)
        h = self.health
        if self._ever_synced:
            h.corrections += len(out) - before
        self._ever_synced = True
        if self._hole is None or seq_after(seq, self._hole):
            if not h.in_sync:
                h.resyncs += 1
            h.in_sync = True
            self._hole = None

    def _on_change(self, change: msg.Change, wall: float, out: list[Observation]) -> None:
        if not self._compatible:
            return
        if change.board is not None:
            self._report_board(change.board, change.mcu_ms, wall, out)
        else:
            self._report_slide(change.slide, change.notch, change.mcu_ms, wall, out)

    def _on_reply(self, reply: msg.Reply) -> None:
        if reply.type == "ACK":
            try:
                self.health.thresholds = {k: int(v) for k, v in reply.fields.items()
                                          if k in msg.THRESHOLD_LIMITS}
            except ValueError:
                self.health.bad_content += 1
        elif reply.type == "NAK":
            self.health.naks += 1
            # A damaged command ("frame") is retried anyway; anything else is a bug.
            level = logging.DEBUG if reply.fields.get("why") == "frame" else logging.WARNING
            log.log(level, "board refused a command: %s", reply.fields)
        elif reply.type == "PONG":
            self.health.extra["last_pong_token"] = reply.fields.get("n")

    # ---- observations ---------------------------------------------------------------

    def _report_slide(self, slide: int, notch: int, mcu_ms: int, wall: float, out: list[Observation]) -> None:
        offset = self.notch_map.to_offset(notch)
        if self._slides.get(slide) != offset:
            self._slides[slide] = offset
            out.append(Observation(kind=SLIDE, t=wall, source="serial",
                                   data={"slide": slide, "offset": offset, "mcu_ms": mcu_ms}))

    def _report_board(self, position: int, mcu_ms: int, wall: float, out: list[Observation]) -> None:
        if self._board != position:
            self._board = position
            out.append(Observation(kind=BOARD, t=wall, source="serial",
                                   data={"position": position, "mcu_ms": mcu_ms}))

    # ---- bytes out ------------------------------------------------------------------

    def _next_host_seq(self) -> int:
        self._host_seq = (self._host_seq + 1) % SEQ_MODULO
        return self._host_seq

    def _send(self, frame: bytes) -> None:
        self._outbox += frame

    def _send_hello(self, now: float) -> None:
        self._send(msg.encode_hello_request(self._next_host_seq()))
        self._hello_sent_at = now

    def send_command(self, frame_for_seq) -> int:
        """Queue a command built by ``frame_for_seq(seq)``; returns its host seq."""
        seq = self._next_host_seq()
        self._send(frame_for_seq(seq))
        return seq
