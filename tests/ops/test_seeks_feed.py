"""The open seeks on MQTT: ``PREFIX/seeks/GAME``, retained, whenever they change."""

from __future__ import annotations

from typing import Any

from server.net.app import UmpireServer
from tests.ops.conftest import Broker, Subscriber, test_bus


async def test_open_seeks_are_published_per_game(
    broker: Broker, subscriber: Subscriber, make_feed_server: Any, connect: Any
) -> None:
    server: UmpireServer = await make_feed_server(test_bus(broker.url))
    ana = await connect(server, "ana")
    seek = await ana.request("seek", "seek_added", game="kriegspiel", options={"rules": "wild16"})
    seek_id = seek["seek"]["id"]

    def listed() -> object:
        found = subscriber.on("seeks/kriegspiel")
        return found and [s["id"] for s in found[-1].json()["seeks"]] == [seek_id]

    await subscriber.wait_for(listed, what="the open seek")
    await ana.request("cancel_seek", "seek_cancelled", seek=seek_id)

    def emptied() -> object:
        found = subscriber.on("seeks/kriegspiel")
        return found and found[-1].json()["seeks"] == []

    await subscriber.wait_for(emptied, what="the cancelled seek gone")
