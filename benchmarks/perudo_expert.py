"""Benchmark the Perudo expert: win rates with 95% intervals, and decision time.

Usage::

    python benchmarks/perudo_expert.py [--games 1000] [--rows all] [--jobs 2]

Rows (``--rows`` takes a comma-separated subset):

- ``simple``: expert-LEVEL vs 3 x perudo-simple, for each level (chance 25%);
- ``random``: expert-LEVEL vs 3 x perudo-random;
- ``headsup``: expert-LEVEL vs 1 x perudo-simple (chance 50%);
- ``mixed6``: 6 players: expert hard, normal, easy, 2 x perudo-simple, perudo-random;
- ``levels``: 3 players: expert easy, normal and hard (chance 33%);
- ``time``: the expert's decision time (median and 95th percentile, ms) by level.

Seats rotate game by game so no one keeps the first move; game ``i`` uses the engine
seed ``i`` and bot seeds derived from ``i``, so every row is reproducible.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.baseline import PerudoRandom, PerudoSimple
from bots.perudo.expert import PerudoExpert
from bots.sdk.bot import Bot, Decision
from bots.sdk.local import play_local

LEVELS = ("easy", "normal", "hard")


def make(spec: str, seed: int) -> Bot:
    """A fresh bot for ``spec`` (``simple``, ``random``, or an expert level)."""
    if spec == "simple":
        return PerudoSimple()
    if spec == "random":
        return PerudoRandom(seed=seed)
    return PerudoExpert(level=spec, seed=seed)


def play_block(lineup: tuple[str, ...], start: int, games: int) -> list[int]:
    """Wins by lineup position over games ``start .. start + games - 1``."""
    wins = [0] * len(lineup)
    n = len(lineup)

    async def run() -> None:
        for i in range(start, start + games):
            shift = i % n
            seats = [lineup[(s - shift) % n] for s in range(n)]  # position p sits at p+shift
            bots = [make(spec, i * 16 + s) for s, spec in enumerate(seats)]
            game = await play_local("perudo", {"seats": n}, bots, i.to_bytes(8, "big"))
            winner = game.outcome.ranks.index(1)
            wins[(winner - shift) % n] += 1

    asyncio.run(run())
    return wins


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(lineup: tuple[str, ...], games: int, jobs: int) -> list[int]:
    """Wins by lineup position over ``games`` games, split over ``jobs`` processes."""
    if jobs <= 1:
        return play_block(lineup, 0, games)
    size = math.ceil(games / jobs)
    with ProcessPoolExecutor(jobs) as pool:
        parts = pool.map(
            play_block,
            [lineup] * jobs,
            [k * size for k in range(jobs)],
            [max(0, min(size, games - k * size)) for k in range(jobs)],
        )
        return [sum(col) for col in zip(*parts, strict=True)]


def report(title: str, lineup: tuple[str, ...], games: int, jobs: int, show: int) -> None:
    """Print the win rate and interval of the first ``show`` lineup positions."""
    started = time.perf_counter()
    wins = play(lineup, games, jobs)
    took = time.perf_counter() - started
    for p in range(show):
        low, high = wilson(wins[p], games)
        name = lineup[p] if lineup[p] in ("simple", "random") else f"expert-{lineup[p]}"
        print(
            f"| {title} | {name} | {games} | {wins[p] / games:.1%} | "
            f"{low:.1%} - {high:.1%} | {took:.0f} s |",
            flush=True,
        )


class Timed(PerudoExpert):
    """The expert, timing each decision."""

    times: list[float]

    async def decide(self, decision: Decision) -> str:
        started = time.perf_counter()
        action = await super().decide(decision)
        self.times.append(time.perf_counter() - started)
        return action


def decision_times(level: str, games: int) -> list[float]:
    """Seconds per decision of expert-LEVEL against three perudo-simple."""
    times: list[float] = []

    async def run() -> None:
        for i in range(games):
            bot = Timed(level=level, seed=i)
            bot.times = times
            bots: list[Bot] = [bot, PerudoSimple(), PerudoSimple(), PerudoSimple()]
            await play_local("perudo", {"seats": 4}, bots, i.to_bytes(8, "big"))

    asyncio.run(run())
    return times


def _each_level(title: str, opponents: tuple[str, ...]) -> Callable[[int, int], None]:
    """A row that reports every level against ``opponents`` in turn."""

    def row(games: int, jobs: int) -> None:
        for lvl in LEVELS:
            report(title, (lvl, *opponents), games, jobs, 1)

    return row


ROWS: dict[str, Callable[[int, int], None]] = {
    "simple": _each_level("vs 3 x perudo-simple", ("simple", "simple", "simple")),
    "random": _each_level("vs 3 x perudo-random", ("random", "random", "random")),
    "headsup": _each_level("heads-up vs perudo-simple", ("simple",)),
    "mixed6": lambda g, j: report(
        "6 players mixed", ("hard", "normal", "easy", "simple", "simple", "random"), g, j, 6
    ),
    "levels": lambda g, j: report("levels", ("hard", "normal", "easy"), g, j, 3),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rows", default="all")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rows = [*ROWS, "time"] if args.rows == "all" else args.rows.split(",")
    print("| row | bot | games | wins | 95% interval | time |")
    print("| --- | --- | --- | --- | --- | --- |")
    for row in rows:
        if row == "time":
            continue
        ROWS[row](args.games, args.jobs)
    if "time" in rows:
        print("\n| level | decisions | median ms | p95 ms |")
        print("| --- | --- | --- | --- |")
        for lvl in LEVELS:
            times = sorted(decision_times(lvl, max(20, args.games // 10)))
            p95 = times[int(0.95 * (len(times) - 1))]
            print(
                f"| {lvl} | {len(times)} | {statistics.median(times) * 1000:.2f} | "
                f"{p95 * 1000:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
