"""A loopback port for a test: one the kernel just handed out, with nothing listening.

A server a test starts on it may find it taken by then (rarely: the kernel hands ports
out in turn); a client pointed at it finds nothing there (a server that is down).
"""

from __future__ import annotations

import socket

__all__ = ["free_port"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 nothing listens on right now (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port
