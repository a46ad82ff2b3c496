"""Load test: N Perudo rooms of scripted random players against a real ``umpire serve``.

The server runs in its own process; this script is the load generator (it can spread the
rooms over several worker processes with ``--procs``). Each room has ``--seats`` players,
each on its own websocket; a player acts only on a ``turn`` frame for its own seat, with
one of the frame's legal actions, as soon as it comes (closed loop) or after an optional
``--think`` pause, and a finished game is followed by a new one in a new room. The first
``error`` frame, a closed connection or a stalled game stops the run (printed; exit 1), and
the run ends by itself after ``--warmup`` + ``--duration`` seconds.

Reported: actions/s (acknowledged actions), p50/p99 latency from sending an action to the
moment the *last* seat of the room received the last event it caused, the server's CPU
time per acknowledged action (user + system seconds of the server process over the measured
window, from /proc/<pid>/stat, divided by the actions acknowledged in it) and the load
generators' CPU time per action measured the same way (both share the machine's cores, so
the saturated rate is bounded by their sum), the server's RSS
(current and peak), and the same closed-loop measure against a bare ``websockets`` echo
server (one message in flight per room) as the reference.

    python -m benchmarks.server_load --rooms 250 --seats 4 --duration 20 --procs 2
    python -m benchmarks.server_load ... --mosquitto     # the same with the MQTT feed on
    python -m benchmarks.server_load ... --store postgres             # one node, PostgreSQL
    python -m benchmarks.server_load ... --store postgres --nodes 2   # two nodes, one database
    python -m benchmarks.server_load ... --duration 1800 --every 60   # a soak: cost per minute
    python -m benchmarks.server_load ... --idle 9000   # 9,000 idle lobby connections beside

``--store postgres`` starts a throwaway PostgreSQL cluster from Debian's binaries (removed
at exit, also after an error, Ctrl-C or SIGTERM) or uses ``--pg-dsn``; the CPU time of
every postgres process is reported beside the server's (with ``--pg-dsn`` when that server
runs on this machine). With ``--nodes N`` the tables are dealt over the nodes in turn
(table ``n`` plays on node ``n % N``, whatever the number of ``--procs``): each room lives
on the node its players use, so this measures nodes side by side on one database, not the
relay.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
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
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from queue import Empty
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
from benchmarks.load_raw import hold_idle, node_port, raw_worker
from benchmarks.server_trace import summary
from bots.client.core import ClientCore, Received, Turn
from tests.pgcluster import Cluster, create_database, find_bindir

# -- the server processes -------------------------------------------------------------------


def start_node(
    db: str, synchronous: str, extra: list[str], trace: str | None
) -> tuple[subprocess.Popen[bytes], int]:
    """Start one ``umpire serve`` with limits fit for a load test (with ``trace``, through
    ``benchmarks/server_trace.py``, which writes its trace there)."""
    entry = ("-m", "benchmarks.server_trace", trace) if trace else ("-m", "server.cli")
    flags = [*LOAD_TEST_FLAGS, "--synchronous", synchronous, *extra]
    return start_umpire(db, flags, entry=entry)


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


def commit_counters(port: int) -> tuple[float, float]:
    """The server's group commits so far and their total seconds (from /metrics)."""
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        text = response.read().decode()
    values = dict.fromkeys(("count", "sum"), 0.0)
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        for key in values:
            if name == f"umpire_store_write_seconds_{key}":
                values[key] = float(value)
    return values["count"], values["sum"]


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


class LoadError(Exception):
    """The server answered an error (or stalled): the run stops at the first one."""


@dataclass
class Table:
    """One room's players and the actions whose events are still on their way."""

    seats: int
    clients: list[ClientConnection] = field(default_factory=list)
    #: the protocol state of each connection (the one client core: hello, streams, turns)
    cores: list[ClientCore] = field(default_factory=list)
    room: str = ""
    created: asyncio.Event = field(default_factory=asyncio.Event)
    over: asyncio.Event = field(default_factory=asyncio.Event)
    #: by connection (its index in ``clients``, not necessarily the seat it holds):
    seen: list[int] = field(default_factory=list)  #: the last event seq it received
    sent_at: list[float] = field(default_factory=list)  #: when it sent its last act
    #: acknowledged actions being measured: (the seq they ended at, when they were sent)
    measuring: list[tuple[float, int]] = field(default_factory=list)


