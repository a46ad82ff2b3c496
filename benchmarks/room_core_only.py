"""CPU per action of the sans-I/O room core alone: no actor, no event loop, no sockets.

Feeds four-seat Perudo games straight into :class:`server.roomcore.core.RoomCore` (the
same scripted player as ``benchmarks/room_core.py``) and discards the effects, to tell
the core's own cost from the actor's and asyncio's (``room_core.py`` measures them
together).

    python benchmarks/room_core_only.py --games 300
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from room_core import scripted_action  # benchmarks/room_core.py, beside this script

from server.games import engine
from server.players.identity import Player
from server.roomcore import messages as m
from server.roomcore.core import RoomCore, new_row
from server.roomcore.settings import Settings, Timing


class Conn:
    """A connection handle: the core only reads ``player``."""

    def __init__(self, player: Player) -> None:
        self.player = player


def run(games: int, seed: int) -> tuple[int, float, int]:
    """Play ``games`` games; return (actions, CPU seconds, frames)."""
    eng = engine("perudo")
    config = eng.make_config({"seats": 4})
    timing = Timing(grace=30, autopilot_delay=0, finished_ttl=60)
    actions = frames = 0
    now = 0.0
    started = time.process_time()
    for g in range(games):
        row = new_row(f"r{g}", eng, config, Settings(), "p0", now, None)
        core = RoomCore(row, eng, config, timing, {})
        conns = [Conn(Player(f"p{i}", f"p{i}", False)) for i in range(4)]
        for conn in conns:
            core.handle(m.Join(conn, token=None), now)
        rng = random.Random(seed + g)
        while core.state == "playing":
            game: Any = core.game
            action = scripted_action(game, rng)
            now += 0.001
            out = core.handle(m.Act(conns[game.to_move], action=action, token=None), now)
            frames += sum(len(e.frames) for e in out if isinstance(e, m.Send))
            actions += 1
    return actions, time.process_time() - started, frames


def main() -> None:
    """Run the benchmark and print the CPU time per action."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    actions, cpu, frames = run(args.games, args.seed)
    print(
        f"room core alone: {args.games} games, {actions} actions, {frames} frames: "
        f"{cpu / actions * 1e6:.1f} us CPU per action"
    )


if __name__ == "__main__":
    main()
