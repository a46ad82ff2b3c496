"""A scripted websocket client for tests and the benchmark: it records every frame."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

TIMEOUT = 5.0


class WsClient:
    """One connection; ``frames`` holds every frame received, in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self._pending: list[dict[str, Any]] = []  # received but not yet consumed
        self.player: dict[str, Any] = {}
        self.token: str | None = None

    @classmethod
    async def open(cls, port: int, **kwargs: Any) -> WsClient:
        ws = await connect(f"ws://127.0.0.1:{port}", compression=None, **kwargs)
        return cls(ws)

    async def close(self) -> None:
        await self.ws.close()

    async def send(self, **frame: Any) -> None:
        await self.ws.send(json.dumps(frame))

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    async def _pull(self, timeout: float) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        frame: dict[str, Any] = json.loads(text)
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
        welcome = await self.request("hello", "welcome", v=1, name=name, **extra)
        self.player = welcome["player"]
        self.token = welcome["token"]
        return welcome

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
