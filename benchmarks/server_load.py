"""Load test: N Perudo rooms of scripted random players against a real ``umpire serve``.

The server runs in its own process; this script is the load generator (it can spread the
rooms over several worker processes with ``--procs``). Each room has ``--seats`` players,
each on its own websocket; players act as soon as it is their turn (closed loop), after an
optional ``--think`` pause, and a finished game is followed by a new one in a new room.

Reported: actions/s (acknowledged actions), p50/p99 latency from sending an action to the
moment the *last* seat of the room received the last event it caused, the server's RSS
(current and peak), and the same closed-loop measure against a bare ``websockets`` echo
server (one message in flight per room) as the reference.

    python benchmarks/server_load.py --rooms 250 --seats 4 --duration 20 --procs 2
    python benchmarks/server_load.py ... --mosquitto     # the same with the MQTT feed on
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]


# -- the server processes -------------------------------------------------------------------


def start_umpire(
    db: str, synchronous: str, extra: list[str] | None = None
) -> tuple[subprocess.Popen[bytes], int]:
    """Start ``umpire serve`` on a free port with limits fit for a load test."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server.cli",
            "serve",
            "--port",
            "0",
            "--db",
            db,
            "--rate",
            "100000",
            "--burst",
            "100000",
            "--max-conn-per-ip",
            "100000",
            "--max-rooms-per-player",
            "1000",
            "--max-rooms",
            "100000",
            "--synchronous",
            synchronous,
            "--log-level",
            "WARNING",
            "--finished-ttl",
            "5",
            *(extra or []),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline().decode()
    if "listening on" not in line:
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, int(line.rsplit(":", 1)[1])


ECHO_SERVER = """
import asyncio, sys
from websockets.asyncio.server import serve
async def echo(ws):
    async for message in ws:
        await ws.send(message)
async def main():
    async with serve(echo, "127.0.0.1", 0, compression=None, max_size=16384) as server:
        print("listening on ws://127.0.0.1:%d" % server.sockets[0].getsockname()[1], flush=True)
        await asyncio.Future()
asyncio.run(main())
"""


def start_mosquitto(workdir: str) -> tuple[subprocess.Popen[bytes], int]:
    """Start a local Mosquitto on a free loopback port (for ``--mosquitto``)."""
    import shutil
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    conf = Path(workdir) / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\n")
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    proc = subprocess.Popen([binary, "-c", str(conf)], stderr=subprocess.DEVNULL)
    for _ in range(250):
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return proc, port
        time.sleep(0.02)
    raise SystemExit("mosquitto did not start")


def feed_counters(port: int) -> dict[str, float]:
    """The MQTT feed's counters from the server's /metrics."""
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        text = response.read().decode()
    out = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name in ("umpire_mqtt_messages_sent_total", "umpire_mqtt_messages_dropped_total"):
            out[name] = float(value)
    return out


