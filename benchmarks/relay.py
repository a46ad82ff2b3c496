"""The relay's cost: two-player Perudo rooms on node A of a two-node PostgreSQL cluster,
played with both players on A ("direct") or with the guest connected to node B, which
relays its frames to A ("relayed").

Both modes run against the same two nodes and database (a throwaway PostgreSQL cluster,
fsync on, or ``--pg-dsn``). Each player acts as soon as its ``turn`` frame comes (closed
loop), with a random legal bid or dudo. Reported per mode: acknowledged actions/s, the
p50/p99 time from sending an action to its ``ack``, and the CPU time per action of each
node over the measured window (from /proc).

    python -m benchmarks.relay --rooms 50 --duration 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import signal
import statistics
import time
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from benchmarks.common import (
    LOAD_TEST_FLAGS,
    arguments,
    cpu_seconds,
    machine,
    percentile,
    scripted_bid,
    start_umpire,
)
from tests.pgcluster import Cluster, create_database, find_bindir


class Room:
    """One two-player room: its host on ``host_port`` and its guest on ``guest_port``."""

    def __init__(self, rng: random.Random, stats: dict[str, Any]) -> None:
        self.rng = rng
        self.stats = stats
        self.sent: dict[int, float] = {}

    async def play(self, host_port: int, guest_port: int, until: float, start: float) -> None:
        host = await self.open(host_port, "host")
        guest = await self.open(guest_port, "guest")
        try:
            while time.monotonic() < until:
                await host.send(
                    json.dumps(
                        {
                            "type": "create_room",
                            "game": "perudo",
                            "options": {"seats": 2, "dice_per_player": 5},
                        }
                    )
                )
                room = await self.wait_for(host, "created")
                await guest.send(json.dumps({"type": "join", "room": room["room"]}))
                await asyncio.gather(
                    self.seat(host, room["room"], until, start),
                    self.seat(guest, room["room"], until, start),
                )
        finally:
            await host.close()
            await guest.close()

    async def open(self, port: int, name: str) -> ClientConnection:
        ws = await connect(f"ws://127.0.0.1:{port}", compression=None, ping_interval=None)
        await ws.send(json.dumps({"type": "hello", "v": 1, "name": name}))
        await self.wait_for(ws, "welcome")
        return ws

    @staticmethod
    async def wait_for(ws: ClientConnection, kind: str) -> dict[str, Any]:
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == "error":
                raise RuntimeError(frame)
            if frame["type"] == kind:
                return frame  # type: ignore[no-any-return]

    async def seat(self, ws: ClientConnection, room: str, until: float, start: float) -> None:
        """Play one game from this connection's seat (or stop at the deadline)."""
        sent_at = 0.0
        while time.monotonic() < until:
            frame = json.loads(await ws.recv())
            if frame.get("room") != room:
                continue
            kind = frame["type"]
            if kind == "error":
                raise RuntimeError(frame)
            if kind == "ack" and time.monotonic() >= start:
                self.stats["latencies"].append(time.monotonic() - sent_at)
                self.stats["actions"] += 1
            elif kind == "event" and (frame.get("event") or {}).get("type") == "game_over":
                return
            elif kind == "turn":
                action = scripted_bid(frame["legal"], 2, self.rng)
                sent_at = time.monotonic()
                await ws.send(json.dumps({"type": "act", "room": room, "action": action}))


async def run(mode: str, ports: list[int], pids: list[int], options: argparse.Namespace) -> None:
    stats: dict[str, Any] = {"latencies": [], "actions": 0}
    start = time.monotonic() + options.warmup
    until = start + options.duration
    guest_port = ports[1] if mode == "relayed" else ports[0]
    rooms = [Room(random.Random(i), stats) for i in range(options.rooms)]
    tasks = [asyncio.create_task(r.play(ports[0], guest_port, until, start)) for r in rooms]
    await asyncio.sleep(options.warmup)
    cpu = [cpu_seconds(pid) for pid in pids]
    await asyncio.sleep(options.duration)
    cpu = [cpu_seconds(pid) - before for pid, before in zip(pids, cpu, strict=True)]
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
            await task
    lat = sorted(stats["latencies"])
    actions = stats["actions"]
    per = [1e6 * c / actions if actions else float("nan") for c in cpu]
    p50, p99 = 1000 * statistics.median(lat), 1000 * percentile(lat, 0.99)
    print(
        f"{mode:8}: {actions / options.duration:6.0f} actions/s  "
        f"p50 {p50:5.1f} ms  p99 {p99:5.1f} ms  "
        f"CPU per action: node A {per[0]:.0f} us, node B {per[1]:.0f} us, "
        f"both {per[0] + per[1]:.0f} us"
    )


def main() -> None:
    """Start the cluster and two nodes, then measure both modes."""
    parser = arguments(__doc__)
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--pg-dsn", help="an existing PostgreSQL database (else a throwaway)")
    options = parser.parse_args()
    cluster = None
    dsn = options.pg_dsn
    if not dsn:
        bindir = find_bindir()
        if bindir is None:
            raise SystemExit("PostgreSQL is not installed (or give --pg-dsn)")
        cluster = Cluster(bindir, fsync=True)
        cluster.start()
        dsn = asyncio.run(create_database(cluster.admin_dsn))
    servers = []
    try:
        flags = [*LOAD_TEST_FLAGS, "--synchronous", "FULL"]
        servers = [start_umpire(dsn, flags) for _ in range(2)]
        ports = [port for _, port in servers]
        pids = [proc.pid for proc, _ in servers]
        print(machine())
        print(f"{options.rooms} two-player rooms on node A, {options.duration:g} s measured")
        for mode in ("direct", "relayed"):
            asyncio.run(run(mode, ports, pids, options))
    finally:
        for proc, _ in servers:
            proc.send_signal(signal.SIGTERM)
        for proc, _ in servers:
            proc.wait(30)
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    main()
