"""Which asyncio event loop runs the server: uvloop when it is installed, else asyncio's.

uvloop (libuv under asyncio's API) does the same work as asyncio's own loop with less
interpreter time per callback, socket read and write; the server does not depend on it
(``--loop asyncio`` and a machine without the package run asyncio's loop, with the same
behaviour). ``docs/benchmarks.md`` ("Speed, round 3") has what it saves per action.
"""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

#: The choices of ``umpire serve --loop``.
LOOPS = ("auto", "uvloop", "asyncio")


def loop_factory(choice: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The factory of the event loop ``choice`` names (None: asyncio's default).

    ``auto`` is uvloop when it can be imported; ``uvloop`` without the package is an
    error that says so."""
    if choice not in LOOPS:
        raise ValueError(f"unknown event loop {choice!r} (one of {', '.join(LOOPS)})")
    if choice == "asyncio":
        return None
    if importlib.util.find_spec("uvloop") is None:
        if choice == "uvloop":
            raise RuntimeError("--loop uvloop needs the uvloop package (pip install uvloop)")
        return None
    import uvloop

    return uvloop.new_event_loop


def run_loop(main: Coroutine[Any, Any, T], choice: str = "auto") -> T:
    """Run ``main`` to completion on the event loop ``choice`` names."""
    factory = loop_factory(choice)
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)
