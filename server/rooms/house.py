"""House bots: the server's own bots, which play as ordinary clients (DESIGN.md, idea 5).

When a host adds a bot by name (``add_bot`` with ``"bot": "perudo-expert"``), the room
keeps the seat for it and calls :meth:`HouseBots.launch` with a seat ticket. The bot never
runs in the server's process: :class:`HouseBots` keeps a small pool of runner processes
(``python -m bots.tools.house_runner``, ``umpire serve --house-procs N``, default 1) and sends
each one commands as JSON lines on its standard input::

    {"op": "config", "url": "ws://127.0.0.1:8765", "header": "X-Umpire-House", "secret": "..."}
    {"op": "launch", "room": "oh_GdIGG", "seat": 1, "bot": "perudo-simple", "ticket": "..."}
    {"op": "stop", "room": "oh_GdIGG", "seat": 1}

The runner plays each launched seat with the websocket transport (:mod:`bots.sdk.remote`),
exactly as an external bot would, connecting back over loopback with the house header:
it says hello as the durable identity ``bot-<name>`` (no token: the header is the
credential) and joins or resumes with the ticket, so it sees only what its seat may see
and can never act for another seat. It answers one line per finished bot on its standard
output (``{"op": "done", "room": ..., "seat": ..., "ticket": ...}``).

A runner exits by itself when its standard input closes, so a server killed with SIGKILL
leaves no bot behind; the next server starts new runners and launches its rooms' house
seats again. A runner that dies while the server lives is restarted, and the bots it was
playing are launched again with their tickets.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import sys
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger(__name__)

#: The header a house bot's connection carries (with the server's secret): such
#: connections are exempt from the per-address connection limit and say hello as their
#: house identity without a token.
HOUSE_HEADER = "X-Umpire-House"
#: The address a house bot's connection is counted under (instead of loopback's).
HOUSE_ADDRESS = "house"
#: The runner module started as ``python -m``.
RUNNER_MODULE = "bots.tools.house_runner"
#: Seconds a runner gets to stop its bots when the server shuts down, before SIGKILL.
STOP_TIMEOUT = 5.0


class Catalog(Protocol):
    """The bots a server may start as house bots (the composition root, :mod:`server.root`,
    hands in the bots package's registry; the server itself never imports bots)."""

    def bots_for(self, game: str) -> list[str]:
        """The names of the bots that play ``game``."""
        ...

    def knows(self, spec: str) -> bool:
        """Whether ``spec`` names a bot, with a level it has if one is given
        (``perudo-simple``, ``kriegspiel-meta:hard``)."""
        ...


class HouseBots:
    """Starts and stops the house bots of one server, in a pool of runner processes."""

    def __init__(
        self, *, procs: int = 1, python: str = sys.executable, catalog: Catalog | None = None
    ) -> None:
        if procs < 1:
            raise ValueError(f"house bots need at least one runner process, not {procs}")
        self._url = ""
        self._listening = asyncio.Event()  # runners start once the server's URL is known
        self.secret = secrets.token_urlsafe(24)
        self.python = python
        self._runners = [_Runner(self, index) for index in range(procs)]
        self._where: dict[tuple[str, int], _Runner] = {}
        #: what may be started (none without a catalog: then no house bots are offered)
        self.catalog = catalog
        self._cache: dict[str, list[str]] = {}
        self._accepted: dict[tuple[str, str], bool] = {}
        self.closing = False

    @property
    def url(self) -> str:
        """The server's websocket URL, for the bots to connect back to."""
        return self._url

    @url.setter
    def url(self, value: str) -> None:
        """Set once the server listens: bots launched before wait until then."""
        self._url = value
        if value:
            self._listening.set()

    def available(self, game: str) -> list[str]:
        """The bot names a host may add to a room of ``game``."""
        if game not in self._cache:
            self._cache[game] = [] if self.catalog is None else self.catalog.bots_for(game)
        return self._cache[game]

    def known(self, spec: str) -> bool:
        """Whether ``spec`` names a bot this server may start: the only names a house
        connection may say hello as."""
        return self.catalog is not None and self.catalog.knows(spec.partition(":")[0])

    def accepts(self, game: str, spec: str) -> bool:
        """Whether a host may add ``spec`` to a room of ``game``: one of :meth:`available`,
        optionally with a level the bot knows (``kriegspiel-meta:hard``)."""
        key = (game, spec)
        if key not in self._accepted:
            name, _, level = spec.partition(":")
            ok = name in self.available(game)
            if ok and level:
                ok = self.catalog is not None and self.catalog.knows(spec)
            self._accepted[key] = ok
        return self._accepted[key]

    def launch(self, room: str, seat: int, name: str, ticket: str) -> None:
        """Start bot ``name`` for ``seat`` of ``room``; it joins (or resumes) with ``ticket``.

        Call it from the event loop; it returns at once. A bot already playing that seat
        is replaced (the runner stops it first), unless it holds the same ticket."""
        if self.closing:
            return
        key = (room, seat)
        runner = self._where.get(key)
        if runner is None:
            runner = min(self._runners, key=lambda r: len(r.active))
            self._where[key] = runner
        runner.launch({"op": "launch", "room": room, "seat": seat, "bot": name, "ticket": ticket})

    def stop(self, room: str, seat: int) -> None:
        """Stop the house bot playing ``seat`` of ``room``, if any."""
        runner = self._where.pop((room, seat), None)
        if runner is not None:
            runner.stop(room, seat)

    def playing(self) -> list[tuple[str, int]]:
        """The seats a house bot currently plays (launched and not reported done)."""
        return [key for runner in self._runners for key in runner.active]

    def pids(self) -> list[int]:
        """The process ids of the running runners (for operations and tests)."""
        return [r.proc.pid for r in self._runners if r.proc is not None]

    def _done(self, runner: _Runner, room: str, seat: int) -> None:
        if self._where.get((room, seat)) is runner:
            del self._where[(room, seat)]

    async def close(self) -> None:
        """Stop every house bot and runner (server shutdown); safe to call twice."""
        self.closing = True
        await asyncio.gather(*(runner.close() for runner in self._runners))


class _Runner:
    """One runner process: started on first use, restarted if it dies while needed."""

    def __init__(self, house: HouseBots, index: int) -> None:
        self.house = house
        self.index = index
        self.proc: asyncio.subprocess.Process | None = None
        #: the launch commands of the bots it plays, by (room, seat)
        self.active: dict[tuple[str, int], dict[str, Any]] = {}
        self._task: asyncio.Task[None] | None = None

    def launch(self, command: dict[str, Any]) -> None:
        self.active[(command["room"], command["seat"])] = command
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._supervise(), name=f"house-runner-{self.index}")
        else:
            self._write(command)  # if the process is not up yet, it gets every active one

    def stop(self, room: str, seat: int) -> None:
        if self.active.pop((room, seat), None) is not None:
            self._write({"op": "stop", "room": room, "seat": seat})

    def _write(self, command: dict[str, Any]) -> None:
        proc = self.proc
        if proc is None or proc.stdin is None or proc.stdin.is_closing():
            return
        proc.stdin.write(json.dumps(command).encode() + b"\n")

    async def _supervise(self) -> None:
        """Run the process; restart it (with every active bot) if it dies unasked."""
        failures = 0
        await self.house._listening.wait()
        while not self.house.closing:
            try:
                proc = await asyncio.create_subprocess_exec(
                    self.house.python,
                    "-m",
                    RUNNER_MODULE,
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                    env=_runner_env(),
                )
            except OSError:
                log.exception("cannot start the house bot runner")
                return
            self.proc = proc
            self._write(
                {
                    "op": "config",
                    "url": self.house.url,
                    "header": HOUSE_HEADER,
                    "secret": self.house.secret,
                }
            )
            for command in list(self.active.values()):
                self._write(command)
            await asyncio.gather(self._read(proc), self._relay(proc))
            code = await proc.wait()
            self.proc = None
            if self.house.closing or not self.active:
                return
            failures += 1
            delay = min(5.0, 0.1 * 2**failures)
            log.warning(
                "house bot runner %d exited with %s; restarting it in %.1f s with %d bots",
                self.index,
                code,
                delay,
                len(self.active),
            )
            await asyncio.sleep(delay)

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        """Follow the runner's reports until it exits."""
        assert proc.stdout is not None
        while line := await proc.stdout.readline():
            try:
                report = json.loads(line)
                room, seat, ticket = report["room"], int(report["seat"]), report["ticket"]
            except (ValueError, KeyError, TypeError):
                log.warning("house bot runner %d said %r", self.index, line[:200])
                continue
            command = self.active.get((room, seat))
            if command is not None and command["ticket"] == ticket:
                del self.active[(room, seat)]
                self.house._done(self, room, seat)

    async def _relay(self, proc: asyncio.subprocess.Process) -> None:
        """Pass the runner's log lines on to the server's log (its format, its ids)."""
        assert proc.stderr is not None
        while line := await proc.stderr.readline():
            log.warning(
                "house bot runner %d: %s", self.index, line.decode(errors="replace").rstrip()
            )

    async def close(self) -> None:
        proc = self.proc
        if proc is not None and proc.stdin is not None and not proc.stdin.is_closing():
            proc.stdin.close()  # the runner stops its bots and exits
        if proc is not None:
            try:
                await asyncio.wait_for(proc.wait(), STOP_TIMEOUT)
            except TimeoutError:
                log.warning("house bot runner %d did not stop; killing it", self.index)
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _runner_env() -> dict[str, str]:
    """The runner's environment: it imports ``bots`` from this server's source tree."""
    root = str(Path(__file__).resolve().parents[2])
    path = os.environ.get("PYTHONPATH")
    return {
        **os.environ,
        "PYTHONPATH": root if not path else root + os.pathsep + path,
        "PYTHONUNBUFFERED": "1",
    }
