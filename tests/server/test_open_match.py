"""Lobby.open_match through a real server: the ``match`` frame, ``welcome.seats``, the
start when the seated players attach, a house bot's seat, the end hook."""

from __future__ import annotations

from typing import Any

import pytest

from server.errors import ClientError
from server.net.app import UmpireServer
from server.rooms.lobby import HouseSeat
from server.store.contract import GameRow
from tests.eventually import eventually


async def seated_player(server: UmpireServer, connect: Any, name: str) -> tuple[Any, Any]:
    """A connected guest and its Player."""
    client = await connect(name)
    player = await server.identities.get(client.player["id"])
    assert player is not None
    return client, player


async def test_a_match_frame_then_resume_starts_the_game(
    server: UmpireServer, connect: Any
) -> None:
    ana, ana_p = await seated_player(server, connect, "ana")
    bob, bob_p = await seated_player(server, connect, "bob")
    ended: list[tuple[str, GameRow]] = []
    server.lobby.match_ended["seek"] = lambda room, row: ended.append((room, row))
    room = await server.lobby.open_match(
        "kriegspiel", {"rules": "wild16"}, [ana_p, bob_p], source="seek", ref="s-1"
    )
    match = await ana.expect("match", room=room.id)
    assert match["seat"] == 0 and match["source"] == "seek" and match["ref"] == "s-1"
    assert [p["name"] for p in match["players"]] == ["ana", "bob"]
    assert (await bob.expect("match", room=room.id))["seat"] == 1
    await ana.request("resume", "resumed", room=room.id, since=0)
    assert room.state == "waiting"
    await bob.request("resume", "resumed", room=room.id, since=0)
    await bob.expect("room", state="playing")
    await bob.send(type="act", room=room.id, action="resign")
    await eventually(lambda: room.state == "finished")
    await eventually(lambda: len(ended) == 1)
    assert ended[0][0] == room.id and ended[0][1].status == "finished"


async def test_welcome_lists_a_reserved_seat(server: UmpireServer, connect: Any) -> None:
    ana, ana_p = await seated_player(server, connect, "ana")
    room = await server.lobby.open_match(
        "perudo", {}, [ana_p, HouseSeat("autopilot")], source="rematch", ref="old"
    )
    await ana.expect("match", room=room.id)
    other = await connect()
    welcome = await other.hello("ana", token=ana.token)
    assert [(s["room"], s["seat"], s["state"]) for s in welcome["seats"]] == [
        (room.id, 0, "waiting")
    ]
    await other.request("resume", "resumed", room=room.id, since=0)
    await other.expect("room", state="playing")


async def test_open_match_refuses_what_makes_no_game(server: UmpireServer, connect: Any) -> None:
    _, ana_p = await seated_player(server, connect, "ana")
    with pytest.raises(ClientError) as error:
        await server.lobby.open_match("kriegspiel", {}, [ana_p, ana_p], source="seek")
    assert error.value.code == "already_seated"
    with pytest.raises(ClientError) as error:
        await server.lobby.open_match(
            "kriegspiel", {}, [ana_p, HouseSeat("no-such-bot")], source="seek"
        )
    assert error.value.code == "unsupported"
    with pytest.raises(ClientError) as error:
        await server.lobby.open_match(
            "kriegspiel", {}, [ana_p, HouseSeat("autopilot")], source="seek"
        )
    assert error.value.code == "unsupported"


async def test_a_house_bot_seat_is_played(server: UmpireServer, connect: Any) -> None:
    ana, ana_p = await seated_player(server, connect, "ana")
    room = await server.lobby.open_match(
        "kriegspiel",
        {"rules": "wild16"},
        [HouseSeat("kriegspiel-random"), ana_p],
        source="ladder",
    )
    await ana.expect("match", room=room.id, seat=1)
    await ana.request("resume", "resumed", room=room.id, since=0)
    await eventually(lambda: room.state == "playing", timeout=20)


