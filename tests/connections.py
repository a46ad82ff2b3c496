"""The test clients' connections that a test left open, aborted when it ends.

A connection still open when its test's event loop closes is garbage-collected later,
in whichever test runs next on that worker, and Python's "unclosed transport"
``ResourceWarning`` then fails *that* test (``filterwarnings = error``): stop 42's CI
failed ``test_a_finished_game_after_a_restart`` for a socket some earlier test had left.
The scripted clients (``tests/server/wsclient.py``) register each transport they open;
``tests/conftest.py`` aborts a test's leftovers after its other fixtures (its servers)
are torn down, while its loop still runs, so every test cleans up after itself.
"""

from __future__ import annotations

import asyncio

__all__ = ["abort_leftovers", "track"]

#: every transport opened by a test client, with the loop it runs on
_opened: dict[asyncio.WriteTransport, asyncio.AbstractEventLoop] = {}


def track(transport: asyncio.WriteTransport) -> None:
    """Register a test client's ``transport``, opened on the running loop."""
    _opened[transport] = asyncio.get_running_loop()


async def abort_leftovers() -> int:
    """Abort the transports of the running loop still open; how many there were. The
    registry forgets every transport of this loop (and of loops already closed)."""
    loop = asyncio.get_running_loop()
    left = 0
    for transport, owner in list(_opened.items()):
        if owner is loop or owner.is_closed():
            del _opened[transport]
        if owner is loop and not transport.is_closing():
            transport.abort()
            left += 1
    if left:
        # abort() closes the socket in a callback of the loop: let it run
        await asyncio.sleep(0)
        await asyncio.sleep(0)
    return left
