"""Crash recovery: a real server process killed with SIGKILL mid-game, then restarted."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sqlite3
from pathlib import Path

from websockets.exceptions import ConnectionClosed

from tests.eventually import eventually
from tests.server.scripted import SeatScript, play_seat, resume_seat
from tests.server.serve import spawn_serve
from tests.server.wsclient import WsClient


async def spawn(db: Path) -> tuple[asyncio.subprocess.Process, int]:
    """Start ``umpire serve`` on a free port; return the process and its port."""
    return await spawn_serve(db, startup=20)


async def seat_loop(client: WsClient, script: SeatScript) -> None:
    """Play until the game ends or the connection dies."""
    with contextlib.suppress(ConnectionClosed, TimeoutError):
        await play_seat(client, script.room, script.seat, script=script)


async def test_sigkill_mid_game_loses_no_acknowledged_action(tmp_path: Path) -> None:
    db = tmp_path / "umpire.db"
    proc, port = await spawn(db)
    games: list[tuple[str, list[tuple[WsClient, SeatScript]]]] = []
    try:
        for g in range(3):
            host = await WsClient.open(port)
            await host.hello(f"host{g}")
            room = (
                await host.request(
                    "create_room",
                    "created",
                    game="perudo",
                    options={"seats": 3, "dice_per_player": 8},
                )
            )["room"]
            seats = [(host, SeatScript(room, 0))]
            for s in (1, 2):
                c = await WsClient.open(port)
                await c.hello(f"p{g}{s}")
                await c.request("join", "joined", room=room)
                seats.append((c, SeatScript(room, s)))
            games.append((room, seats))
        tasks = [
            asyncio.create_task(seat_loop(c, script)) for _, seats in games for c, script in seats
        ]
        scripts = [s for _, seats in games for _, s in seats]
        await eventually(  # (looking often: the kill should come mid-game)
            lambda: min(s.last_seq for s in scripts) >= 12,
            timeout=60,
            interval=0.001,
            what="twelve events in every game",
        )
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        await asyncio.gather(*tasks)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()

    assert any(s.over is None for _, seats in games for _, s in seats), "kill came too late"
    acked = {room: max(s.acked_seq for _, s in seats) for room, seats in games}
    assert all(acked.values())

    proc, port = await spawn(db)
    try:
        resumed: list[tuple[WsClient, SeatScript]] = []
        for room, seats in games:
            for old, script in seats:
                c = await WsClient.open(port)
                welcome = await c.hello("back", token=old.token)
                if script.over is None:
                    seat = next(s for s in welcome["seats"] if s["room"] == room)
                    assert seat["seq"] >= acked[room]  # nothing acknowledged was lost
                    assert seat["seq"] >= script.last_seq  # nothing broadcast was lost
                    await resume_seat(c, script)
                resumed.append((c, script))
        await asyncio.wait_for(
            asyncio.gather(*(play_seat(c, s.room, s.seat, script=s) for c, s in resumed)), 60
        )
        for c, _ in resumed:
            await c.close()
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 20) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()

    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT status, seed_revealed FROM games").fetchall()
        assert rows == [("finished", 1)] * 3
        for room, _ in games:
            (count,) = conn.execute(
                "SELECT count(*) FROM events WHERE game_id = ?", (room,)
            ).fetchone()
            (seq,) = conn.execute(
                "SELECT max(seq) FROM events WHERE game_id = ?", (room,)
            ).fetchone()
            assert count == seq  # no gaps


async def test_sigterm_closes_connections_with_1001_and_exits_0(tmp_path: Path) -> None:
    proc, port = await spawn(tmp_path / "umpire.db")
    try:
        client = await WsClient.open(port)
        await client.hello("ana")
        proc.send_signal(signal.SIGTERM)
        code, _ = await client.closed()
        assert code == 1001
        assert await asyncio.wait_for(proc.wait(), 20) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
