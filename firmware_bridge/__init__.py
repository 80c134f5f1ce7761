"""The serial link to the slide-frame sensor board (``PROTOCOL.md`` in this folder).

    >>> from firmware_bridge import Bridge                      # doctest: +SKIP
    >>> bridge = Bridge("/dev/ttyACM0", session.submit).start()  # doctest: +SKIP
    >>> bridge.health()["connected"], bridge.positions()         # doctest: +SKIP

Modules: ``protocol`` (framing, CRC-16, parser), ``messages`` (what frames mean),
``positions`` (notch index ↔ slide offset), ``link`` (the pure protocol state machine),
``health`` (link figures), ``bridge`` (pyserial thread, reconnects).
"""

from firmware_bridge.bridge import Bridge
from firmware_bridge.health import LinkHealth
from firmware_bridge.link import LinkState
from firmware_bridge.messages import DEFAULT_THRESHOLDS, MessageError
from firmware_bridge.positions import NotchMap
from firmware_bridge.protocol import PROTOCOL_VERSION, Frame, FrameParser, crc16, encode_frame

__all__ = [
    "DEFAULT_THRESHOLDS", "PROTOCOL_VERSION", "Bridge", "Frame", "FrameParser", "LinkHealth", "LinkState",
    "MessageError", "NotchMap", "crc16", "encode_frame",
]
