"""The cheap load generator (benchmarks.load_raw) plays whole games on a real server."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import time
from pathlib import Path

from benchmarks.load_raw import client_frame, hold_idle, raw_worker
from server.net.app import UmpireServer
from server.ops.metrics import connections
from tests.eventually import eventually
from tests.server.conftest import ServerFactory


async def test_raw_seats_play_games_to_the_end(server: UmpireServer) -> None:
    now = time.monotonic()
    result = await raw_worker(server.port, range(3), 4, 0.0, now, now + 0.5, 1)
    assert result["error"] is None
    # every table plays on until its game in progress at the deadline is over
    assert result["games"] >= 3
    assert result["actions"] > 0
    assert len(result["latencies"]) > 0


def test_a_client_frame_is_masked_with_the_zero_key() -> None:
    assert client_frame('{"type":"ping"}') == b"\x81\x8f\x00\x00\x00\x00" + b'{"type":"ping"}'
    long = "x" * 300
    assert client_frame(long)[:8] == b"\x81\xfe\x01\x2c\x00\x00\x00\x00"


async def test_the_tables_are_dealt_over_every_node(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    # (two servers on their own files stand in for two nodes: a room lives where it was
    # created, so each must get its share from one load-generator process)
    nodes = [await make_server(db=str(tmp_path / f"node{i}.db")) for i in range(2)]
    now = time.monotonic()
    result = await raw_worker([n.port for n in nodes], range(4), 4, 0.0, now, now + 0.3, 1)
    assert result["error"] is None
    for i in range(2):
        with contextlib.closing(sqlite3.connect(tmp_path / f"node{i}.db")) as db:
            assert db.execute("SELECT count(*) FROM games").fetchone()[0] >= 2


async def test_idle_connections_are_welcomed_and_stay_open(server: UmpireServer) -> None:
    ready: queue.Queue[object] = queue.Queue()
    holding = asyncio.create_task(
        hold_idle([server.port], 5, time.monotonic() + 30, ready, at_once=2)
    )
    await eventually(lambda: not ready.empty())
    assert ready.get_nowait() == 5  # (every one has its welcome)
    assert connections(server) == 5
    holding.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await holding
    await eventually(lambda: connections(server), equals=0)


def test_a_pong_carries_the_pings_bytes() -> None:
    ping = b"\xff\x00\x10\x80"  # (not text: the pong must carry the same bytes)
    assert client_frame(ping, opcode=0xA) == b"\x8a\x84" + b"\x00" * 4 + ping
