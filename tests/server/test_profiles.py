"""Profiles: game history and public statistics, served by the profile request."""

from __future__ import annotations

import asyncio
from typing import Any

from server.app import UmpireServer
from tests.server.scripted import play_seat


async def test_profile_after_a_perudo_game(server: UmpireServer, connect: Any) -> None:
    a = await connect("ana")
    b = await connect("bob")
    room_id = (await a.request("create_room", "created", game="perudo", options={"seats": 2}))[
        "room"
    ]
    await b.request("join", "joined", room=room_id)
    await asyncio.gather(play_seat(a, room_id, 0), play_seat(b, room_id, 1))
    await asyncio.sleep(0.05)
    room = server.lobby.rooms[room_id]
    truths = [e.truth for e in room.log]
    assert room.game is not None and room.game.outcome is not None
    for seat, client in enumerate((a, b)):
        profile = await client.request("profile", "profile", player=client.player["id"])
        assert profile["player"] == client.player
        [entry] = profile["history"]
        assert entry["room"] == room_id and entry["seat"] == seat
        assert entry["rank"] == room.game.outcome.ranks[seat]
        perudo = profile["stats"]["perudo"]
        assert perudo["games"] == 1
        bids = sum(1 for t in truths if t["type"] == "bid" and t["seat"] == seat)
        dudos = sum(1 for t in truths if t["type"] == "challenge" and t["seat"] == seat)
        assert perudo.get("bids", 0) == bids
        assert perudo.get("dudo_calls", 0) == dudos
        if dudos:
            assert 0 <= perudo["dudo_accuracy"] <= 1
    # anyone may read anyone's profile, never their token
    other = await a.request("profile", "profile", player=b.player["id"])
    assert "token" not in str(other)


async def test_house_bot_profiles_accumulate(server: UmpireServer, connect: Any) -> None:
    host = await connect("host")
    room_id = (
        await host.request("create_room", "created", game="perudo", options={"seats": 2}, sit=False)
    )["room"]
    bot = await host.request("add_bot", "bot_added", room=room_id)
    await host.request("add_bot", "bot_added", room=room_id)
    await host.request("watch", "watching", room=room_id)
    # the room frame of the end comes after the end (and its statistics) is durable
    await host.expect("room", timeout=60, state="finished")
    profile = await host.request("profile", "profile", player=bot["bot"])
    assert profile["player"]["bot"] is True
    assert profile["stats"]["perudo"]["games"] == 2  # the one identity held both seats
