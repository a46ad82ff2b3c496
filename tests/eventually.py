"""The one way a test waits for something that happens elsewhere (a server task, a broker,
a subprocess, a textual app): :func:`eventually` polls a probe until its value will do.

A test never sleeps to let something happen: a fixed sleep is too short on a loaded machine
and too long everywhere else. It polls instead, and a wait that never ends fails with what
it waited for and the value it saw last. A sleep that stays in a test is part of what the
test checks (a real timer running out, traffic spaced in time) and says so.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: seconds between two looks, and the default patience
INTERVAL = 0.02
TIMEOUT = 10.0

_ANY: Any = object()


def _done(value: object, equals: object) -> bool:
    return bool(value) if equals is _ANY else value == equals


#: what a wait is for, in words: text, or a function that says it when the wait fails
What = str | Callable[[], str] | None


def _failure(what: What, timeout: float, last: object, equals: object) -> AssertionError:
    said = what() if callable(what) else what
    wanted = "" if equals is _ANY else f" (wanted {equals!r})"
    return AssertionError(
        f"{said or 'the condition'} did not hold within {timeout:g} s; "
        f"the last value was {last!r}{wanted}"
    )


async def eventually(
    probe: Callable[[], Any],
    *,
    equals: Any = _ANY,
    timeout: float = TIMEOUT,
    interval: float = INTERVAL,
    what: What = None,
    pause: Callable[[float], Awaitable[Any]] | None = None,
) -> Any:
    """Call ``probe`` (a function, or a coroutine function) until its value is true (or
    equal to ``equals``, when given); return that value.

    Fail with :class:`AssertionError` after ``timeout`` seconds, naming ``what`` (the
    awaited condition, in words, or a function saying it then) and the probe's last
    value. ``pause(interval)`` waits between two looks (``asyncio.sleep``; a textual test
    passes ``pilot.pause`` so that the app runs meanwhile).
    """
    wait = asyncio.sleep if pause is None else pause
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = probe()
        if inspect.isawaitable(value):
            value = await value
        if _done(value, equals):
            return value
        if loop.time() >= deadline:
            raise _failure(what, timeout, value, equals)
        await wait(interval)


def eventually_sync(
    probe: Callable[[], T],
    *,
    equals: Any = _ANY,
    timeout: float = TIMEOUT,
    interval: float = INTERVAL,
    what: What = None,
) -> T:
    """:func:`eventually` for code without an event loop (a fixture starting a process):
    call ``probe`` until its value will do, sleeping ``interval`` between looks."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if _done(value, equals):
            return value
        if time.monotonic() >= deadline:
            raise _failure(what, timeout, value, equals)
        time.sleep(interval)
