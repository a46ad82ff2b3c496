"""The director against races and failures: the ticker mutates a tournament only under its
lock (never while its rooms are being opened), and a failed save is retried until the
tournament is stored (so its end still reaches the store and its followers)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.errors import StoreError
from server.net.app import UmpireServer
from server.store.contract import TournamentRow
from tests.eventually import eventually


async def _stop_ticker(server: UmpireServer) -> None:
    task = server.tournaments._task
    assert task is not None
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_a_withdrawal_waits_for_the_rooms_being_opened(
    server: UmpireServer, connect: Any
) -> None:
    director = server.tournaments
    await _stop_ticker(server)
    host = await connect("host")
    t = await host.request(
        "create_tournament",
        "tournament",
        game="perudo",
        options={"dice_per_player": 1},
        format="round_robin",
    )
    tid = t["tournament"]["id"]
    await host.request("join_tournament", "tournament", tournament=tid, bot="perudo-random")
    await host.request("join_tournament", "tournament", tournament=tid)

    gate = asyncio.Event()
    entered = asyncio.Event()
    real_open = server.lobby.open_match

    async def slow_open(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        await gate.wait()
        return await real_open(*args, **kwargs)

    server.lobby.open_match = slow_open  # type: ignore[method-assign]
    starting = asyncio.create_task(director.begin(tid, host.player["id"]))
    await entered.wait()
    # the host's grace runs out while its game's room is being opened
    director.online = lambda player: False
    director.grace = 0.0
    ticking = asyncio.create_task(director._tick_one(tid))
    await asyncio.sleep(0)
    gate.set()
    await starting
    await ticking
    core = director.cores[tid]
    stale = [g for g in core.state.games if g.room is not None and g.over and not g.started]
    over_with_room = [g for g in core.state.games if g.room is not None and g.over]
    assert over_with_room == [] and stale == []
    assert all(e.withdrawn for e in core.state.entrants if e.player == host.player["id"])


async def test_a_failed_save_is_retried_and_the_end_is_stored(
    server: UmpireServer, connect: Any
) -> None:
    director = server.tournaments
    director.tick = 0.05
    host = await connect("host")
    t = await host.request(
        "create_tournament",
        "tournament",
        game="perudo",
        options={"dice_per_player": 1},
        format="round_robin",
    )
    tid = t["tournament"]["id"]
    for kind in ("perudo-random", "perudo-simple"):
        await host.request("join_tournament", "tournament", tournament=tid, bot=kind)
    real_save = server.store.save_tournament
    failed: list[str] = []

    async def flaky_save(row: TournamentRow, expect: int | None, games: Any = ()) -> bool:
        if row.status == "finished" and not failed:
            failed.append(row.id)
            raise StoreError("the store is away for a moment")
        return await real_save(row, expect, games)

    server.store.save_tournament = flaky_save  # type: ignore[method-assign]
    ends: list[str] = []
    told = director.changed
    assert told is not None

    def changed(tournament: str, info: Any) -> None:
        if info.status == "finished":
            ends.append(tournament)
        told(tournament, info)

    director.changed = changed
    await host.request("start_tournament", "tournament", tournament=tid)

    async def stored() -> str | None:
        row = await server.store.tournament(tid)
        return None if row is None else row.status

    await eventually(stored, equals="finished", timeout=60)
    assert failed == [tid] and ends == [tid]
    assert tid not in director.cores


async def test_a_quiet_sweep_reads_no_tournaments(server: UmpireServer) -> None:
    director = server.tournaments
    await _stop_ticker(server)
    living = {"n1", "n2"}

    async def alive() -> set[str]:
        return set(living)

    director.node, director.alive = "n1", alive
    reads: list[int] = []
    real = server.store.tournaments

    async def counted(statuses: Any = (), limit: int = 200) -> list[TournamentRow]:
        reads.append(limit)
        return await real(statuses, limit)

    server.store.tournaments = counted  # type: ignore[method-assign]
    for _ in range(5):
        await director._take_over()
    assert len(reads) == 1  # the first look only: the living nodes stayed the same
    living.discard("n2")  # a node died: look again
    await director._take_over()
    await director._take_over()
    assert len(reads) == 2
    director.rescan_every = 1
    await director._take_over()
    assert len(reads) == 3


async def test_a_room_opened_for_a_game_already_over_is_aborted(
    server: UmpireServer, connect: Any
) -> None:
    director = server.tournaments
    await _stop_ticker(server)
    host = await connect("host")
    t = await host.request(
        "create_tournament",
        "tournament",
        game="perudo",
        options={"dice_per_player": 1},
        format="round_robin",
    )
    tid = t["tournament"]["id"]
    for kind in ("perudo-random", "perudo-simple"):
        await host.request("join_tournament", "tournament", tournament=tid, bot=kind)
    real_open = server.lobby.open_match
    opened: list[str] = []

    async def open_then_decided(*args: Any, **kwargs: Any) -> Any:
        room = await real_open(*args, **kwargs)
        opened.append(room.id)
        core = director.cores[tid]
        (g,) = core.to_open()
        core.void(g, 0.0)  # (decided meanwhile, as a withdrawal would)
        return room

    server.lobby.open_match = open_then_decided  # type: ignore[method-assign]
    await director.begin(tid, host.player["id"])
    (room_id,) = opened
    assert server.lobby.rooms[room_id].state == "aborted"
    row = await server.store.tournament(tid)
    assert row is not None and row.status == "finished"
