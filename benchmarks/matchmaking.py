"""Matchmaking: the pairing cost per seek with 10,000 open seeks, and the time from a seek
to its room through a real server holding 10,000 open seeks.

1. The pure pairing core (server.matchmaking.pairing), 10,000 open seeks none of which
   fit another (their rating ranges are disjoint), in two shapes: spread over 100 pools
   (100 seeks a pool: games, options, rated or casual, clocks) and the worst case, all
   in one pool (a new seek is tried against every one). Times ``add`` of a seek that fits
   none (a whole pool scanned: the cost of a seek that waits), of one that pairs with
   the oldest seek of its pool, and ``sync`` of the 10,000 (a cluster node's read of the
   open seeks: only new seeks are paired, so a read with nothing new is one pass).
2. ``umpire serve`` on a fresh SQLite file holding 10,000 open seeks of players who never
   come (spread over 100 pools, written before the start: the server reads them back),
   then ``--pairs`` times: one client seeks casual Kriegspiel, a second seeks the same;
   the time from the second ``seek`` to its ``seek_added`` (matched) and to both ``match``
   frames, and the server's CPU time per pairing (user + system, both seeks' messages,
   the claim, the room and its frames included).
3. A cluster node's poll of the store (``--poll-only`` runs just this), on SQLite with a
   history of ``--history`` seeks matched into rooms that exist (finished games) and 100
   open seeks: the reads of one poll as it is now (``seeks_changed``, waiting match rooms
   created since the last poll, ``orphan_seek_rooms`` in one query) against the reads of
   the first version (every matched seek, every open seek, every waiting game), in rows
   and milliseconds. (SQLite, one process: the shape of the work, not a two-node figure.)

    python -m benchmarks.matchmaking
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import connect

from benchmarks.common import (
    LOAD_TEST_FLAGS,
    arguments,
    cpu_seconds,
    machine,
    percentile,
    start_umpire,
)
from server.matchmaking.actor import _row
from server.matchmaking.pairing import Pairing
from server.matchmaking.seeks import Seek
from server.store.contract import GameRow
from server.store.sqlite import SqliteStore

OPEN = 10_000
KS = {"rules": "wild16", "auto_fifty_moves": True, "auto_threefold": True}


def pool_shapes(
    pools: int,
) -> list[tuple[str, dict[str, object], bool, int, tuple[float, float] | None]]:
    """``pools`` different (game, options, rated, seats, clock) for the open seeks (never
    casual Kriegspiel without a clock: the pool the server part pairs in)."""
    shapes: list[tuple[str, dict[str, object], bool, int, tuple[float, float] | None]] = []
    n = 0
    while len(shapes) < pools:
        clock = (60.0 * (1 + n % 10), float(n // 10 % 5))
        shapes.append(("kriegspiel", KS, n % 2 == 0, 2, clock))
        if len(shapes) < pools:
            seats = 2 + n % 5
            options: dict[str, object] = {"seats": seats, "dice_per_player": 1 + n // 5 % 5}
            shapes.append(("perudo", options, n % 2 == 1, seats, None))
        n += 1
    return shapes


def open_seeks(count: int, pools: int, created: float = 0.0) -> list[Seek]:
    """``count`` seeks over ``pools`` pools, none fitting another: seek ``i`` rates
    ``1000 + i`` and accepts only ``[1000 + i - 0.4, 1000 + i + 0.4]``."""
    shapes = pool_shapes(pools)
    seeks = []
    for i in range(count):
        game, options, rated, seats, clock = shapes[i % pools]
        rating = 1000.0 + i
        seeks.append(
            Seek(
                id=f"open{i:05}",
                player=f"idle{i:05}",
                game=game,
                options=dict(options),
                rated=rated,
                seats=seats,
                created=created + i * 1e-3,
                clock=clock,
                rating=rating,
                range=(rating - 0.4, rating + 0.4),
            )
        )
    return seeks


def core_with(seeks: list[Seek]) -> Pairing:
    """A core holding ``seeks`` open, built directly (none fits another: this is the
    state pairing them one by one would reach, without its quadratic build)."""
    core = Pairing()
    for seek in seeks:
        core._keep(seek)
    return core


def time_core(pools: int, trials: int) -> dict[str, float]:
    """Microseconds per ``add`` (waiting; pairing) and milliseconds per ``sync``."""
    seeks = open_seeks(OPEN, pools)
    shape = seeks[0]
    waiting, pairing = [], []
    for t in range(trials):
        core = core_with(seeks)
        lonely = Seek(
            id=f"new{t}",
            player=f"new{t}",
            game=shape.game,
            options=shape.options,
            rated=shape.rated,
            seats=shape.seats,
            created=1e6,
            clock=shape.clock,
            rating=50_000.0,
            range=(49_999.0, 50_001.0),
        )
        started = time.perf_counter()
        assert core.add(lonely, 1e6) == []
        waiting.append(time.perf_counter() - started)
        taker = Seek(
            id=f"take{t}",
            player=f"take{t}",
            game=shape.game,
            options=shape.options,
            rated=shape.rated,
            seats=shape.seats,
            created=1e6,
            clock=shape.clock,
            rating=shape.rating,
        )
        started = time.perf_counter()
        matches = core.add(taker, 1e6)
        pairing.append(time.perf_counter() - started)
        assert len(matches) == (1 if shape.seats == 2 else 0)
    core = core_with(seeks)
    started = time.perf_counter()
    for _ in range(5):
        assert core.sync(seeks, 1e6) == []
    synced = (time.perf_counter() - started) / 5
    return {
        "waiting_us": statistics.median(waiting) * 1e6,
        "pairing_us": statistics.median(pairing) * 1e6,
        "sync_ms": synced * 1e3,
    }


async def fill_store(path: str, seeks: list[Seek]) -> None:
    """Write the open seeks into a new store at ``path`` (the server reads them back)."""
    store = SqliteStore(path, synchronous="OFF")
    await store.open()
    try:
        await asyncio.gather(*(store.add_seek(_row(seek)) for seek in seeks))
    finally:
        await store.close()


async def time_poll(path: str, history: int, trials: int) -> dict[str, float]:
    """(3.) One cluster poll's store reads, as now and as in the first version."""
    store = SqliteStore(path, synchronous="OFF")
    await store.open()
    try:
        now = time.time()
        old = now - 3600.0
        seeks = open_seeks(history + 100, 100, created=old)
        await asyncio.gather(*(store.add_seek(_row(seek)) for seek in seeks))
        for n, seek in enumerate(seeks[:history]):
            assert await store.claim_seeks([seek.id], f"room{n}", old)
            await store.save_game(_finished(f"room{n}", old))
        timings: dict[str, list[float]] = {"now": [], "before": []}
        rows = {"now": 0, "before": 0}
        for _ in range(trials):
            started = time.perf_counter()
            got = len(await store.orphan_seek_rooms(now - 30.0, since=now - 35.5))
            got += len(await store.seeks_changed(now - 5.5))
            got += len([g async for g in store.iter_games(["waiting"], created_after=now - 5.5)])
            timings["now"].append(time.perf_counter() - started)
            rows["now"] = got
            started = time.perf_counter()
            matched = [r for r in await store.seeks("matched") if r.updated < now - 30.0]
            got = len(matched) + len(await store.seeks("open"))
            got += len([g async for g in store.iter_games(["waiting"])])
            for room in {r.room for r in matched[:100]}:  # (one point read each: 100 of them)
                if room is not None:
                    await store.game(room)
            timings["before"].append(time.perf_counter() - started)
            rows["before"] = got
    finally:
        await store.close()
    return {
        "now_ms": statistics.median(timings["now"]) * 1e3,
        "before_ms": statistics.median(timings["before"]) * 1e3,
        "now_rows": rows["now"],
        "before_rows": rows["before"],
    }


