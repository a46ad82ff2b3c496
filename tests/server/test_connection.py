"""The connection's write path: several frames in one write, through websockets internals
that a new websockets version might drop (see server/connection.py)."""

from __future__ import annotations

from server.app import UmpireServer
from server.connection import Client, _can_write_many
from tests.server.wsclient import WsClient


async def test_several_frames_go_out_in_one_write_and_in_order(server: UmpireServer) -> None:
    client = await WsClient.open(server.port)
    try:
        await client.hello("ana")  # the server side is surely open by now
        assert server._server is not None
        (ws,) = server._server.connections
        # If this fails after a websockets upgrade, frames still flow (one write each):
        # re-check server/connection.py against the new version and move the pin.
        assert _can_write_many(ws)
        texts = [f'{{"type":"pong","ref":{n}}}' for n in range(5)]
        Client(ws, "test", 1 << 20).send_many(texts)
        assert [(await client.next())["ref"] for _ in texts] == list(range(5))
    finally:
        await client.close()
