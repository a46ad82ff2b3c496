"""A bot stopped while its server is down stops at once: it does not sit out the
reconnection backoff first (up to 10 s, with jitter 15 s). The house runner stops its
bots when the server that launched it dies (its standard input closes), and a runner
that outlived a SIGKILLed server by ten seconds failed a test once
(`test_a_sigkilled_server_leaves_no_runner_and_its_successor_relaunches_bots`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Generator

import pytest

import bots.client.driver as driver
from bots.baseline import PerudoRandom
from bots.sdk.remote import RemotePlayer, Target
from tests.ports import free_port

#: The delay between connection attempts here: longer than any test may take.
PATIENCE = 3600.0


def _slow(first: float, most: float) -> Callable[[], Generator[float]]:
    def delays() -> Generator[float]:
        while True:
            yield PATIENCE

    return delays


async def test_a_bot_stopped_in_its_reconnection_backoff_stops_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(driver, "backoff", _slow)
    tried = asyncio.Event()
    retryable = driver.Client._retryable

    def counted(client: driver.Client, exc: Exception) -> Exception | None:
        tried.set()
        return retryable(client, exc)

    monkeypatch.setattr(driver.Client, "_retryable", counted)
    player = RemotePlayer(
        f"ws://127.0.0.1:{free_port()}",
        PerudoRandom,
        name="patient",
        target=Target(game="perudo"),
        max_reconnects=100,
    )
    playing = asyncio.create_task(player.play())
    # Refused once: the client runs on into the backoff's wait before this task resumes.
    await asyncio.wait_for(tried.wait(), 30)
    playing.cancel()
    # A hang guard, not a timing: without the fix the task waits out PATIENCE.
    done, _ = await asyncio.wait({playing}, timeout=30)
    assert playing in done
    assert playing.cancelled()