def _finished(room: str, at: float) -> GameRow:
    return GameRow(
        id=room,
        game="kriegspiel",
        options=KS,
        settings={"match": "seek"},
        host=None,
        invite=None,
        public=True,
        seats=["a", "b"],
        status="finished",
        seed=b"",
        seed_sha256="",
        created=at,
        started=at,
        finished=at,
    )


async def hello(port: int, name: str) -> object:
    ws = await connect(f"ws://127.0.0.1:{port}", compression=None, max_size=None)
    await ws.send(json.dumps({"type": "hello", "v": 1, "name": name}))
    while json.loads(await ws.recv())["type"] != "welcome":
        pass
    return ws


async def until(ws: object, kind: str) -> dict[str, object]:
    while True:
        frame = json.loads(await ws.recv())  # type: ignore[attr-defined]
        if frame["type"] == kind:
            return frame  # type: ignore[no-any-return]
        if frame["type"] == "error":
            raise RuntimeError(frame)


async def until_any(ws: object, kinds: tuple[str, ...]) -> dict[str, object]:
    while True:
        frame = json.loads(await ws.recv())  # type: ignore[attr-defined]
        if frame["type"] in kinds:
            return frame  # type: ignore[no-any-return]
        if frame["type"] == "error":
            raise RuntimeError(frame)


