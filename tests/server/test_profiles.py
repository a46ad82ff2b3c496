"""Profiles: game history and public statistics, served by the profile request."""

from __future__ import annotations

import asyncio
from typing import Any

from server.net.app import UmpireServer
from tests.server.scripted import play_seat


async def test_profile_after_a_perudo_game(server: UmpireServer, connect: Any) -> None:
    a = await connect("ana")
    b = await connect("bob")
    room_id = (await a.request("create_room", "created", game="perudo", options={"seats": 2}))[
        "room"
    ]
    await b.request("join", "joined", room=room_id)
    await asyncio.gather(play_seat(a, room_id, 0), play_seat(b, room_id, 1))
    await a.expect("room", state="finished")  # sent once the game's end is stored
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


async def test_kriegspiel_profile_counts_every_illegal_attempt(
    server: UmpireServer, connect: Any
) -> None:
    """Under wild16 the opponent never hears of an illegal attempt during the game, but the
    attempts are public once it is over: a logged game's profile counts them all (issue 16:
    16 illegal attempts in 18 moves were reported as ``illegal_per_move`` 0.0)."""
    white = await connect("white")
    black = await connect("black")
    room_id = (await white.request("create_room", "created", game="kriegspiel", options={}))["room"]
    await black.request("join", "joined", room=room_id)
    script = [
        (white, "e2e5"),  # illegal: a pawn does not go three squares
        (white, "e1e3"),  # illegal
        (white, "e2e4"),
        (black, "e7e5"),
        (white, "e4e5"),  # illegal: blocked by black's pawn
        (white, "g1f3"),
        (black, "d8h4"),
        (white, "f3h4"),  # a capture
    ]
    for client, action in script:
        await client.send(type="act", room=room_id, action=action)
        await client.expect("ack")
    await black.send(type="act", room=room_id, action="resign")
    await black.expect("ack")
    await white.expect("room", timeout=30, state="finished")
    profile = await white.request("profile", "profile", player=white.player["id"])
    stats = profile["stats"]["kriegspiel"]
    assert stats["moves"] == 3 and stats["illegal_attempts"] == 3
    assert stats["illegal_per_move"] == 1.0
    other = (await black.request("profile", "profile", player=black.player["id"]))["stats"]
    assert other["kriegspiel"]["moves"] == 2 and other["kriegspiel"].get("illegal_attempts", 0) == 0
    assert (
        "illegal_per_move" in other["kriegspiel"] and other["kriegspiel"]["illegal_per_move"] == 0
    )