async def test_a_rematch_swaps_the_colours(server: UmpireServer, connect: Any) -> None:
    ana, ana_p = await seated_player(server, connect, "ana")
    bob, bob_p = await seated_player(server, connect, "bob")
    room = await server.lobby.open_match(
        "kriegspiel", {"rules": "wild16"}, [ana_p, bob_p], source="seek"
    )
    for client in (ana, bob):
        await client.request("resume", "resumed", room=room.id, since=0)
    await bob.expect("room", state="playing")
    await bob.send(type="act", room=room.id, action="resign")
    await ana.expect("room", state="finished")
    offered = await ana.request("rematch", "rematch", room=room.id)
    assert offered["rematch"] == {"offered": [0], "declined": None, "room": None}
    shown = await bob.expect("room", room=room.id)
    while shown.get("rematch") is None:
        shown = await bob.expect("room", room=room.id)
    assert shown["rematch"]["offered"] == [0]
    await bob.request("rematch", "rematch", room=room.id)
    to_ana = await ana.expect("match", source="rematch")
    to_bob = await bob.expect("match", source="rematch")
    assert to_ana["ref"] == room.id and to_ana["room"] == to_bob["room"] != room.id
    assert (to_ana["seat"], to_bob["seat"]) == (1, 0)  # ana played white: now black

    def rematch_opened() -> bool:
        rematch = room.core.summary().rematch
        return rematch is not None and rematch.room == to_ana["room"]

    await eventually(rematch_opened)
    await ana.send(type="rematch", room=room.id)
    await ana.error("bad_state")
    new = server.lobby.rooms[to_ana["room"]]
    assert new.summary().match == "rematch"


async def test_a_waiting_match_survives_a_restart(make_server: Any, db_path: str) -> None:
    from server.rooms.room import Timing
    from tests.server.wsclient import WsClient

    timing = Timing(grace=5.0, autopilot_delay=0.0, finished_ttl=30.0, no_show=30.0)
    first = await make_server(db=db_path, timing=timing)
    ana = await WsClient.open(first.port)
    await ana.hello("ana")
    bob = await WsClient.open(first.port)
    await bob.hello("bob")
    players = [await first.identities.get(c.player["id"]) for c in (ana, bob)]
    room = await first.lobby.open_match(
        "kriegspiel", {"rules": "wild16"}, [p for p in players if p is not None], source="ladder"
    )
    tokens = [ana.token, bob.token]
    await ana.close()
    await bob.close()
    await first.close()
    second = await make_server(db=db_path, timing=timing)
    ended: list[str] = []
    second.lobby.match_ended["ladder"] = lambda room_id, row: ended.append(row.status)
    again = []
    for name, token in zip(("ana", "bob"), tokens, strict=True):
        client = await WsClient.open(second.port)
        welcome = await client.hello(name, token=token)
        assert [s["room"] for s in welcome["seats"]] == [room.id]
        await client.request("resume", "resumed", room=room.id, since=0)
        again.append(client)
    await again[1].expect("room", state="playing")
    await again[0].send(type="act", room=room.id, action="resign")
    await eventually(lambda: ended == ["finished"])
    for client in again:
        await client.close()


async def test_seek_and_rematch_matches_count_against_the_room_limit(
    server: UmpireServer, connect: Any
) -> None:
    _ana, ana_p = await seated_player(server, connect, "ana")
    server.lobby.max_rooms_per_player = 2
    for source in ("seek", "tournament"):
        await server.lobby.open_match("perudo", {}, [ana_p, HouseSeat("autopilot")], source=source)
    for source in ("seek", "rematch"):
        with pytest.raises(ClientError) as error:
            await server.lobby.open_match(
                "perudo", {}, [ana_p, HouseSeat("autopilot")], source=source
            )
        assert error.value.code == "too_many_rooms"
    # (tournaments and the ladder keep caps of their own)
    await server.lobby.open_match("perudo", {}, [ana_p, HouseSeat("autopilot")], source="ladder")
