"""One client connection as rooms see it: who it is, and a non-blocking ``send``.

Rooms never await a socket: :meth:`Client.send` hands the frame to the websocket's write
buffer at once (``websockets.broadcast`` semantics), so a slow reader cannot stall a room.
A reader whose unsent backlog grows past ``max_backlog`` bytes is disconnected with 1008.

Inside :func:`corked` (a room wraps each of its jobs in it), frames for each client are
held and written in one go when the job ends: the ``ack``, the events and the ``turn``
frame an action causes reach each connection in a single socket write. ``websockets`` has
no public call for that; :func:`_can_write_many` guards the internals it takes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING

from websockets.asyncio.server import ServerConnection, broadcast
from websockets.protocol import State

from server.protocol import encode

if TYPE_CHECKING:
    from server.identity import Player
    from server.room import Room

log = logging.getLogger(__name__)

#: While set, frames are held per client and written together when the cork comes out.
_held: ContextVar[dict[Client, list[str]] | None] = ContextVar("held_frames", default=None)


@contextlib.contextmanager
def corked() -> Iterator[None]:
    """Hold every frame sent in this context; write each client's frames at once at the end."""
    if _held.get() is not None:  # already corked: the outer cork flushes
        yield
        return
    held: dict[Client, list[str]] = {}
    token = _held.set(held)
    try:
        yield
    finally:
        _held.reset(token)
        for client, texts in held.items():
            client.send_many(texts)


class Client:
    """A connected websocket and the player it belongs to once it said ``hello``."""

    def __init__(self, ws: ServerConnection | None, address: str, max_backlog: int) -> None:
        self.ws = ws
        self.address = address
        self.max_backlog = max_backlog
        self.player: Player | None = None
        self.rooms: set[Room] = set()
        self.closing = False
        #: the connection's per-address slot was given back (see ``UmpireServer._release``)
        self.released = False
        self.frames_sent = 0

    def send(self, text: str) -> None:
        """Queue one frame for this client; never blocks, never raises."""
        held = _held.get()
        if held is not None:
            held.setdefault(self, []).append(text)
            return
        ws = self.ws
        if ws is None or self.closing or ws.protocol.state is not State.OPEN:
            return
        broadcast([ws], text)
        self.frames_sent += 1
        transport = ws.transport
        if transport is not None and transport.get_write_buffer_size() > self.max_backlog:
            log.warning("client %s reads too slowly; disconnecting", self.address)
            self.close(1008, "too slow: unread frames piled up")

    def send_many(self, texts: list[str]) -> None:
        """Queue several frames and hand them to the socket in one write."""
        held = _held.get()
        if held is not None:
            held.setdefault(self, []).extend(texts)
            return
        ws = self.ws
        if ws is None or self.closing or ws.protocol.state is not State.OPEN:
            return
        if len(texts) == 1 or not _can_write_many(ws):
            for text in texts:
                self.send(text)
            return
        try:
            for text in texts:
                ws.protocol.send_text(text.encode())
            ws.send_data()
        except Exception as exc:  # the connection broke under us: its handler cleans up
            log.warning("client %s: cannot write (%s)", self.address, exc)
            self.close(1011, "write failed")
            return
        self.frames_sent += len(texts)
        transport = ws.transport
        if transport is not None and transport.get_write_buffer_size() > self.max_backlog:
            log.warning("client %s reads too slowly; disconnecting", self.address)
            self.close(1008, "too slow: unread frames piled up")

    def send_frame(self, frame: dict[str, object]) -> None:
        """Encode and queue one frame."""
        self.send(encode(frame))

    def close(self, code: int, reason: str) -> None:
        """Close the connection in the background (idempotent)."""
        if self.closing or self.ws is None:
            return
        self.closing = True
        task = asyncio.get_running_loop().create_task(self.ws.close(code, reason))
        _background.add(task)
        task.add_done_callback(_background.discard)

    def __repr__(self) -> str:
        who = self.player.id if self.player else "anonymous"
        return f"<Client {who} from {self.address}>"


_background: set[asyncio.Task[None]] = set()


def _can_write_many(ws: ServerConnection) -> bool:
    """Whether several frames can go out in one socket write now.

    That takes three internals of ``websockets`` (the ones :func:`websockets.broadcast`
    itself uses): ``send_in_progress``, ``protocol.send_text`` and ``send_data``. The
    dependency is pinned below the next major version (pyproject.toml); should they still
    disappear, frames go out one write each through the public ``broadcast`` instead, and
    ``tests/server/test_connection.py`` says so."""
    return (
        getattr(ws, "send_in_progress", True) is None
        and callable(getattr(ws.protocol, "send_text", None))
        and callable(getattr(ws, "send_data", None))
    )
