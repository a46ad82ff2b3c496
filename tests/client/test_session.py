"""The session against a real server: token kept, requests matched, reconnect and resume."""

from __future__ import annotations

import pytest

from client_cli.session import SessionError
from client_cli.tokens import TokenStore
from server.net.app import UmpireServer
from tests.client.helpers import running


async def test_token_is_kept_between_runs(server: UmpireServer) -> None:
    async with running(server.port, "ana") as first:
        assert first.state.player is not None
        player = first.state.player["id"]
    assert TokenStore().load(f"ws://127.0.0.1:{server.port}") is not None
    async with running(server.port, "ana") as second:
        assert second.state.player is not None
        assert second.state.player["id"] == player


async def test_request_errors_carry_the_code(server: UmpireServer) -> None:
    async with running(server.port, "ana") as session:
        with pytest.raises(SessionError) as info:
            await session.request({"type": "join", "room": "nosuchroom"})
        assert info.value.code == "no_such_room"


async def test_reconnects_and_resumes_after_a_drop(server: UmpireServer) -> None:
    async with running(server.port, "ana") as session:
        created = await session.request(
            {
                "type": "create_room",
                "game": "perudo",
                "options": {"seats": 2, "dice_per_player": 2},
            }
        )
        room_id = created["room"]
        await session.request({"type": "add_bot", "room": room_id, "bot": "autopilot"})
        room = session.state.room(room_id)
        await session.wait_until(lambda: room.turn is not None, 5)
        seq_before = room.seq
        await session.drop()
        await session.wait_until(lambda: session.connections == 2, 5)
        await session.wait_until(lambda: room.turn is not None, 5)
        assert room.seq >= seq_before
        assert sorted(room.history) == list(range(1, room.seq + 1))
        action = room.legal[0] if room.perudo.last_bid is None else "dudo"
        ack = await session.request({"type": "act", "room": room_id, "action": action})
        assert ack["type"] == "ack"
