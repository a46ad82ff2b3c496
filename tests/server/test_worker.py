"""server.store.worker: blocking calls in a thread of their own, in order."""

from __future__ import annotations

import asyncio
import threading

import pytest

from server.store.worker import Worker


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


async def test_then_runs_in_the_loops_thread_before_the_caller_resumes() -> None:
    worker = Worker("test-worker")
    seen: list[tuple[str, object, str]] = []

    def then(result: int) -> None:
        seen.append(("then", result, threading.current_thread().name))

    try:
        result = await worker.run(lambda: 6 * 7, then=then)
        seen.append(("caller", result, threading.current_thread().name))
    finally:
        worker.stop()
    main = threading.current_thread().name
    assert seen == [("then", 42, main), ("caller", 42, main)]


async def test_then_is_skipped_on_failure_and_its_own_error_reaches_the_caller() -> None:
    worker = Worker("test-worker")
    called: list[object] = []

    def fail() -> int:
        raise ValueError("no")

    def broken(result: int) -> None:
        raise RuntimeError(f"then failed on {result}")

    try:
        with pytest.raises(ValueError, match="no"):
            await worker.run(fail, then=called.append)
        assert called == []
        with pytest.raises(RuntimeError, match="then failed on 7"):
            await worker.run(lambda: 7, then=broken)
        assert await worker.run(lambda: 8) == 8
    finally:
        worker.stop()
