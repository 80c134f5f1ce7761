"""The bridge's brain, without I/O or clock: bytes in, observations and commands out.

:class:`LinkState` is fed the bytes read from the port with the time they arrived, and
says what to send back (``take_outgoing``). It checks sequence numbers, asks for a full
state after any gap, drops duplicates and stale frames, notices a silent board, and turns
positions into :class:`~table.observations.Observation` objects — only when a position
differs from what the host last reported, so a resync never produces spurious moves and
an unknown position is never reported. Top-hole drops are counted per hole on both
sides, so each one reaches the session exactly once: a lost ``DROP`` frame is made up
for by the next full state or the next drop in that hole (``recovered`` in its data).
A board speaking another protocol version is refused (:func:`refusal`).

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
from table.observations import BOARD, PEG_DROP, SLIDE, Observation

log = logging.getLogger("firmware_bridge")


def refusal(hello: msg.Hello, *, slides: int, notches: int, holes: int) -> str | None:
    """Why this host cannot use the board that said ``hello`` (English / French), or None.

        >>> old = msg.Hello("passeframe", "1.0.0", 1, 6, 5, "boot", 0, "p")
        >>> text = refusal(old, slides=6, notches=5, holes=7)
        >>> text.split(";")[0].split(": ")[1]
        'its firmware passeframe 1.0.0 speaks protocol 1, this passetable needs protocol 2'
        >>> "le protocole 1, ce passetable demande le protocole 2" in text
        True
    """
    fw = f"{hello.firmware} {hello.version}"
    if hello.protocol != PROTOCOL_VERSION:
        how = "make -C hardware/firmware flash"
        return (f"incompatible sensor board refused: its firmware {fw} speaks protocol {hello.protocol}, "
                f"this passetable needs protocol {PROTOCOL_VERSION}; flash the firmware of hardware/firmware "
                f"({how}) / carte capteurs incompatible refusée : son micrologiciel {fw} parle le protocole "
                f"{hello.protocol}, ce passetable demande le protocole {PROTOCOL_VERSION} ; flashez le "
                f"micrologiciel de hardware/firmware ({how})")
    if (hello.slides, hello.notches, hello.holes) != (slides, notches, holes):
        return (f"incompatible sensor board refused: its firmware {fw} is built for {hello.slides} slides, "
                f"{hello.notches} notches and {hello.holes} top holes, this frame has {slides}, {notches} and "
                f"{holes} / carte capteurs incompatible refusée : son micrologiciel {fw} est prévu pour "
                f"{hello.slides} réglettes, {hello.notches} crans et {hello.holes} trous du haut, ce cadre en a "
                f"{slides}, {notches} et {holes}")
    return None


def seq_after(a: int, b: int) -> bool:
    """Whether sequence number ``a`` comes after ``b`` (modulo 65536, half-window)."""
    return 0 < (a - b) % SEQ_MODULO < SEQ_MODULO // 2


class LinkState:
    """Protocol state of one connection to the board (kept across reconnects)."""

    def __init__(self, *, notch_map: NotchMap | None = None, slides: int = msg.SLIDES, holes: int = msg.HOLES,
                 snapshot_retry_s: float = 0.05, hello_retry_s: float = 0.5,
                 silence_timeout_s: float = 1.5, poll_after_s: float = 0.6,
                 known_positions: dict[str, object] | None = None):
        self.notch_map = notch_map = notch_map or NotchMap()
        self.slides = slides
        self.holes = holes
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
        # Each hole's drops as counted by the board (modulo 256) and already reported;
        # None until a full state or a boot gives the baseline.
        self._drops: list[int | None] | None = None
        self._known_mcu_ms: int | None = None  # board time when the known counts were last right
        if known_positions and known_positions.get("drops") is not None:
            self._drops = self._check_counts(known_positions["drops"])
            mcu = known_positions.get("drops_mcu_ms")
            self._known_mcu_ms = mcu if isinstance(mcu, int) else None
        self._ever_synced = False
        self._outbox = bytearray()
        self._host_seq = 0
        self._last_seq: int | None = None
        self._hole: int | None = None        # newest missing seq no full state has covered
        self._last_mcu_ms: int | None = None  # board time of the last frame accepted
        self._gap_after_ms: int | None = None  # ...before the first frame still missing
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
        self._last_mcu_ms = self._gap_after_ms = None
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

    def drop_counts(self) -> list[int | None] | None:
        """Each top hole's drop count (modulo 256) as last reported, or None before the
        first full state; give it back as ``known_positions["drops"]`` after a restart."""
        return None if self._drops is None else list(self._drops)

    @property
    def refused(self) -> str | None:
        """Why the board is refused (bilingual), or None."""
        return self.health.refused

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
        if h.refused:
            return  # nothing to ask a refused board; a HELLO again only if it falls silent
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
            message = msg.decode_device_frame(frame, slides=self.slides, notches=self.notch_map.notches,
                                              holes=self.holes)
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
        elif isinstance(message, msg.Drop):
            self._on_drop(message, wall, out)
        else:
            self._on_reply(message)
        if message is not None:
            self._last_mcu_ms = message.mcu_ms

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
                if self._gap_after_ms is None:
                    self._gap_after_ms = self._last_mcu_ms
                h.in_sync = False
                if self._snapshot_sent_at is None or now - self._snapshot_sent_at >= self.snapshot_retry_s:
                    self.request_snapshot(now)
        self._last_seq = seq
        return True

    def _on_hello(self, frame: Frame, hello: msg.Hello) -> None:
        h = self.health
        h.firmware, h.firmware_version = hello.firmware, hello.version
        h.protocol_version, h.reset_cause = hello.protocol, hello.reset_cause
        why_not = refusal(hello, slides=self.slides, notches=self.notch_map.notches, holes=self.holes)
        self._compatible = why_not is None
        if why_not and why_not != h.refused:
            log.error(why_not)
        h.refused = why_not
        if why_not:
            h.last_error = why_not
        if hello.why == "boot":
            h.board_resets += 1
            self._drops = [0] * self.holes  # the board counts from 0 at boot
        # Until a full state follows, the host cannot know what changed meanwhile.
        self._hello_seen = True
        self._last_seq = frame.seq
        self._hole = None
        self._gap_after_ms = None
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
        if state.drops is not None:
            if self._drops is None:
                self._drops = list(state.drops)  # first contact: drops before it are not ours
            elif self._known_mcu_ms is not None and state.mcu_ms < self._known_mcu_ms:
                # The board's clock went back: it restarted while the service was away, and
                # its counts start again from 0. What was dropped before that is lost.
                log.warning("the board restarted while the service was away: its drop counts are taken as they are")
                self._drops = list(state.drops)
            else:  # a hole never reported before the restart: its count is the baseline
                self._drops = [c if c is not None else n for c, n in zip(self._drops, state.drops)]
            self._known_mcu_ms = None
            for column, count in enumerate(state.drops):
                self._catch_up_drops(column, count, state.mcu_ms, wall, out)
        self._ever_synced = True
        if self._hole is None or seq_after(seq, self._hole):
            if not h.in_sync:
                h.resyncs += 1
            h.in_sync = True
            self._hole = None
            self._gap_after_ms = None

    def _on_change(self, change: msg.Change, wall: float, out: list[Observation]) -> None:
        if not self._compatible:
            return
        if change.board is not None:
            self._report_board(change.board, change.mcu_ms, wall, out)
        else:
            self._report_slide(change.slide, change.notch, change.mcu_ms, wall, out)

    def _on_drop(self, drop: msg.Drop, wall: float, out: list[Observation]) -> None:
        if not self._compatible:
            return
        before = (drop.count - 1) % msg.DROP_COUNT_MODULO
        if self._drops is None:
            self._drops = [0] * self.holes
            self._drops[drop.column] = before
        missing = (drop.count - self._drops[drop.column]) % msg.DROP_COUNT_MODULO
        if missing == 0:
            self.health.stale_drops += 1  # already reported (a full state brought it)
            return
        if missing >= msg.DROP_COUNT_MODULO // 2:
            self._restarted(drop.column, before)
        self._catch_up_drops(drop.column, before, drop.mcu_ms, wall, out)
        self._catch_up_drops(drop.column, drop.count, drop.mcu_ms, wall, out, recovered=False)

    def _restarted(self, column: int, count: int) -> None:
        assert self._drops is not None
        log.warning("top hole %d: board count %d is behind the host's %d (a restart not seen); counting from it",
                    column, count, self._drops[column])
        self._drops[column] = count

    def _catch_up_drops(self, column: int, count: int, mcu_ms: int, wall: float, out: list[Observation],
                        *, recovered: bool = True) -> int:
        """Report the drops of ``column`` between what was reported and the board's
        ``count``; returns how many. A count far behind means the board restarted
        without the host seeing its boot HELLO: take it as the new baseline."""
        assert self._drops is not None
        known = self._drops[column]
        if known is None:  # never reported, and no full state yet: this frame is one drop
            known = self._drops[column] = (count - 1) % msg.DROP_COUNT_MODULO
        missing = (count - known) % msg.DROP_COUNT_MODULO
        if missing >= msg.DROP_COUNT_MODULO // 2:
            self._restarted(column, count)
            return 0
        for _ in range(missing):
            known = self._drops[column] = (known + 1) % msg.DROP_COUNT_MODULO
            data: dict[str, object] = {"column": column, "mcu_ms": mcu_ms, "count": known}
            if recovered:
                # Its frame was lost: mcu_ms is when the board told the count; the drop
                # happened before, and after after_mcu_ms (the last frame before the loss).
                data["recovered"] = True
                if self._gap_after_ms is not None:
                    data["after_mcu_ms"] = self._gap_after_ms
                self.health.recovered_drops += 1
            self.health.drops += 1
            out.append(Observation(kind=PEG_DROP, t=wall, source="serial", data=data))
        return missing

    def _check_counts(self, counts: object) -> list[int | None]:
        """Known counts after a restart; None for a hole whose count was never reported
        (the board's first full state gives it)."""
        values = list(counts)  # type: ignore[call-overload]
        if len(values) != self.holes or not all(v is None or (isinstance(v, int) and 0 <= v < msg.DROP_COUNT_MODULO)
                                                for v in values):
            raise ValueError(f"known drop counts {counts!r}: {self.holes} numbers 0..255 (or None) expected")
        return values

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
