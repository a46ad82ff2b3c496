"""The log is the room: every game in the log can be watched, resumed and replayed, after
any restart and after its room left memory, under its spectator policy and invite rules."""

from __future__ import annotations

from typing import Any

from server.net.app import UmpireServer
from server.rooms.room import Timing
from tests.server.wsclient import WsClient

#: fool's mate: white f3, g4; black e5, Qh4#
MOVES = (("w", "f2f3"), ("b", "e7e5"), ("w", "g2g4"), ("b", "d8h4"))


async def finished_game(
    server: UmpireServer, **create: Any
) -> tuple[str, dict[str, Any], WsClient, WsClient]:
    white = await WsClient.open(server.port)
    black = await WsClient.open(server.port)
    await white.hello("white")
    await black.hello("black")
    created = await white.request(
        "create_room", "created", game="kriegspiel", options={"rules": "wild16"}, **create
    )
    room = created["room"]
    if created.get("invite"):
        await black.request("join", "joined", room=room, invite=created["invite"])
    else:
        await black.request("join", "joined", room=room)
    by = {"w": white, "b": black}
    for side, move in MOVES:
        await by[side].send(type="act", room=room, action=move)
        await by[side].expect("ack")
    await white.expect("room", state="finished")
    await black.drain()
    return room, created, white, black


async def test_an_evicted_game_is_watched_and_resumed_from_the_log(make_server: Any) -> None:
    server: UmpireServer = await make_server(
        timing=Timing(grace=30, autopilot_delay=0, finished_ttl=0)
    )
    room_id, _, white, black = await finished_game(server)
    await white.drain()
    first = server.lobby.rooms.get(room_id)
    if first is not None:
        await first.wait_closed()  # a finished room leaves memory after finished_ttl
    assert room_id not in server.lobby.rooms
    spectator = await WsClient.open(server.port)
    await spectator.hello("cy")
    watching = await spectator.request("watch", "watching", room=room_id)
    assert watching["seat"] is None
    room = await spectator.expect("room")
    assert room["state"] == "finished" and room["seed"] is not None
    # the black player resumes from 0 and gets its stream again, byte for byte
    again = await WsClient.open(server.port)
    await again.hello("black", token=black.token)
    await again.request("resume", "resumed", room=room_id, since=0)
    await again.drain()
    assert [r for r in again.raw if '"type":"event"' in r] == [
        r for r in black.raw if '"type":"event"' in r
    ]


async def test_a_finished_game_after_a_restart(make_server: Any, db_path: str) -> None:
    timing = Timing(grace=30, autopilot_delay=0, finished_ttl=60)
    server: UmpireServer = await make_server(timing=timing)
    room_id, created, white, _black = await finished_game(server, public=False)
    invite = created["invite"]
    await white.drain()
    await server.close()
    second: UmpireServer = await make_server(timing=timing, db=db_path)
    assert room_id not in second.lobby.rooms  # only unfinished rooms are restored
    stranger = await WsClient.open(second.port)
    await stranger.hello("eve")
    await stranger.send(type="watch", room=room_id)
    await stranger.error("no_such_room")  # a private room needs its invite, even ended
    await stranger.request("watch", "watching", invite=invite)
    # its player resumes with the token; the profile reads the log
    white2 = await WsClient.open(second.port)
    await white2.hello("white", token=white.token)
    resumed = await white2.request("resume", "resumed", room=room_id, since=0)
    assert resumed["seq"] == len(white.events(room_id))
    profile = await white2.request("profile", "profile")
    assert profile["stats"]["kriegspiel"]["losses"] == 1


async def test_an_unknown_room_is_still_no_such_room(server: UmpireServer, connect: Any) -> None:
    ana = await connect("ana")
    await ana.send(type="watch", room="nope")
    await ana.error("no_such_room")
