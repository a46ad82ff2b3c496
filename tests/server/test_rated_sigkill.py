"""A rated game's rating is never lost and never counted twice: a real ``umpire serve``
killed with SIGKILL between the game's last action and its rating update (or just after
the update, before anyone was told), restarted (on PostgreSQL: another node takes the
room over), killed and restarted again (the finished room is replayed from the log), and
its end written once more (a retried ``finish_game``), and ``umpire ratings rebuild
--check`` finds the same numbers in the log. On SQLite and on PostgreSQL.

The kill comes at a fixed point, not at a random time: ``tests.server.kill_point`` runs
the server with its stores' ``finish_game`` patched to SIGKILL the process inside the
rated end's transaction, before its COMMIT (``before``), or right after it (``after``).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from typing import Any

import pytest

from server.ratings.plan import plan_for
from server.store import journal
from server.store.contract import Store, open_store
from tests.eventually import eventually
from tests.server.serve import ROOT, spawn_serve
from tests.server.wsclient import WsClient

PASSWORD = "correct horse battery"


async def kill(proc: asyncio.subprocess.Process) -> None:
    """SIGKILL ``proc`` (if it still runs) and reap it."""
    if proc.returncode is None:
        proc.send_signal(signal.SIGKILL)
    await proc.wait()


async def account(port: int, name: str) -> WsClient:
    client = await WsClient.open(port)
    await client.hello(name)
    await client.request("register", "account", password=PASSWORD)
    return client


async def watch_ratings(port: int, name: str, token: str, room: str) -> list[dict[str, Any]]:
    """Reconnect as ``name`` with its token and watch ``room`` until its ``room`` frame
    shows ratings (a node may not have taken the room over yet: it asks again)."""
    async with asyncio.timeout(30):
        return await _watch_ratings(port, name, token, room)


async def _watch_ratings(port: int, name: str, token: str, room: str) -> list[dict[str, Any]]:
    while True:
        client = await WsClient.open(port)
        try:
            await client.hello(name, token=token)
            await client.send(type="watch", room=room)
            try:
                await client.expect("watching")
            except AssertionError:  # (not this node's yet: no_such_room)
                await asyncio.sleep(0.2)
                continue
            frame = await client.expect("room", room=room)
            if frame.get("ratings") is not None:
                assert frame["state"] == "finished" and frame.get("rated") is True
                ratings: list[dict[str, Any]] = frame["ratings"]
                return ratings
        finally:
            await client.close()
        await asyncio.sleep(0.2)


async def counted(store: Store, room: str, players: list[str]) -> tuple[int, list[int]]:
    """How many rating changes ``room`` has, and how many rated games each player has."""
    changes = await store.rating_changes(room)
    games = [sum(r.rating.games for r in await store.ratings(player)) for player in players]
    return len(changes), games


async def rated_game_killed(db: str, when: str, nodes: list[tuple[str, ...]]) -> None:
    """The whole story on the database ``db``; ``nodes[i]`` are the options of the i-th
    server started on it."""
    proc, port = await spawn_serve(db, module=("tests.server.kill_point", when), extra=nodes[0])
    try:
        ana = await account(port, "ana")
        bob = await account(port, "bob")
        created = await ana.request(
            "create_room", "created", game="kriegspiel", options={"rules": "wild16"}
        )
        room = created["room"]
        await bob.request("join", "joined", room=room)
        await ana.expect("turn", room=room)
        # each seat moves (a game shorter than 2 plies is never rated), then ana resigns
        await ana.request("act", "ack", room=room, action="g1f3")
        await bob.expect("turn", room=room)
        await bob.request("act", "ack", room=room, action="g8f6")
        await ana.expect("turn", room=room)
        await ana.send(type="act", room=room, action="resign", ref=1)
        await asyncio.wait_for(proc.wait(), 30)  # (it kills itself at the end)
    finally:
        await kill(proc)
    assert proc.returncode == -signal.SIGKILL
    players = [ana.player["id"], bob.player["id"]]
    tokens = {"ana": ana.token, "bob": bob.token}
    assert tokens["ana"] and tokens["bob"]
    for client in (ana, bob):
        with contextlib.suppress(Exception):
            await client.close()

    store = open_store(db)
    await store.open()
    try:
        row = await store.game(room)
        assert row is not None and row.rated is not None
        assert [a.action for a in await store.actions(room)] == ["g1f3", "g8f6", "resign"]
        if when == "before":  # the last action is in, its end and rating are not
            assert row.status == "playing"
            assert await store.rating_changes(room) == []
            assert await store.ratings(players[0]) == [] == await store.ratings(players[1])
        else:  # the end and the rating are in; nobody saw them
            assert row.status == "finished"
            assert await counted(store, room, players) == (2, [1, 1])

        # restarted (on PostgreSQL: another node, once the dead one's lease expires)
        proc, port = await spawn_serve(db, extra=nodes[1])
        try:
            shown = await watch_ratings(port, "bob", tokens["bob"], room)
            await eventually(
                lambda: counted(store, room, players), equals=(2, [1, 1]), what="rated once"
            )
        finally:
            await kill(proc)  # (SIGKILL again: the finished room is replayed next time)
        stored = await store.rating_changes(room)
        assert [(c.seat, c.key.player, c.after.rating) for c in stored] == [
            (r["seat"], r["player"], r["after"]) for r in shown
        ]
        assert shown[0]["after"] < shown[0]["before"] < shown[1]["after"]  # (ana resigned)

        # the finished room rebuilt from the log by a third server: the same ratings
        proc, port = await spawn_serve(db, extra=nodes[2])
        try:
            assert await watch_ratings(port, "ana", tokens["ana"], room) == shown
        finally:
            await kill(proc)

        # the end written once more (a retried finish_game): nothing is counted again
        row = await store.game(room)
        assert row is not None and row.status == "finished"
        again = await journal.commit(store, journal.rated(journal.Finish(row), plan_for(row)))
        assert again == stored
        assert await counted(store, room, players) == (2, [1, 1])
    finally:
        await store.close()

    # and every rating recomputed from the log alone is the one stored
    rebuild = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server.cli",
        "ratings",
        "rebuild",
        "--check",
        "--db",
        db,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await rebuild.communicate()
    assert rebuild.returncode == 0, out.decode()


@pytest.mark.parametrize("when", ["before", "after"])
async def test_sqlite_a_rating_is_never_lost_nor_counted_twice(tmp_path: Any, when: str) -> None:
    await rated_game_killed(str(tmp_path / "umpire.db"), when, [(), (), ()])


@pytest.mark.parametrize("when", ["before", "after"])
async def test_postgresql_a_rating_is_never_lost_nor_counted_twice(pg_dsn: str, when: str) -> None:
    nodes: list[tuple[str, ...]] = [("--node-name", f"n{i}", "--lease-ttl", "1") for i in (1, 2, 3)]
    await rated_game_killed(pg_dsn, when, nodes)
