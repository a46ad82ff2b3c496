"""The group commit both stores share: writes queue up, the writer commits them together.

A store's writer task calls :func:`commit_in_groups` with its queue. Each queued write
carries a future that is resolved only once the write is durable (or failed), so a write
is never acknowledged before its commit. When a shared transaction fails, every write of
the group is redone in a transaction of its own, so only the faulty one fails and its
neighbours still commit. ``None`` on the queue stops the loop after the writes before it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Generic, Protocol, TypeVar

from server.errors import NameTaken, StoreError

log = logging.getLogger(__name__)


class Pending(Protocol):
    """A queued write: its future resolves when the write is committed or failed."""

    @property
    def done(self) -> asyncio.Future[None]: ...


W = TypeVar("W", bound=Pending)
T = TypeVar("T")


class WriteQueue(Generic[T]):
    """The writes waiting for the writer task: a deque and the one waiting task's future.

    The writer task is the queue's only reader, so none of ``asyncio.Queue``'s bookkeeping
    (getters' list, unfinished-task count, its event) is needed; a put is an append, and
    wakes the writer only when it waits."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        """Queue ``item``; wake the reader if it waits."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def get(self) -> T:
        """The oldest item, waiting for one if there is none (one reader only)."""
        items = self._items
        while not items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        return items.popleft()

    def get_nowait(self) -> T:
        """The oldest item; raise ``IndexError`` when there is none."""
        return self._items.popleft()

    def empty(self) -> bool:
        """True when nothing is queued."""
        return not self._items


async def commit_in_groups(
    queue: WriteQueue[W | None],
    max_batch: int,
    transaction: Callable[[list[W]], Awaitable[None]],
    fail: Callable[[W, Exception], None],
    committed: Callable[[float, int], None],
) -> None:
    """Commit the queued writes, up to ``max_batch`` per ``transaction``, until ``None``.

    ``fail`` settles a write that failed on its own; ``committed`` hears each group
    commit's duration and size."""
    stopping = False
    while not stopping:
        first = await queue.get()
        if first is None:
            break
        batch = [first]
        while len(batch) < max_batch and not queue.empty():
            item = queue.get_nowait()
            if item is None:
                stopping = True
                break
            batch.append(item)
        started = time.perf_counter()
        try:
            await transaction(batch)
        except Exception:
            for item in batch:
                try:
                    await transaction([item])
                except Exception as exc:
                    if not item.done.done():
                        fail(item, exc)
                else:
                    committed(time.perf_counter() - started, 1)
                    _succeed(item)
            continue
        committed(time.perf_counter() - started, len(batch))
        for item in batch:
            _succeed(item)


def _succeed(item: Pending) -> None:
    if not item.done.done():
        item.done.set_result(None)


def write_failed(
    store: str, done: asyncio.Future[None], exc: Exception, first: bool = True
) -> None:
    """Log a failed write and fail its future with a :class:`StoreError` (caused by
    ``exc``). A :class:`NameTaken` is an answer, not a failure: it is raised as it is.
    Only the ``first`` failure of a run (since the last commit) is a warning; the
    others (a paused room's retries) are logged at DEBUG."""
    if isinstance(exc, NameTaken):
        done.set_exception(exc)
        return
    level = logging.WARNING if first else logging.DEBUG
    log.log(level, "store %s: a write failed: %r", store, exc)
    error = StoreError(f"write failed: {exc}")
    error.__cause__ = exc
    done.set_exception(error)
