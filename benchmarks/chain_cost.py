"""Benchmark the tamper-evident log's cost (issue 32): what the chain adds per action.

Usage::

    python -m benchmarks.chain_cost [--games 200] [--repeat 5]

Self-plays ``--games`` four-player Perudo games of ``perudo-random`` into a fresh
knowledge base (``umpire selfplay``'s code path, signed), reads their rows back, and times
on them, with ``time.perf_counter`` over ``--repeat`` passes (the best one):

- **stamping**: what the room's event loop does for each action, the encoding of the
  action record and the events it caused and their links (``chain.stamp_action``,
  ``chain.stamp_events``, ``chain.stamp_chat``), per action;
- **signing**: the Ed25519 signature of a game's final hash, per game;
- **checking**: what ``umpire verify`` adds per game for the chain and the signature
  (``chain.check`` and ``signing.verify``), per action.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.common import arguments, machine
from bots.tools.arena import schedule
from bots.tools.cli import play_and_record
from server.cli import open_recorder
from server.store import chain, signing
from server.store.contract import ActionRow, ChatRow, EventRow, GameRow, open_store

Game = tuple[GameRow, list[ActionRow], list[EventRow], list[ChatRow]]


async def logged_games(db: str, games: int) -> list[Game]:
    """Self-play ``games`` Perudo games into ``db``; their stored rows."""
    specs = schedule("perudo", {"seats": 4}, ["perudo-random"], 4, games, "chain-cost")
    async with open_recorder(db) as record:
        await play_and_record(specs, 1, record, {"source": "benchmark"})
    store = open_store(db)
    await store.open()
    try:
        out: list[Game] = []
        async for row in store.iter_games(["finished"]):
            actions, events = await store.actions(row.id), await store.events(row.id)
            out.append((row, actions, events, await store.chat(row.id)))
        return out
    finally:
        await store.close()


def best(repeat: int, work: Callable[[], object]) -> float:
    """The shortest of ``repeat`` timings of ``work()``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def stamp_all(games: list[Game]) -> None:
    """Stamp every game's rows as the journal does: each action after its events."""
    for row, actions, events, _ in games:
        head: chain.Head | None = chain.start(row.id)
        by_action: dict[int | None, list[EventRow]] = {}
        for e in events:
            by_action.setdefault(e.action_n, []).append(e)
        _, head = chain.stamp_events(head, by_action.get(None, []))
        for a in actions:
            _, head = chain.stamp_action(head, a)
            _, head = chain.stamp_events(head, by_action.get(a.n, []))
        chain.stamp_end(head, row)


def main() -> None:
    """Run the benchmark and print the costs."""
    parser = arguments(__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        games = asyncio.run(logged_games(str(Path(folder) / "bench.db"), args.games))
    actions = sum(len(g[1]) for g in games)
    events = sum(len(g[2]) for g in games)
    signer = signing.Signer.generate()
    stamped = best(args.repeat, lambda: stamp_all(games))
    signed = best(args.repeat, lambda: [signer.sign(g[0].id, g[0].final_hash or "") for g in games])
    signatures = [
        (g[0].id, g[0].final_hash or "", signer.sign(g[0].id, g[0].final_hash or "")) for g in games
    ]

    def check_all() -> None:
        for row, acts, evs, chat in games:
            assert chain.check(row, acts, evs, chat)[0] == []

    def verify_all() -> None:
        for game_id, final_hash, signature in signatures:
            assert signing.verify(signer.public, game_id, final_hash, signature)

    checked = best(args.repeat, check_all)
    verified = best(args.repeat, verify_all)
    print(f"{machine()}")
    print(
        f"{len(games)} perudo games (4 x perudo-random): {actions} actions, {events} events "
        f"({events / actions:.2f} per action)"
    )
    print(f"  stamping: {stamped / actions * 1e6:.1f} us per action (events and end included)")
    print(f"  signing:  {signed / len(games) * 1e6:.1f} us per game")
    print(f"  checking: {checked / actions * 1e6:.1f} us per action (verify's chain check)")
    print(f"  a signature checked: {verified / len(games) * 1e6:.1f} us per game")


if __name__ == "__main__":
    main()
