"""The client core's asyncio driver against a real server: requests, a drop and the
resume after it, refusals, a server that is not there."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bots.client.core import ClientCore, GameEnded, Received, Turn
from bots.client.driver import Client, ClientError, ConnectionFailed
from server.net.app import UmpireServer
from tests.ports import free_port


@pytest.fixture
async def ana(server: UmpireServer) -> AsyncIterator[Client]:
    """A running client, welcomed."""
    client = Client(f"ws://127.0.0.1:{server.port}", ClientCore("ana"), retry=0.01)
    task = asyncio.create_task(client.run())
    await asyncio.wait_for(client.ready.wait(), 5)
    yield client
    await client.close()
    with contextlib.suppress(ConnectionFailed):
        await task


async def test_requests_are_answered_and_refusals_raise(ana: Client) -> None:
    created = await ana.request({"type": "create_room", "game": "perudo", "options": {}})
    assert created["type"] == "created" and created["room"] in ana.core.streams
    with pytest.raises(ClientError) as refused:
        await ana.request({"type": "join", "room": "nosuchroom"})
    assert refused.value.code == "no_such_room"


async def test_after_a_drop_the_client_says_hello_with_its_token_and_resumes(
    ana: Client, connect: Any
) -> None:
    outputs = ana.outputs()
    token = ana.core.token
    room = (await ana.request({"type": "create_room", "game": "perudo", "options": {"seats": 2}}))[
        "room"
    ]
    await ana.drop()
    bob = await connect("bob")
    await bob.request("join", "joined", room=room)  # the game starts around ana's return
    kinds: list[tuple[str, int | None]] = []
    async with asyncio.timeout(5):
        async for output in outputs:
            if isinstance(output, Received) and output.room == room:
                kinds.append((output.kind, output.frame.get("seq")))
            names = [kind for kind, _ in kinds]
            if "resumed" in names and names.count("event") >= 2:  # the round has started
                break
    assert ana.connections == 2 and ana.core.token == token
    events = [seq for kind, seq in kinds if kind == "event"]
    assert events == list(range(1, len(events) + 1)) and events  # every one, once, in order


async def test_a_whole_game_turns_answered_and_the_end_after_every_event(ana: Client) -> None:
    outputs = ana.outputs()
    options = {"seats": 2, "dice_per_player": 1}
    room = (await ana.request({"type": "create_room", "game": "perudo", "options": options}))[
        "room"
    ]
    ana.send({"type": "add_bot", "room": room})
    seen: list[int] = []
    async with asyncio.timeout(20):
        async for output in outputs:
            if isinstance(output, GameEnded):
                break
            if isinstance(output, Turn):
                legal = output.frame["legal"]
                ana.send(
                    {"type": "act", "room": room, "action": "dudo" if "dudo" in legal else legal[0]}
                )
            elif isinstance(output, Received) and output.kind == "event":
                seen.append(int(output.frame["seq"]))
    assert isinstance(output, GameEnded)
    assert output.room == room and output.frame["state"] == "finished"
    assert seen == list(range(1, int(output.frame["seq"]) + 1))
    assert seen and ana.core.streams[room].over


async def test_a_refused_hello_stops_the_client(server: UmpireServer) -> None:
    client = Client(f"ws://127.0.0.1:{server.port}", ClientCore("x" * 40), retry=0.01)
    with pytest.raises(ConnectionFailed) as failed:
        await asyncio.wait_for(client.run(), 5)
    assert failed.value.code == "bad_name"


async def test_a_server_that_is_not_there_is_given_up_after_the_retries() -> None:
    client = Client(f"ws://127.0.0.1:{free_port()}", ClientCore("ana"), retry=0.01, retries=2)
    with pytest.raises(ConnectionFailed):
        await asyncio.wait_for(client.run(), 5)
    assert client.failures == 3
    with pytest.raises(ClientError):
        await client.request({"type": "ping"})
