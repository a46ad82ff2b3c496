"""Benchmark self-play: bot games per second in-process, logging to SQLite included.

Usage::

    python benchmarks/selfplay.py [--perudo-games 500] [--kriegspiel-games 20] [--parallel 1]

Plays four-player Perudo with ``perudo-random`` and two-player Kriegspiel with
``kriegspiel-random``, each game written to a fresh knowledge base in a temporary folder
exactly as ``umpire selfplay`` writes it (same code path).
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.arena import schedule
from bots.cli import play_and_record


def measure(game: str, bots: list[str], seats: int, games: int, parallel: int) -> float:
    """Seconds to play and log ``games`` games."""
    options = {"seats": seats} if game == "perudo" else {}
    specs = schedule(game, options, bots, seats, games, "bench")
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "bench.db")
        start = time.perf_counter()
        asyncio.run(play_and_record(specs, parallel, db, {"source": "benchmark"}))
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perudo-games", type=int, default=500)
    parser.add_argument("--kriegspiel-games", type=int, default=20)
    parser.add_argument("--parallel", type=int, default=1)
    args = parser.parse_args()
    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{args.parallel} worker process(es)"
    )
    seconds = measure("perudo", ["perudo-random"], 4, args.perudo_games, args.parallel)
    print(
        f"perudo 4 x perudo-random: {args.perudo_games} games in {seconds:.2f} s = "
        f"{args.perudo_games / seconds:.1f} games/s (logged)"
    )
    seconds = measure("kriegspiel", ["kriegspiel-random"], 2, args.kriegspiel_games, args.parallel)
    print(
        f"kriegspiel 2 x kriegspiel-random: {args.kriegspiel_games} games in {seconds:.2f} s "
        f"= {60 * args.kriegspiel_games / seconds:.0f} games/min (logged)"
    )


if __name__ == "__main__":
    main()
