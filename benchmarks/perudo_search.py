"""Benchmark perudo-search's cost: decisions, rollouts and games per CPU second.

Usage::

    python benchmarks/perudo_search.py [--games 20] [--seats 4] [--nodes 1000]

Plays ``--games`` local games of perudo-search (``--nodes`` rollouts a decision) against
perudo-simple in the other seats (seat rotating, game ``i`` seeded by ``i``) in this one
process, and prints the search's decisions, the share of them the solved endgames
answered, its CPU milliseconds per searched decision (median and 95th percentile),
rollouts per CPU second, and whole games per CPU second. Times are the process's CPU
time (``time.process_time``), so a busy machine changes them less than wall time; the
win rates are measured by ``umpire tournament`` (docs/bots.md).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.baseline import PerudoSimple
from bots.local import play_local
from bots.perudo_search import PerudoSearch
from bots.sdk import Bot, Decision


class Timed(PerudoSearch):
    """perudo-search, recording each decision's CPU time and rollouts."""

    times: list[float] = []
    nodes_spent: list[int] = []
    solved = 0

    async def decide(self, decision: Decision) -> str:
        start = time.process_time()
        action = await super().decide(decision)
        if self.last_search is None:
            Timed.solved += 1
        else:
            Timed.times.append(time.process_time() - start)
            Timed.nodes_spent.append(self.last_search.nodes)
        return action


async def run(games: int, seats: int, nodes: int) -> float:
    """Play the games; return their total CPU seconds."""
    start = time.process_time()
    for i in range(games):
        bots: list[Bot] = [PerudoSimple() for _ in range(seats)]
        bots[i % seats] = Timed(seed=i, budget=nodes)
        await play_local("perudo", {"seats": seats}, bots, i.to_bytes(8, "big"))
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--nodes", type=int, default=1000)
    args = parser.parse_args(argv)
    cpu = asyncio.run(run(args.games, args.seats, args.nodes))
    times = sorted(Timed.times)
    searched = len(times)
    p95 = times[min(searched - 1, int(0.95 * searched))]
    print(f"{args.games} games, {args.seats} seats, nodes={args.nodes}, {cpu:.1f} s CPU")
    print(f"decisions: {searched} searched, {Timed.solved} from the solved endgames")
    print(
        f"per searched decision: median {1000 * statistics.median(times):.1f} ms, "
        f"95th percentile {1000 * p95:.1f} ms, "
        f"{statistics.mean(Timed.nodes_spent):.0f} rollouts"
    )
    print(f"rollouts per CPU second: {sum(Timed.nodes_spent) / sum(times):,.0f}")
    print(f"games per CPU second: {args.games / cpu:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