class Load:
    """Drives tables until the deadline; collects latencies.

    Each seat's connection acts only on a ``turn`` frame addressed to its own seat (never
    for another seat), picking one of the frame's ``legal`` actions. The first ``error``
    frame (or a game that stalls) stops the whole run: it is printed and the script exits
    with status 1.
    """

    def __init__(
        self,
        ports: list[int],
        think: float,
        measure_from: float,
        deadline: float,
        rng: random.Random,
    ) -> None:
        self.ports = ports  #: one per node: table ``n`` plays on ``node_port(n, ports)``
        self.think = think
        self.measure_from = measure_from
        self.deadline = deadline
        self.rng = rng
        self.latencies: list[float] = []
        self.actions = 0  #: acknowledged actions within the measured window
        self.games = 0
        self.failed: asyncio.Future[str] | None = None

    def fail(self, message: str) -> None:
        """Stop the run with ``message`` (the first failure wins)."""
        if self.failed is not None and not self.failed.done():
            self.failed.set_result(message)

    async def run(self, tables: range, seats: int) -> None:
        self.failed = asyncio.get_running_loop().create_future()
        players = asyncio.gather(*(self.run_table(i, seats) for i in tables))
        either: set[asyncio.Future[Any]] = {players, self.failed}
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        if self.failed.done():
            players.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await players
            raise LoadError(self.failed.result())
        players.result()

    async def run_table(self, index: int, seats: int) -> None:
        table = Table(seats)
        url = f"ws://127.0.0.1:{node_port(index, self.ports)}"
        for seat in range(seats):
            ws = await connect(url, compression=None, max_size=None, ping_interval=None)
            core = ClientCore(f"t{index}s{seat}")
            core.connection_made()
            await ws.send(json.dumps(core.next_frame()))
            welcome = json.loads(await ws.recv())
            core.receive(welcome)
            if not core.ready:
                self.fail(f"hello refused: {welcome}")
                return
            table.clients.append(ws)
            table.cores.append(core)
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
        table.over, table.created = asyncio.Event(), asyncio.Event()
        table.seen = [0] * table.seats
        table.sent_at = [0.0] * table.seats
        table.measuring = []
        table.room = ""
        await table.clients[0].send(
            json.dumps({"type": "create_room", "game": "perudo", "options": {"seats": table.seats}})
        )
        await table.created.wait()
        for seat in range(1, table.seats):
            await table.clients[seat].send(json.dumps({"type": "join", "room": table.room}))
        try:
            # a game ends by itself; one that stops moving is a fault worth stopping for
            await asyncio.wait_for(table.over.wait(), max(60.0, 60 * self.think))
        except TimeoutError:
            self.fail(f"room {table.room}: no game_over within 60 s")
            return
        self.games += 1

    async def read(self, table: Table, seat: int) -> None:
        ws = table.clients[seat]
        core = table.cores[seat]
        try:
            async for text in ws:
                for output in core.receive(json.loads(text)):
                    if isinstance(output, Received) and not self.handle(table, seat, output):
                        return
                if core.pending():  # the core asks for a resume: a stream had a gap
                    self.fail(f"seat {seat} of room {table.room}: a gap in its events")
                    return
        except ConnectionClosed as exc:
            if time.monotonic() < self.deadline:
                self.fail(f"seat {seat} of room {table.room}: connection closed: {exc}")

    def handle(self, table: Table, seat: int, output: Received) -> bool:
        """Take one frame as the core delivered it; False stops the reader."""
        frame, kind = output.frame, output.kind
        if kind == "error":
            self.fail(f"seat {seat} of room {table.room}: {frame}")
            return False
        if kind == "created":
            table.room = frame["room"]
            table.created.set()
        elif frame.get("room") != table.room:
            pass  # a late frame of this table's previous game
        elif kind == "ack":
            table.measuring.append((table.sent_at[seat], frame["seq"]))
            if self.measure_from <= time.monotonic() < self.deadline:
                self.actions += 1
        elif kind == "event":
            table.seen[seat] = frame["seq"]
            self.check_done(table)
            event = frame.get("event")
            if event is not None and event.get("type") == "game_over" and seat == 0:
                table.over.set()
        elif isinstance(output, Turn):
            # Only the connection holding the seat gets its turn frames (the core hands
            # them over once their events are in). Which seat a connection holds is the
            # server's answer, not the join order: joins sent on three connections may
            # reach the room in any order (guessing the seat from that order made the old
            # generator act from the wrong seat: not_your_turn, then a dudo from the same
            # seat, forever).
            asyncio.get_running_loop().create_task(self.act(table, seat, frame))
        return True

    def check_done(self, table: Table) -> None:
        """Record the latency of each action whose events every seat has received."""
        if not table.measuring:
            return
        low = min(table.seen)
        now = time.monotonic()
        while table.measuring and table.measuring[0][1] <= low:
            sent_at, _ = table.measuring.pop(0)
            if self.measure_from <= sent_at and now < self.deadline:
                self.latencies.append(now - sent_at)

    async def act(self, table: Table, seat: int, turn: dict[str, Any]) -> None:
        if self.think:
            await asyncio.sleep(self.rng.expovariate(1 / self.think))
        action = scripted_bid(turn["legal"], table.seats, self.rng)
        table.sent_at[seat] = time.monotonic()
        with contextlib.suppress(ConnectionClosed):
            await table.clients[seat].send(
                json.dumps({"type": "act", "room": table.room, "action": action})
            )


