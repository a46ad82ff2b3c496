"""Which asyncio event loop runs the server: asyncio's own (the default) or uvloop.

uvloop (libuv under asyncio's API; the ``uvloop`` extra of umpire-games:
``pip install -e '.[uvloop]'`` in the source folder) runs the same server with the same
behaviour. Measured on this project's load (``docs/benchmarks.md``,
``server_load --loop uvloop``; the runs: ``docs/benchmarks-history.md``, "Speed, round 3"),
it executes 12% fewer instructions on the event loop but spends about the same CPU per
action and gives a worse saturated p99 (larger group commits), so it is an option, not the
default.
"""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

#: The choices of ``umpire serve --loop``; ``auto`` is uvloop when it is installed.
LOOPS = ("asyncio", "uvloop", "auto")


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
            raise RuntimeError(
                "--loop uvloop needs the uvloop package: the uvloop extra of umpire-games "
                "(pip install -e '.[uvloop]' in its source folder)"
            )
        return None
    import uvloop

    return uvloop.new_event_loop


def run_loop(main: Coroutine[Any, Any, T], choice: str = "asyncio") -> T:
    """Run ``main`` to completion on the event loop ``choice`` names."""
    factory = loop_factory(choice)
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)
