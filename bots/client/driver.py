"""The asyncio driver of :class:`~bots.client.core.ClientCore`: thin glue on websockets'
reconnecting ``connect()``.

:class:`Client` keeps one connection open (``async for ws in connect(...)`` reconnects with
backoff after failures; after a drop it reconnects at once), writes what the core has to
send at the core's pace, and feeds it every frame. What comes out goes three ways:
answers resolve the futures of :meth:`Client.request`; ``listeners`` are called with every
output (synchronously, in order); and :meth:`Client.outputs` yields them to one consumer
that may take its time (a bot thinking) while frames keep being read.

Errors::

    ClientError            a request failed (``code``: the server's, or "disconnected",
                           "timeout")
    └── ConnectionFailed   the server cannot be reached (too many failed attempts, a bad
                           URL, hello refused): the client stops
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections.abc import AsyncIterator, Callable, Generator, Sequence
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.client import process_exception
from websockets.exceptions import ConnectionClosed, InvalidURI
from websockets.uri import parse_uri

from bots.client.core import ClientCore, HelloRefused, Lost, Output, Received, Refused

log = logging.getLogger(__name__)

Json = dict[str, Any]
Listener = Callable[[Output], None]


class ClientError(Exception):
    """A request failed: the server refused it (``code`` is its error code) or the
    connection dropped (``"disconnected"``) or no answer came (``"timeout"``)."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


class ConnectionFailed(ClientError):
    """The server cannot be reached or refused this client for good."""


def backoff(first: float, most: float) -> Callable[[], Generator[float]]:
    """Reconnection delays: ``first`` (with jitter), doubling up to ``most``."""

    def delays() -> Generator[float]:
        delay = first
        while True:
            yield delay * (0.5 + random.random())
            delay = min(most, delay * 2)

    return delays


def server_urls(urls: str | Sequence[str]) -> list[str]:
    """The server URLs a client was given: a comma-separated text or a list of them (each
    may itself be a comma list: ``--server`` repeated, or ``a,b``), in order."""
    given = [urls] if isinstance(urls, str) else list(urls)
    out = [part.strip() for text in given for part in text.split(",") if part.strip()]
    if not out:
        raise ConnectionFailed("no server URL given")
    return out