async def umpire_worker(
    ports: list[int],
    rooms: range,
    seats: int,
    think: float,
    measure_from: float,
    deadline: float,
    seed: int,
) -> dict[str, Any]:
    load = Load(ports, think, measure_from, deadline, random.Random(seed))
    error = None
    try:
        await load.run(rooms, seats)
    except (LoadError, OSError, ConnectionClosed) as exc:
        error = str(exc) or repr(exc)
    return {
        "latencies": load.latencies,
        "actions": load.actions,
        "games": load.games,
        "error": error,
    }


# -- the echo reference ----------------------------------------------------------------------


async def echo_worker(
    port: int,
    rooms: range,
    seats: int,
    think: float,
    measure_from: float,
    deadline: float,
    seed: int,
) -> dict[str, Any]:
    """Closed loop: each 'room' keeps one ~150-byte message in flight to the echo server."""
    latencies: list[float] = []
    payload = json.dumps({"type": "act", "room": "oh_GdIGG", "action": "5x4", "pad": "x" * 90})

    async def one(_: int) -> None:
        ws = await connect(f"ws://127.0.0.1:{port}", compression=None, ping_interval=None)
        try:
            while (now := time.monotonic()) < deadline:
                await ws.send(payload)
                await ws.recv()
                if now >= measure_from:
                    latencies.append(time.monotonic() - now)
        finally:
            await ws.close()

    await asyncio.gather(*(one(i) for i in rooms))
    return {"latencies": latencies, "actions": len(latencies), "games": 0, "error": None}


def _idle(ports: list[int], count: int, until: float, ready: Any) -> None:
    """The process of ``--idle`` connections (benchmarks.load_raw.hold_idle)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        asyncio.run(hold_idle(ports, count, until, ready))
    except Exception as exc:  # always answer, so that the main process never waits forever
        ready.put(repr(exc))


def raise_fd_limit(needed: int) -> int:
    """Raise this process's limit of open files (which the servers and workers inherit) to
    at least ``needed`` if it can (the soft limit up to the hard one; as root, the hard one
    too); return the limit now."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return soft
    if hard != resource.RLIM_INFINITY and hard < needed:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (needed, needed))
            return needed
    target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return target


