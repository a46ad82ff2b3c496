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
