"""Switchable faults of a serial line, drawn from an injected ``random.Random``.

Frame-level faults (duplicated, reordered frames) then byte-level ones (dropped bytes,
flipped bits) are applied to what the board sends; stalls and disconnects are decided
per frame here and carried out by the board that owns the port.

    >>> import random
    >>> line = FaultInjector(Faults(flip_bit=1.0), random.Random(1))
    >>> line.transmit([b"$HB 1*0000\\r\\n"]) != b"$HB 1*0000\\r\\n"
    True

All rates are probabilities (0..1) and may be changed at run time
(``board.faults.drop_byte = 0.01``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields


@dataclass
class Faults:
    drop_byte: float = 0.0        # per byte: the byte is lost
    flip_bit: float = 0.0         # per byte: one of its bits is flipped
    duplicate_frame: float = 0.0  # per frame: sent twice
    reorder_frame: float = 0.0    # per frame: held back and sent after the next one
    stall: float = 0.0            # per frame: the board falls silent for stall_s
    stall_s: float = 2.5
    disconnect: float = 0.0       # per frame: the port disappears for disconnect_s
    disconnect_s: float = 0.5

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name.endswith("_s"):
                if value < 0:
                    raise ValueError(f"{f.name} must not be negative, not {value}")
            elif not 0.0 <= value <= 1.0:
                raise ValueError(f"fault rate {f.name}={value} is not a probability in 0..1")

    @classmethod
    def corrupting(cls, rate: float) -> Faults:
        """``rate`` of the bytes damaged, half dropped and half bit-flipped."""
        return cls(drop_byte=rate / 2, flip_bit=rate / 2)


class FaultInjector:
    """Applies :class:`Faults` to a stream of frames (one direction of a line)."""

    def __init__(self, faults: Faults | None = None, rng: random.Random | None = None):
        self.faults = faults if faults is not None else Faults()
        self.rng = rng if rng is not None else random.Random(0)
        self._held: bytes | None = None
        self.damaged_bytes = 0

    def roll(self, probability: float) -> bool:
        return probability > 0.0 and self.rng.random() < probability

    def transmit(self, frames: list[bytes]) -> bytes:
        """The bytes that reach the other end for these frames (a held frame may come out
        now, or with a later call; ``flush`` lets it out)."""
        out = bytearray()
        for frame in frames:
            for piece in self._frame_faults(frame):
                out += self._byte_faults(piece)
        return bytes(out)

    def flush(self) -> bytes:
        held, self._held = self._held, None
        return self._byte_faults(held) if held else b""

    def discard_held(self) -> None:
        """A reset or unplug: what was in flight is gone."""
        self._held = None

    def _frame_faults(self, frame: bytes) -> list[bytes]:
        f = self.faults
        pieces = [frame, frame] if self.roll(f.duplicate_frame) else [frame]
        if self._held is not None:
            pieces.append(self._held)
            self._held = None
        elif self.roll(f.reorder_frame):
            self._held = pieces.pop()
        return pieces

    def _byte_faults(self, data: bytes) -> bytes:
        f = self.faults
        if f.drop_byte <= 0.0 and f.flip_bit <= 0.0:
            return data
        out = bytearray()
        rnd = self.rng.random
        for byte in data:
            if f.drop_byte > 0.0 and rnd() < f.drop_byte:
                self.damaged_bytes += 1
                continue
            if f.flip_bit > 0.0 and rnd() < f.flip_bit:
                self.damaged_bytes += 1
                byte ^= 1 << self.rng.randrange(8)
            out.append(byte)
        return bytes(out)
