"""CPU per action of the SQLite store's write path alone (no sockets, no rooms).

``--games`` writers each keep one append in flight (as a room does: its next action waits
for the previous one's commit), each append one action row and ``--events`` event rows
shaped like Perudo's; every ``--per-game`` actions a writer starts a new game (a
``save_game`` row) and finishes the old one. Reports the process's CPU time (every
thread: the event loop's side and the writer thread) per appended action, the commits
and their mean size. ``synchronous=FULL`` as the server runs it.

    python benchmarks/store_write.py --games 250 --actions 40000
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.store.contract import ActionRow, EventRow, GameRow
from server.store.sqlite import SqliteStore


def game_row(game_id: str) -> GameRow:
    """A started four-seat Perudo game's row."""
    return GameRow(
        id=game_id,
        game="perudo",
        options={"seats": 4, "dice_per_player": 5},
        settings={},
        host=None,
        invite=None,
        public=True,
        seats=[None, None, None, None],
        status="playing",
        seed=b"\x01" * 32,
        seed_sha256="00" * 32,
        created=time.time(),
        started=time.time(),
    )


def events(seq: int, n: int, count: int) -> list[EventRow]:
    """``count`` event rows from ``seq`` on, caused by action ``n``."""
    truth = {
        "type": "round_started",
        "round": n,
        "starter": 1,
        "palifico": None,
        "aces_wild": True,
        "dice": [[1, 2, 3, 4, 5], [2, 3, 4, 5, 6], [1, 1, 2, 2, 3], [6, 6, 5, 5, 4]],
        "counts": [5, 5, 5, 5],
    }
    return [EventRow(seq + i, "game", truth, n) for i in range(count)]


async def writer(
    store: SqliteStore, index: int, options: argparse.Namespace, done: list[int]
) -> None:
    """One room's worth of writes: an append at a time, a new game every ``per_game``."""
    game = 0
    while done[0] < options.actions:
        game_id = f"g{index}_{game}"
        row = game_row(game_id)
        await store.save_game(row, ())
        seq = 1
        for n in range(1, options.per_game + 1):
            if done[0] >= options.actions:
                break
            action = ActionRow(n, n % 4, "3x4", time.time())
            await store.append(game_id, events(seq, n, options.events), action)
            seq += options.events
            done[0] += 1
        row.status = "finished"
        row.finished = time.time()
        await store.finish_game(row, (), {})
        game += 1


async def main(options: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(str(Path(tmp) / "bench.db"), synchronous=options.synchronous)
        await store.open()
        done = [0]
        cpu, wall = time.process_time(), time.monotonic()
        await asyncio.gather(*(writer(store, i, options, done) for i in range(options.games)))
        commits = store.commits
        await store.close()  # (its last checkpoint counts too)
        cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    print(
        f"store: {done[0]} actions ({options.events} events each) from {options.games} games, "
        f"{commits} commits ({done[0] / max(commits, 1):.1f} actions each), "
        f"{wall:.1f} s: {1e6 * cpu / done[0]:.1f} us CPU per action"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=250)
    parser.add_argument("--actions", type=int, default=40000)
    parser.add_argument("--events", type=int, default=2)
    parser.add_argument("--per-game", type=int, default=40)
    parser.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL"])
    asyncio.run(main(parser.parse_args()))
