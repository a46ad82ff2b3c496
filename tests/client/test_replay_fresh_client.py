"""Issue 29: a finished game replays from any client, not only the run that played it:
a fresh client (the same player's or anyone's) fetches the whole log from the server."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

from client_cli.controller import fetch_replay
from client_cli.games.perudo.text import model_of
from client_cli.plain import PlainClient
from client_cli.session import Session
from server.net.app import UmpireServer
from tests.client.helpers import running


def _client(server: UmpireServer, name: str) -> tuple[PlainClient, io.StringIO]:
    out = io.StringIO()
    session = Session(f"ws://127.0.0.1:{server.port}", name, retry=0.05)
    return PlainClient(session, out, wait_timeout=10), out


async def _played(server: UmpireServer) -> str:
    """A public Perudo game ana played to the end against a bot; its room id."""
    client, _ = _client(server, "ana")
    state = client.session.state
    rooms: list[str] = []

    async def script() -> AsyncIterator[str]:
        yield "create perudo seats=2 dice=1"
        yield "bot autopilot"
        yield "wait start"
        for _ in range(20):
            yield "wait turn"
            room = state.current_room
            assert room is not None
            rooms.append(room.room)
            if room.over:
                break
            yield "dudo" if model_of(room).table.last_bid else room.legal[0]
        yield "wait end"
        yield "quit"

    assert await client.run(script()) == 0
    return rooms[0]


async def test_a_fresh_plain_client_replays_a_finished_game(server: UmpireServer) -> None:
    room_id = await _played(server)
    client, out = _client(server, "cleo")

    async def script() -> AsyncIterator[str]:
        yield f"replay {room_id}"
        yield "quit"

    assert await client.run(script()) == 0
    text = out.getvalue()
    assert f"Replay of room {room_id} (perudo)" in text
    assert " 0 steps" not in text
    assert "Game over" in text


async def test_a_fresh_session_builds_the_whole_replay(server: UmpireServer) -> None:
    room_id = await _played(server)
    async with running(server.port, "dora") as session:
        replay = await fetch_replay(session, room_id)
    assert len(replay.steps) > 2
    assert "Game over" in replay.steps[-1].caption
