"""A scripted websocket client for tests: it records every frame and checks each one
strictly against the server's frame types (:mod:`server.wire.frames`), so every server test also
checks that the server sends only documented frames. What it knows of the protocol (the
``hello``, the token, each room's stream) is the one client core's
(:class:`bots.client.core.ClientCore`, fed every frame), so the tests exercise it too; the
scripted part (send anything, expect a frame) is what a test needs to misbehave.
``RawSocket`` is a hand-written client that can misbehave below the protocol."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import struct
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bots.client.core import ClientCore
from server.wire import frames
from tests.connections import track

TIMEOUT = 5.0


class WsClient:
    """One connection; ``frames`` holds every frame received, in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self._pending: list[dict[str, Any]] = []  # received but not yet consumed
        #: the protocol state, fed every frame received (what it would send is not sent)
        self.core = ClientCore("")
        self.core.connection_made()

    @property
    def player(self) -> dict[str, Any]:
        """The player of the last ``welcome`` (empty before)."""
        return self.core.player or {}

    @property
    def token(self) -> str | None:
        """The token of the last ``welcome``."""
        return self.core.token

    #: check every received frame against :data:`server.wire.frames.Frame` (strict)
    checked = True

    @classmethod
    async def open(cls, port: int, **kwargs: Any) -> WsClient:
        ws = await connect(f"ws://127.0.0.1:{port}", compression=None, **kwargs)
        track(ws.transport)  # aborted at the test's end if it is left open
        return cls(ws)

    async def close(self) -> None:
        await self.ws.close()

    async def send(self, **frame: Any) -> None:
        await self.ws.send(json.dumps(frame))

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    async def _pull(self, timeout: float) -> dict[str, Any]:
        async with asyncio.timeout(timeout):  # (wait_for can swallow a cancellation)
            text = await self.ws.recv()
        assert isinstance(text, str)
        self.raw.append(text)
        if self.checked:
            check_frame(text)
        frame: dict[str, Any] = json.loads(text)
        self.core.receive(frame)
        self.frames.append(frame)
        self._pending.append(frame)
        return frame

    async def next(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The oldest frame not yet consumed."""
        if not self._pending:
            await self._pull(timeout)
        return self._pending.pop(0)

    async def expect(self, kind: str, timeout: float = TIMEOUT, **fields: Any) -> dict[str, Any]:
        """Wait for a frame of type ``kind`` (with ``fields``) and consume only that one.

        Other frames stay queued for :meth:`next`; an error frame fails the wait.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        seen = 0
        while True:
            for index in range(seen, len(self._pending)):
                frame = self._pending[index]
                if frame.get("type") == kind and all(frame.get(k) == v for k, v in fields.items()):
                    return self._pending.pop(index)
                if frame.get("type") == "error" and kind != "error":
                    self._pending.pop(index)
                    raise AssertionError(f"expected {kind}, got error {frame}")
            seen = len(self._pending)
            await self._pull(max(0.01, deadline - loop.time()))

    async def request(self, kind: str, reply: str, **fields: Any) -> dict[str, Any]:
        """Send a message and wait for the reply of type ``reply`` (or fail on error)."""
        await self.send(type=kind, **fields)
        return await self.expect(reply)

    async def error(self, code: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Wait for an error frame and check its code."""
        frame = await self.expect("error", timeout)
        assert frame["code"] == code, frame
        return frame

    async def hello(self, name: str, **extra: Any) -> dict[str, Any]:
        """Say the core's ``hello`` (``extra`` may add or override fields) and wait for
        the welcome."""
        self.core.name = name
        await self.send(**{**ClientCore(name).hello_message(), **extra})
        return await self.expect("welcome")

    async def drain(self, quiet: float = 0.05) -> list[dict[str, Any]]:
        """Receive until nothing arrives for ``quiet`` seconds; return the new frames."""
        start = len(self.frames)
        try:
            while True:
                await self._pull(quiet)
        except (TimeoutError, ConnectionClosed):
            pass
        self._pending.clear()
        return self.frames[start:]

    async def closed(self, timeout: float = TIMEOUT) -> tuple[int | None, str | None]:
        """Wait for the server to close the connection; return (code, reason)."""
        try:
            while True:
                await self._pull(timeout)
        except ConnectionClosed:
            pass
        return self.ws.close_code, self.ws.close_reason

    def events(self, room: str) -> list[dict[str, Any]]:
        """Every event frame received for ``room``, in order."""
        return [f for f in self.frames if f.get("type") == "event" and f.get("room") == room]


def check_frame(text: str | bytes) -> None:
    """Fail (AssertionError) unless ``text`` is exactly one of the server's frame types."""
    try:
        frames.check(text)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        shown = repr(text) if len(text) < 2000 else f"{text[:2000]!r}..."
        raise AssertionError(f"the server sent an undocumented frame ({exc}): {shown}") from None


class RawSocket:
    """A websocket client written by hand, so that it can misbehave: it answers pings
    only when asked to, never answers a close, and can flood the server."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int) -> RawSocket:
        """Connect and complete the opening handshake."""
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        await writer.drain()
        track(writer.transport)  # aborted at the test's end if it is left open
        status = await reader.readuntil(b"\r\n\r\n")
        assert status.startswith(b"HTTP/1.1 101"), status
        return cls(reader, writer)

    def send_frame(self, opcode: int, data: bytes) -> None:
        """One masked frame (the mask is zero: XOR with zero keeps the bytes)."""
        size = len(data)
        if size < 126:
            header = bytes([0x80 | opcode, 0x80 | size])
        elif size < 1 << 16:
            header = bytes([0x80 | opcode, 0x80 | 126]) + struct.pack("!H", size)
        else:
            header = bytes([0x80 | opcode, 0x80 | 127]) + struct.pack("!Q", size)
        self.writer.write(header + b"\x00\x00\x00\x00" + data)

    def send_text(self, text: str) -> None:
        """One text frame."""
        self.send_frame(0x1, text.encode())

    async def read_frame(self) -> tuple[int, bytes]:
        """The next frame from the server (unmasked, unfragmented): (opcode, payload)."""
        head = await self.reader.readexactly(2)
        size = head[1] & 0x7F
        if size == 126:
            size = struct.unpack("!H", await self.reader.readexactly(2))[0]
        elif size == 127:
            size = struct.unpack("!Q", await self.reader.readexactly(8))[0]
        return head[0] & 0x0F, await self.reader.readexactly(size)

    async def closed_within(self, seconds: float) -> bool:
        """True if the server closes the TCP connection within ``seconds`` (reading all)."""
        try:
            async with asyncio.timeout(seconds):
                while await self.reader.read(65536):
                    pass
                return True
        except TimeoutError:
            return False
        except ConnectionResetError:
            return True

    def close(self) -> None:
        """Drop the TCP connection."""
        self.writer.close()
