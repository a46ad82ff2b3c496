"""One client connection as rooms see it: who it is, and a non-blocking ``send``.

Rooms never await a socket: :meth:`Client.send` hands the frame to the connection's
transport at once, so a slow reader cannot stall a room. A reader whose unsent backlog
grows past ``max_backlog`` bytes is disconnected with 1008.

A room hands each connection the frames of one of its jobs in one :meth:`Client.send_many`
(:class:`server.rooms.room.Room` gathers them while the job runs): the ``ack``, the events and
the ``turn`` frame an action causes reach each connection in a single socket write.

The frames are framed here (:func:`text_frames`: RFC 6455 text frames, unmasked as a
server's are, without extensions as the server negotiates none) and written to the
connection's asyncio transport in one ``write``: ``websockets`` has no public call that
writes several messages at once, and its own send path costs a Python frame object and
a socket write per message. ``websockets`` itself only ever writes whole frames (pings,
pongs, the close frame) and this server never sends a fragmented message, so frames
written here never interleave with its own; once it starts closing (its ``state`` is no
longer ``OPEN``) nothing more is written.
"""

from __future__ import annotations

import asyncio
import logging
import struct
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State

from server.wire.protocol import encode

if TYPE_CHECKING:
    from server.players.identity import Player
    from server.rooms.room import Room

log = logging.getLogger(__name__)

_OPEN = State.OPEN
#: FIN bit and the text opcode: the first byte of every frame written here.
_FIN_TEXT = 0x81
_MEDIUM = struct.Struct("!BBH")
_LARGE = struct.Struct("!BBQ")


def text_frames(texts: Iterable[str]) -> bytes:
    """``texts`` as consecutive unmasked websocket text frames (RFC 6455, section 5.2)."""
    parts: list[bytes] = []
    for text in texts:
        data = text.encode()
        size = len(data)
        if size < 126:
            parts.append(bytes((_FIN_TEXT, size)))
        elif size < 65536:
            parts.append(_MEDIUM.pack(_FIN_TEXT, 126, size))
        else:
            parts.append(_LARGE.pack(_FIN_TEXT, 127, size))
        parts.append(data)
    return b"".join(parts)


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
        self.send_many([text])

    def send_many(self, texts: Sequence[str]) -> None:
        """Queue several frames and hand them to the socket in one write."""
        ws = self.ws
        # (the sans-I/O protocol's state: ``ws.state`` is a property that reads it)
        if ws is None or self.closing or not texts or ws.protocol.state is not _OPEN:
            return
        transport = ws.transport
        if transport.is_closing():
            return
        try:
            transport.write(text_frames(texts))
        except Exception as exc:  # the connection broke under us: its handler cleans up
            log.warning("client %s: cannot write (%s)", self.address, exc)
            self.close(1011, "write failed")
            return
        self.frames_sent += len(texts)
        if transport.get_write_buffer_size() > self.max_backlog:
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
