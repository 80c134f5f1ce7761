"""The names this table answers to, and the addresses phones can reach it at.

A request whose ``Host`` is not one of the machine's own addresses, its names (its host
name, ``<name>.local`` over mDNS, ``passetable.local``) or a configured name is answered
421: that is what a DNS-rebinding page would send. The machine's IPv4 addresses are read
from its interfaces (no packet is sent).

    >>> names = allowed_hosts("127.0.0.1", ["table-3.cafe"])
    >>> {"localhost", "127.0.0.1", "table-3.cafe", "passetable.local"} <= names
    True
    >>> host_name("192.168.1.20:8080"), host_name("[::1]:8080"), host_name("Table-3.Cafe")
    ('192.168.1.20', '::1', 'table-3.cafe')
"""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct
from collections.abc import Iterable

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


def interface_addresses() -> list[str]:
    """The machine's IPv4 addresses, loopback first (empty if they cannot be read)."""
    found: list[str] = []
    try:
        interfaces = socket.if_nameindex()
    except OSError:
        return found
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in interfaces:
            try:
                packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
            except OSError:  # no IPv4 address on this interface
                continue
            found.append(socket.inet_ntoa(packed[20:24]))
    return sorted(set(found), key=lambda a: (not a.startswith("127."), a))


def lan_addresses() -> list[str]:
    """The addresses a phone on the same network can open (not loopback)."""
    return [a for a in interface_addresses() if not ipaddress.ip_address(a).is_loopback]


def allowed_hosts(bind_host: str, extra: Iterable[str] = ()) -> set[str]:
    names = {"localhost", "127.0.0.1", "::1", "passetable.local"}
    hostname = socket.gethostname().lower()
    names |= {hostname, f"{hostname}.local"}
    names |= set(interface_addresses())
    if bind_host not in ("0.0.0.0", "::", ""):
        names.add(bind_host.lower())
    names |= {n.strip().lower() for n in extra if n.strip()}
    return names


def host_name(header: str) -> str:
    """The name part of a ``Host`` header, lower-case, without port or brackets."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header
