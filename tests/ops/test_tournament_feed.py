"""Tournament standings on MQTT: ``umpire tournament --mqtt`` publishes after each game."""

from __future__ import annotations

from bots.tools.arena import schedule
from bots.tools.cli import play_and_record
from server.cli import open_feed
from tests.ops.conftest import PREFIX, Broker, Subscriber


async def test_tournament_standings_are_published(broker: Broker, subscriber: Subscriber) -> None:
    bots = ["perudo-simple", "perudo-random"]
    specs = schedule("perudo", {"seats": 2}, bots, 2, 6, "feed")
    async with open_feed(broker.url) as feed:
        await play_and_record(specs, 1, None, {}, feed=("cup", bots, feed))
    topic = f"{PREFIX}/tournaments/cup/standings"

    def last() -> object:
        found = [m for m in subscriber.messages if m.topic == topic]
        return found and found[-1].json()["standings"]["games"] == 6 and found[-1]

    message = await subscriber.wait_for(last, what="the final standings")
    table = message.json()["standings"]["table"]
    assert {line["bot"] for line in table} == set(bots)
    assert sum(line["games"] for line in table) == 12
