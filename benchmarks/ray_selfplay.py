"""Benchmark self-play on Ray: games per second with 1 and 2 workers, and the cost of
Ray's scheduling per task and per game.

Usage::

    python -m benchmarks.ray_selfplay [--games 400] [--workers 1,2] [--tasks 2000]

Plays four-player Perudo with ``perudo-random`` (the schedule of ``umpire selfplay --seed
bench``), first in this process without Ray, then on a local Ray of 1 and 2 CPUs started
by the benchmark (loopback only, no dashboard; its start is not timed), each game logged
to a fresh SQLite knowledge base by the same code as ``umpire selfplay --ray``, in tasks of
:func:`bots.tools.ray_games.batch_size` games, then of one game each. ``played only``
drops the logging: the games returned to the driver and nothing written. The scheduling
cost is ``--tasks`` empty tasks, at most twice the CPUs in flight, as ``stream_ray``
submits them: the round trip of a task that does nothing.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from benchmarks.common import arguments, machine
from bots.tools.arena import GameSpec, PlayedGame, schedule, stream_local
from bots.tools.cli import record_games
from bots.tools.ray_games import batch_size, ray_session, stream_ray, worker_slots
from server.cli import open_recorder

GAME = ("perudo", {"seats": 4}, ["perudo-random"], 4)


def specs(games: int) -> list[GameSpec]:
    game, options, bots, seats = GAME
    return schedule(game, options, bots, seats, games, "bench")


def timed(
    games: AsyncIterator[PlayedGame], todo: Sequence[GameSpec], log: bool
) -> tuple[float, float]:
    """Seconds to consume ``games`` (logging each to a fresh knowledge base if ``log``),
    and the driver's CPU seconds (this process: its share of the work per game bounds how
    many games a second one driver can take, however many workers play them)."""

    async def run() -> None:
        if not log:
            async for _ in games:
                pass
            return
        with tempfile.TemporaryDirectory() as folder:
            async with open_recorder(str(Path(folder) / "bench.db")) as record:
                await record_games(list(todo), games, record, {"source": "benchmark"}, None)

    start, cpu = time.perf_counter(), time.process_time()
    asyncio.run(run())
    return time.perf_counter() - start, time.process_time() - cpu


def line(what: str, games: int, seconds: float, cpu: float, log: bool) -> str:
    return (
        f"{what}: {games / seconds:.1f} games/s, driver CPU {1e3 * cpu / games:.2f} ms "
        f"per game ({'logged' if log else 'played only'})"
    )


def empty() -> None:
    """A task that does nothing: what remains of it is Ray's cost."""


def scheduling(ray: Any, tasks: int) -> tuple[float, float]:
    """Seconds per empty task, at most twice the cluster's CPUs in flight, and the
    driver's CPU seconds per task."""
    remote = ray.remote(empty)
    window = 2 * worker_slots(ray)
    ray.get([remote.remote() for _ in range(window)])  # warm the workers
    start, cpu = time.perf_counter(), time.process_time()
    running = [remote.remote() for _ in range(window)]
    submitted = window
    while running:
        done, running = ray.wait(running, num_returns=1)
        ray.get(done)
        if submitted < tasks:
            running.append(remote.remote())
            submitted += 1
    return (time.perf_counter() - start) / tasks, (time.process_time() - cpu) / tasks


def main() -> None:
    """Run the benchmark and print a line per mode."""
    parser = arguments(__doc__, games=400)
    parser.add_argument("--workers", default="1,2", help="local Ray CPUs to try (1,2)")
    parser.add_argument("--tasks", type=int, default=2000, help="empty tasks to time")
    args = parser.parse_args()
    todo = specs(args.games)
    print(f"{machine()}; {args.games} games of perudo, 4 x perudo-random")
    for log in (True, False):
        seconds, cpu = timed(stream_local(todo, 1), todo, log)
        print(line("no Ray, one process", args.games, seconds, cpu, log))
    for workers in (int(w) for w in args.workers.split(",")):
        with ray_session(None, workers) as ray:
            slots = worker_slots(ray)
            # warm: start the workers and import the bots in them, untimed
            timed(stream_ray(specs(2 * slots), ray, 1), [], False)
            for batch in (batch_size(args.games, slots), 1):
                for log in (True, False):
                    seconds, cpu = timed(stream_ray(todo, ray, batch), todo, log)
                    what = f"Ray, {workers} CPU(s), tasks of {batch} games"
                    print(line(what, args.games, seconds, cpu, log))
            per_task, cpu = scheduling(ray, args.tasks)
            batch = batch_size(args.games, slots)
            print(
                f"Ray, {workers} CPU(s): an empty task takes {1e3 * per_task:.2f} ms, "
                f"{1e3 * cpu:.2f} ms of the driver's CPU ({1e3 * per_task / batch:.3f} ms "
                f"per game in tasks of {batch})"
            )


if __name__ == "__main__":
    main()