def _worker(kind: str, args: tuple[Any, ...], out: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (the parent's handler is for it alone)
    workers: dict[str, Callable[..., Coroutine[Any, Any, dict[str, Any]]]] = {
        "raw": raw_worker,
        "umpire": umpire_worker,
        "echo": echo_worker,
    }
    fn = workers[kind]
    try:
        out.put(asyncio.run(fn(*args)))
    except Exception as exc:  # always answer, so that the main process never waits forever
        out.put({"latencies": [], "actions": 0, "games": 0, "error": repr(exc)})


def thread_cpu(pid: int) -> dict[str, tuple[float, float]]:
    """User and system CPU seconds of ``pid``'s main thread (the event loop) and of its
    other threads together (the SQLite writer, mostly), from Linux /proc."""
    out: dict[str, tuple[float, float]] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            name = "event loop" if task.name == str(pid) else "other threads"
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            user, system = out.get(name, (0.0, 0.0))
            out[name] = (user + int(fields[11]) / tick, system + int(fields[12]) / tick)
    return out


def postgres_pids(data: Path) -> list[int]:
    """The postmaster of the cluster in ``data`` and all its children (the backends)."""
    return postgres_family(int((data / "postmaster.pid").read_text().split()[0]))


def postmaster_of(dsn: str) -> int | None:
    """The postmaster's pid of the PostgreSQL server at ``dsn`` when it runs on this
    machine (the parent of the backend serving one connection, read from /proc while the
    connection is open); ``None`` when the server is elsewhere (another machine or
    container: its backend's pid is not a postgres process here)."""
    import asyncpg

    async def find() -> int | None:
        conn = await asyncpg.connect(dsn)
        try:
            return parent_postgres(int(await conn.fetchval("SELECT pg_backend_pid()")))
        finally:
            await conn.close()

    return asyncio.run(find())


def parent_postgres(backend: int) -> int | None:
    """The parent of process ``backend`` if ``backend`` is a postgres process here."""
    try:
        stat = Path(f"/proc/{backend}/stat").read_text()
    except OSError:
        return None
    name = stat[stat.find("(") + 1 : stat.rfind(")")]
    if not name.startswith("postgres"):
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def postgres_family(postmaster: int) -> list[int]:
    """``postmaster`` and all its children (the backends and PostgreSQL's own workers)."""
    pids = [postmaster]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                pids.append(int(stat.parent.name))
    return pids


@contextlib.contextmanager
def throwaway_postgres(cluster: Any, create: Callable[[str], str]) -> Iterator[str]:
    """Start ``cluster`` (a :class:`tests.pgcluster.Cluster`), make a database on it with
    ``create(admin_dsn)`` and yield the database's DSN. The cluster is stopped and its
    folder deleted on the way out whatever ends the run: the end, an error, Ctrl-C, or
    SIGTERM under :func:`terminate_as_interrupt`, also during its start-up."""
    try:
        cluster.start()
        yield create(cluster.admin_dsn)
    finally:
        cluster.stop()


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises ``KeyboardInterrupt`` (as Ctrl-C does) in the
    main thread, so that clean-up in ``finally`` blocks and exit stacks runs; the previous
    handler is restored after it."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def open_idle(
    ports: list[int], pids: list[int], options: argparse.Namespace, stack: contextlib.ExitStack
) -> tuple[int, float, float]:
    """Open ``--idle`` idle connections in a process of their own (held until the run
    ends); return how many, and the first node's RSS (MB) before and after them."""
    before = rss_mb(pids[0])[0]
    ready: Any = mp.Queue()
    until = time.monotonic() + 600 + options.warmup + options.duration
    proc = mp.Process(target=_idle, args=(ports, options.idle, until, ready))
    proc.start()
    stack.callback(proc.join)
    stack.callback(proc.terminate)
    opened = ready.get(timeout=600)
    if not isinstance(opened, int):
        raise SystemExit(f"the idle connections failed: {opened}")
    time.sleep(2.0)  # (the last welcomes' garbage freed, the server quiet)
    return opened, before, rss_mb(pids[0])[0]


def stop_process(proc: subprocess.Popen[bytes], timeout: float) -> None:
    """Ask ``proc`` to stop (SIGTERM); kill it if it has not within ``timeout`` seconds."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@dataclass(frozen=True)
class Sample:
    """The servers at one moment of the measured window (``--every``)."""

    at: float  #: time.monotonic()
    cpu: float  #: CPU seconds of every node so far
    actions: float  #: accepted actions of every node so far (their /metrics)
    rss: float  #: the first node's resident memory, MB
    loop: float = 0.0  #: CPU seconds of the first node's event loop (its main thread)


def metric(port: int, name: str) -> float:
    """One value of a node's /metrics (``name`` with its labels, as the text shows it)."""
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        for line in response.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.rsplit(" ", 1)[1])
    return 0.0


