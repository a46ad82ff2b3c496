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

The same runners answer the rooms' ``hint`` requests (:meth:`HouseBots.advise`): the
server never runs the advisor in its own event loop. The composition root names the
advisor (``"module:function"``, it is sent in ``config``); a request carries the seat's
view and stream and a number, and its answer comes back with that number::

    {"op": "hint", "id": 7, "view": {...}, "events": [...], "options": {"lang": "it", ...}}
    {"op": "hint", "id": 7, "hint": {...}}      or      {"op": "hint", "id": 7, "error": "..."}

Hints are bounded: at most ``max_hints`` in flight (one more is told ``busy`` at once),
each waited for at most ``hint_timeout`` seconds (then ``busy``; its late answer is
dropped), and a runner that dies fails its hints with ``busy`` rather than leave anyone
waiting. With ``warm`` the runners start with the server and load the advisor's tables
then (its module's ``warm()``), so that no hint waits for them; without it (the tests'
servers) a runner starts at its first bot or hint.

A runner exits by itself when its standard input closes, so a server killed with SIGKILL
leaves no bot behind; the next server starts new runners and launches its rooms' house
seats again. A runner that dies while the server lives is restarted, and the bots it was
playing are launched again with their tickets.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import secrets
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Protocol

from server import __version__
from server.errors import ClientError

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
#: Seconds a hint may take (the advisor's budget) before its asker is told ``busy``.
HINT_TIMEOUT = 10.0
#: Hints in flight at once over all the runners; one more is told ``busy`` at once.
MAX_HINTS = 32
#: The longest hint request written to a runner (a seat's view and whole stream); a
#: runner reads lines up to twice as long (``bots.tools.house_runner.LINE_LIMIT``).
MAX_HINT_BYTES = 1 << 23


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

    def levels(self, name: str) -> list[str]:
        """The levels bot ``name`` may be asked for (``name:level``); empty if none."""
        ...

    def advises(self, game: str) -> bool:
        """Whether the advisor handed in beside this catalog gives hints for ``game``."""
        ...

    def version(self, name: str) -> str:
        """Bot ``name``'s version (its ratings are kept under it); "" if it has none."""
        ...


