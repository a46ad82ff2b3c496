"""Seeks through a real server: seek, list (and follow), take, cancel, fill with house
bots, rating ranges, a player who leaves, and a restart with open seeks."""

from __future__ import annotations

from typing import Any

from server.net.app import UmpireServer
from tests.eventually import eventually
from tests.server.wsclient import WsClient

KS = {"game": "kriegspiel", "options": {"rules": "wild16"}}


async def test_two_seeks_pair_and_both_players_get_the_match(
    server: UmpireServer, connect: Any
) -> None:
    ana, bob, wes = await connect("ana"), await connect("bob"), await connect("wes")
    listing = await wes.request("seeks", "seeks", game="kriegspiel")
    assert listing["seeks"] == [] and listing["game"] == "kriegspiel"
    added = await ana.request("seek", "seek_added", **KS)
    seek = added["seek"]
    assert seek["status"] == "open" and seek["player"]["name"] == "ana"
    assert seek["seats"] == 2 and seek["rating"] == 1500.0
    pushed = await wes.expect("seeks", game="kriegspiel")
    assert [s["id"] for s in pushed["seeks"]] == [seek["id"]]
    answer = await bob.request("seek", "seek_added", **KS)
    assert answer["seek"]["status"] == "matched"
    room = answer["seek"]["room"]
    to_ana = await ana.expect("match", room=room)
    to_bob = await bob.expect("match", room=room)
    assert to_ana["ref"] == seek["id"] and to_bob["ref"] == answer["seek"]["id"]
    assert {to_ana["seat"], to_bob["seat"]} == {0, 1} and to_ana["source"] == "seek"
    assert (await wes.expect("seeks", game="kriegspiel"))["seeks"] == []
    await ana.request("resume", "resumed", room=room, since=0)
    await bob.request("resume", "resumed", room=room, since=0)
    await eventually(lambda: server.lobby.rooms[room].state == "playing")


async def test_take_and_cancel(server: UmpireServer, connect: Any) -> None:
    ana, bob, cid = await connect("ana"), await connect("bob"), await connect("cid")
    first = (await ana.request("seek", "seek_added", **KS))["seek"]["id"]
    other = (await ana.request("seek", "seek_added", game="perudo", seats=3))["seek"]["id"]
    await bob.send(type="cancel_seek", seek=first)
    await bob.error("no_such_seek")
    await ana.send(type="take_seek", seek=first)
    await ana.error("bad_state")  # (her own)
    taken = await bob.request("take_seek", "seek_added", seek=first)
    assert taken["seek"]["status"] == "matched"
    await ana.expect("match", room=taken["seek"]["room"])
    await cid.send(type="take_seek", seek=first)
    await cid.error("no_such_seek")
    cancelled = await ana.request("cancel_seek", "seek_cancelled", seek=other)
    assert cancelled["seek"] == other
    listing = await cid.request("seeks", "seeks", watch=False)
    assert listing["seeks"] == [] and listing["game"] is None


async def test_a_rating_range_refuses_a_taker_outside_it(
    server: UmpireServer, connect: Any
) -> None:
    ana, bob = await connect("ana"), await connect("bob")
    seek = await ana.request("seek", "seek_added", **KS, rating_range=[1600, 1800])
    await bob.send(type="take_seek", seek=seek["seek"]["id"])
    await bob.error("rating_range")
    answer = await bob.request("seek", "seek_added", **KS)  # (bob's 1500: outside)
    assert answer["seek"]["status"] == "open"
    await ana.send(type="seek", **KS, rating_range=[1700, 1600])
    await ana.error("bad_options")


