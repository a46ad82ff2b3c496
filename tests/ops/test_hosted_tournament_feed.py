"""A hosted tournament's standings on MQTT: retained, after every change, the table of
its ``tournament`` frame."""

from __future__ import annotations

from typing import Any

from server.feed.bus import topic_word
from server.net.app import UmpireServer
from tests.ops.conftest import PREFIX, Broker, Subscriber, test_bus


async def test_hosted_standings_are_published(
    broker: Broker, subscriber: Subscriber, make_feed_server: Any, connect: Any
) -> None:
    server: UmpireServer = await make_feed_server(test_bus(broker.url))
    host = await connect(server, "host")
    t = await host.request(
        "create_tournament",
        "tournament",
        game="perudo",
        options={"dice_per_player": 1},
        format="round_robin",
    )
    tid = t["tournament"]["id"]
    for kind in ("perudo-random", "perudo-simple"):
        await host.request("join_tournament", "tournament", tournament=tid, bot=kind)
    await host.request("start_tournament", "tournament", tournament=tid)
    topic = f"{PREFIX}/tournaments/{tid}/standings"

    def last() -> object:
        found = [m for m in subscriber.messages if m.topic == topic]
        return found and found[-1].json()["standings"]["status"] == "finished" and found[-1]

    message = await subscriber.wait_for(last, what="the final standings")
    rows = message.json()["standings"]["rows"]
    assert message.json()["tournament"] == tid
    assert sorted(r["name"] for r in rows) == ["perudo-random", "perudo-simple"]
    assert sum(r["points"] for r in rows) == 1.0 and rows[0]["rank"] == 1


def test_a_safe_id_is_its_own_topic_word() -> None:
    """Ids are ``token_urlsafe``: one in 64 ends with ``-``, and its topic keeps it."""
    assert topic_word("aDtHjfX-") == "aDtHjfX-"
    assert topic_word("a_b-c.d") == "a_b-c.d"
    assert topic_word("perudo/classic+#x") == "perudo-classic-x"
    assert topic_word("") == "-"


async def test_standings_of_an_id_ending_with_a_dash(
    broker: Broker, subscriber: Subscriber
) -> None:
    """Published under the id itself (the topic once lost the ``-``: a CI failure)."""
    bus = test_bus(broker.url)
    await bus.start()
    try:
        bus.standings("aDtHjfX-", {"status": "finished", "round": 1, "rows": []})
        topic = f"{PREFIX}/tournaments/aDtHjfX-/standings"
        message = await subscriber.wait_for(
            lambda: next((m for m in subscriber.messages if m.topic == topic), None),
            what="the standings under the id's own topic",
        )
        assert message.json()["tournament"] == "aDtHjfX-"
    finally:
        await bus.close()