def accepted_actions(port: int) -> float:
    """A node's accepted actions so far (``umpire_actions_total`` in its /metrics)."""
    return metric(port, 'umpire_actions_total{result="accepted"}')


def sample(pids: list[int], ports: list[int]) -> Sample:
    """The servers now."""
    loop = thread_cpu(pids[0]).get("event loop", (0.0, 0.0))
    return Sample(
        time.monotonic(),
        total_cpu(pids),
        sum(accepted_actions(port) for port in ports),
        rss_mb(pids[0])[0],
        loop[0] + loop[1],
    )


def over_time(samples: list[Sample], start: float) -> list[str]:
    """One line per interval between ``samples``: its end (seconds after ``start``), the
    actions per second, the servers' CPU per action (and the event loop's part of it) and
    the first node's RSS."""
    lines = []
    for before, after in itertools.pairwise(samples):
        actions = after.actions - before.actions
        seconds = after.at - before.at
        cost = 1e6 * (after.cpu - before.cpu) / actions if actions else float("nan")
        loop = 1e6 * (after.loop - before.loop) / actions if actions else float("nan")
        lines.append(
            f"    {after.at - start:6.0f} s  {actions / seconds:7.0f} actions/s  "
            f"{cost:5.0f} us per action (event loop {loop:3.0f})  RSS {after.rss:5.0f} MB"
        )
    return lines


