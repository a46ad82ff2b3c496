"""One player's connection to an umpire server, kept alive across drops.

:class:`Session` says ``hello`` (with the remembered token when there is one), stores the
token it is given, feeds every frame to a :class:`~client_cli.state.ClientState`, and after a
drop reconnects by itself and ``resume``\\ s every room it follows from the last sequence
number it saw. Listeners get each frame with the sentences the state made of it. Requests
(:meth:`Session.request`) are matched to their reply by ``ref``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from client_cli.state import ClientState
from client_cli.tokens import Identity, TokenStore

Json = dict[str, Any]
Listener = Callable[[Json, list[str]], None]

log = logging.getLogger(__name__)


class SessionError(Exception):
    """A request failed: the server answered ``error`` (``code`` is set) or the link dropped."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


class Session:
    """A reconnecting protocol client; call :meth:`run` in a task, then :meth:`request`."""

    def __init__(
        self,
        url: str,
        name: str,
        *,
        store: TokenStore | None = None,
        state: ClientState | None = None,
        retry: float = 0.5,
        max_retry: float = 10.0,
    ) -> None:
        self.url = url
        self.name = name
        self.store = store if store is not None else TokenStore()
        self.state = state if state is not None else ClientState()
        self.retry = retry
        self.max_retry = max_retry
        self.listeners: list[Listener] = []
        self.ready = asyncio.Event()
        self.connections = 0
        self._ws: ClientConnection | None = None
        self._closing = False
        self._refs = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Json]] = {}
        self._waiters: list[tuple[Callable[[], bool], asyncio.Future[None]]] = []

    # -- running -------------------------------------------------------------------------

    async def run(self) -> None:
        """Connect, and reconnect after every drop, until :meth:`close`."""
        delay = self.retry
        while not self._closing:
            try:
                async with connect(self.url, compression=None, open_timeout=5) as ws:
                    self._ws = ws
                    await self._handshake(ws)
                    delay = self.retry
                    await self._read(ws)
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
                if not self._closing:
                    self._notify({"type": "_disconnected"}, [f"Connection lost ({exc}); retrying."])
            except (InvalidURI, SessionError) as exc:
                self._notify({"type": "_fatal"}, [f"Cannot connect: {exc}"])
                self._closing = True
                return
            finally:
                self._ws = None
                self.ready.clear()
                self._fail_pending("the connection dropped")
                for room in self.state.rooms.values():
                    room.turn = None  # the server sends it again after resume
            if self.closing:
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.max_retry)

    async def _handshake(self, ws: ClientConnection) -> None:
        identity = self.store.load(self.url, self.name)
        hello: Json = {"type": "hello", "v": 1, "name": self.name}
        if identity is not None:
            hello["token"] = identity.token
        await ws.send(json.dumps(hello))
        while True:
            frame = json.loads(await ws.recv())
            if frame.get("type") == "error" and frame.get("code") == "bad_token":
                self.store.forget(self.url, self.name)
                hello.pop("token", None)
                await ws.send(json.dumps(hello))
                continue
            if frame.get("type") == "error":
                raise SessionError(str(frame.get("message")), frame.get("code"))
            if frame.get("type") == "welcome":
                break
        self._dispatch(frame)
        self.store.save(self.url, Identity(token=frame["token"], name=self.name))
        self.connections += 1
        followed = {room_id: room.seq for room_id, room in self.state.rooms.items()}
        for seat in frame.get("seats", []):
            followed.setdefault(seat["room"], 0)
        for room_id, since in followed.items():
            room = self.state.rooms.get(room_id)
            if room is not None and room.over:
                continue
            message: Json = {"type": "resume", "room": room_id, "since": since}
            if room is not None and room.seat is None and room.invite:
                message["invite"] = room.invite
            await ws.send(json.dumps(message))
            if self.state.current is None:
                self.state.current = room_id
        self.ready.set()

    async def _read(self, ws: ClientConnection) -> None:
        async for text in ws:
            if isinstance(text, bytes):
                continue
            try:
                frame = json.loads(text)
            except ValueError:
                continue
            if isinstance(frame, dict):
                self._dispatch(frame)

    def _dispatch(self, frame: Json) -> None:
        lines = self.state.apply(frame)
        ref = frame.get("ref")
        if isinstance(ref, int) and ref in self._pending:
            future = self._pending.pop(ref)
            if not future.done():
                if frame.get("type") == "error":
                    future.set_exception(
                        SessionError(str(frame.get("message")), str(frame.get("code")))
                    )
                else:
                    future.set_result(frame)
        self._notify(frame, lines)
        for condition, waiter in list(self._waiters):
            if not waiter.done() and condition():
                waiter.set_result(None)
                self._waiters.remove((condition, waiter))

    def _notify(self, frame: Json, lines: list[str]) -> None:
        for listener in list(self.listeners):
            try:
                listener(frame, lines)
            except Exception:
                log.exception("a listener failed on a %s frame", frame.get("type"))

    def _fail_pending(self, why: str) -> None:
        for future in self._pending.values():
            if not future.done():
                future.set_exception(SessionError(why, "disconnected"))
        self._pending.clear()

    @property
    def closing(self) -> bool:
        """Whether :meth:`close` was called (the session will not reconnect)."""
        return self._closing

    # -- talking -------------------------------------------------------------------------

    async def send(self, message: Json) -> int:
        """Send ``message`` (waiting for the connection) with a fresh ``ref``; return it."""
        await self.ready.wait()
        ref = next(self._refs)
        ws = self._ws
        if ws is None:
            raise SessionError("not connected", "disconnected")
        await ws.send(json.dumps({**message, "ref": ref}))
        return ref

    async def request(self, message: Json, timeout: float = 10.0) -> Json:
        """Send ``message`` and return its reply; raise :class:`SessionError` on ``error``."""
        await self.ready.wait()
        ref = next(self._refs)
        future: asyncio.Future[Json] = asyncio.get_running_loop().create_future()
        self._pending[ref] = future
        ws = self._ws
        if ws is None:
            self._pending.pop(ref, None)
            raise SessionError("not connected", "disconnected")
        try:
            await ws.send(json.dumps({**message, "ref": ref}))
            return await asyncio.wait_for(future, timeout)
        except ConnectionClosed as exc:
            raise SessionError("the connection dropped", "disconnected") from exc
        except TimeoutError as exc:
            raise SessionError(f"no reply to {message['type']} in {timeout} s", "timeout") from exc
        finally:
            self._pending.pop(ref, None)

    async def wait_until(self, condition: Callable[[], bool], timeout: float | None = None) -> None:
        """Return once ``condition()`` holds (checked after every frame)."""
        if condition():
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (condition, future)
        self._waiters.append(entry)
        try:
            await asyncio.wait_for(future, timeout)
        finally:
            if entry in self._waiters:
                self._waiters.remove(entry)

    async def drop(self) -> None:
        """Break the connection as a network fault would (tests, and a manual reconnect)."""
        ws = self._ws
        if ws is not None:
            ws.transport.abort()

    async def close(self) -> None:
        """Stop reconnecting and close the connection."""
        self._closing = True
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()
        self.ready.clear()
        self._fail_pending("the session was closed")
