"""Through a real server: an entrant who never comes to its room forfeits it (no-show), an
entrant whose connections all closed is withdrawn after the grace period, and the
tournament still finishes."""

from __future__ import annotations

import time
from typing import Any

from server.roomcore.settings import Timing
from tests.eventually import eventually
from tests.server.conftest import ServerFactory


async def test_no_shows_forfeit_and_leavers_are_withdrawn(
    make_server: ServerFactory, connect: Any
) -> None:
    server = await make_server(
        timing=Timing(grace=0.5, autopilot_delay=0.0, finished_ttl=30.0, no_show=0.5)
    )
    server.tournaments.grace = 0.5
    server.tournaments.tick = 0.1
    host = await connect("host", port=server.port)
    asker = await connect("asker", port=server.port)  # (follows nothing: its replies are replies)
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
    sleepy = await connect("sleepy", port=server.port)  # stays, never comes to a room
    await sleepy.request("join_tournament", "tournament", tournament=tid)
    ghost = await connect("ghost", port=server.port)  # leaves at once
    joined = await ghost.request("join_tournament", "tournament", tournament=tid)
    ghost_id = next(e["player"] for e in joined["tournament"]["entrants"] if e["name"] == "ghost")
    sleepy_id = sleepy.player["id"]
    await ghost.close()
    await host.request("start_tournament", "tournament", tournament=tid)

    async def final() -> dict[str, Any] | None:
        frame = await asker.request("tournament", "tournament", tournament=tid, follow=False)
        result: dict[str, Any] = frame["tournament"]
        return result if result["status"] == "finished" else None

    end = await eventually(final, timeout=60)
    rows = {r["player"]: r for r in end["standings"]}
    assert rows[ghost_id]["withdrawn"] and rows[ghost_id]["points"] == 0
    for g in end["games"]:
        if len(g["players"]) == 2 and {ghost_id, sleepy_id} & set(g["players"]):
            assert g["forfeit"], g
            for seat, p in enumerate(g["players"]):
                if p in (ghost_id, sleepy_id):
                    assert g["scores"][seat] <= (1.0 if p == sleepy_id else 0.0)
    assert rows[sleepy_id]["points"] <= 1.0  # at most the forfeit win over the ghost


async def test_a_tournament_starts_at_its_time(server: Any, connect: Any) -> None:
    server.tournaments.tick = 0.05
    host = await connect("host")
    asker = await connect("asker")  # (follows nothing: its replies are replies)
    t = await host.request(
        "create_tournament",
        "tournament",
        game="perudo",
        options={"dice_per_player": 1},
        format="swiss",
        rounds=1,
        starts_at=time.time() + 0.5,
    )
    tid = t["tournament"]["id"]
    assert t["tournament"]["status"] == "created"
    for kind in ("perudo-random", "perudo-simple"):
        await host.request("join_tournament", "tournament", tournament=tid, bot=kind)

    async def over() -> dict[str, Any] | None:
        frame = await asker.request("tournament", "tournament", tournament=tid, follow=False)
        result: dict[str, Any] = frame["tournament"]
        return result if result["status"] == "finished" else None

    final = await eventually(over, timeout=30)
    assert final["started"] >= final["starts_at"] and len(final["games"]) == 1
