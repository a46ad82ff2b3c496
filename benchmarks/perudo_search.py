"""Benchmark perudo-search's cost: decisions, rollouts and games per CPU second.

Usage::

    python benchmarks/perudo_search.py [--games 20] [--seats 4] [--nodes 1000]
    python benchmarks/perudo_search.py --calibration 300

Plays ``--games`` local games of perudo-search (``--nodes`` rollouts a decision) against
perudo-simple in the other seats (seat rotating, game ``i`` seeded by ``i``) in this one
process, and prints the search's decisions, the share of them the solved endgames
answered, its CPU milliseconds per searched decision (median and 95th percentile),
rollouts per CPU second, and whole games per CPU second. Times are the process's CPU
time (``time.process_time``), so a busy machine changes them less than wall time; the
win rates are measured by ``umpire tournament`` (docs/bots.md).

``--calibration N`` measures instead how well the search's worlds predict the truth of
an opponent's bid: in ``N`` heads-up situations (five dice each) where perudo-simple
opened, the other seat raised as perudo-simple would and perudo-simple raised again, it
estimates P(that last bid is true) from 100 worlds, with the expert's inference alone
(one proposal a world) and with the search's reweighting (8 proposals), and exactly with
hard's reading of the bids (``bots.perudo.expert.reading``), and prints the Brier score
of each and the true rate by estimated band.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.baseline import PerudoSimple
from bots.perudo.expert.reading import read_bids
from bots.perudo.expert.view import TableView
from bots.perudo.search import PerudoSearch
from bots.perudo.search.rollout import Deal, Rules, simple_action
from bots.perudo.search.worlds import sample_deal, world_rng
from bots.sdk.bot import Bot, Decision
from bots.sdk.local import play_local
from server.games.perudo_actions import Bid, count_matching


class Timed(PerudoSearch):
    """perudo-search, recording each decision's CPU time and rollouts."""

    times: ClassVar[list[float]] = []
    nodes_spent: ClassVar[list[int]] = []
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


def _situations(count: int) -> list[tuple[TableView, bool]]:
    """Heads-up views (seat 0 to act) after simple, simple, simple bids, and the truth."""
    rng = random.Random(2)
    rules = Rules(10, 5)
    out: list[tuple[TableView, bool]] = []
    while len(out) < count:
        me = tuple(rng.randint(1, 6) for _ in range(5))
        them = tuple(rng.randint(1, 6) for _ in range(5))
        hands = (me, them)
        opening = Bid.parse(simple_action(them, Deal(hands, 1, None, None, rules), 1))
        reply = simple_action(me, Deal(hands, 0, (1, opening), None, rules), 0)
        if reply == "dudo":
            continue
        raised = simple_action(them, Deal(hands, 1, (0, Bid.parse(reply)), None, rules), 1)
        if raised == "dudo":
            continue
        bid = Bid.parse(raised)
        bids = [(1, opening), (0, Bid.parse(reply)), (1, bid)]
        view = TableView.build(0, me, [5, 5], bids)
        out.append((view, count_matching(me + them, bid, True) >= bid.quantity))
    return out


def calibration(count: int) -> None:
    """Print the Brier score and bands of both world samplers and of hard's reading (see
    the module)."""
    cases = _situations(count)
    for label, proposals in (("inference alone", 1), ("reweighted", 8)):
        estimates: list[tuple[float, bool]] = []
        for i, (view, truth) in enumerate(cases):
            assert view.last is not None
            bid = view.last[1]
            hits = 0
            for k in range(100):
                deal = sample_deal(view, world_rng(i, k), proposals=proposals)
                hits += count_matching(deal.hands[0] + deal.hands[1], bid, True) >= bid.quantity
            estimates.append((hits / 100, truth))
        _print_calibration(label, estimates)
    reading = [(read_bids(v, {}).probability(v.bids[-1][1]), truth) for v, truth in cases]
    _print_calibration("perudo-expert:hard's reading", reading)


def _print_calibration(label: str, estimates: list[tuple[float, bool]]) -> None:
    """Print the Brier score of ``(estimate, truth)`` pairs and the true rate by band."""
    bands: dict[float, list[bool]] = {}
    for estimate, truth in estimates:
        bands.setdefault(round(estimate * 5) / 5, []).append(truth)
    brier = sum((e - t) ** 2 for e, t in estimates) / len(estimates)
    shown = ", ".join(
        f"{band:.1f}: {sum(v) / len(v):.2f} of {len(v)}" for band, v in sorted(bands.items())
    )
    print(f"{label}: Brier {brier:.3f}; true rate by estimate {shown}")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--calibration", type=int, default=0, metavar="N")
    args = parser.parse_args(argv)
    if args.calibration:
        calibration(args.calibration)
        return 0
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
