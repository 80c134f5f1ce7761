"""Who may change the table: anyone who reaches it may watch, only who knows its PIN may write.

The table's PIN comes from the settings (``[service] pin`` or ``passetable run --pin``);
without one, a 6-digit PIN is made at the first start and kept in the data folder
(``pin``), so it stays the same across restarts and the owner can read it there.
``POST /api/login {"pin"}`` answers a session cookie (HttpOnly, SameSite=Strict) that the
pages send with every write. Five wrong PINs from one address within a minute lock that
address out for a minute (HTTP 429). Loopback clients (the Pi's own screen, ``--sim`` on a
laptop) are trusted unless ``pin_everywhere`` is set.

    >>> guard = TableGuard(pin="123456")
    >>> guard.check_pin("000000", "10.0.0.9", now=0.0)
    False
    >>> guard.check_pin("123456", "10.0.0.9", now=1.0)
    True
    >>> guard.trusted("127.0.0.1"), guard.trusted("10.0.0.9")
    (True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import threading
from collections import defaultdict, deque
from pathlib import Path

PIN_FILE = "pin"
SECRET_FILE = "cookie-secret"
MAX_TRIES = 5
WINDOW_S = 60.0
LOCKOUT_S = 60.0


def load_or_make_pin(data_dir: Path) -> tuple[str, bool]:
    """The PIN kept in ``data_dir`` (made at the first start); True if it was made now."""
    path = Path(data_dir) / PIN_FILE
    try:
        pin = path.read_text(encoding="utf-8").strip()
        if pin.isdigit() and 4 <= len(pin) <= 12:
            return pin, False
    except OSError:
        pass
    pin = f"{secrets.randbelow(10**6):06d}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(pin + "\n", encoding="utf-8")
    path.chmod(0o600)
    return pin, True


def load_or_make_secret(data_dir: Path) -> bytes:
    """The key that signs the session cookies, kept so that a restart keeps people logged in."""
    path = Path(data_dir) / SECRET_FILE
    try:
        secret = path.read_bytes()
        if len(secret) >= 32:
            return secret
    except OSError:
        pass
    secret = secrets.token_bytes(32)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(secret)
    path.chmod(0o600)
    return secret


def is_loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address((address or "").split("%")[0]).is_loopback
    except ValueError:
        return False


class TableGuard:
    """The PIN, the trust given to loopback and the wrong-PIN counter of one table."""

    def __init__(self, pin: str, *, pin_everywhere: bool = False):
        self.pin = pin
        self.pin_everywhere = pin_everywhere
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        self._locked_until: dict[str, float] = {}
        self._lock = threading.Lock()

    def fingerprint(self) -> str:
        """Changes with the PIN: a cookie issued for an old PIN no longer opens anything."""
        return hashlib.sha256(b"passetable-pin:" + self.pin.encode()).hexdigest()[:16]

    def trusted(self, address: str | None) -> bool:
        return not self.pin_everywhere and is_loopback(address)

    def locked_for(self, address: str, now: float) -> float:
        """Seconds left before ``address`` may try a PIN again (0: it may)."""
        with self._lock:
            return max(0.0, self._locked_until.get(address, 0.0) - now)

    def check_pin(self, pin: object, address: str, now: float) -> bool:
        """True if ``pin`` is the table's; a wrong one is counted against ``address``."""
        good = isinstance(pin, str) and hmac.compare_digest(pin.strip().encode(), self.pin.encode())
        with self._lock:
            tries = self._failures[address]
            if good:
                tries.clear()
                return True
            tries.append(now)
            while tries and now - tries[0] > WINDOW_S:
                tries.popleft()
            if len(tries) >= MAX_TRIES:
                self._locked_until[address] = now + LOCKOUT_S
                tries.clear()
            if len(self._failures) > 10_000:  # a flood of addresses must not grow memory forever
                self._failures.clear()
        return False
