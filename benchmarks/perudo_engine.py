"""Benchmark the Perudo engine: random legal play with every projection built.

Usage::

    python -m benchmarks.perudo_engine [--games 2000] [--seats 4] [--dice 5] [--seed 1]

Each action is chosen uniformly from ``legal_actions`` and applied; for every event the
projection of every seat and of a spectator is taken (as the server does when it sends
them). Reports actions/s and games/s on one core (the benchmark is single-threaded).
"""

from __future__ import annotations

import random
import time

from benchmarks.common import arguments, machine
from server.games.perudo import PerudoConfig, new_game


def run(games: int, seats: int, dice: int, seed: int) -> dict[str, float]:
    """Play ``games`` random games; return counts and timings."""
    config = PerudoConfig.from_options({"seats": seats, "dice_per_player": dice})
    rng = random.Random(seed)
    viewers = [*range(seats), None]
    actions = events = projections = 0
    start = time.perf_counter()
    for i in range(games):
        game, opening = new_game(config, f"bench-{seed}-{i}".encode())
        pending = opening
        while True:
            for event in pending:
                for viewer in viewers:
                    event.view(viewer)
                    projections += 1
            events += len(pending)
            seat = game.to_move
            if seat is None:
                break
            pending = game.apply(seat, rng.choice(game.legal_actions(seat)))
            actions += 1
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "actions": actions,
        "events": events,
        "projections": projections,
        "seconds": elapsed,
        "actions_per_s": actions / elapsed,
        "games_per_s": games / elapsed,
    }


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = arguments(__doc__, games=2000, seed=1)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--dice", type=int, default=5)
    args = parser.parse_args()
    result = run(args.games, args.seats, args.dice, args.seed)
    print(f"{machine()}; one core")
    print(
        f"{result['games']} games, {result['actions']} actions, {result['events']} events, "
        f"{result['projections']} projections in {result['seconds']:.2f} s"
    )
    print(f"{result['actions_per_s']:,.0f} actions/s   {result['games_per_s']:,.1f} games/s")


if __name__ == "__main__":
    main()
