"""Throwaway identities cannot fill the server (issue 34): one address made 520 guests
and 10,000 rooms in 32 s, and a normal player then got ``too_many_rooms``. Now new guests
per address, rooms per address and waiting rooms are capped, and ``list_rooms`` answers
a page at a time, so its frame stays small whatever the number of rooms."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from server.net.app import Limits, address_key, forwarded_for
from server.players.identity import Player
from server.players.throttle import Rate
from server.rooms.room import Settings
from server.wire.protocol import ROOMS_PAGE
from tests.server.conftest import ServerFactory
from tests.server.wsclient import WsClient

FLOOD = Limits(
    rate=1000,
    burst=1000,
    max_rooms=60,
    max_rooms_per_player=20,
    max_rooms_per_address=10,
    max_waiting_rooms=40,
    new_guests=Rate(burst=5, every=600.0),
)


async def test_a_flood_of_throwaway_guests_cannot_lock_a_player_out(
    make_server: ServerFactory,
) -> None:
    server = await make_server(limits=FLOOD)
    welcomed = refused_guests = rooms = 0
    for index in range(30):  # 30 throwaway guests from 127.0.0.1, each making rooms
        flood = await WsClient.open(server.port)
        await flood.send(type="hello", v=1, name=f"throwaway{index}")
        frame = await flood.next()
        if frame["type"] == "error":
            assert frame["code"] == "rate_limited" and frame["retry_after"] > 0, frame
            refused_guests += 1
        else:
            welcomed += 1
            for _ in range(25):
                await flood.send(type="create_room", game="perudo", options={"seats": 2})
                reply = await flood.next()
                while reply["type"] not in ("created", "error"):
                    reply = await flood.next()
                if reply["type"] == "error":
                    assert reply["code"] == "too_many_rooms", reply
                    break
                assert reply["type"] == "created"
                rooms += 1
        await flood.close()
    assert (welcomed, refused_guests, rooms) == (5, 25, 10)
    # a player from another address still makes a room, and sits in it
    player = await WsClient.open(server.port, local_addr=("127.0.0.2", 0))
    await player.hello("normal")
    created = await player.request("create_room", "created", game="perudo", options={})
    assert created["seat"] == 0
    await player.close()


async def test_the_rooms_frame_stays_small_with_thousands_of_rooms(
    make_server: ServerFactory, connect: Any
) -> None:
    many = 2_000
    server = await make_server(
        limits=Limits(rate=1000, burst=1000, max_rooms_per_player=many, max_waiting_rooms=many)
    )
    host = Player("p-host", "host", False)
    for _ in range(0, many, 200):  # (200 at a time: their rows commit together)
        await asyncio.gather(
            *(server.lobby.create(host, "perudo", {"seats": 2}, Settings()) for _ in range(200))
        )
    ana: WsClient = await connect("ana", port=server.port)
    every = sorted(r.room for r in server.lobby.listing(None))
    for offset in (0, 990, many - 5):  # the first page, one in the middle, the last
        await ana.send(type="list_rooms", offset=offset, ref=offset + 1)
        page = await ana.expect("rooms")
        text = next(t for t in reversed(ana.raw) if json.loads(t).get("ref") == offset + 1)
        assert len(text) < 32 * 1024  # (2,000 rooms in one frame: about 1.3 MB)
        assert page["total"] == many and page["offset"] == offset
        assert [r["room"] for r in page["rooms"]] == every[offset : offset + ROOMS_PAGE]
    await ana.send(type="list_rooms", limit=ROOMS_PAGE + 1)
    assert (await ana.error("bad_message"))["code"] == "bad_message"


def test_addresses_as_the_limits_count_them() -> None:
    assert address_key("203.0.113.7") == "203.0.113.7"
    assert address_key("2001:db8:1:2:3:4:5:6") == address_key("2001:db8:1:2:ffff::1")
    assert address_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert address_key("::ffff:203.0.113.7") == "203.0.113.7"
    assert forwarded_for("198.51.100.1, 203.0.113.7", "127.0.0.1") == "203.0.113.7"
    assert forwarded_for(None, "127.0.0.1") == "127.0.0.1"
    assert forwarded_for("garbage", "127.0.0.1") == "127.0.0.1"


async def test_behind_a_trusted_proxy_each_client_counts_as_itself(
    make_server: ServerFactory,
) -> None:
    server = await make_server(
        limits=Limits(
            rate=1000,
            burst=1000,
            new_guests=Rate(burst=1, every=600.0),
            trusted_proxies=("127.0.0.1",),
        )
    )

    async def hello(forwarded: str) -> str:
        client = await WsClient.open(server.port, additional_headers={"X-Forwarded-For": forwarded})
        await client.send(type="hello", v=1, name="guest")
        frame = await client.next()
        await client.close()
        return str(frame.get("code", frame["type"]))

    assert await hello("198.51.100.1, 203.0.113.1") == "welcome"
    assert await hello("203.0.113.2") == "welcome"  # (not the proxy's one guest)
    assert await hello("203.0.113.1") == "rate_limited"


async def test_the_rooms_per_address_hold_across_a_restart(
    make_server: ServerFactory, db_path: str
) -> None:
    """Rooms rebuilt from the log after a restart counted against no address, so one
    address could make its whole quota again. A restored room now counts against the
    address its host comes back from (nothing about addresses is stored)."""
    limits = Limits(rate=1000, burst=1000, max_rooms_per_address=3)
    server = await make_server(limits=limits)
    tokens = []
    for index in range(3):  # three guests from 127.0.0.1, a room each: the quota
        host = await WsClient.open(server.port)
        await host.hello(f"host{index}")
        await host.request("create_room", "created", game="perudo", options={"seats": 2})
        tokens.append(host.token)
        await host.close()
    await server.close()

    again = await make_server(limits=limits, db=db_path)
    assert len(again.lobby.rooms) == 3
    for index, token in enumerate(tokens):  # the hosts come back, from the same address
        host = await WsClient.open(again.port)
        await host.hello(f"host{index}", token=token)
        await host.close()
    newcomer = await WsClient.open(again.port)
    await newcomer.hello("newcomer")
    await newcomer.send(type="create_room", game="perudo", options={"seats": 2})
    reply = await newcomer.next()
    while reply["type"] not in ("created", "error"):
        reply = await newcomer.next()
    assert reply["type"] == "error" and reply["code"] == "too_many_rooms", reply
    await newcomer.close()
    elsewhere = await WsClient.open(again.port, local_addr=("127.0.0.2", 0))
    await elsewhere.hello("elsewhere")
    await elsewhere.request("create_room", "created", game="perudo", options={"seats": 2})
    await elsewhere.close()
