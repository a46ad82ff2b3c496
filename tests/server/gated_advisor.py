"""A deliberately slow hint advisor, and the test's hand on it.

The server's house runner imports :func:`gated_hint` (``make_server(advisor=GATED)``) and
runs it in a worker thread, as it runs the Perudo expert's. Each call connects to the
test's :class:`Gate` (a Unix socket named in the runner's environment) and waits there
until the test lets it go; then it gives the expert's real hint. The test thus knows when
a hint is in flight (:meth:`Gate.begun`) and decides when it ends (:meth:`Gate.let_go`):
no sleeps and no clock, only events.
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bots.perudo.expert.hint import perudo_hint

#: The advisor's name for ``build_server``.
GATED = "tests.server.gated_advisor:gated_hint"
#: The environment variable holding the gate's socket path (the runner inherits it).
GATE = "UMPIRE_TEST_HINT_GATE"


#: the warm-up's progress in this process: a hint may not begin while it runs
_warming: list[str] = []


def _wait_at_gate() -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(os.environ[GATE])
        sock.recv(2)  # the test's "go", or nothing when it closes the gate


def warm() -> None:
    """The warm-up (a runner started with ``warm`` runs it first): it waits at the gate too."""
    _warming.append("began")
    _wait_at_gate()
    _warming.append("ended")


def gated_hint(view: dict[str, Any], events: Iterable[dict[str, Any]], **options: Any) -> Any:
    """The expert's hint, once the test lets this call go (or lets go of it)."""
    if _warming == ["began"]:
        raise ValueError("a hint began during the warm-up")
    _wait_at_gate()
    return perudo_hint(view, events, **options)


class Gate:
    """The test's side: every advisor call that begins arrives here and waits."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._arrivals: asyncio.Queue[asyncio.StreamWriter] = asyncio.Queue()
        self._held: list[asyncio.StreamWriter] = []
        self._server: asyncio.Server | None = None

    async def open(self) -> None:
        """Listen (before the server's runner starts an advisor call)."""
        self._server = await asyncio.start_unix_server(self._arrived, str(self.path))

    async def _arrived(self, _: asyncio.StreamReader, call: asyncio.StreamWriter) -> None:
        self._held.append(call)
        await self._arrivals.put(call)

    async def begun(self, timeout: float = 30) -> asyncio.StreamWriter:
        """The next advisor call, once it has begun: it waits until :meth:`let_go`."""
        async with asyncio.timeout(timeout):
            return await self._arrivals.get()

    async def let_go(self, call: asyncio.StreamWriter) -> None:
        """Let ``call`` go on: the advisor answers."""
        call.write(b"go")
        await call.drain()
        call.close()

    async def close(self) -> None:
        """Let every call still held go, and stop listening."""
        for call in self._held:
            call.close()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
