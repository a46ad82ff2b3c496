"""Chat is stored with the game: after a restart, a connection that attaches gets its own
channel's lines again (and never the other channel's)."""

from __future__ import annotations

from typing import Any

from server.net.app import UmpireServer
from server.rooms.room import Timing
from tests.server.wsclient import WsClient

PATIENT = Timing(grace=30, autopilot_delay=0, finished_ttl=60)


async def test_chat_survives_a_restart_on_its_own_channel(make_server: Any, db_path: str) -> None:
    server: UmpireServer = await make_server(timing=PATIENT)
    ana = await WsClient.open(server.port)
    bob = await WsClient.open(server.port)
    eve = await WsClient.open(server.port)
    await ana.hello("ana")
    await bob.hello("bob")
    await eve.hello("eve")
    room = (await ana.request("create_room", "created", game="perudo", options={"seats": 2}))[
        "room"
    ]
    await bob.request("join", "joined", room=room)
    await eve.request("watch", "watching", room=room)
    await ana.send(type="say", room=room, text="good luck")
    await bob.expect("chat", text="good luck")
    await eve.send(type="say", room=room, text="go bob")
    await eve.expect("chat", text="go bob")
    await server.close()

    again: UmpireServer = await make_server(timing=PATIENT, db=db_path)
    bob2 = await WsClient.open(again.port)
    await bob2.hello("bob", token=bob.token)
    await bob2.request("resume", "resumed", room=room, since=0)
    line = await bob2.expect("chat")
    assert (line["n"], line["name"], line["text"], line["channel"]) == (
        1,
        "ana",
        "good luck",
        "players",
    )
    eve2 = await WsClient.open(again.port)
    await eve2.hello("eve", token=eve.token)
    await eve2.request("watch", "watching", room=room)
    seen = await eve2.expect("chat")
    assert (seen["n"], seen["text"], seen["channel"]) == (2, "go bob", "spectators")
    await bob2.send(type="ping", ref=1)
    await bob2.expect("pong")
    await eve2.send(type="ping", ref=1)
    await eve2.expect("pong")
    assert [f["text"] for f in bob2.frames if f["type"] == "chat"] == ["good luck"]
    assert [f["text"] for f in eve2.frames if f["type"] == "chat"] == ["go bob"]
    for client in (ana, bob, eve, bob2, eve2):
        await client.close()