def total_cpu(pids: list[int]) -> float:
    """CPU seconds of these processes (those that have exited count as 0)."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            total += cpu_seconds(pid)
    return total


def drive(
    kind: str,
    port: int | list[int],
    options: argparse.Namespace,
    server_pid: int | list[int] | None = None,
    db_pids: list[int] | None = None,
) -> dict[str, Any]:
    """Run the load over ``--procs`` worker processes; merge their results.

    The measured window is the same for every worker: from ``--warmup`` seconds after the
    start (connections take a moment) for ``--duration`` seconds. With ``server_pid``, the
    server's CPU time over that window is read from /proc (several ports and pids: the
    tables are dealt over the nodes, the CPU is the nodes' sum); ``db_pids`` likewise for
    the database's processes."""
    ports = port if isinstance(port, list) else [port]
    pids = (
        [] if server_pid is None else server_pid if isinstance(server_pid, list) else [server_pid]
    )
    queue: Any = mp.Queue()
    per = -(-options.rooms // options.procs)
    measure_from = time.monotonic() + options.warmup
    deadline = measure_from + options.duration
    procs: list[mp.Process] = []
    for w in range(options.procs):
        rooms = range(w * per, min(options.rooms, (w + 1) * per))
        args = (
            ports[0] if kind == "echo" else ports,  # (the tables are dealt over the nodes)
            rooms,
            options.seats,
            options.think,
            measure_from,
            deadline,
            w,
        )
        proc = mp.Process(target=_worker, args=(kind, args, queue))
        proc.start()
        procs.append(proc)
    load_pids = [proc.pid for proc in procs if proc.pid is not None]
    results: list[dict[str, Any]] = []

    def collect(until: float | None) -> bool:
        """Gather worker results until ``until`` (or all); False at the first error."""
        while len(results) < len(procs):
            timeout = None if until is None else until - time.monotonic()
            if timeout is not None and timeout <= 0:
                return True
            try:
                results.append(queue.get(timeout=timeout))
            except Empty:
                return True
            if results[-1]["error"]:
                return False
        return True

    cpu = db_cpu = load_cpu = None
    connections = 0.0
    samples: list[Sample] = []
    threads: dict[str, tuple[float, float]] = {}
    commits = (0.0, 0.0)
    try:
        ok = collect(measure_from)
        if ok and pids:
            first, db_first = total_cpu(pids), total_cpu(db_pids or [])
            threads_first = thread_cpu(pids[0])
            commits_first = commit_counters(ports[0]) if kind != "echo" else (0.0, 0.0)
            load_first = sum(cpu_seconds(pid) for pid in load_pids)
            if kind != "echo":
                connections = sum(metric(p, "umpire_connections") for p in ports)
            every = getattr(options, "every", 0.0) if kind != "echo" else 0.0
            if every:
                samples.append(sample(pids, ports))
                at = measure_from + every
                while ok and at < deadline - every / 2 and len(results) < len(procs):
                    ok = collect(at)
                    samples.append(sample(pids, ports))
                    at += every
            ok = ok and collect(deadline)
            if every and ok:
                samples.append(sample(pids, ports))
            cpu = total_cpu(pids) - first
            if kind != "echo":
                count, seconds = commit_counters(ports[0])
                commits = (count - commits_first[0], seconds - commits_first[1])
            threads = {
                name: (
                    user - threads_first.get(name, (0.0, 0.0))[0],
                    system - threads_first.get(name, (0.0, 0.0))[1],
                )
                for name, (user, system) in thread_cpu(pids[0]).items()
            }
            db_cpu = total_cpu(db_pids or []) - db_first
            load_cpu = sum(cpu_seconds(pid) for pid in load_pids) - load_first
        ok = ok and collect(None)
    except BaseException:  # (Ctrl-C or SIGTERM: the workers must not outlive the run)
        for proc in procs:
            proc.terminate()
        raise
    if not ok:
        for proc in procs:
            proc.terminate()
    for proc in procs:
        proc.join()
    errors = [r["error"] for r in results if r["error"]]
    if errors:
        print(f"{kind}: the load stopped at the first error: {errors[0]}", file=sys.stderr)
        raise SystemExit(1)
    latencies = [x for r in results for x in r["latencies"]]
    actions = sum(r["actions"] for r in results)
    return {
        "actions": actions,
        "per_second": actions / options.duration,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "games": sum(r["games"] for r in results),
        "window": (measure_from, deadline),
        "cpu_s": cpu,
        "threads": threads,
        "commits": commits,
        "cpu_us_per_action": 1e6 * cpu / actions if cpu is not None and actions else float("nan"),
        "load_cpu_us_per_action": (
            1e6 * load_cpu / actions if load_cpu is not None and actions else float("nan")
        ),
        "db_cpu_s": db_cpu,
        "samples": samples,
        "connections": connections,
        "db_cpu_us_per_action": (
            1e6 * db_cpu / actions if db_cpu is not None and actions else float("nan")
        ),
    }


def profile(pid: int, options: argparse.Namespace) -> None:
    """Record ``pid`` with py-spy (200 samples/s, native frames, idle threads left out)
    over the measured window, into ``--py-spy`` as collapsed stacks."""
    import shutil
    import threading

    binary = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    command = [binary, "record", "--pid", str(pid), "--rate", "200", "--format", "raw"]
    command += ["--duration", str(int(options.duration)), "--output", options.py_spy]
    extra = options.py_spy_args.split()
    command += ["--threads", *extra]
    if "--native" not in extra:  # (py-spy reads native stacks only with the process paused)
        command.append("--nonblocking")

    def run() -> None:
        subprocess.run(command, check=False, stdout=subprocess.DEVNULL)

    threading.Timer(options.warmup, run).start()


def main() -> None:
    """Start the server (and its database or broker), load it, print what it did."""
    parser = arguments(__doc__)
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--duration", type=float, default=20.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--think", type=float, default=0.0, help="mean pause before acting (s)")
    parser.add_argument("--procs", type=int, default=2, help="load-generator processes")
    parser.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL"])
    parser.add_argument("--no-echo", action="store_true", help="skip the echo reference")
    parser.add_argument(
        "--idle",
        type=int,
        default=0,
        metavar="N",
        help="first open N more connections that say hello and then nothing (players in "
        "the lobby), held through the run; prints the server's memory per idle connection",
    )
    parser.add_argument(
        "--every",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="also print the actions/s, the CPU per action and the RSS of each interval "
        "(to see whether a long run's cost drifts)",
    )
    parser.add_argument(
        "--py-spy",
        metavar="FILE",
        help="record the server with py-spy over the measured window (collapsed stacks)",
    )
    parser.add_argument(
        "--py-spy-args", default="", help="more py-spy options (for example --native)"
    )
    parser.add_argument(
        "--raw",
        action="store_true",
        help="the cheap load generator (benchmarks/load_raw.py: raw frames, msgspec)",
    )
    parser.add_argument("--mqtt", metavar="URL", help="run the server with --mqtt URL")
    parser.add_argument(
        "--mosquitto", action="store_true", help="start a local mosquitto and feed it"
    )
    parser.add_argument(
        "--loop",
        default="asyncio",
        choices=["asyncio", "uvloop", "auto"],
        help="the server's event loop (umpire serve --loop)",
    )
    parser.add_argument(
        "--trace",
        metavar="FILE",
        help="run the server through benchmarks/server_trace.py: GC pauses, loop stalls, "
        "commit cadence, the act's time in the server (costs some CPU: not for CPU figures)",
    )
    parser.add_argument("--store", default="sqlite", choices=["sqlite", "postgres"])
    parser.add_argument("--nodes", type=int, default=1, help="umpire nodes (postgres only)")
    parser.add_argument("--pg-dsn", help="an existing PostgreSQL database (else a throwaway)")
    parser.add_argument(
        "--db",
        metavar="FILE",
        help="the SQLite file (kept; made if missing): a later run on the same file starts "
        "with the games of the earlier ones, to measure a server with a history",
    )
    options = parser.parse_args()
    needed = options.idle + options.rooms * options.seats
    limit = raise_fd_limit(needed + 1000)
    if limit < needed + 100:
        parser.error(
            f"{needed} connections need as many open files in the server, and the limit "
            f"here is {limit} (ulimit -n; raising it needs root or a higher hard limit)"
        )
    if options.nodes > 1 and options.store != "postgres":
        parser.error("--nodes needs --store postgres (nodes share one database)")

    with terminate_as_interrupt(), contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        extra: list[str] = ["--loop", options.loop]
        if options.mosquitto:
            broker, broker_port = start_mosquitto(tmp)
            stack.callback(stop_process, broker, 5)
            options.mqtt = f"mqtt://127.0.0.1:{broker_port}/bench"
        if options.mqtt:
            extra += ["--mqtt", options.mqtt]
        db_pids: list[int] = []
        postmaster: int | None = None
        db = options.db or str(Path(tmp) / "load.db")
        if options.store == "postgres":
            if options.pg_dsn:
                db = options.pg_dsn
                postmaster = postmaster_of(db)
            else:
                bindir = find_bindir()
                if bindir is None:
                    raise SystemExit("PostgreSQL is not installed (or give --pg-dsn)")
                cluster = Cluster(bindir, fsync=True)
                db = stack.enter_context(
                    throwaway_postgres(cluster, lambda dsn: asyncio.run(create_database(dsn)))
                )
                postmaster = postgres_pids(cluster.data)[0]
            extra += ["--signing-key", str(Path(tmp) / "cluster.key")]  # (the nodes' one key)
        feed: dict[str, float] = {}
        trace = str(Path(options.trace).resolve()) if options.trace else None
        servers: list[tuple[subprocess.Popen[bytes], int]] = []
        for _ in range(options.nodes):
            servers.append(start_node(db, options.synchronous, extra, trace))
            stack.callback(stop_process, servers[-1][0], 30)
        if postmaster is not None:
            db_pids = postgres_family(postmaster)
        ports = [port for _, port in servers]
        kind = "raw" if options.raw else "umpire"
        idle = None
        if options.idle:
            idle = open_idle(ports, [s.pid for s, _ in servers], options, stack)
        if options.py_spy:
            profile(servers[0][0].pid, options)
        umpire = drive(kind, ports, options, [s.pid for s, _ in servers], db_pids)
        rss, peak = rss_mb(servers[0][0].pid)
        by_node = [accepted_actions(port) for port in ports]
        if options.mqtt:
            feed = feed_counters(ports[0])
        stack.close()  # (the servers stop: a trace is written at exit)
        if trace is not None:
            window = umpire["window"]
            traced = summary(trace, window[0], window[1])
    print(machine())
    print(
        f"umpire: {options.rooms} rooms x {options.seats} seats "
        f"({options.rooms * options.seats} connections), think {options.think}s, "
        f"synchronous={options.synchronous}, {options.duration:g}s measured, "
        f"{umpire['games']} games, store {options.store}, {options.nodes} node(s), "
        f"load generator {'raw' if options.raw else 'client core'}"
    )
    print(
        f"  actions/s {umpire['per_second']:.0f}  p50 {umpire['p50_ms']:.1f} ms  "
        f"p99 {umpire['p99_ms']:.1f} ms  server RSS {rss:.0f} MB (peak {peak:.0f} MB)"
    )
    print(
        f"  server CPU {umpire['cpu_s']:.2f} s over {umpire['actions']} acknowledged actions: "
        f"{umpire['cpu_us_per_action']:.0f} us per action"
        + (f" (sum of {options.nodes} nodes; RSS above: node 1)" if options.nodes > 1 else "")
        + f" (the load generators: {umpire['load_cpu_us_per_action']:.0f} us per action)"
    )
    if options.nodes > 1:
        print("  actions accepted by each node: " + " / ".join(f"{n:.0f}" for n in by_node))
    if umpire["threads"] and umpire["actions"]:
        print(
            "  by thread (us per action, user + system): "
            + ", ".join(
                f"{name} {1e6 * user / umpire['actions']:.0f} + "
                f"{1e6 * system / umpire['actions']:.0f}"
                for name, (user, system) in sorted(umpire["threads"].items())
                if user + system > 0.005 * umpire["cpu_s"]
            )
        )
    if idle is not None:
        opened, before, after = idle
        print(
            f"  {opened} idle connections (hello, then nothing) held through the run: the "
            f"server's RSS {before:.0f} -> {after:.0f} MB, "
            f"{1e3 * (after - before) / opened:.1f} kB per idle connection; "
            f"{umpire['connections']:.0f} connections open when the measure began"
        )
    if umpire["samples"]:
        print(f"  over time (every {options.every:g} s of the measured window):")
        print("\n".join(over_time(umpire["samples"], umpire["window"][0])))
    if options.trace:
        print(traced)
    count, seconds = umpire["commits"]
    if count and options.nodes == 1:
        print(
            f"  group commits: {count:.0f} ({umpire['actions'] / count:.1f} actions each), "
            f"{1000 * seconds / count:.1f} ms each on average"
        )
    if db_pids:
        print(
            f"  postgres CPU {umpire['db_cpu_s']:.2f} s: "
            f"{umpire['db_cpu_us_per_action']:.0f} us per action "
            f"({len(db_pids)} postgres processes)"
        )
    elif options.store == "postgres":
        print("  postgres CPU: not measured (the server of --pg-dsn is not on this machine)")
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
        echo = drive("echo", echo_port, options, echo_server.pid)
        echo_rss, _ = rss_mb(echo_server.pid)
    finally:
        echo_server.kill()
        echo_server.wait()
    print(
        f"echo reference: {options.rooms} connections, one message in flight each\n"
        f"  messages/s {echo['per_second']:.0f}  p50 {echo['p50_ms']:.1f} ms  "
        f"p99 {echo['p99_ms']:.1f} ms  RSS {echo_rss:.0f} MB, "
        f"CPU {echo['cpu_us_per_action']:.0f} us per message"
    )
    ratio = umpire["per_second"] / echo["per_second"]
    print(f"ratio umpire actions/s : echo messages/s = {ratio:.2f}")


if __name__ == "__main__":
    main()
