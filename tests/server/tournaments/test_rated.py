"""A rated tournament: standard options only, and every game rated."""

from __future__ import annotations

from typing import Any

from server.net.app import UmpireServer
from tests.eventually import eventually


async def test_a_rated_round_robin_rates_every_game(server: UmpireServer, connect: Any) -> None:
    host = await connect("host")
    refused = await host.request(
        "create_tournament",
        "error",
        game="perudo",
        options={"dice_per_player": 1},
        format="round_robin",
        rated=True,
    )
    assert refused["code"] == "bad_options"
    t = await host.request(
        "create_tournament", "tournament", game="perudo", format="round_robin", rated=True
    )
    tid = t["tournament"]["id"]
    assert t["tournament"]["rated"] and t["tournament"]["options"]["seats"] == 2
    for kind in ("perudo-random", "perudo-simple", "perudo-expert"):
        await host.request("join_tournament", "tournament", tournament=tid, bot=kind)
    guest = await connect("guest")
    refused = await guest.request("join_tournament", "error", tournament=tid)
    assert refused["code"] == "account_required"
    await host.request("start_tournament", "tournament", tournament=tid)

    async def over() -> dict[str, Any] | None:
        frame = await host.request("tournament", "tournament", tournament=tid, follow=False)
        result: dict[str, Any] = frame["tournament"]
        return result if result["status"] == "finished" else None

    final = await eventually(over, timeout=90)
    rooms = [g["room"] for g in final["games"] if len(g["players"]) == 2]
    assert len(rooms) == 3
    for room in rooms:
        assert len(await server.store.rating_changes(room)) == 2
