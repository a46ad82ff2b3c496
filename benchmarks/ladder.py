"""The bot ladder: 200 connected bot accounts against a real ``umpire serve``.

Three measures:

1. **The pairing core alone** (in this process, no I/O): :class:`server.ladder.core.Ladder`
   with ``--bots`` members of ``--owners`` owners, each wanting ``--concurrent`` games;
   games end in a random order and each end is paired again at once. Reported: CPU per
   room opened (``time.process_time``), over ``--core-games`` games.
2. **The join burst** through a real server (``umpire serve --no-ladder-house`` in its own
   process): ``--bots`` bot accounts (``--owners`` accounts, made over the protocol) are
   connected; all say ``ladder {game: perudo, max_concurrent: 1}`` at once. Reported: the
   server's CPU (user + system, /proc) from the first ``ladder`` to the last ``match``
   frame, divided by the rooms opened (a pairing here is the whole of it: the pairing,
   ``open_match``, its stored row, the ``match`` frames), and the time from each bot's
   ``ladder`` to its ``match`` frame (p50, p99, max). Nobody attaches until every bot
   has its match, so no game is played in this window.
3. **Steady state**: every bot plays its games (heads-up Perudo, the load tests' scripted
   player, on its one connection) for ``--duration`` seconds; each time a bot's game ends
   it waits for the next ``match``. Reported: games per second, the time from a game's
   end (the final ``room`` frame) to the bot's next ``match`` frame (p50, p99), and the
   server's CPU per game (the pairing and the whole game played).

    python -m benchmarks.ladder                    # 200 bots of 20 owners
    python -m benchmarks.ladder --bots 50 --duration 5
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from benchmarks.common import (
    LOAD_TEST_FLAGS,
    arguments,
    cpu_seconds,
    machine,
    percentile,
    scripted_bid,
    start_umpire,
)
from server.ladder.core import Entry, Ladder, Limits, Open

PASSWORD = "benchmark password"


def core_benchmark(bots: int, owners: int, concurrent: int, games: int, seed: int) -> float:
    """CPU seconds per room the pure pairing opens (see the module docstring, 1)."""
    rng = random.Random(seed)
    ladder = Ladder(Limits(per_bot=concurrent, per_owner=10_000))
    live: list[int] = []
    now = 0.0
    for i in range(bots):
        entry = Entry(
            f"b{i}",
            f"o{i % owners}",
            "perudo",
            "piatnik",
            {"preset": "piatnik", "seats": 2},
            max_concurrent=concurrent,
            rating=rng.gauss(1500, 200),
        )
        for effect in ladder.join(entry, now, link=i):
            if isinstance(effect, Open):
                ladder.opened(effect.match, f"r{effect.match}")
                live.append(effect.match)
    opened = 0
    started = time.process_time()
    while opened < games and live:
        now += 0.01
        match = live.pop(rng.randrange(len(live)))
        for effect in ladder.ended(f"r{match}", now):
            if isinstance(effect, Open):
                ladder.opened(effect.match, f"r{effect.match}")
                live.append(effect.match)
                opened += 1
    return (time.process_time() - started) / max(opened, 1)


async def request(ws: ClientConnection, message: dict[str, Any], reply: str) -> dict[str, Any]:
    """Send ``message`` and read frames until one of type ``reply`` (fail on an error)."""
    await ws.send(json.dumps(message))
    while True:
        frame: dict[str, Any] = json.loads(await ws.recv())
        if frame["type"] == reply:
            return frame
        if frame["type"] == "error":
            raise SystemExit(f"{message['type']}: {frame}")


async def make_bots(url: str, owners: int, per_owner: int) -> list[str]:
    """API tokens of ``per_owner`` bot accounts of each of ``owners`` new accounts."""
    tokens: list[str] = []
    stamp = f"{time.time_ns() % 10**8:x}"
    for i in range(owners):
        async with connect(url) as ws:
            await request(ws, {"type": "hello", "v": 1, "name": f"own{stamp}{i}"}, "welcome")
            await request(ws, {"type": "register", "password": PASSWORD}, "account")
            for j in range(per_owner):
                made = await request(
                    ws, {"type": "create_bot", "name": f"lb{stamp}{i}x{j}"}, "bot_account"
                )
                tokens.append(made["token"])
    return tokens


@dataclass
class Bot:
    """One ladder bot on one connection (it plays its games on it, one at a time)."""

    token: str
    rng: random.Random
    ws: ClientConnection | None = None
    seats: dict[str, int] = field(default_factory=dict)
    asked: float = 0.0  #: when it last said ladder, or its last game ended
    matched: asyncio.Event = field(default_factory=asyncio.Event)
    first_match: float = 0.0
    pending: list[dict[str, Any]] = field(default_factory=list)
    waits: list[float] = field(default_factory=list)  #: game end -> next match (steady)
    games: int = 0
    playing: bool = False


async def run_bot(bot: Bot, go: asyncio.Event) -> None:
    """Read ``bot``'s frames: match -> attach (once ``go`` is set), turn -> act."""
    ws = bot.ws
    assert ws is not None
    async for raw in ws:
        frame = json.loads(raw)
        kind = frame["type"]
        now = time.perf_counter()
        if kind == "match":
            if not bot.matched.is_set():
                bot.first_match = now
                bot.matched.set()
            elif bot.playing:
                bot.waits.append(now - bot.asked)
            bot.seats[frame["room"]] = frame["seat"]
            if go.is_set():
                await ws.send(json.dumps({"type": "resume", "room": frame["room"], "since": 0}))
            else:
                bot.pending.append(frame)
        elif kind == "turn" and bot.seats.get(frame.get("room", "")) == frame.get("seat"):
            action = scripted_bid(frame["legal"], 2, bot.rng)
            await ws.send(json.dumps({"type": "act", "room": frame["room"], "action": action}))
        elif kind == "room" and frame.get("state") in ("finished", "aborted"):
            if bot.seats.pop(frame["room"], None) is not None:
                bot.games += 1
                bot.asked = now
                await ws.send(json.dumps({"type": "leave", "room": frame["room"]}))
        elif kind == "error" and frame.get("code") not in ("not_your_turn", "bad_state"):
            raise SystemExit(f"error: {frame}")


