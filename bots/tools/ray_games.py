"""Tournament and self-play games as Ray tasks: on a Ray cluster, or on a local Ray
started for the run (``umpire selfplay --ray [ADDRESS]``, ``umpire tournament --ray``).

A task plays a batch of consecutive scheduled games (:class:`~bots.tools.arena.GameSpec`)
and returns them whole; the caller records them through its recorder, as it does for
games played in local processes. Every game's seed and its bots' seeds come from the run's
seed and the game's index (:func:`bots.tools.arena.schedule`), never from the worker that
plays it, so the games are the same with one worker or a hundred. Batches are yielded in
schedule order (at most a window of batches is in flight, so memory stays bounded), so
the knowledge base is written in the same order as a run without Ray.

A worker lost mid-task (its process killed, its node gone) makes Ray run the task again
(``max_retries``); its games reach the caller once, from the run that finished, and the
knowledge base's writes are keyed by the game (``server.store.selfplay_log.scheduled_key``),
so a game is never counted twice.

Ray is optional (the ``ray`` extra) and imported only here, when ``--ray`` is given.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import socket
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from bots.sdk.bot import BotError
from bots.tools.arena import GameSpec, PlayedGame, play_spec

#: How often Ray runs a task again whose worker died (a process killed, a node lost).
TASK_RETRIES = 3

#: The local Ray's shared-memory object store: games are small (a few hundred kB at most).
LOCAL_OBJECT_STORE = 100 * 1024 * 1024

#: The most games one task plays: enough to pay for Ray's scheduling (about a millisecond
#: a task here, docs/benchmarks.md), few enough to spread a short run over every worker.
MAX_BATCH = 32

#: Seconds to wait for a cluster's head to accept a connection before giving up.
CONNECT_TIMEOUT = 5.0

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")

INSTALL_HINT = (
    "--ray needs Ray: the ray extra of umpire-games (pip install -e '.[ray]' in its source folder)"
)


def batch_size(games: int, slots: int) -> int:
    """Games per task: about eight tasks per worker slot, at most :data:`MAX_BATCH`."""
    return max(1, min(MAX_BATCH, math.ceil(games / max(1, slots * 8))))


def play_batch(specs: Sequence[GameSpec]) -> list[PlayedGame]:
    """Play ``specs`` one after the other in this process (the body of a Ray task)."""

    async def play_all() -> list[PlayedGame]:
        return [await play_spec(spec) for spec in specs]

    return asyncio.run(play_all())


@contextmanager
def ray_session(address: str | None, workers: int) -> Iterator[Any]:
    """Connect to the Ray cluster at ``address``, or start a local Ray of ``workers``
    CPUs for the run (loopback only, no dashboard, a small object store) and stop it at
    the end. An already connected driver (``ray.init`` called by the caller) is used as
    it is and left connected. Yields the ``ray`` module.

    Ray's usage statistics are never sent (``RAY_USAGE_STATS_ENABLED=0``).
    """
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    where = head(address) if address else None
    if not address or (where is not None and where[0] in LOOPBACK_HOSTS):
        # Ray resolves 127.0.0.1 to the machine's outside address unless told that this is
        # a one-machine Ray: a local run, or a cluster on loopback, stays on loopback.
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    if where is not None:
        # ray.init waits for ever on an address where nothing listens: say so at once.
        try:
            socket.create_connection(where, timeout=CONNECT_TIMEOUT).close()
        except OSError as exc:
            raise BotError(f"cannot reach the Ray cluster at {address}: {exc}") from None
    try:
        import ray
    except ImportError:
        raise BotError(INSTALL_HINT) from None
    if ray.is_initialized():
        yield ray
        return
    try:
        if address:
            ray.init(address=address, logging_level=logging.WARNING)
        else:
            ray.init(
                num_cpus=workers,
                include_dashboard=False,
                object_store_memory=LOCAL_OBJECT_STORE,
                logging_level=logging.WARNING,
            )
    except (ConnectionError, ValueError, RuntimeError) as exc:
        what = f"the Ray cluster at {address}" if address else "a local Ray"
        raise BotError(f"cannot start or reach {what}: {exc}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


def head(address: str) -> tuple[str, int] | None:
    """The host and port of a Ray address (``host:port``, ``ray://host:port``, ``[::1]:port``),
    or None when it names none (``auto``: Ray finds the cluster itself)."""
    text = address.removeprefix("ray://")
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return None
    return host.strip("[]"), int(port)


def worker_slots(ray: Any) -> int:
    """How many tasks the cluster runs at once: its CPUs (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


async def stream_ray(
    specs: Sequence[GameSpec], ray: Any, batch: int | None = None
) -> AsyncIterator[PlayedGame]:
    """Play ``specs`` as Ray tasks of ``batch`` games (default :func:`batch_size`) on the
    connected cluster; yield every game in schedule order as its batch is done."""
    slots = worker_slots(ray)
    size = batch or batch_size(len(specs), slots)
    task = ray.remote(max_retries=TASK_RETRIES)(play_batch)
    batches = [list(specs[i : i + size]) for i in range(0, len(specs), size)]
    window = 2 * slots
    running: dict[int, asyncio.Future[list[PlayedGame]]] = {}
    submitted = 0
    for index in range(len(batches)):
        while submitted < len(batches) and submitted < index + window:
            ref = task.remote(batches[submitted])
            running[submitted] = asyncio.wrap_future(ref.future())
            submitted += 1
        try:
            played = await running.pop(index)
        except ray.exceptions.RayError as exc:
            for future in running.values():
                future.cancel()
            cause = exc.cause if isinstance(exc, ray.exceptions.RayTaskError) else exc
            if isinstance(cause, BotError):
                raise cause from None
            raise BotError(f"a Ray task failed: {cause}") from None
        for game in played:
            yield game
