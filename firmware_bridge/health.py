"""Link health figures of the serial bridge, for the dashboard's health panel.

    >>> h = LinkHealth(port="/dev/ttyACM0")
    >>> h.gaps += 1
    >>> h.to_dict(now=10.0, parser={"frames": 3})["gaps"]
    1

Times are kept on the bridge's monotonic clock and shown as ages in seconds, so the
dict stays meaningful when the wall clock jumps (a Raspberry Pi without RTC at boot).
"""

from __future__ import annotations

from dataclasses import dataclass, field


def _age(now: float, then: float | None) -> float | None:
    return None if then is None else round(max(0.0, now - then), 3)


@dataclass
class LinkHealth:
    port: str = ""
    connected: bool = False
    connects: int = 0
    reconnects: int = 0          # opens after the first one (cable pulled, board reset...)
    bytes: int = 0
    gaps: int = 0                # times a sequence number was skipped
    missed_frames: int = 0       # how many were skipped in all
    stale: int = 0               # duplicate or out-of-order frames dropped
    resyncs: int = 0             # times a full state brought the host back in sync
    corrections: int = 0         # positions a full state changed (events the host missed)
    board_resets: int = 0        # HELLO why=boot seen
    unknown_types: int = 0
    bad_content: int = 0         # right CRC, wrong content (dropped)
    naks: int = 0
    drops: int = 0               # top-hole drops reported
    recovered_drops: int = 0     # of which their own frame was lost (made up from a count)
    stale_drops: int = 0         # DROP frames a full state had already made up for
    refused: str | None = None   # why the board is refused (another protocol...), bilingual
    firmware: str | None = None
    firmware_version: str | None = None
    protocol_version: int | None = None
    reset_cause: str | None = None
    thresholds: dict[str, int] | None = None
    last_error: str | None = None
    last_frame_at: float | None = None
    last_heartbeat_at: float | None = None
    connected_at: float | None = None
    silent: bool = False
    in_sync: bool = False
    extra: dict[str, object] = field(default_factory=dict)

    def to_dict(self, now: float, parser: dict[str, int]) -> dict[str, object]:
        """A JSON-serialisable copy; ``parser`` adds the frame parser's counters
        (frames, crc_errors, too_long, malformed, noise_bytes)."""
        return {
            "connected": self.connected,
            "alive": self.connected and not self.silent,
            "in_sync": self.in_sync,
            "port": self.port,
            **parser,
            "bytes": self.bytes,
            "gaps": self.gaps,
            "missed_frames": self.missed_frames,
            "stale": self.stale,
            "resyncs": self.resyncs,
            "corrections": self.corrections,
            "connects": self.connects,
            "reconnects": self.reconnects,
            "board_resets": self.board_resets,
            "unknown_types": self.unknown_types,
            "bad_content": self.bad_content,
            "naks": self.naks,
            "drops": self.drops,
            "recovered_drops": self.recovered_drops,
            "stale_drops": self.stale_drops,
            "refused": self.refused,
            "firmware": self.firmware,
            "firmware_version": self.firmware_version,
            "protocol_version": self.protocol_version,
            "reset_cause": self.reset_cause,
            "thresholds": dict(self.thresholds) if self.thresholds else None,
            "last_error": self.last_error,
            "last_frame_age_s": _age(now, self.last_frame_at),
            "last_heartbeat_age_s": _age(now, self.last_heartbeat_at),
            "connected_for_s": _age(now, self.connected_at) if self.connected else None,
            **self.extra,
        }
