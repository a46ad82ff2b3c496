"""Clients given several server URLs fail over between them (issue 32): the driver
connects to the first that answers, and after its node stops it moves to the next and
says hello with its token there, as the same player, and resumes its room. Real servers:
two nodes on one PostgreSQL database (a cluster), and a port where nothing listens."""

from __future__ import annotations

import argparse
import asyncio
import contextlib

from bots.client.core import ClientCore
from bots.client.driver import Client, ConnectionFailed, server_urls
from bots.tools.cli import ServerUrls, ws_url
from server.rooms.room import Timing
from tests.eventually import eventually
from tests.ports import free_port
from tests.server.conftest import LEASE, ServerFactory


def dead_url() -> str:
    """The URL of a port nothing listens on (a server that is stopped)."""
    return f"ws://127.0.0.1:{free_port()}"


async def test_the_first_node_down_the_client_uses_the_next(make_server: ServerFactory) -> None:
    server = await make_server()
    live = f"ws://127.0.0.1:{server.port}"
    client = Client(f"{dead_url()}, {live}", ClientCore("ana"), retry=0.01, retries=5)
    task = asyncio.create_task(client.run())
    try:
        await asyncio.wait_for(client.ready.wait(), 10)
        assert client.url == live  # (it began with the first)
    finally:
        await client.close()
        with contextlib.suppress(ConnectionFailed):
            await task


async def test_a_node_that_stops_hands_the_player_to_the_next(
    make_server: ServerFactory, pg_dsn: str
) -> None:
    timing = Timing(grace=30.0, autopilot_delay=0.0, finished_ttl=30.0)
    first = await make_server(db=pg_dsn, node_name="n1", timing=timing, **LEASE)
    second = await make_server(db=pg_dsn, node_name="n2", timing=timing, **LEASE)
    urls = [f"ws://127.0.0.1:{first.port}", f"ws://127.0.0.1:{second.port}"]
    client = Client(urls, ClientCore("ana"), retry=0.05, max_retry=0.2, retries=50)
    task = asyncio.create_task(client.run())
    try:
        await asyncio.wait_for(client.ready.wait(), 10)
        assert client.url == urls[0]
        player, token = client.core.player, client.core.token
        created = await client.request(
            {"type": "create_room", "game": "perudo", "options": {"seats": 2}}
        )
        room = created["room"]
        await first.close()  # (1001 to every connection; it leaves: its rooms are free)
        await eventually(lambda: client.url == urls[1] and client.ready.is_set(), timeout=20)
        assert client.core.player == player and client.core.token == token
        # the room, taken over by the second node, is the player's still
        reply = await client.request({"type": "join", "room": room}, timeout=20)
        assert reply["seat"] == 0
    finally:
        await client.close()
        with contextlib.suppress(ConnectionFailed):
            await task


def test_server_urls_and_the_command_line() -> None:
    assert server_urls("ws://a:1, ws://b:2") == ["ws://a:1", "ws://b:2"]
    assert server_urls(["ws://a:1", "ws://b:2,ws://c:3"]) == ["ws://a:1", "ws://b:2", "ws://c:3"]
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", type=ws_url, action=ServerUrls, default="ws://d:4")
    assert parser.parse_args([]).server == "ws://d:4"
    given = parser.parse_args(["--server", "ws://a:1", "--server", "ws://b:2,ws://c:3"])
    assert server_urls(given.server) == ["ws://a:1", "ws://b:2", "ws://c:3"]