def start_echo() -> tuple[subprocess.Popen[bytes], int]:
    """Start a bare websockets echo server (the reference)."""
    proc = subprocess.Popen([sys.executable, "-c", ECHO_SERVER], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    line = proc.stdout.readline().decode()
    return proc, int(line.rsplit(":", 1)[1])


def rss_mb(pid: int) -> tuple[float, float]:
    """A process's current and peak resident memory in MB (Linux)."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0]) / 1024
    return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)


# -- the umpire load ------------------------------------------------------------------------


@dataclass
class Table:
    """One room's players and the action in flight."""

    seats: int
    clients: list[ClientConnection] = field(default_factory=list)
    room: str = ""
    sent_at: float = 0.0
    target: int | None = None  # the seq the action in flight ended at (from its ack)
    seen: list[int] = field(default_factory=list)
    to_move: int | None = None
    last_bid: tuple[int, int] | None = None
    palifico: bool = False
    over: asyncio.Event = field(default_factory=asyncio.Event)
    in_flight: bool = False


class Load:
    """Drives tables until the deadline; collects latencies."""

    def __init__(self, port: int, think: float, deadline: float, rng: random.Random) -> None:
        self.url = f"ws://127.0.0.1:{port}"
        self.think = think
        self.deadline = deadline
        self.rng = rng
        self.latencies: list[float] = []
        self.actions = 0
        self.games = 0
        self.measure_from = 0.0

    async def run_table(self, index: int, seats: int) -> None:
        table = Table(seats)
        for seat in range(seats):
            ws = await connect(self.url, compression=None, max_size=None, ping_interval=None)
            await ws.send(json.dumps({"type": "hello", "v": 1, "name": f"t{index}s{seat}"}))
            json.loads(await ws.recv())
            table.clients.append(ws)
        readers = [asyncio.create_task(self.read(table, s)) for s in range(seats)]
        try:
            while time.monotonic() < self.deadline:
                await self.play_game(table)
        finally:
            for task in readers:
                task.cancel()
            for ws in table.clients:
                with contextlib.suppress(Exception):
                    await ws.close()

    async def play_game(self, table: Table) -> None:
        table.over = asyncio.Event()
        table.seen = [0] * table.seats
        table.to_move, table.last_bid, table.target, table.in_flight = None, None, None, False
        table.room = ""
        host = table.clients[0]
        await host.send(
            json.dumps({"type": "create_room", "game": "perudo", "options": {"seats": table.seats}})
        )
        while not table.room:
            await asyncio.sleep(0.001)
        for seat in range(1, table.seats):
            await table.clients[seat].send(json.dumps({"type": "join", "room": table.room}))
        await table.over.wait()
        self.games += 1

    async def read(self, table: Table, seat: int) -> None:
        ws = table.clients[seat]
        async for text in ws:
            frame = json.loads(text)
            kind = frame["type"]
            if kind == "created":
                table.room = frame["room"]
            elif kind == "ack":
                table.target = frame["seq"]
                self.check_done(table)
            elif kind == "event" and frame["room"] == table.room:
                table.seen[seat] = frame["seq"]
                event = frame.get("event")
                if event is not None and seat == 0:
                    self.follow(table, event)
                self.check_done(table)
            elif kind == "error":  # should not happen; fall back to dudo to keep going
                print("error:", frame, file=sys.stderr)
                await ws.send(json.dumps({"type": "act", "room": table.room, "action": "dudo"}))

    def follow(self, table: Table, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "round_started":
            table.to_move, table.last_bid = event["starter"], None
            table.palifico = event["palifico"] is not None
        elif kind == "bid":
            table.to_move, table.last_bid = event["next"], (event["quantity"], event["face"])
        elif kind == "challenge":
            table.to_move = None
        elif kind == "game_over":
            table.to_move = None
            table.over.set()

    def check_done(self, table: Table) -> None:
        if table.target is not None and min(table.seen) >= table.target:
            now = time.monotonic()
            if table.in_flight and table.sent_at >= self.measure_from and now < self.deadline:
                self.latencies.append(now - table.sent_at)
                self.actions += 1
            table.in_flight, table.target = False, None
        if not table.in_flight and table.to_move is not None and not table.over.is_set():
            table.in_flight = True
            asyncio.get_running_loop().create_task(self.act(table))

    async def act(self, table: Table) -> None:
        if self.think:
            await asyncio.sleep(self.rng.expovariate(1 / self.think))
        seat = table.to_move
        assert seat is not None
        action = self.choose(table)
        table.sent_at = time.monotonic()
        await table.clients[seat].send(
            json.dumps({"type": "act", "room": table.room, "action": action})
        )

    def choose(self, table: Table) -> str:
        rng = self.rng
        if table.last_bid is None:
            return f"{rng.randint(1, 3)}x{rng.randint(2, 6)}"
        quantity, face = table.last_bid
        if quantity >= table.seats * 2 or rng.random() < 0.3:
            return "dudo"
        if face == 1 or table.palifico:
            return f"{quantity + 1}x{face}"
        if face < 6 and rng.random() < 0.5:
            return f"{quantity}x{rng.randint(face + 1, 6)}"
        return f"{quantity + 1}x{face}"


async def umpire_worker(
    port: int, rooms: range, seats: int, think: float, warmup: float, duration: float, seed: int
) -> dict[str, Any]:
    start = time.monotonic()
    load = Load(port, think, start + warmup + duration, random.Random(seed))
    load.measure_from = start + warmup
    await asyncio.gather(*(load.run_table(i, seats) for i in rooms))
    return {"latencies": load.latencies, "actions": load.actions, "games": load.games}


# -- the echo reference ----------------------------------------------------------------------


async def echo_worker(
    port: int, rooms: range, seats: int, think: float, warmup: float, duration: float, seed: int
) -> dict[str, Any]:
    """Closed loop: each 'room' keeps one ~150-byte message in flight to the echo server."""
    start = time.monotonic()
    deadline = start + warmup + duration
    latencies: list[float] = []
    payload = json.dumps({"type": "act", "room": "oh_GdIGG", "action": "5x4", "pad": "x" * 90})

    async def one(_: int) -> None:
        ws = await connect(f"ws://127.0.0.1:{port}", compression=None, ping_interval=None)
        try:
            while (now := time.monotonic()) < deadline:
                await ws.send(payload)
                await ws.recv()
                if now >= start + warmup:
                    latencies.append(time.monotonic() - now)
        finally:
            await ws.close()

    await asyncio.gather(*(one(i) for i in rooms))
    return {"latencies": latencies, "actions": len(latencies), "games": 0}


def _worker(kind: str, args: tuple[Any, ...], out: Any) -> None:
    fn = umpire_worker if kind == "umpire" else echo_worker
    out.put(asyncio.run(fn(*args)))


def drive(kind: str, port: int, options: argparse.Namespace) -> dict[str, Any]:
    """Run the load over ``--procs`` worker processes; merge their results."""
    queue: Any = mp.Queue()
    per = -(-options.rooms // options.procs)
    procs = []
    for w in range(options.procs):
        rooms = range(w * per, min(options.rooms, (w + 1) * per))
        args = (port, rooms, options.seats, options.think, options.warmup, options.duration, w)
        proc = mp.Process(target=_worker, args=(kind, args, queue))
        proc.start()
        procs.append(proc)
    results = [queue.get() for _ in procs]
    for proc in procs:
        proc.join()
    latencies = sorted(x for r in results for x in r["latencies"])
    actions = sum(r["actions"] for r in results)
    return {
        "per_second": actions / options.duration,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else float("nan"),
        "games": sum(r["games"] for r in results),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--duration", type=float, default=20.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--think", type=float, default=0.0, help="mean pause before acting (s)")
    parser.add_argument("--procs", type=int, default=2, help="load-generator processes")
    parser.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL"])
    parser.add_argument("--no-echo", action="store_true", help="skip the echo reference")
    parser.add_argument("--mqtt", metavar="URL", help="run the server with --mqtt URL")
    parser.add_argument(
        "--mosquitto", action="store_true", help="start a local mosquitto and feed it"
    )
    options = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        broker = None
        extra: list[str] = []
        if options.mosquitto:
            broker, broker_port = start_mosquitto(tmp)
            options.mqtt = f"mqtt://127.0.0.1:{broker_port}/bench"
        if options.mqtt:
            extra = ["--mqtt", options.mqtt]
        server, port = start_umpire(str(Path(tmp) / "load.db"), options.synchronous, extra)
        feed: dict[str, float] = {}
        try:
            umpire = drive("umpire", port, options)
            rss, peak = rss_mb(server.pid)
            if options.mqtt:
                feed = feed_counters(port)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(30)
            if broker is not None:
                broker.terminate()
                broker.wait()
    print(
        f"umpire: {options.rooms} rooms x {options.seats} seats "
        f"({options.rooms * options.seats} connections), think {options.think}s, "
        f"synchronous={options.synchronous}, {options.duration:g}s measured, "
        f"{umpire['games']} games"
    )
    print(
        f"  actions/s {umpire['per_second']:.0f}  p50 {umpire['p50_ms']:.1f} ms  "
        f"p99 {umpire['p99_ms']:.1f} ms  server RSS {rss:.0f} MB (peak {peak:.0f} MB)"
    )
    if options.mqtt:
        print(
            f"  mqtt feed {options.mqtt}: "
            f"{feed.get('umpire_mqtt_messages_sent_total', 0):.0f} messages confirmed, "
            f"{feed.get('umpire_mqtt_messages_dropped_total', 0):.0f} dropped"
        )
    if options.no_echo:
        return
    echo_server, echo_port = start_echo()
    try:
        echo = drive("echo", echo_port, options)
        echo_rss, _ = rss_mb(echo_server.pid)
    finally:
        echo_server.kill()
        echo_server.wait()
    print(
        f"echo reference: {options.rooms} connections, one message in flight each\n"
        f"  messages/s {echo['per_second']:.0f}  p50 {echo['p50_ms']:.1f} ms  "
        f"p99 {echo['p99_ms']:.1f} ms  RSS {echo_rss:.0f} MB"
    )
    ratio = umpire["per_second"] / echo["per_second"]
    print(f"ratio umpire actions/s : echo messages/s = {ratio:.2f}")


if __name__ == "__main__":
    main()