async def time_server(port: int, pid: int, pairs: int) -> dict[str, float]:
    seek = {"type": "seek", "game": "kriegspiel", "options": {"rules": "wild16"}}
    added, matched, cpu = [], [], []
    for n in range(pairs):
        ana = await hello(port, f"ana{n}")
        bob = await hello(port, f"bob{n}")
        await ana.send(json.dumps(seek))  # type: ignore[attr-defined]
        await until(ana, "seek_added")
        before = cpu_seconds(pid)
        started = time.perf_counter()
        await bob.send(json.dumps(seek))  # type: ignore[attr-defined]
        seen: set[str] = set()
        while "seek_added" not in seen:  # (bob's match frame comes first: pushed at once)
            frame = await until_any(bob, ("match", "seek_added"))
            seen.add(str(frame["type"]))
            if frame["type"] == "seek_added":
                added.append(time.perf_counter() - started)
                assert frame["seek"]["status"] == "matched", frame  # type: ignore[index]
        await until(ana, "match")
        matched.append(time.perf_counter() - started)
        assert seen == {"match", "seek_added"}
        cpu.append(cpu_seconds(pid) - before)
        await ana.close()  # type: ignore[attr-defined]
        await bob.close()  # type: ignore[attr-defined]
    return {
        "added_ms_median": statistics.median(added) * 1e3,
        "added_ms_p95": percentile(added, 0.95) * 1e3,
        "match_ms_median": statistics.median(matched) * 1e3,
        "match_ms_p95": percentile(matched, 0.95) * 1e3,
        "cpu_ms_per_pairing": sum(cpu) / len(cpu) * 1e3,
    }


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--trials", type=int, default=30, help="adds timed per shape")
    parser.add_argument("--pairs", type=int, default=100, help="pairings through the server")
    parser.add_argument("--history", type=int, default=10_000, help="seeks matched before")
    parser.add_argument("--poll-only", action="store_true", help="time only a cluster poll")
    args = parser.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory() as folder:
        polled = asyncio.run(time_poll(str(Path(folder) / "poll.db"), args.history, 10))
    print(
        f"a cluster poll with {args.history:,} seeks matched before and 100 open: "
        f"{polled['now_rows']:.0f} rows, {polled['now_ms']:.2f} ms (median of 10); "
        f"the first version's reads {polled['before_rows']:.0f} rows and 100 of its point "
        f"reads, {polled['before_ms']:.1f} ms"
    )
    if args.poll_only:
        return
    for pools in (100, 1):
        figures = time_core(pools, args.trials)
        print(
            f"core, {OPEN:,} open seeks in {pools} pool(s): a seek that waits "
            f"{figures['waiting_us']:.0f} µs, one that pairs {figures['pairing_us']:.1f} µs "
            f"(median of {args.trials}); a read of the 10,000 (sync) {figures['sync_ms']:.1f} ms"
        )
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "seeks.db")
        asyncio.run(fill_store(db, open_seeks(OPEN, 100, created=time.time())))
        started = time.perf_counter()
        flags = [*LOAD_TEST_FLAGS, "--seek-grace", "86400", "--house-procs", "1"]
        proc, port = start_umpire(db, flags, quiet=True)
        ready = time.perf_counter() - started
        try:
            figures = asyncio.run(time_server(port, proc.pid, args.pairs))
        finally:
            proc.terminate()
            proc.wait()
    print(
        f"server with {OPEN:,} open seeks (start {ready:.1f} s), {args.pairs} pairings: "
        f"seek -> seek_added (matched) median {figures['added_ms_median']:.2f} ms, "
        f"p95 {figures['added_ms_p95']:.2f} ms; seek -> both match frames median "
        f"{figures['match_ms_median']:.2f} ms, p95 {figures['match_ms_p95']:.2f} ms; "
        f"server CPU {figures['cpu_ms_per_pairing']:.2f} ms per pairing"
    )


if __name__ == "__main__":
    main()