class HouseBots:
    """Starts and stops the house bots of one server, in a pool of runner processes."""

    def __init__(
        self,
        *,
        procs: int = 1,
        python: str = sys.executable,
        catalog: Catalog | None = None,
        advisor: str | None = None,
        warm: bool = False,
        hint_timeout: float = HINT_TIMEOUT,
        max_hints: int = MAX_HINTS,
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
        self._accepted: set[tuple[str, str]] = set()
        self._versions: dict[str, str] = {}
        self.closing = False
        #: the advisor the runners load (``"module:function"``); ``None``: no hints
        self.advisor = advisor
        #: start the runners with the server, each warming the advisor up at once
        self.warm = warm
        self.hint_timeout = hint_timeout
        self.max_hints = max_hints
        self._hint_ids = itertools.count(1)

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
        if key in self._accepted:
            return True
        name, _, level = spec.partition(":")
        ok = name in self.available(game)
        if ok and level:
            ok = self.catalog is not None and self.catalog.knows(spec)
        if ok:  # (only names that exist are kept: a host's made-up names are not)
            self._accepted.add(key)
        return ok

    def version(self, spec: str) -> str:
        """The version house bot ``spec`` (``name`` or ``name:level``; ``autopilot``) is
        rated under as ``bot-<spec>``: the catalog's, or this server's own version when
        the bot has none (the autopilot is the engines' own policy: always the server's)."""
        name = spec.partition(":")[0]
        version = self._versions.get(name)
        if version is None:
            catalog = self.catalog
            found = "" if catalog is None or name == "autopilot" else catalog.version(name)
            version = self._versions[name] = found or __version__
        return version

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

    def start(self) -> None:
        """Start the runners now if the advisor is to be warm (the server calls it when it
        starts): each loads the advisor's tables before any hint is asked of it."""
        if self.advisor is not None and self.warm:
            for runner in self._runners:
                runner.ensure()

    @property
    def hints_in_flight(self) -> int:
        """The hints asked of the runners and not answered yet."""
        return sum(len(runner.hints) for runner in self._runners)

    async def advise(
        self, view: dict[str, Any], events: list[dict[str, Any]], options: dict[str, Any]
    ) -> dict[str, Any]:
        """The advisor's hint for a seat whose view and stream these are, worked out in a
        runner process: the caller waits (a connection's task, never a room's).

        Raise :class:`ClientError`: ``unsupported`` when the advisor has no advice (or
        there is none), ``busy`` when too many hints are in flight, when the answer takes
        longer than ``hint_timeout`` or when the runner stops before answering."""
        if self.advisor is None or self.closing:
            raise ClientError("unsupported", "this server gives no hints")
        if self.hints_in_flight >= self.max_hints:
            raise ClientError("busy", f"{self.max_hints} hints are being worked out: ask again")
        ident = next(self._hint_ids)
        request = {"op": "hint", "id": ident, "view": view, "events": events, "options": options}
        line = json.dumps(request).encode() + b"\n"
        if len(line) > MAX_HINT_BYTES:
            raise ClientError("unsupported", "this game is too long to give a hint")
        runner = min(self._runners, key=lambda r: len(r.hints))
        try:
            async with asyncio.timeout(self.hint_timeout):
                answer = await runner.ask(ident, line)
        except TimeoutError:
            message = f"no hint within {self.hint_timeout:g} s: ask again"
            raise ClientError("busy", message) from None
        finally:
            runner.forget(ident)  # (a hint being worked out still counts until it is done)
        hint = answer.get("hint")
        if not isinstance(hint, dict):
            raise ClientError("unsupported", str(answer.get("error") or "no hint"))
        return hint

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
        #: the hints asked of it, by number, each answered through its future
        self.hints: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._unsent: dict[int, bytes] = {}  # hints asked while no process was up
        self._task: asyncio.Task[None] | None = None

    def ensure(self) -> bool:
        """Start the process (under supervision) unless it runs; ``True`` if it starts."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._supervise(), name=f"house-runner-{self.index}")
            return True
        return False

    def launch(self, command: dict[str, Any]) -> None:
        self.active[(command["room"], command["seat"])] = command
        if not self.ensure():
            self._write(command)  # if the process is not up yet, it gets every active one

    def stop(self, room: str, seat: int) -> None:
        if self.active.pop((room, seat), None) is not None:
            self._write({"op": "stop", "room": room, "seat": seat})

    def ask(self, ident: int, line: bytes) -> asyncio.Future[dict[str, Any]]:
        """Send the hint request ``line`` (numbered ``ident``); its answer comes through
        the future (a ``busy`` :class:`ClientError` if the process stops first)."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.hints[ident] = future
        if self.ensure() or not self._send(line):
            self._unsent[ident] = line  # written when the process is up
        return future

    def forget(self, ident: int) -> None:
        """Nobody waits for hint ``ident`` any more: its answer, if it comes, is dropped.
        One not sent yet is never sent; one the process is working out still counts
        against the server's limit until its answer comes (or the process stops), since
        a worker thread cannot be stopped halfway."""
        if self._unsent.pop(ident, None) is not None:
            self.hints.pop(ident, None)

    def _answer(self, report: dict[str, Any]) -> None:
        """Hand a hint's answer to its asker, if one still waits."""
        ident = report.get("id")
        future = self.hints.pop(ident, None) if isinstance(ident, int) else None
        if future is not None and not future.done():
            future.set_result(report)

    def _send_unsent(self) -> None:
        for line in self._unsent.values():
            self._send(line)
        self._unsent.clear()

    def _fail_hints(self) -> None:
        """The process stopped: each hint asked of it fails with ``busy`` (none hangs)."""
        for future in self.hints.values():
            if not future.done():
                future.set_exception(
                    ClientError("busy", "the advisor stopped before answering: ask again")
                )
        self.hints.clear()
        self._unsent.clear()

    def _wanted(self) -> bool:
        """Whether a process that died is started again: it has bots to play or hints
        to answer, or the advisor is kept warm."""
        return bool(self.active or self.hints or (self.house.advisor and self.house.warm))

    def _write(self, command: dict[str, Any]) -> None:
        self._send(json.dumps(command).encode() + b"\n")

    def _send(self, line: bytes) -> bool:
        proc = self.proc
        if proc is None or proc.stdin is None or proc.stdin.is_closing():
            return False
        proc.stdin.write(line)
        return True

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
                    limit=1 << 20,  # a line of the runner's: a report or a hint's answer
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
                    "advisor": self.house.advisor,
                    "warm": self.house.warm,
                }
            )
            for command in list(self.active.values()):
                self._write(command)
            self._send_unsent()
            await asyncio.gather(self._read(proc), self._relay(proc))
            code = await proc.wait()
            self.proc = None
            if self.hints:
                log.warning(
                    "house bot runner %d stopped before %d hints", self.index, len(self.hints)
                )
            self._fail_hints()
            if self.house.closing or not self._wanted():
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
        async for line in self._lines(proc.stdout):
            try:
                report = json.loads(line)
                if isinstance(report, dict) and report.get("op") == "hint":
                    self._answer(report)
                    continue
                room, seat, ticket = report["room"], int(report["seat"]), report["ticket"]
            except (ValueError, KeyError, TypeError):
                log.warning("house bot runner %d said %r", self.index, line[:200])
                continue
            command = self.active.get((room, seat))
            if command is not None and command["ticket"] == ticket:
                del self.active[(room, seat)]
                self.house._done(self, room, seat)

    async def _lines(self, stream: asyncio.StreamReader) -> AsyncIterator[bytes]:
        """The runner's lines on ``stream`` until it closes; a line over the reader's limit
        is dropped with a warning (the next one is read), never the end of the reading."""
        while True:
            try:
                line = await stream.readline()
            except ValueError:
                log.warning("house bot runner %d wrote a line over the limit", self.index)
                continue
            if not line:
                return
            yield line

    async def _relay(self, proc: asyncio.subprocess.Process) -> None:
        """Pass the runner's log lines on to the server's log (its format, its ids)."""
        assert proc.stderr is not None
        async for line in self._lines(proc.stderr):
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
        self._fail_hints()


def _runner_env() -> dict[str, str]:
    """The runner's environment: it imports ``bots`` from this server's source tree, and
    knows the server's process (it stops when that is gone)."""
    root = str(Path(__file__).resolve().parents[2])
    path = os.environ.get("PYTHONPATH")
    return {
        **os.environ,
        "PYTHONPATH": root if not path else root + os.pathsep + path,
        "PYTHONUNBUFFERED": "1",
        "UMPIRE_SERVER_PID": str(os.getpid()),
    }
