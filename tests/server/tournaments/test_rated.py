"""A rated tournament: standard options only, and every game rated."""

from __future__ import annotations

from typing import Any

from server.net.app import UmpireServer
from tests.eventually import eventually


async def test_a_rated_round_robin_rates_every_game(server: UmpireServer, connect: Any) -> None:
    host = await connect("host")
    asker = await connect("asker")  # (follows nothing: its replies are replies)
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
        frame = await asker.request("tournament", "tournament", tournament=tid, follow=False)
        result: dict[str, Any] = frame["tournament"]
        return result if result["status"] == "finished" else None

    final = await eventually(over, timeout=90)
    rooms = [g["room"] for g in final["games"] if len(g["players"]) == 2]
    assert len(rooms) == 3
    for room in rooms:
        assert len(await server.store.rating_changes(room)) == 2


async def test_a_rated_tournament_refuses_a_second_bot_of_one_owner(
    server: UmpireServer, connect: Any
) -> None:
    owner = await connect("kim")
    await owner.request("register", "account", password="correct horse battery")
    t = await owner.request(
        "create_tournament", "tournament", game="perudo", format="swiss", rated=True
    )
    tid = t["tournament"]["id"]
    bots = []
    for name in ("KimBotA", "KimBotB"):
        made = await owner.request("create_bot", "bot_account", name=name)
        bot = await connect()
        await bot.send(type="hello", v=1, token=made["token"], bot=True)
        await bot.expect("welcome")
        bots.append(bot)
    await bots[0].request("join_tournament", "tournament", tournament=tid)
    refused = await bots[1].request("join_tournament", "error", tournament=tid)
    assert refused["code"] == "bad_state" and "one bot per owner" in refused["message"]
    refused = await owner.request("join_tournament", "error", tournament=tid)
    assert refused["code"] == "bad_state" and "own bot" in refused["message"]
