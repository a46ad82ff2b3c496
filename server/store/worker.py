"""A thread of its own that runs blocking calls in order for the event loop.

``await worker.run(fn, *args)`` costs one hand-off each way (a queue put, and
``call_soon_threadsafe`` back), less than ``loop.run_in_executor``'s pool machinery; the
SQLite store's writer runs every group commit through one (:mod:`server.store.contract`).

``then`` (keyword) is called with the result in the loop's thread as soon as the result is
back, before the awaiting task is even woken: the SQLite writer settles a group commit's
writes there, so that the rooms waiting for them wake one turn of the loop sooner (under
load a turn of the loop is milliseconds long).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from queue import SimpleQueue
from typing import Any, TypeVar

T = TypeVar("T")

_Then = Callable[[Any], None] | None
_Call = tuple[
    asyncio.AbstractEventLoop, asyncio.Future[Any], Callable[..., Any], tuple[Any, ...], _Then
]


class Worker:
    """One thread running the calls handed to it, one after the other."""

    def __init__(self, name: str) -> None:
        self._calls: SimpleQueue[_Call | None] = SimpleQueue()
        self._thread = threading.Thread(target=self._main, name=name, daemon=True)
        self._thread.start()

    async def run(
        self, fn: Callable[..., T], *args: Any, then: Callable[[T], None] | None = None
    ) -> T:
        """Run ``fn(*args)`` in the thread after every call handed over before it; return
        its result or raise its exception. If it succeeds, ``then(result)`` is called in
        the loop's thread first, in the same turn of the loop as the result comes back
        (an exception from ``then`` is raised here instead of the result)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        self._calls.put((loop, done, fn, args, then))
        return await done

    def stop(self) -> None:
        """End the thread once the calls already handed over are done."""
        self._calls.put(None)

    def _main(self) -> None:
        while (call := self._calls.get()) is not None:
            loop, done, fn, args, then = call
            try:
                result = fn(*args)
            except BaseException as exc:  # handed to the caller, whatever it is
                _reply(loop, _set_exception, done, exc)
            else:
                if then is None:
                    _reply(loop, _set_result, done, result)
                else:
                    _reply(loop, _then_set_result, done, (then, result))


def _reply(
    loop: asyncio.AbstractEventLoop,
    setter: Callable[[asyncio.Future[Any], Any], None],
    done: asyncio.Future[Any],
    value: Any,
) -> None:
    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting
        loop.call_soon_threadsafe(setter, done, value)


def _set_result(done: asyncio.Future[Any], value: Any) -> None:
    if not done.done():
        done.set_result(value)


def _then_set_result(done: asyncio.Future[Any], value: tuple[Callable[[Any], None], Any]) -> None:
    then, result = value
    try:
        then(result)
    except BaseException as exc:  # handed to the caller instead of the result
        _set_exception(done, exc)
    else:
        _set_result(done, result)


def _set_exception(done: asyncio.Future[Any], exc: BaseException) -> None:
    if not done.done():
        done.set_exception(exc)
