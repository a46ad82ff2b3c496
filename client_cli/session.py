"""One player's connection to an umpire server, kept alive across drops.

:class:`Session` is glue over the one protocol client (:mod:`bots.client`): the core says
``hello`` with the remembered token, matches replies by ``ref``, keeps each followed room's
stream gap-free and, after a drop, ``resume``\\ s every room it follows (and every unfinished
seat ``welcome`` lists) from the last sequence number it saw; the driver reconnects with
backoff. The session adds what a person's client needs: the token file, the server's
catalogue of games (asked for after each ``welcome``), a
:class:`~client_cli.state.ClientState` fed every frame, and listeners that get each frame
with the sentences the state made of it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from bots.client.core import ClientCore, Disconnected, HelloRefused, Output, Received, Refused
from bots.client.driver import Client, ClientError, ConnectionFailed
from client_cli import accounts
from client_cli.state import ClientState
from client_cli.tokens import Identity, TokenStore

Json = dict[str, Any]
Listener = Callable[[Json, list[str]], None]

log = logging.getLogger(__name__)

#: A request failed: the server answered ``error`` (``code`` is set) or the link dropped.
SessionError = ClientError


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
        password: str | None = None,
    ) -> None:
        self.url = url
        self.name = name
        self.store = store if store is not None else TokenStore()
        self.state = state if state is not None else ClientState()
        self.retry, self.max_retry = retry, max_retry
        if password is not None:  # umpire play --login NAME: log in, not hello
            self.core = ClientCore(name, credentials=(name, password), follow_seats=True)
        else:
            identity = self.store.load(url, name)
            token = identity.token if identity else None
            self.core = ClientCore(name, token=token, follow_seats=True)
        self.client = self._client()
        self.listeners: list[Listener] = []
        #: set when the connection ended for good (logged out, refused, unreachable)
        self.stopped = asyncio.Event()
        self._again = asyncio.Event()  #: a new connection was prepared (:meth:`login`)
        self._closed = False
        self._quiet = False  #: a failure to connect is told by :meth:`login`, not here
        #: set once the catalogue asked for after the last ``welcome`` came (or was refused)
        self.catalogued = asyncio.Event()
        self._asking: asyncio.Task[None] | None = None
        self._waiters: list[tuple[Callable[[], bool], asyncio.Future[None]]] = []

    def _client(self) -> Client:
        client = Client(self.url, self.core, retry=self.retry, max_retry=self.max_retry)
        client.listeners.append(self._on_output)
        return client

    @property
    def ready(self) -> asyncio.Event:
        """Set while connected and welcomed."""
        return self.client.ready

    @property
    def connections(self) -> int:
        """How many times the server welcomed this session."""
        return self.client.connections

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    @property
    def closing(self) -> bool:
        """Whether the connection ended for good (closed, logged out, refused)."""
        return self.client.closing

    # -- running -------------------------------------------------------------------------

    async def run(self) -> None:
        """Connect, and reconnect after every drop, until :meth:`close`; after a logout or
        a refusal, wait for a :meth:`login` and connect again."""
        while True:
            self._again.clear()
            self.stopped.clear()
            try:
                await self.client.run()
            except ConnectionFailed as exc:
                if not self._quiet:
                    self._notify({"type": "_fatal"}, [self._failed(exc)])
            finally:
                self._quiet = False
                self.stopped.set()
            if not await self._wait_again():
                return

    async def _wait_again(self) -> bool:
        """After the connection ended: wait for a :meth:`login` (True) or :meth:`close`."""
        if not self._closed:
            await self._again.wait()
        return not self._closed

    def _failed(self, exc: ConnectionFailed) -> str:
        say = accounts.words(self.state.lang)
        if exc.code == "name_taken":
            return say("name_taken_hello", name=self.name)
        if exc.code == "bad_token":
            return say("session_ended", name=self.name)
        if exc.code in ("bad_login", "rate_limited"):
            return accounts.explain(exc.code, str(exc), self.state.lang)
        return f"Cannot connect: {exc}"

    def _on_output(self, output: Output) -> None:
        if isinstance(output, Disconnected):
            self.state.disconnected()
            if not self.closing:
                self._notify({"type": "_disconnected"}, ["Connection lost; retrying."])
        elif isinstance(output, HelloRefused):
            if output.frame.get("code") not in ("bad_login", "rate_limited", "busy", "name_taken"):
                self.store.forget(self.url, self.name)  # (a refused login used no token)
        elif isinstance(output, Refused) and (output.request or {}).get("type") == "hello":
            if output.code == "name_taken":
                # never a reason to drop the token: the core says hello again with the
                # token alone (the stored name); the player may then pick another name
                say = accounts.words(self.state.lang)
                self._notify(output.frame, [say("name_taken_kept", name=self.name)])
            else:
                self.store.forget(self.url, self.name)  # bad_token: a new player is made
        elif isinstance(output, Received):
            self._dispatch(output.frame)

    def _dispatch(self, frame: Json) -> None:
        lines = self.state.apply(frame)
        kind = frame.get("type")
        if kind == "welcome":
            old, self.name = self.name, self.core.name  # an account's stored name wins
            self.store.save(self.url, Identity(token=frame["token"], name=self.name))
            if old != self.name and self.store.load(self.url, old) == Identity(
                token=frame["token"], name=old
            ):
                self.store.forget(self.url, old)  # the token is kept under its stored name
            self.catalogued.clear()
            self._asking = asyncio.get_running_loop().create_task(self._ask_catalogue())
            if self.state.current is None:
                resumed = [room for room, s in self.core.streams.items() if not s.over]
                self.state.current = resumed[0] if resumed else None
        elif kind == "account" and self.state.token:  # registered: the same token, a new name
            old, self.name = self.name, self.core.name
            self.store.save(self.url, Identity(token=self.state.token, name=self.name))
            if old != self.name:
                self.store.forget(self.url, old)
        elif kind == "logged_out":
            self.store.forget(self.url, self.name)
        self._notify(frame, lines)
        for condition, waiter in list(self._waiters):
            if not waiter.done() and condition():
                waiter.set_result(None)
                self._waiters.remove((condition, waiter))

    async def _ask_catalogue(self) -> None:
        """Ask for the games, their options and bots, in the player's language (the reply
        goes to the state like every frame)."""
        try:
            await self.client.request({"type": "catalogue", "lang": self.state.lang})
        except ClientError as exc:
            if exc.code != "disconnected":  # after a drop, the next welcome asks again
                self._notify({"type": "_catalogue"}, [f"No list of games from the server: {exc}"])
        finally:
            self.catalogued.set()

    def _notify(self, frame: Json, lines: list[str]) -> None:
        for listener in list(self.listeners):
            try:
                listener(frame, lines)
            except Exception:
                log.exception("a listener failed on a %s frame", frame.get("type"))

    # -- talking -------------------------------------------------------------------------

    async def send(self, message: Json) -> int:
        """Send ``message`` (waiting for the connection) with a fresh ``ref``; return it."""
        self._check_open()
        await self.ready.wait()
        return self.client.send(message)

    async def request(self, message: Json, timeout: float = 10.0) -> Json:
        """Send ``message`` and return its reply; raise :class:`SessionError` on ``error``."""
        self._check_open()
        await self.ready.wait()
        return await self.client.request(message, timeout)

    async def request_from_start(self, resume: Json, timeout: float = 10.0) -> Json:
        """Send a ``resume`` of its room from ``since`` on, taking every event it sends
        again (the stream forgets the events a ``watch`` snapshot already counted: a fresh
        client fetches a finished game's whole log this way, for its replay)."""
        self._check_open()
        await self.ready.wait()
        self.core.follow(str(resume["room"])).seq = int(resume.get("since", 0))
        return await self.client.request(resume, timeout)

    def _check_open(self) -> None:
        """Refuse at once while no connection will come (after a logout or a refusal)."""
        if self.closing:
            say = accounts.words(self.state.lang)
            raise SessionError(say("not_connected"), "not_connected")

    async def login(self, name: str, password: str, timeout: float = 15.0) -> Json:
        """Log in to an account: on the live connection (a guest becomes the account: the
        server leaves its rooms), or, when the connection ended (after a logout), on a new
        one opened with ``login``. Return the ``welcome``; raise :class:`SessionError`."""
        if self.ready.is_set() and not self.closing:
            return await self.request(self.core.login_message(name, password), timeout)
        if not self.closing or self._closed:
            raise SessionError("not connected yet: try again in a moment", "disconnected")
        try:  # the old connection ends first (the server closes it after logged_out)
            await asyncio.wait_for(self.stopped.wait(), timeout)
        except TimeoutError:
            raise SessionError("the old connection does not end", "timeout") from None
        self.name = name
        self.core = ClientCore(name, credentials=(name, password), follow_seats=True)
        self.client = self._client()
        self._quiet = True  # a refusal is the caller's to tell
        self.stopped.clear()
        self._again.set()
        ready = asyncio.ensure_future(self.client.ready.wait())
        stopped = asyncio.ensure_future(self.stopped.wait())
        try:
            await asyncio.wait({ready, stopped}, timeout=timeout, return_when="FIRST_COMPLETED")
        finally:
            ready.cancel()
            stopped.cancel()
        failure = self.client.failure
        if failure is not None:
            raise SessionError(str(failure), failure.code)
        if not self.client.ready.is_set() or self.core.welcome is None:
            raise SessionError("no answer from the server", "timeout")
        return self.core.welcome

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
        await self.client.drop()

    async def close(self) -> None:
        """Stop reconnecting and close the connection."""
        self._closed = True
        self._again.set()
        await self.client.close()
        if self._asking is not None and not self._asking.done():
            self._asking.cancel()
