"""Several nodes on one PostgreSQL database: a tournament is directed by the node it was
made on; when that node goes away in the middle, another node takes it over (and the
rooms it was playing) and finishes it."""

from __future__ import annotations

import dataclasses
from typing import Any

from server.net.app import UmpireServer
from tests.eventually import eventually
from tests.server.conftest import FAST, LEASE, ServerFactory
from tests.server.wsclient import WsClient

HOUSE = ["perudo-random", "perudo-simple", "perudo-expert", "perudo-search"]


async def test_another_node_finishes_a_tournament(make_server: ServerFactory, pg_dsn: str) -> None:
    timing = dataclasses.replace(FAST, grace=30.0)
    nodes: list[UmpireServer] = [
        await make_server(db=pg_dsn, timing=timing, **LEASE) for _ in range(2)
    ]
    a, b = nodes
    for node in (a, b):
        node.tournaments.tick = 0.1
        node.tournaments.sweep_every = 3
    host = await WsClient.open(a.port)
    await host.hello("host")
    t = await host.request(
        "create_tournament",
        "tournament",
        game="perudo",
        options={"dice_per_player": 1},
        format="arena",
        duration=6,
    )
    tid = t["tournament"]["id"]
    for kind in HOUSE:
        await host.request("join_tournament", "tournament", tournament=tid, bot=kind)
    await host.request("start_tournament", "tournament", tournament=tid)
    assert tid in a.tournaments.cores and tid not in b.tournaments.cores

    def some_over() -> bool:
        core = a.tournaments.cores[tid]
        return sum(g.over for g in core.state.games) >= 2

    await eventually(some_over, timeout=20)
    await host.close()
    await a.close()  # a leaves: b takes the tournament and its rooms over

    async def finished() -> dict[str, Any] | None:
        row = await b.store.tournament(tid)
        return None if row is None or row.status != "finished" else {"row": row}

    await eventually(lambda: tid in b.tournaments.cores or None, timeout=30)
    await eventually(finished, timeout=60)
    watcher = await WsClient.open(b.port)
    await watcher.hello("watcher")
    final = (await watcher.request("tournament", "tournament", tournament=tid))["tournament"]
    await watcher.close()
    assert final["status"] == "finished"
    for g in final["games"]:
        row = await b.store.game(g["room"])
        assert row is not None and row.status in ("finished", "aborted"), g
        assert g["scores"] is not None