async def test_house_bots_fill_the_table_after_fill_after(make_server: Any, connect: Any) -> None:
    server = await make_server(seek_min_fill=0.0)
    ana = await connect("ana", port=server.port)
    added = await ana.request("seek", "seek_added", game="perudo", seats=6, fill_after=0.2)
    match = await ana.expect("match")
    assert match["ref"] == added["seek"]["id"]
    house = [p["id"] for p in match["players"] if p["kind"] == "house"]
    assert len(house) == 5 and len(set(house)) == 5  # (never one house bot twice)
    await ana.request("resume", "resumed", room=match["room"], since=0)
    await eventually(lambda: server.lobby.rooms[match["room"]].state == "playing", timeout=20)


async def test_the_seeks_of_a_player_who_left_are_cancelled(make_server: Any, connect: Any) -> None:
    server = await make_server(seek_grace=0.2)
    from tests.server.wsclient import WsClient

    ana = await WsClient.open(server.port)
    await ana.hello("ana")
    seek = (await ana.request("seek", "seek_added", **KS))["seek"]["id"]
    await ana.close()
    await eventually(lambda: len(server.matchmaker.core) == 0)
    row = await server.store.seek(seek)
    assert row is not None and row.status == "cancelled"


async def test_open_seeks_survive_a_restart(make_server: Any, db_path: str) -> None:
    first = await make_server(db=db_path)
    ana = await WsClient.open(first.port)
    await ana.hello("ana")
    seek = (await ana.request("seek", "seek_added", **KS))["seek"]["id"]
    token = ana.token
    await ana.close()
    await first.close()
    second = await make_server(db=db_path)
    assert second.matchmaker.core.get(seek) is not None
    again = await WsClient.open(second.port)
    await again.hello("ana", token=token)
    bob = await WsClient.open(second.port)
    await bob.hello("bob")
    answer = await bob.request("seek", "seek_added", **KS)
    room = answer["seek"]["room"]
    assert room is not None
    match = await again.expect("match", room=room)
    assert match["ref"] == seek
    for client in (again, bob):
        await client.close()


async def test_a_rated_seek_is_never_taken_by_a_bot_of_the_same_owner(
    server: UmpireServer, connect: Any
) -> None:
    from tests.server.test_ladder import bot_tokens

    tokens = await bot_tokens(server, owners=1, per_owner=2)
    bots = []
    for _, token in tokens:
        bot = await WsClient.open(server.port)
        await bot.send(type="hello", v=1, token=token, bot=True)
        await bot.expect("welcome")
        bots.append(bot)
    try:
        seek = await bots[0].request("seek", "seek_added", **KS, rated=True)
        await bots[1].send(type="take_seek", seek=seek["seek"]["id"])
        error = await bots[1].error("bad_state")
        assert "owner" in error["message"]
        again = await bots[1].request("seek", "seek_added", **KS, rated=True)
        assert again["seek"]["status"] == "open"  # (never paired with its sibling)
    finally:
        for bot in bots:
            await bot.close()


async def test_fill_after_has_a_floor(server: UmpireServer, connect: Any) -> None:
    ana = await connect("ana")
    await ana.send(type="seek", game="perudo", seats=3, fill_after=0)
    error = await ana.error("bad_options")
    assert "at least 5 seconds" in error["message"]


async def test_a_players_live_matches_count_against_its_room_limit(
    make_server: Any, connect: Any
) -> None:
    from server.net.app import Limits

    limits = Limits(rate=1000, burst=1000, max_rooms_per_player=2)
    server = await make_server(limits=limits, seek_min_fill=0.0)
    ana = await connect("ana", port=server.port)
    for _ in range(2):
        await ana.request("seek", "seek_added", game="perudo", seats=3, fill_after=0.01)
        await ana.expect("match")
    await ana.send(type="seek", game="perudo", seats=3, fill_after=0.01)
    error = await ana.error("too_many_rooms")
    assert "at most 2" in error["message"]
    await ana.send(type="create_room", game="perudo")
    await ana.error("too_many_rooms")  # (a match counts for create too)


