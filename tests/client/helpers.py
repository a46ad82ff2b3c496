"""Helpers for client tests: a running session on the test server."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from client_cli.session import Session


@contextlib.asynccontextmanager
async def running(port: int, name: str, **kwargs: Any) -> AsyncIterator[Session]:
    """A connected :class:`Session` to ``ws://127.0.0.1:port`` for the block's duration."""
    session = Session(f"ws://127.0.0.1:{port}", name, retry=0.05, **kwargs)
    task = asyncio.create_task(session.run())
    try:
        await asyncio.wait_for(session.ready.wait(), 5)
        yield session
    finally:
        await session.close()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
