"""CPU per action of one room (its asyncio actor and its sans-I/O core), without sockets.

Plays four-seat Perudo games through ``server.rooms.room.Room`` with clients that only count
their frames and a store that writes nothing, and reports the process's CPU time per
action. It isolates the room layer from the websocket and SQLite costs that
``benchmarks/server_load.py`` measures together.

    python benchmarks/room_core.py --games 150
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.games import engine
from server.players.identity import Player
from server.rooms.connection import Client
from server.rooms.room import Room, Settings, Timing


def scripted_action(game: Any, rng: random.Random) -> str:
    """The benchmarks' Perudo player: raise the quantity by one (``1x2`` to open), or
    dudo three times in ten, and always when no raise is possible."""
    last = game.round.last
    if last is not None and (rng.random() < 0.3 or last[1].quantity >= sum(game.counts)):
        return "dudo"
    return "1x2" if last is None else f"{last[1].quantity + 1}x{last[1].face}"


class CountingClient(Client):
    """A connection that counts the frames it would write."""

    def __init__(self, player: Player) -> None:
        super().__init__(None, "bench", 1 << 20)
        self.player = player
        self.frames = 0

    def send(self, text: str) -> None:
        self.frames += 1

    def send_many(self, texts: Sequence[str]) -> None:
        self.frames += len(texts)


class NullStore:
    """Accepts every write at once (the room layer only)."""

    async def save_game(self, *args: Any, **kwargs: Any) -> None:
        """Nothing is written."""

    async def append(self, *args: Any, **kwargs: Any) -> None:
        """Nothing is written."""

    async def finish_game(self, *args: Any, **kwargs: Any) -> None:
        """Nothing is written."""

    async def add_chat(self, *args: Any, **kwargs: Any) -> None:
        """Nothing is written."""


async def run(games: int, seed: int) -> tuple[int, float, int]:
    """Play ``games`` games; return (actions, CPU seconds, frames)."""
    eng = engine("perudo")
    config = eng.make_config({"seats": 4})
    timing = Timing(grace=30, autopilot_delay=0, finished_ttl=60)
    store: Any = NullStore()
    actions = frames = 0
    started = time.process_time()
    for g in range(games):
        room = Room.new(f"r{g}", eng, config, Settings(), "p0", None, store, timing)
        room.start_task()
        clients = [CountingClient(Player(f"p{i}", f"p{i}", False)) for i in range(4)]
        for client in clients:
            await room.join(client, None)
        rng = random.Random(seed + g)
        while room.state == "playing":
            game: Any = room.game
            await room.act(clients[game.to_move], scripted_action(game, rng), None)
            actions += 1
        await room.stop()
        frames += sum(c.frames for c in clients)
    return actions, time.process_time() - started, frames


def main() -> None:
    """Run the benchmark and print the CPU time per action."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    actions, cpu, frames = asyncio.run(run(args.games, args.seed))
    print(
        f"room layer: {args.games} games, {actions} actions, {frames} frames: "
        f"{cpu / actions * 1e6:.1f} us CPU per action"
    )


if __name__ == "__main__":
    main()
