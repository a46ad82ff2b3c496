"""The house bot runner: the process in which a server's house bots play.

``umpire serve`` starts one or more runners (``python -m bots.tools.house_runner``, see
:mod:`server.rooms.house`) and writes them commands, one JSON object a line, on their standard
input:

- ``{"op": "config", "url": ..., "header": ..., "secret": ..., "advisor": ..., "warm": ...}``:
  where the server is and the header that marks a house connection (sent first, again
  after a restart); optionally the advisor that answers hints, as ``"module:function"``
  (see "Hints" below), and whether to warm it up now;
- ``{"op": "launch", "room": ..., "seat": ..., "bot": ..., "ticket": ...}``: play that seat
  with that bot to the end of the game (a bot already playing the seat with another ticket
  is stopped first; the same ticket again changes nothing);
- ``{"op": "stop", "room": ..., "seat": ...}``: stop the bot playing that seat;
- ``{"op": "hint", "id": ..., "view": ..., "events": ..., "options": {...}}``: ask the
  advisor for a seat's hint (see "Hints").

Each bot is a :class:`~bots.sdk.remote.RemotePlayer`, an ordinary protocol client: it says
hello as its house identity (the header is its credential, no token), joins or resumes with
its ticket, and reconnects with backoff if its connection drops. When a bot's game is over
(or it gives up) the runner writes ``{"op": "done", "room", "seat", "ticket"}`` on its
standard output. When its standard input closes (the server stopped, or died: the kernel
closes the pipe of a killed process), or its parent process is gone, the runner stops
every bot and exits (after :data:`CLOSE_LIMIT` seconds at most), so no bot outlives its
server.

Every call into a bot (``start``, ``observe``, ``decide``, ...) runs in a worker thread
(:class:`Threaded`), so a bot thinking for a second (``kriegspiel-meta:hard``) holds the
runner's event loop for at most a GIL switch interval, and the other bots of the runner
keep answering frames and pings meanwhile (docs/server.md, "House bots").

Hints: the server's ``hint`` advice is computed here too, never in the server's event loop.
The advisor named in ``config`` is imported once (in a worker thread); with ``"warm":
true`` its module's ``warm()``, if it has one, runs at once too, so that no hint waits for
a table loaded or computed at first use (hints that come meanwhile wait for it). Each
``hint`` runs ``advisor(view, events, **options)`` in a worker thread, several at once,
and is answered on standard output with its ``id``: ``{"op": "hint", "id": ..., "hint":
{...}}``, or ``{"op": "hint", "id": ..., "error": "..."}`` when the advisor has no advice
(it raised ``ValueError``), failed, or none was configured. The server bounds the time it
waits (``server.rooms.house``); an answer nobody waits for any more is dropped there.

This module imports only :mod:`bots`: it never sees the server's objects.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import json
import logging
import os
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
#: Threads that work out hints: their own pool, so that hints never hold up the bots'.
HINT_WORKERS = 2
#: Reconnection attempts of a house bot: while the runner lives its server lives (the
#: runner exits with it), so a house bot keeps trying far longer than an external one.
RECONNECTS = 100
#: Seconds between looks at the runner's parent (:func:`_watch_parent`).
PARENT_POLL = 1.0
#: Seconds the runner waits for its bots to stop once told to; then it leaves anyway.
CLOSE_LIMIT = 5.0
#: The longest command line read (a hint carries a seat's whole stream); the server sends
#: none longer (``server.rooms.house.MAX_HINT_BYTES`` is below it).
LINE_LIMIT = 1 << 24

#: Advice for a seat: ``advisor(view, events, **options)`` returns a ``hint`` frame's
#: fields, or raises ``ValueError`` when it has none to give.
Advisor = Callable[..., dict[str, Any]]


def load_advisor(spec: str, warm: bool = False) -> Advisor:
    """The advisor named ``spec`` (``"module:function"``); with ``warm``, its module's
    ``warm()`` (if it has one) has run: the tables a first hint would wait for are loaded.
    Raise ``ValueError`` for a malformed name, ``ImportError`` or ``AttributeError`` for
    one that names nothing."""
    module_name, colon, name = spec.partition(":")
    if not (module_name and colon and name):
        raise ValueError(f"an advisor is named module:function, not {spec!r}")
    module = importlib.import_module(module_name)
    advisor: Advisor = getattr(module, name)
    prepare = getattr(module, "warm", None)
    if warm and callable(prepare):
        prepare()
    return advisor


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
        #: the advisor being loaded (and warmed), or loaded: ``None`` inside if it failed
        self.advisor: asyncio.Task[Advisor | None] | None = None
        #: the hints being worked out, in a pool of their own (never the bots' threads)
        self.hints: set[asyncio.Task[None]] = set()
        self._hint_pool = ThreadPoolExecutor(HINT_WORKERS, thread_name_prefix="hint")

    def handle(self, command: dict[str, Any]) -> None:
        """Carry out one command (see the module's docstring)."""
        op = command.get("op")
        if op == "config":
            self.url = str(command["url"])
            self.headers = {str(command["header"]): str(command["secret"])}
            if command.get("advisor"):
                self._load_advisor(str(command["advisor"]), bool(command.get("warm")))
        elif op == "hint":
            self._ask(command)
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

    def _load_advisor(self, spec: str, warm: bool) -> None:
        async def load() -> Advisor | None:
            try:
                return await asyncio.to_thread(load_advisor, spec, warm)
            except Exception as exc:
                log.warning("no hints: cannot load the advisor %r: %r", spec, exc)
                return None

        self.advisor = asyncio.create_task(load(), name="advisor")

    def _ask(self, command: dict[str, Any]) -> None:
        ident = command["id"]
        view, events = dict(command["view"]), list(command["events"])
        options = dict(command.get("options") or {})
        task = asyncio.create_task(self._hint(ident, view, events, options), name=f"hint-{ident}")
        self.hints.add(task)
        task.add_done_callback(self.hints.discard)

    async def _hint(
        self, ident: Any, view: dict[str, Any], events: list[Any], options: dict[str, Any]
    ) -> None:
        """Work out one hint in a worker thread (after the advisor's warm-up) and answer."""
        answer: dict[str, Any]
        try:
            advisor = None if self.advisor is None else await asyncio.shield(self.advisor)
            if advisor is None:
                raise ValueError("this server gives no hints")
            work = functools.partial(advisor, view, events, **options)
            loop = asyncio.get_running_loop()
            answer = {"hint": await loop.run_in_executor(self._hint_pool, work)}
        except ValueError as exc:
            answer = {"error": str(exc)}
        except Exception as exc:
            log.warning("the advisor failed on a hint", exc_info=True)
            answer = {"error": f"the advisor failed ({type(exc).__name__})"}
        self.report({"op": "hint", "id": ident, **answer})

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
        """Stop every bot and hint, and wait for them."""
        tasks = [*(s.task for s in self.seats.values()), *self.hints]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _report(message: dict[str, Any]) -> None:
    with contextlib.suppress(OSError, ValueError):  # the server is gone: nobody to tell
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


async def serve(stdin: asyncio.StreamReader) -> None:
    """Read commands until ``stdin`` closes, then stop every bot (waiting at most
    :data:`CLOSE_LIMIT` seconds for them)."""
    asyncio.get_running_loop().set_default_executor(
        ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="house-bot")
    )
    runner = Runner(_report)
    try:
        while True:
            try:
                line = await stdin.readline()
            except ValueError:  # longer than LINE_LIMIT: dropped (its rest reads as junk)
                log.warning("a command longer than %d bytes was dropped", LINE_LIMIT)
                continue
            if not line:
                break
            try:
                command = json.loads(line)
                runner.handle(command)
            except (ValueError, KeyError, TypeError) as exc:
                log.warning("bad command %r: %s", line[:200], exc)
    finally:
        closing = asyncio.create_task(runner.close())
        await asyncio.wait({closing}, timeout=CLOSE_LIMIT)  # (never cancels: no second wait)
        if not closing.done():
            stuck = [task.get_name() for task in asyncio.all_tasks() if not task.done()]
            log.warning("bots still running %.0f s after the stop: %s", CLOSE_LIMIT, stuck)