async def test_a_claim_whose_room_was_never_made_is_reopened_at_a_restart(
    make_server: Any, db_path: str
) -> None:
    """A single node killed between ``claim_seeks`` and ``open_match`` (here: the claim
    written by hand, as the dead process left it, a moment ago)."""
    first = await make_server(db=db_path)
    ana = await WsClient.open(first.port)
    await ana.hello("ana")
    seek = (await ana.request("seek", "seek_added", **KS))["seek"]["id"]
    await ana.close()
    assert await first.store.claim_seeks([seek], "ghost1", first.matchmaker.clock())
    await first.close()
    second = await make_server(db=db_path)
    row = await second.store.seek(seek)
    assert row is not None and row.status == "open" and row.room is None
    assert second.matchmaker.core.get(seek) is not None


async def test_a_single_node_looks_for_orphaned_claims_again_later(make_server: Any) -> None:
    """A claim left without its room while the node runs (a failure between
    ``claim_seeks`` and ``open_match``) is reopened ``orphan_after`` seconds later."""
    server = await make_server(seek_orphan_after=0.2)
    ana = await WsClient.open(server.port)
    await ana.hello("ana")
    seek = (await ana.request("seek", "seek_added", **KS))["seek"]["id"]
    assert await server.store.claim_seeks([seek], "ghost2", server.matchmaker.clock())

    async def reopened() -> bool:
        row = await server.store.seek(seek)
        return row is not None and row.status == "open"

    await eventually(reopened)
    await ana.close()


async def test_the_seeks_list_is_capped_to_the_newest_per_game(
    server: UmpireServer, connect: Any
) -> None:
    from server.matchmaking import actor

    wes = await connect("wes")
    players = [await connect(f"p{n}") for n in range(4)]
    made = []
    for n, player in enumerate(players):
        added = await player.request("seek", "seek_added", **KS, rating_range=[n, n])
        made.append(added["seek"])
    await player.request("seek", "seek_added", game="perudo", seats=3)
    old, actor.LIST_CAP = actor.LIST_CAP, 2
    try:
        listing = await wes.request("seeks", "seeks", game="kriegspiel")
        assert [s["id"] for s in listing["seeks"]] == [s["id"] for s in made[-2:]]
        assert listing["total"] == 4
        everything = await wes.request("seeks", "seeks")
        assert len(everything["seeks"]) == 3 and everything["total"] == 5  # (2 + 1)
    finally:
        actor.LIST_CAP = old


def test_a_seeks_request_costs_several_tokens() -> None:
    from server.wire.limits import TokenBucket

    bucket = TokenBucket(rate=1.0, burst=10.0)
    assert bucket.take(0.0)
    bucket.spend(4.0)
    assert bucket.tokens == 5.0
    bucket.spend(100.0)
    assert bucket.tokens == 0.0 and not bucket.take(0.0)
    assert bucket.wait(0.0) == 1.0 and bucket.wait(0.25) == 0.75 and bucket.wait(1.0) == 0.0


async def test_a_cluster_poll_reads_what_changed_not_history(server: UmpireServer) -> None:
    """(Counted, not timed.) With 60 seeks matched long ago into rooms that exist and 60
    old finished rooms, a poll after the first reads a handful of rows."""
    from tests.server.store_contract import game_row, seek_row

    store = server.store
    mm = server.matchmaker
    for n in range(60):
        await store.add_seek(seek_row(f"h{n}", f"p{n}", created=float(n), updated=float(n)))
        assert await store.claim_seeks([f"h{n}"], f"old{n}", float(n))
        await store.save_game(game_row(f"old{n}", created=float(n), status="finished"))
    read: list[int] = []
    fetch = store._fetch  # type: ignore[attr-defined]

    async def counting(sql: str, params: Any = ()) -> Any:
        rows = await fetch(sql, params)
        read.append(len(rows))
        return rows

    store._fetch = counting  # type: ignore[attr-defined]
    try:
        async with mm._lock:
            await mm._sync()  # (the first poll may read everything once)
            read.clear()
            await mm._sync()
    finally:
        del store._fetch  # type: ignore[attr-defined]
    assert sum(read) <= 5, read
