"""Failover: three real nodes on one PostgreSQL database, one SIGKILLed mid-game.

Games are spread over the nodes and their players over other nodes (relayed). After the
kill, the dead node's rooms are taken over by the survivors from the log once its lease
expires; every player reconnects to a surviving node and resumes; every game finishes.
Then the log is checked: every acknowledged action is there exactly once, every stream is
gap-free, the games verify, and the fencing tokens show that no two nodes ever wrote to
one room (each room's rows were written under non-decreasing tokens, each token granted
to one node).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Any

import asyncpg
from websockets.exceptions import ConnectionClosed

from server.export.reader import verify_game
from server.store.pg import PgStore
from tests.eventually import eventually
from tests.server.scripted import SeatScript, play_seat, resume_seat
from tests.server.serve import spawn_serve
from tests.server.wsclient import WsClient

TTL = 2.0


async def spawn(dsn: str, name: str) -> tuple[asyncio.subprocess.Process, int]:
    """Start ``umpire serve`` as node ``name`` on a free port; return it and its port."""
    return await spawn_serve(dsn, grace=60, extra=("--node-name", name, "--lease-ttl", str(TTL)))


class Seat:
    """A scripted player: its connection, its node, its script."""

    def __init__(self, client: WsClient, port: int, script: SeatScript) -> None:
        self.client = client
        self.port = port
        self.script = script
        assert client.token is not None
        self.token = client.token


async def seat_loop(seat: Seat) -> None:
    """Play until the game ends or the connection dies."""
    with contextlib.suppress(ConnectionClosed, TimeoutError):
        await play_seat(seat.client, seat.script.room, seat.script.seat, script=seat.script)


async def test_a_node_killed_mid_game_loses_nothing_and_its_rooms_finish_elsewhere(
    pg_dsn: str,
) -> None:
    nodes = [await spawn(pg_dsn, f"n{i}") for i in range(3)]
    ports = [port for _, port in nodes]
    victim = nodes[0][0]
    seats: list[Seat] = []
    rooms: list[str] = []
    try:
        for g in range(6):
            home = ports[g % 3]
            host = await WsClient.open(home)
            await host.hello(f"host{g}")
            room = (
                await host.request(
                    "create_room",
                    "created",
                    game="perudo",
                    options={"seats": 3, "dice_per_player": 6},
                )
            )["room"]
            rooms.append(room)
            players = [Seat(host, home, SeatScript(room, 0))]
            for s in (1, 2):
                if g == 0 and s == 2:  # a house bot in a room of the node to be killed
                    await host.request("add_bot", "bot_added", room=room, bot="perudo-random")
                    continue
                port = ports[(g + s) % 3]  # the other players sit through other nodes
                c = await WsClient.open(port)
                await c.hello(f"p{g}{s}")
                await c.request("join", "joined", room=room)
                players.append(Seat(c, port, SeatScript(room, s)))
            seats.extend(players)
        tasks = {id(s): asyncio.create_task(seat_loop(s)) for s in seats}
        await eventually(
            lambda: min(s.script.last_seq for s in seats) >= 10,
            timeout=60,
            interval=0.01,
            what="ten events in every game",
        )
        victim.send_signal(signal.SIGKILL)
        await victim.wait()
        # the victim's rooms still being played at the kill, as the log says: those must
        # move to another node, and nothing else may
        conn = await asyncpg.connect(pg_dsn)
        try:
            playing = {
                r[0] for r in await conn.fetch("SELECT id FROM games WHERE status = 'playing'")
            }
        finally:
            await conn.close()
        must_move = [rooms[g] in playing and g % 3 == 0 for g in range(len(rooms))]
        assert any(must_move), "the kill came too late: the victim's games were over"
        acked = {
            room: max(s.script.acked_seq for s in seats if s.script.room == room) for room in rooms
        }

        # Whoever lost its connection (to the dead node, or relayed through or to it)
        # comes back through a surviving node and resumes.
        async def come_back(seat: Seat, index: int) -> None:
            await tasks[id(seat)]
            if seat.script.over is not None:
                return
            port = ports[1 + index % 2]
            client = await WsClient.open(port)
            welcome = await client.hello("back", token=seat.token)
            mine = [s for s in welcome["seats"] if s["room"] == seat.script.room]
            assert mine, (seat.script.room, welcome["seats"])
            assert mine[0]["seq"] >= acked[seat.script.room], (
                welcome["seats"],
                port,
                ports,
            )  # nothing acknowledged lost
            assert mine[0]["seq"] >= seat.script.last_seq  # nothing broadcast lost
            seat.client = client
            await resume_seat(client, seat.script)
            await play_seat(client, seat.script.room, seat.script.seat, script=seat.script)

        await asyncio.wait_for(asyncio.gather(*(come_back(s, i) for i, s in enumerate(seats))), 120)
        for seat in seats:
            with contextlib.suppress(ConnectionClosed):
                await seat.client.close()
        for proc, _ in nodes[1:]:
            proc.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(proc.wait(), 30) == 0
    finally:
        for proc, _ in nodes:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()

    await check_log(pg_dsn, rooms, [int(m) for m in must_move])


async def check_log(dsn: str, rooms: list[str], must_move: list[int]) -> None:
    """Every game finished and verifies; every log is gap-free; the fencing held; the rooms
    that were being played on the killed node (``must_move``) changed hands once, no other
    room did."""
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch("SELECT id, status, seed_revealed FROM games")
        assert sorted((r[0], r[1], r[2]) for r in rows) == sorted(
            (room, "finished", True) for room in rooms
        )
        moved = []
        for room in rooms:
            seqs = [
                r[0]
                for r in await conn.fetch(
                    "SELECT seq FROM events WHERE game_id = $1 ORDER BY seq", room
                )
            ]
            assert seqs == list(range(1, len(seqs) + 1))  # no gap, no duplicate
            ns = [
                r[0]
                for r in await conn.fetch(
                    "SELECT n FROM actions WHERE game_id = $1 ORDER BY n", room
                )
            ]
            assert ns == list(range(1, len(ns) + 1))  # each action exactly once
            moved.append(await check_fencing(conn, room))
        # The dead node's unfinished rooms (0 and 3, one with a house bot) moved once.
        assert moved == must_move
    finally:
        await conn.close()
    store = PgStore(dsn, pool_size=1)
    await store.open()
    try:
        for room in rooms:
            assert await verify_game(store, room) == []
    finally:
        await store.close()


async def check_fencing(conn: Any, room: str) -> int:
    """Each of ``room``'s rows was written under the lease current at the time: tokens
    never go down along the log, and each token was granted to one node. Return how
    many times the room changed hands."""
    tokens = [
        r[0]
        for r in await conn.fetch(
            "SELECT token FROM ("
            " SELECT seq AS k, 0 AS t, token FROM events WHERE game_id = $1"
            " UNION ALL SELECT n AS k, 1 AS t, token FROM actions WHERE game_id = $1"
            ") x ORDER BY t, k",
            room,
        )
    ]
    events = [
        r[0]
        for r in await conn.fetch("SELECT token FROM events WHERE game_id = $1 ORDER BY seq", room)
    ]
    assert None not in tokens, "a write was not fenced"
    assert events == sorted(events), f"room {room}: an older lease wrote after a newer one"
    grants = await conn.fetch(
        "SELECT token, node FROM lease_log WHERE room = $1 ORDER BY token", room
    )
    assert [g[0] for g in grants] == list(range(1, len(grants) + 1))
    assert set(tokens) <= {g[0] for g in grants}
    return len(grants) - 1
