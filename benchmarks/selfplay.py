"""Benchmark self-play: bot games per second in-process, logging to SQLite included.

Usage::

    python benchmarks/selfplay.py [--perudo-games 500] [--kriegspiel-games 20] [--parallel 1]
    python benchmarks/selfplay.py --server [--perudo-games 200] [--parallel 8]

Plays four-player Perudo with ``perudo-random`` and two-player Kriegspiel with
``kriegspiel-random``, each game written to a fresh knowledge base in a temporary folder
exactly as ``umpire selfplay`` writes it (same code path). With ``--server`` the same
games are played over loopback websockets instead: an ``umpire serve`` subprocess (its own
SQLite file, durable writes, rate limits raised for bots) and every bot a websocket client
(``umpire tournament --server``'s code path), ``--parallel`` rooms at a time.
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import NO_RATE_LIMITS  # benchmarks/server_load.py, beside this script

from bots.tools.arena import schedule
from bots.tools.cli import play_and_record
from server.cli import open_recorder


def measure(game: str, bots: list[str], seats: int, games: int, parallel: int) -> float:
    """Seconds to play and log ``games`` games."""
    options = {"seats": seats} if game == "perudo" else {}
    specs = schedule(game, options, bots, seats, games, "bench")
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "bench.db")

        async def run() -> None:
            async with open_recorder(db) as record:
                await play_and_record(specs, parallel, record, {"source": "benchmark"})

        start = time.perf_counter()
        asyncio.run(run())
        return time.perf_counter() - start


def measure_server(game: str, bots: list[str], seats: int, games: int, parallel: int) -> float:
    """Seconds to play ``games`` games through a real server over loopback."""
    import socket
    import subprocess

    from bots.tools.arena import stream_remote

    options = {"seats": seats} if game == "perudo" else {}
    specs = schedule(game, options, bots, seats, games, "bench")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server.cli",
                "serve",
                "--port",
                str(port),
                "--db",
                str(Path(folder) / "bench.db"),
                *NO_RATE_LIMITS,
            ],
            cwd=Path(__file__).resolve().parents[1],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", port)) == 0:
                        break
                time.sleep(0.05)

            async def play() -> None:
                async for _ in stream_remote(specs, f"ws://127.0.0.1:{port}", parallel):
                    pass

            start = time.perf_counter()
            asyncio.run(play())
            return time.perf_counter() - start
        finally:
            server.terminate()
            server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perudo-games", type=int, default=500)
    parser.add_argument("--kriegspiel-games", type=int, default=20)
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--server", action="store_true", help="over loopback websockets")
    args = parser.parse_args()
    if args.server:
        print(
            f"python {platform.python_version()} on {platform.machine()}, a server "
            f"subprocess, {args.parallel} rooms at a time"
        )
        seconds = measure_server("perudo", ["perudo-random"], 4, args.perudo_games, args.parallel)
        print(
            f"perudo 4 x perudo-random over websockets: {args.perudo_games} games in "
            f"{seconds:.2f} s = {args.perudo_games / seconds:.1f} games/s"
        )
        seconds = measure_server(
            "kriegspiel", ["kriegspiel-random"], 2, args.kriegspiel_games, args.parallel
        )
        print(
            f"kriegspiel 2 x kriegspiel-random over websockets: {args.kriegspiel_games} games "
            f"in {seconds:.2f} s = {60 * args.kriegspiel_games / seconds:.0f} games/min"
        )
        return
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
