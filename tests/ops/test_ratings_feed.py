"""Ratings on the MQTT feed against a real Mosquitto: a rated game's rating changes (public
rooms only) and every leaderboard it changed (retained, whatever the room)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from server.net.app import UmpireServer
from server.ratings.plan import plan_for
from server.store.contract import GameRow, RatingChange
from tests.ops.conftest import Broker, Subscriber, test_bus
from tests.server.test_ratings_store import ACCOUNTS, HOUSE, Seat, add_players, game


@dataclass
class Settings:
    public: bool
    spectators: str = "after"


@dataclass
class FakeRoom:
    """What the feed reads of a room when it is rated."""

    id: str
    settings: Settings


async def finish(server: UmpireServer, row: GameRow) -> list[RatingChange]:
    await server.store.save_game(
        dataclasses.replace(row, status="playing", result=None, finished=None)
    )
    return await server.store.finish_game(row, [], {}, plan_for(row))


async def test_rating_changes_and_leaderboards_are_published(
    broker: Broker, subscriber: Subscriber, make_feed_server: Any
) -> None:
    server: UmpireServer = await make_feed_server(test_bus(broker.url))
    await add_players(server.store)
    server.config = dataclasses.replace(server.config, leaderboard_min_games=1)
    people = [Seat(f"p{i}", "account") for i in range(len(ACCOUNTS))]
    house = Seat(HOUSE, "house", "1.0")

    public = game(1, "kriegspiel", [people[0], house], [1, 2])
    changes = await finish(server, public)
    server.bus.rated(FakeRoom(public.id, Settings(public=True)), changes)  # type: ignore[arg-type]
    topic = f"ratings/{public.id}"
    message = await subscriber.wait_for(lambda: subscriber.on(topic), what=topic)
    payload = message[0].json()
    assert (payload["room"], payload["game"], payload["rules"]) == (
        public.id,
        "kriegspiel",
        "wild16",
    )
    assert [c["player"] for c in payload["changes"]] == ["p0", HOUSE]
    assert payload["changes"][0]["after"] > payload["changes"][0]["before"] == 1500.0
    assert payload["changes"][0]["provisional"] is True

    humans, bots = "leaderboards/kriegspiel/wild16/human", "leaderboards/kriegspiel/wild16/bot"
    await subscriber.wait_for(lambda: subscriber.on(humans) and subscriber.on(bots), what=humans)
    board = subscriber.on(humans)[-1]
    assert board.json()["entries"][0]["player"]["id"] == "p0" and board.json()["min_games"] == 1
    assert subscriber.on(bots)[-1].json()["entries"][0]["version"] == "1.0"

    # a private room's game: no changes published, but the leaderboard changes
    private = game(2, "kriegspiel", [people[1], people[0]], [1, 2])
    changes = await finish(server, private)
    server.bus.rated(FakeRoom(private.id, Settings(public=False)), changes)  # type: ignore[arg-type]
    await subscriber.wait_for(lambda: len(subscriber.on(humans)) >= 2, what="a second board")
    assert not subscriber.on(f"ratings/{private.id}")
    entries = subscriber.on(humans)[-1].json()["entries"]
    assert {e["player"]["id"] for e in entries} == {"p0", "p1"}
