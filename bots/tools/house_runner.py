"""The house bot runner: the process in which a server's house bots play.

``umpire serve`` starts one or more runners (``python -m bots.tools.house_runner``, see
:mod:`server.rooms.house`) and writes them commands, one JSON object a line, on their standard
input:

- ``{"op": "config", "url": ..., "header": ..., "secret": ...}``: where the server is and
  the header that marks a house connection (sent first, again after a restart);
- ``{"op": "launch", "room": ..., "seat": ..., "bot": ..., "ticket": ...}``: play that seat
  with that bot to the end of the game (a bot already playing the seat with another ticket
  is stopped first; the same ticket again changes nothing);
- ``{"op": "stop", "room": ..., "seat": ...}``: stop the bot playing that seat.

Each bot is a :class:`~bots.sdk.remote.RemotePlayer`, an ordinary protocol client: it says
hello as its house identity (the header is its credential, no token), joins or resumes with
its ticket, and reconnects with backoff if its connection drops. When a bot's game is over
(or it gives up) the runner writes ``{"op": "done", "room", "seat", "ticket"}`` on its
standard output. When its standard input closes (the server stopped, or died: the kernel
closes the pipe of a killed process) the runner stops every bot and exits, so no bot
outlives its server.

Every call into a bot (``start``, ``observe``, ``decide``, ...) runs in a worker thread
(:class:`Threaded`), so a bot thinking for a second (``kriegspiel-meta:hard``) holds the
runner's event loop for at most a GIL switch interval, and the other bots of the runner
keep answering frames and pings meanwhile (docs/server.md, "House bots").

This module imports only :mod:`bots`: it never sees the server's objects.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import sys
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from bots.registry import load_bot
from bots.sdk.bot import Bot, Decision, GameInfo, GameResult
from bots.sdk.remote import RemotePlayer, Target

log = logging.getLogger("bots.tools.house_runner")

T = TypeVar("T")

#: Worker threads for bot calls: more than the bots that may think at once, so that a
#: cheap call never queues behind another bot's long decision.
WORKERS = 64
#: Reconnection attempts of a house bot: while the runner lives its server lives (the
#: runner exits with it), so a house bot keeps trying far longer than an external one.
RECONNECTS = 100


def _drive(fn: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
    """Run the bot coroutine ``fn(*args)`` to its end on this worker thread, without an
    event loop: a bot's callbacks compute, they do not wait for I/O or timers (awaiting
    ``asyncio.sleep(0)`` is fine; a real wait raises ``RuntimeError``)."""
    coro = fn(*args)
    try:
        while True:
            if coro.send(None) is not None:
                coro.close()
                raise RuntimeError(f"{fn!r} waited for a future: house bots may not")
    except StopIteration as stop:
        result: T = stop.value
        return result


class Threaded(Bot):
    """Wraps a bot so that each of its callbacks runs in a worker thread.

    The transport awaits one callback at a time, so the wrapped bot is never entered by two
    threads at once."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner

    async def start(self, info: GameInfo) -> None:
        """Pass ``start`` on, in a worker thread."""
        await asyncio.to_thread(_drive, self.inner.start, info)

    async def observe(self, event: dict[str, Any]) -> None:
        """Pass ``observe`` on, in a worker thread."""
        await asyncio.to_thread(_drive, self.inner.observe, event)

    async def decide(self, decision: Decision) -> str:
        """Pass ``decide`` on, in a worker thread."""
        return await asyncio.to_thread(_drive, self.inner.decide, decision)

    async def rejected(self, action: str, code: str, reason: str) -> None:
        """Pass ``rejected`` on, in a worker thread."""
        await asyncio.to_thread(_drive, self.inner.rejected, action, code, reason)

    async def end(self, result: GameResult) -> None:
        """Pass ``end`` on, in a worker thread."""
        await asyncio.to_thread(_drive, self.inner.end, result)


@dataclass(slots=True)
class _Seat:
    ticket: str
    task: asyncio.Task[None]


class Runner:
    """Plays the launched seats; :meth:`handle` takes one command."""

    def __init__(self, report: Callable[[dict[str, Any]], None]) -> None:
        self.report = report
        self.url = ""
        self.headers: dict[str, str] = {}
        self.seats: dict[tuple[str, int], _Seat] = {}

    def handle(self, command: dict[str, Any]) -> None:
        """Carry out one command (see the module's docstring)."""
        op = command.get("op")
        if op == "config":
            self.url = str(command["url"])
            self.headers = {str(command["header"]): str(command["secret"])}
        elif op == "launch":
            room, seat, ticket = str(command["room"]), int(command["seat"]), str(command["ticket"])
            current = self.seats.get((room, seat))
            if current is not None and current.ticket == ticket and not current.task.done():
                return
            if current is not None:
                current.task.cancel()
            task = asyncio.create_task(
                self._play(room, seat, str(command["bot"]), ticket), name=f"{room}/{seat}"
            )
            self.seats[(room, seat)] = _Seat(ticket, task)
        elif op == "stop":
            stopped = self.seats.pop((str(command["room"]), int(command["seat"])), None)
            if stopped is not None:
                stopped.task.cancel()
        else:
            log.warning("unknown command %r", command)

    async def _play(self, room: str, seat: int, name: str, ticket: str) -> None:
        try:
            _, factory = load_bot(name)
            player = RemotePlayer(
                self.url,
                lambda: Threaded(factory()),
                name=name,
                target=Target(room=room, seat=seat, ticket=ticket),
                max_reconnects=RECONNECTS,
                headers=self.headers,
            )
            await player.play(1)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("house bot %s in room %s seat %d stopped: %s", name, room, seat, exc)
        finally:
            current = self.seats.get((room, seat))
            if current is not None and current.ticket == ticket:
                del self.seats[(room, seat)]
            self.report({"op": "done", "room": room, "seat": seat, "ticket": ticket})

    async def close(self) -> None:
        """Stop every bot and wait for them."""
        tasks = [s.task for s in self.seats.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _report(message: dict[str, Any]) -> None:
    with contextlib.suppress(OSError, ValueError):  # the server is gone: nobody to tell
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


async def serve(stdin: asyncio.StreamReader) -> None:
    """Read commands until ``stdin`` closes, then stop every bot."""
    asyncio.get_running_loop().set_default_executor(
        ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="house-bot")
    )
    runner = Runner(_report)
    try:
        while line := await stdin.readline():
            try:
                command = json.loads(line)
                runner.handle(command)
            except (ValueError, KeyError, TypeError) as exc:
                log.warning("bad command %r: %s", line[:200], exc)
    finally:
        await runner.close()


async def _main() -> None:
    loop = asyncio.get_running_loop()
    stdin = asyncio.StreamReader(limit=1 << 20)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
    await serve(stdin)


def main() -> None:
    """Entry point of ``python -m bots.tools.house_runner``."""
    # Ctrl-C in a terminal reaches the whole process group: the server stops its bots
    # by closing this runner's standard input, in its own time.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.basicConfig(
        level=logging.WARNING,  # never DEBUG: websockets would log the house secret header
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",  # the server logs each line
    )
    asyncio.run(_main())


if __name__ == "__main__":
    main()