class Client:
    """One player's reconnecting connection; call :meth:`run` in a task.

    ``retries`` bounds the connection attempts in a row that fail (or drop before a
    ``welcome``); ``None`` retries for ever. Other keyword arguments go to ``connect()``.
    """

    def __init__(
        self,
        url: str | Sequence[str],
        core: ClientCore,
        *,
        retry: float = 0.5,
        max_retry: float = 10.0,
        retries: int | None = None,
        **connect_options: Any,
    ) -> None:
        #: the server's URLs (nodes of one cluster): the client connects to the first,
        #: and moves to the next whenever a connection attempt fails (failover)
        self.urls = server_urls(url)
        self._at = 0
        self._connecting: connect | None = None
        self.core = core
        self.retry = retry
        self.max_retry = max_retry
        self.retries = retries
        self.connect_options = {"compression": None, "open_timeout": 5, **connect_options}
        self.listeners: list[Listener] = []
        self.ready = asyncio.Event()  #: welcomed on the current connection
        self.connections = 0  #: welcomes so far
        self.failures = 0  #: connection attempts in a row that failed
        self._ws: ClientConnection | None = None
        self._closing = False
        self._wake = asyncio.Event()
        self._futures: dict[int, asyncio.Future[Json]] = {}
        self._queue: asyncio.Queue[Output | None] | None = None
        self.failure: ConnectionFailed | None = None  #: why the client stopped, if it failed

    # -- running -------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The URL connected to now (or tried next)."""
        return self.urls[self._at]

    @property
    def closing(self) -> bool:
        """Whether :meth:`close` was called (the client will not reconnect)."""
        return self._closing

    async def run(self) -> None:
        """Connect, and reconnect after every drop, until :meth:`close`; raise
        :class:`ConnectionFailed` when the server cannot be reached."""
        try:
            for index, url in enumerate(self.urls):  # (each URL's fault named at once)
                self._at = index
                parse_uri(url)
            self._at = 0
            self._connecting = connect(
                self.url,
                process_exception=self._retryable,
                reconnect_delays=backoff(self.retry, self.max_retry),
                **self.connect_options,
            )
            async for ws in self._connecting:
                if self._closing:
                    await ws.close()
                    break
                try:
                    await self._serve(ws)
                except ConnectionClosed as exc:
                    self._count_failure(exc)
                finally:
                    self._lost()
                if self.closing:  # (a property: close() may have run meanwhile)
                    break
        except InvalidURI as exc:
            self.failure = ConnectionFailed(f"not a websocket URL: {self.url!r}")
            raise self.failure from exc
        except ConnectionFailed as exc:
            self.failure = exc
            raise
        except (OSError, TimeoutError, ConnectionClosed) as exc:
            self.failure = ConnectionFailed(f"lost the server at {self.url}: {exc}")
            raise self.failure from exc
        finally:
            self._closing = True
            self._fail_all(self.failure or ClientError("the client was closed", "disconnected"))
            if self._queue is not None:
                self._queue.put_nowait(None)
        if self.failure is not None:
            raise self.failure

    def _retryable(self, exc: Exception) -> Exception | None:
        """websockets' choice of what to retry, within ``retries`` attempts in a row."""
        verdict = process_exception(exc)
        if verdict is None and not self._closing:
            self._count_failure(exc)
            self._next_url()
            return None
        return verdict if verdict is not None else exc

    def _next_url(self) -> None:
        """Try the next of :attr:`urls` from now on (the one before could not be reached).
        (websockets itself changes its ``uri`` this way when it follows a redirect.)"""
        if len(self.urls) < 2:
            return
        self._at = (self._at + 1) % len(self.urls)
        log.info("%s: trying %s next", self.core.name, self.url)
        assert self._connecting is not None
        self._connecting.uri = self.url
        self._connecting.ws_uri = parse_uri(self.url)

    def _count_failure(self, exc: Exception) -> None:
        self.failures += 1
        log.info("%s: connection lost (%s)", self.core.name, exc)
        if self.retries is not None and self.failures > self.retries:
            raise ConnectionFailed(f"lost the server at {self.url}: {exc}") from exc

    async def _serve(self, ws: ClientConnection) -> None:
        self._ws = ws
        self.core.connection_made()
        self._wake.set()
        writer = asyncio.create_task(self._write(ws))
        try:
            async for text in ws:
                if isinstance(text, bytes):
                    continue
                try:
                    frame = json.loads(text)
                except ValueError:
                    continue
                if isinstance(frame, dict):
                    self._dispatch(self.core.receive(frame))
                    self._wake.set()
        finally:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                await writer

    async def _write(self, ws: ClientConnection) -> None:
        """Send what the core has to send, at its pace."""
        loop = asyncio.get_running_loop()
        pacer = self.core.pacer
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self.core.pending():
                delay = pacer.delay(loop.time())
                if delay > 0:
                    await asyncio.sleep(delay)
                frame = self.core.next_frame()
                if frame is None:
                    break
                pacer.spend(loop.time())
                await ws.send(json.dumps(frame))

    def _lost(self) -> None:
        self._ws = None
        self.ready.clear()
        self._dispatch(self.core.connection_lost())

    def _dispatch(self, outputs: list[Output]) -> None:
        for output in outputs:
            if isinstance(output, Received) and output.kind == "welcome":
                self.connections += 1
                self.failures = 0
                self.ready.set()
            elif isinstance(output, Received) and output.kind == "logged_out":
                self._closing = True  # the server closes the connection: no reconnect
            elif isinstance(output, HelloRefused):
                self._closing = True
                self.failure = ConnectionFailed(
                    f"the server refused hello: {output.frame.get('code')}: "
                    f"{output.frame.get('message')}",
                    str(output.frame.get("code")),
                )
                self._fail_all(self.failure)
                if self._ws is not None:
                    self._ws.transport.abort()
            self._resolve(output)
            for listener in list(self.listeners):
                try:
                    listener(output)
                except Exception:
                    log.exception("a listener failed on %r", output)
            if self._queue is not None:
                self._queue.put_nowait(output)

    def _resolve(self, output: Output) -> None:
        if isinstance(output, Lost):
            ref: object = output.ref
        elif isinstance(output, Received) and output.request is not None:
            ref = output.request.get("ref")
        else:
            return
        future = self._futures.pop(ref, None) if isinstance(ref, int) else None
        if future is None or future.done():
            return
        if isinstance(output, Lost):
            future.set_exception(ClientError("the connection dropped", "disconnected"))
        elif isinstance(output, Refused):
            future.set_exception(ClientError(output.message, output.code))
        else:
            assert isinstance(output, Received)
            future.set_result(output.frame)

    def _fail_all(self, error: ClientError) -> None:
        for future in self._futures.values():
            if not future.done():
                future.set_exception(error)
        self._futures.clear()

    # -- talking -------------------------------------------------------------------------

    def send(self, message: Json) -> int:
        """Queue ``message`` (it goes once connected and welcomed); return its ``ref``."""
        ref = self.core.send(message)
        self._wake.set()
        return ref

    def resume(self, room: str, since: int | None = None) -> int:
        """Ask for ``room``'s events after ``since`` (see :meth:`ClientCore.resume`)."""
        ref = self.core.resume(room, since)
        self._wake.set()
        return ref

    def act(self, room: str, action: str) -> int:
        """Send ``action`` for this client's seat in ``room``; return its ``ref``."""
        ref = self.core.act(room, action)
        self._wake.set()
        return ref

    async def request(self, message: Json, timeout: float | None = 10.0) -> Json:
        """Send ``message`` and return the frame that answers it; raise
        :class:`ClientError` on an ``error`` answer, a drop or no answer in ``timeout``."""
        if self._closing:
            raise ClientError("the client is closed", "disconnected")
        future: asyncio.Future[Json] = asyncio.get_running_loop().create_future()
        ref = self.send(message)
        self._futures[ref] = future
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError as exc:
            raise ClientError(f"no reply to {message['type']} in {timeout} s", "timeout") from exc
        finally:
            self._futures.pop(ref, None)

    def outputs(self) -> AsyncIterator[Output]:
        """Every output from this call on, in order, until the client stops (one
        consumer: call it before :meth:`run` so that nothing is missed)."""
        queue: asyncio.Queue[Output | None] = asyncio.Queue()
        self._queue = queue

        async def drain() -> AsyncIterator[Output]:
            while (output := await queue.get()) is not None:
                yield output

        return drain()

    async def drop(self) -> None:
        """Break the connection as a network fault would (tests; a manual reconnect)."""
        if self._ws is not None:
            self._ws.transport.abort()

    async def close(self) -> None:
        """Stop reconnecting and close the connection."""
        self._closing = True
        self._fail_all(ClientError("the client was closed", "disconnected"))
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()
        self.ready.clear()
        if self._queue is not None:
            self._queue.put_nowait(None)
