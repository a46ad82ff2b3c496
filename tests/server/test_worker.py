"""server.worker: blocking calls in a thread of their own, in order."""

from __future__ import annotations

import asyncio
import threading

import pytest

from server.worker import Worker


async def test_calls_run_in_order_in_one_other_thread() -> None:
    worker = Worker("test-worker")
    seen: list[tuple[int, str]] = []

    def note(n: int) -> int:
        seen.append((n, threading.current_thread().name))
        return n * n

    try:
        results = await asyncio.gather(*(worker.run(note, n) for n in range(50)))
    finally:
        worker.stop()
    assert results == [n * n for n in range(50)]
    assert [n for n, _ in seen] == list(range(50))
    assert {name for _, name in seen} == {"test-worker"}


async def test_an_exception_reaches_the_caller_and_the_worker_goes_on() -> None:
    worker = Worker("test-worker")

    def fail() -> None:
        raise ValueError("no")

    try:
        with pytest.raises(ValueError, match="no"):
            await worker.run(fail)
        assert await worker.run(lambda: 7) == 7
    finally:
        worker.stop()