async def measure(args: Any) -> None:
    print(machine())
    per_pairing = core_benchmark(args.bots, args.owners, 4, args.core_games, args.seed)
    print(
        f"pairing core alone: {args.bots} members of {args.owners} owners, 4 games each: "
        f"{per_pairing * 1e6:.0f} us CPU per room opened ({args.core_games} rooms)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "ladder.db")
        flags = [*LOAD_TEST_FLAGS, "--no-ladder-house", "--synchronous", "NORMAL"]
        proc, port = start_umpire(db, flags, quiet=True)
        url = f"ws://127.0.0.1:{port}"
        try:
            tokens = await make_bots(url, args.owners, args.bots // args.owners)
            rng = random.Random(args.seed)
            bots = [Bot(token, random.Random(rng.random())) for token in tokens]
            for bot in bots:
                bot.ws = await connect(url, max_size=1 << 22, compression=None)
                hello = {"type": "hello", "v": 1, "token": bot.token, "bot": True}
                await request(bot.ws, {**hello, "bot_version": "bench"}, "welcome")
            go = asyncio.Event()
            readers = [asyncio.create_task(run_bot(bot, go)) for bot in bots]
            message = json.dumps({"type": "ladder", "game": "perudo", "max_concurrent": 1})
            cpu0 = cpu_seconds(proc.pid)
            for bot in bots:
                bot.asked = time.perf_counter()
                assert bot.ws is not None
                await bot.ws.send(message)
            await asyncio.wait_for(asyncio.gather(*(b.matched.wait() for b in bots)), 120)
            cpu = cpu_seconds(proc.pid) - cpu0
            rooms = len(bots) // 2
            waits = [b.first_match - b.asked for b in bots]
            print(
                f"join burst: {len(bots)} bots say ladder at once -> {rooms} rooms: server "
                f"CPU {cpu / rooms * 1e3:.2f} ms per pairing (room opened, match frames "
                f"sent); ladder -> match p50 {percentile(waits, 0.5) * 1e3:.0f} ms, "
                f"p99 {percentile(waits, 0.99) * 1e3:.0f} ms, max {max(waits) * 1e3:.0f} ms"
            )
            go.set()
            for bot in bots:
                bot.playing = True
                for frame in bot.pending:
                    assert bot.ws is not None
                    await bot.ws.send(
                        json.dumps({"type": "resume", "room": frame["room"], "since": 0})
                    )
            await asyncio.sleep(args.warmup)
            games0 = sum(b.games for b in bots)
            for bot in bots:
                bot.waits.clear()
            cpu0 = cpu_seconds(proc.pid)
            began = time.perf_counter()
            await asyncio.sleep(args.duration)
            elapsed = time.perf_counter() - began
            cpu = cpu_seconds(proc.pid) - cpu0
            games = (sum(b.games for b in bots) - games0) / 2  # two bots see each game
            waits = [w for b in bots for w in b.waits]
            print(
                f"steady state over {elapsed:.0f} s: {games / elapsed:.1f} games/s; game end "
                f"-> next match p50 {percentile(waits, 0.5) * 1e3:.0f} ms, p99 "
                f"{percentile(waits, 0.99) * 1e3:.0f} ms ({len(waits)} waits); server CPU "
                f"{cpu / max(games, 1) * 1e3:.1f} ms per game (pairing and play), "
                f"{cpu / elapsed * 100:.0f}% of a core"
            )
            for task in readers:
                task.cancel()
            for bot in bots:
                if bot.ws is not None:
                    await bot.ws.close()
        finally:
            proc.terminate()
            proc.wait()


def main() -> None:
    parser = arguments(__doc__, seed=1)
    parser.add_argument("--bots", type=int, default=200, help="bot accounts")
    parser.add_argument("--owners", type=int, default=20, help="accounts owning them")
    parser.add_argument("--duration", type=float, default=20.0, help="steady-state seconds")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--core-games", type=int, default=20_000, help="rooms the core opens")
    args = parser.parse_args()
    asyncio.run(measure(args))


if __name__ == "__main__":
    main()
