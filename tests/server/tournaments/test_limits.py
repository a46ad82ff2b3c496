"""Bounded tournaments: at most 3 open per host, a push carries the current round's games
only (the history is paged by ``tournament {id, round}``), a finished tournament is not
followed, and a tick that changes nothing stores nothing."""

from __future__ import annotations

from typing import Any

from server.net.app import UmpireServer
from server.store.contract import TournamentRow
from tests.eventually import eventually

SHORT = {"game": "perudo", "options": {"dice_per_player": 1}}


async def test_a_host_has_at_most_three_open_tournaments(
    server: UmpireServer, connect: Any
) -> None:
    host = await connect("host")
    for _ in range(3):
        await host.request("create_tournament", "tournament", format="swiss", **SHORT)
    refused = await host.request("create_tournament", "error", format="swiss", **SHORT)
    assert refused["code"] == "bad_state" and "as many as a host may" in refused["message"]
    other = await connect("other")
    await other.request("create_tournament", "tournament", format="swiss", **SHORT)
    server.tournaments.max_open = len(server.tournaments.cores)
    third = await connect("third")
    refused = await third.request("create_tournament", "error", format="swiss", **SHORT)
    assert refused["code"] == "bad_state"


async def test_pushes_carry_the_current_round_and_history_is_paged(
    server: UmpireServer, connect: Any
) -> None:
    server.tournaments.tick = 0.05
    host = await connect("host")
    t = await host.request("create_tournament", "tournament", format="round_robin", **SHORT)
    tid = t["tournament"]["id"]
    for kind in ("perudo-random", "perudo-simple", "perudo-expert"):
        await host.request("join_tournament", "tournament", tournament=tid, bot=kind)
    await host.request("start_tournament", "tournament", tournament=tid)
    rounds_pushed: set[int] = set()
    while True:
        frame = await host.expect("tournament", timeout=60)
        info = frame["tournament"]
        assert {g["round"] for g in info["games"]} <= {info["round"]}
        rounds_pushed.add(info["round"])
        if info["status"] == "finished":
            break
    assert 3 in rounds_pushed  # (pushes coalesce: earlier rounds may be skipped)
    full = await host.request("tournament", "tournament", tournament=tid, follow=False)
    assert len(full["tournament"]["games"]) == 6  # 3 rounds of one game and a bye
    first = await host.request("tournament", "tournament", tournament=tid, round=1)
    assert [g["round"] for g in first["tournament"]["games"]] == [1, 1]
    # a finished tournament is not followed
    assert tid not in server._following


async def test_an_idle_tick_stores_nothing(server: UmpireServer, connect: Any) -> None:
    director = server.tournaments
    host = await connect("host")
    t = await host.request("create_tournament", "tournament", format="swiss", **SHORT)
    tid = t["tournament"]["id"]
    saves: list[str] = []
    real_save = server.store.save_tournament

    async def counted(row: TournamentRow, expect: int | None, games: Any = ()) -> bool:
        saves.append(row.id)
        return await real_save(row, expect, games)

    server.store.save_tournament = counted  # type: ignore[method-assign]
    for _ in range(3):
        await director._tick_one(tid)
    assert saves == []
    await host.request("join_tournament", "tournament", tournament=tid, bot="perudo-random")
    await eventually(lambda: saves, equals=[tid], timeout=10)