async def _watch_parent(stdin: asyncio.StreamReader, parent: int) -> None:
    """End ``stdin`` when the process that started the runner (``UMPIRE_SERVER_PID``,
    which the server sets, else the parent now) is gone though its standard input is
    still open: a process that inherited the pipe's other end would otherwise keep the
    runner and its bots alive (a runner outlived the suite that started it, its parent
    gone, its input never closed)."""
    while os.getppid() == parent:
        await asyncio.sleep(PARENT_POLL)
    log.warning("the server (process %d) is gone, its pipe still open: stopping", parent)
    stdin.feed_eof()


async def _main() -> None:
    loop = asyncio.get_running_loop()
    stdin = asyncio.StreamReader(limit=LINE_LIMIT)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
    parent = int(os.environ.get("UMPIRE_SERVER_PID") or os.getppid())
    watching = asyncio.create_task(_watch_parent(stdin, parent), name="parent")
    await serve(stdin)
    watching.cancel()
    _exit_now()


def _exit_now() -> None:
    """Leave at once, without joining the worker threads: a thread still computing (the
    advisor's warm-up, a hard bot's decision) would hold the runner alive for seconds
    after its server is gone (``asyncio.run`` and the interpreter's exit both join every
    pool's threads). Every bot task has been cancelled; what is left to lose is output."""
    logging.shutdown()
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(0)


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
