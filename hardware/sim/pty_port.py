"""A pseudo-terminal reachable at a stable path that can disappear and come back.

This is how the simulated boards imitate a USB serial adapter: the bridge opens the
symlink ``.path`` (e.g. ``/tmp/passe-tty-xxxx/ttyPASSE0``, like udev's
``/dev/serial/by-id/...``), which points at the pty slave. ``close()`` is the cable being
pulled: the master end closes, so the bridge's reads fail (EIO), and the symlink goes,
so reopening fails until ``open()`` creates a new pty — with a new ``/dev/pts/N`` —
behind the same path.

    >>> port = PtyPort()
    >>> port.open(); os.path.exists(port.path)
    True
    >>> port.close(); os.path.exists(port.path)
    False

The slave is set raw at creation, before anything is written, so nothing written to the
master before the bridge opens the port is echoed back.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
import tty


class PtyPort:
    """Master side of a pty behind a stable symlink (not thread-safe: one owner)."""

    def __init__(self, link_path: str | None = None):
        self._tmpdir: str | None = None
        if link_path is None:
            self._tmpdir = tempfile.mkdtemp(prefix="passe-tty-")
            link_path = os.path.join(self._tmpdir, "ttyPASSE0")
        self.path = link_path
        self._master: int | None = None
        self._slave: int | None = None
        self.dropped_bytes = 0

    @property
    def is_open(self) -> bool:
        return self._master is not None

    def fileno(self) -> int:
        if self._master is None:
            raise OSError(errno.EBADF, "the port is unplugged")
        return self._master

    def open(self) -> None:
        if self._master is not None:
            return
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        tmp = self.path + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)
        # Keep the slave open too, so the master never reads EIO between two bridge opens.
        self._master, self._slave = master, slave

    def close(self) -> None:
        if os.path.lexists(self.path):
            os.unlink(self.path)
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None

    def write(self, data: bytes) -> int:
        """Write without blocking; what the pty cannot take is dropped, like a USB serial
        chip whose host is not reading. Returns the bytes written."""
        if self._master is None or not data:
            self.dropped_bytes += len(data)
            return 0
        try:
            n = os.write(self._master, data)
        except BlockingIOError:
            n = 0
        self.dropped_bytes += len(data) - n
        return n

    def read(self, size: int = 4096) -> bytes:
        if self._master is None:
            return b""
        try:
            return os.read(self._master, size)
        except (BlockingIOError, OSError):
            return b""

    def cleanup(self) -> None:
        self.close()
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None
