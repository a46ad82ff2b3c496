"""Rated rooms through a real server: accounts, bot accounts and house bots play rated
games; guests may not sit in a rated room; every viewer sees the rating changes once the
game's end is stored; a room read back from the log shows them; a finish written twice
rates the game once."""

from __future__ import annotations

import asyncio
from typing import Any

from bots.baseline import KriegspielRandom
from bots.registry import HouseCatalog
from bots.sdk.remote import Target, play_remote
from server import __version__
from server.feed.bus import Bus
from server.net.app import UmpireServer
from server.ratings.plan import plan_for
from server.rooms.house import HouseBots
from server.rooms.room import Room, Timing
from server.store import journal
from tests.eventually import eventually
from tests.server.conftest import ServerFactory, wait_state
from tests.server.wsclient import WsClient

PASSWORD = "correct horse battery"


class Recorder(Bus):
    """A feed that keeps what rooms published of their ends."""

    def __init__(self) -> None:
        self.published: list[tuple[str, Any]] = []

    def result(self, room: Room) -> None:
        self.published.append(("result", room.ratings))

    def rated(self, room: Room, changes: Any) -> None:
        self.published.append(("rated", list(changes)))


async def account(connect: Any, name: str) -> WsClient:
    """A new connection that says hello as a guest and claims its name."""
    client: WsClient = await connect(name)
    await client.request("register", "account", password=PASSWORD)
    return client


async def rated_room(host: WsClient, **fields: Any) -> str:
    created = await host.request(
        "create_room", "created", game="kriegspiel", options={"rules": "wild16"}, **fields
    )
    room: str = created["room"]
    return room


async def opening(white: WsClient, room: str, black: WsClient | None = None) -> None:
    """Each seat moves once (a game shorter than 2 plies is never rated); ``black`` None:
    a bot plays black by itself. White is to move again when this returns."""
    await white.expect("turn", room=room)
    await white.request("act", "ack", room=room, action="g1f3")
    if black is not None:
        await black.expect("turn", room=room)
        await black.request("act", "ack", room=room, action="g8f6")
    await white.expect("turn", room=room)


async def ratings_of(client: WsClient, room: str) -> list[dict[str, Any]]:
    """The ``ratings`` of the first ``room`` frame of ``room`` that has them."""
    while True:
        frame = await client.expect("room", room=room)
        if frame.get("ratings") is not None:
            ratings: list[dict[str, Any]] = frame["ratings"]
            return ratings


async def test_two_accounts_play_a_rated_game_and_both_see_their_rating_changes(
    server: UmpireServer, connect: Any
) -> None:
    feed = server.lobby.bus = Recorder()
    ana = await account(connect, "ana")
    bob = await account(connect, "bob")
    wes = await connect("wes")  # a guest, watching
    room = await rated_room(ana)
    waiting = await ana.expect("room", room=room)
    assert waiting.get("rated") is True
    await bob.request("join", "joined", room=room)
    await wes.request("watch", "watching", room=room)
    await opening(ana, room, bob)
    await ana.send(type="act", room=room, action="resign", ref=1)
    changes = {c: await ratings_of(c, room) for c in (ana, bob, wes)}
    assert changes[ana] == changes[bob] == changes[wes]
    mine, theirs = changes[ana]
    assert (mine["player"], theirs["player"]) == (ana.player["id"], bob.player["id"])
    assert mine["after"] < mine["before"] == 1500.0 < theirs["after"]
    assert mine["games"] == theirs["games"] == 1 and mine["provisional"]

    stored = await server.store.rating_changes(room)
    assert [(c.seat, c.after.rating) for c in stored] == [(0, mine["after"]), (1, theirs["after"])]
    (rating,) = await server.store.ratings(ana.player["id"])
    assert (rating.key.game, rating.key.rules, rating.pool) == ("kriegspiel", "wild16", "human")
    assert rating.rating.games == 1
    row = await server.store.game(room)
    assert row is not None and row.rated is not None and row.rated["system"] == "glicko2"
    # the public feed: the result with its ratings, then the changes (leaderboards)
    (result, shown), (rated, published) = feed.published
    assert (result, rated, published) == ("result", "rated", stored)
    assert shown is not None and [r.after for r in shown] == [c.after.rating for c in stored]


async def test_a_guest_is_refused_a_seat_in_a_rated_room_and_makes_a_default_room_casual(
    server: UmpireServer, connect: Any
) -> None:
    ana = await account(connect, "ana")
    gus = await connect("gus")
    room = await rated_room(ana, rated=True)
    await gus.send(type="join", room=room)
    await gus.error("account_required")
    await gus.request("watch", "watching", room=room)  # (watching is for anyone)
    await gus.send(type="create_room", game="kriegspiel", rated=True)
    await gus.error("account_required")
    hosted = await gus.request(
        "create_room", "created", game="kriegspiel", rated=True, sit=False
    )  # (a guest may host a rated room it does not sit in)
    assert hosted["seat"] is None

    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    await ana.send(type="create_room", game="kriegspiel", options={"fen": start}, rated=True)
    await ana.error("bad_options")  # (a game from a position is never rated)

    casual = await rated_room(ana)
    await gus.request("join", "joined", room=casual)
    frame = await gus.expect("room", room=casual, state="playing")
    assert frame.get("rated", False) is False
    await ana.expect("turn", room=casual)
    await ana.send(type="act", room=casual, action="resign", ref=1)
    await wait_state(server, casual)
    assert await server.store.rating_changes(casual) == []
    row = await server.store.game(casual)
    assert row is not None and row.rated is None


async def test_a_house_bot_is_rated_under_its_own_id_and_the_servers_version(
    server: UmpireServer, connect: Any
) -> None:
    ana = await account(connect, "ana")
    room = await rated_room(ana)
    await ana.request("add_bot", "bot_added", room=room, seat=1, bot="kriegspiel-random")
    await opening(ana, room, None)
    await ana.send(type="act", room=room, action="resign", ref=1)
    _, bot = await ratings_of(ana, room)
    assert (bot["player"], bot["version"]) == ("bot-kriegspiel-random", __version__)
    (rating,) = await server.store.ratings("bot-kriegspiel-random")
    assert (rating.key.version, rating.pool) == (__version__, "bot")


async def test_a_bot_account_is_rated_under_the_version_its_hello_says(
    server: UmpireServer, connect: Any
) -> None:
    ana = await account(connect, "ana")
    owner = await account(connect, "cyd")  # (never rated against its owner's own bots)
    made = await owner.request("create_bot", "bot_account", name="anabot")
    botty: WsClient = await connect()
    await botty.hello("anabot", token=made["token"], bot=True, bot_version="2.5-rc1")
    room = await rated_room(ana)
    await botty.request("join", "joined", room=room)
    await opening(ana, room, botty)
    await ana.send(type="act", room=room, action="resign", ref=1)
    _, bot = await ratings_of(botty, room)
    assert (bot["player"], bot["version"]) == (made["player"]["id"], "2.5-rc1")
    (rating,) = await server.store.ratings(made["player"]["id"])
    assert (rating.key.version, rating.pool) == ("2.5-rc1", "bot")


class VersionedRandom(KriegspielRandom):
    """A bot written with the SDK that says its version."""

    version = "3.1"


async def test_an_sdk_bot_on_a_bot_account_is_rated_under_its_class_version(
    server: UmpireServer, connect: Any
) -> None:
    ana = await account(connect, "ana")
    owner = await account(connect, "cyd")  # (never rated against its owner's own bots)
    made = await owner.request("create_bot", "bot_account", name="sdkbot")
    room = await rated_room(ana)
    url = f"ws://127.0.0.1:{server.port}"
    playing = asyncio.create_task(
        play_remote(
            url,
            lambda: VersionedRandom(seed=5),
            name="sdkbot",
            target=Target(room=room, seat=1),
            token=made["token"],
        )
    )
    await opening(ana, room, None)
    await ana.send(type="act", room=room, action="resign", ref=1)
    (result,) = await asyncio.wait_for(playing, 60)
    assert result.seat == 1
    (rating,) = await server.store.ratings(made["player"]["id"])
    assert (rating.key.version, rating.pool) == ("3.1", "bot")


async def test_a_rated_room_read_back_from_the_log_shows_its_ratings_and_is_rated_once(
    make_server: ServerFactory, connect: Any
) -> None:
    server: UmpireServer = await make_server(
        timing=Timing(grace=0.5, autopilot_delay=0.0, finished_ttl=0.05)
    )
    ana = await account(lambda name: connect(name, port=server.port), "ana")
    bob = await account(lambda name: connect(name, port=server.port), "bob")
    room = await rated_room(ana)
    await bob.request("join", "joined", room=room)
    await opening(ana, room, bob)
    await ana.send(type="act", room=room, action="resign", ref=1)
    shown = await ratings_of(bob, room)
    await eventually(lambda: room not in server.lobby.rooms, what="the room evicted")

    wes: WsClient = await connect("wes", port=server.port)
    await wes.request("watch", "watching", room=room)
    frame = await wes.expect("room", room=room)
    assert frame["state"] == "finished" and frame.get("ratings") == shown

    # the end written again (a retried finish_game): the same changes, nothing counted twice
    row = await server.store.game(room)
    assert row is not None
    end = journal.rated(journal.Finish(row, (), {}), plan_for(row))
    assert end.plan is not None
    again = await journal.commit(server.store, end)
    assert again == await server.store.rating_changes(room)
    assert [c.after.rating for c in again] == [r["after"] for r in shown]
    (rating,) = await server.store.ratings(ana.player["id"])
    assert rating.rating.games == 1 and rating.rating.rating == shown[0]["after"]


def test_house_bots_take_their_version_from_the_registry_or_the_servers() -> None:
    class Catalog:
        def bots_for(self, game: str) -> list[str]:
            return ["smart", "dumb"]

        def knows(self, spec: str) -> bool:
            return True

        def levels(self, name: str) -> list[str]:
            return []

        def advises(self, game: str) -> bool:
            return False

        def version(self, name: str) -> str:
            return "2.0" if name == "smart" else ""

    house = HouseBots(catalog=Catalog())
    assert house.version("smart") == house.version("smart:hard") == "2.0"
    assert house.version("dumb") == house.version("autopilot") == __version__
    assert HouseBots().version("smart") == __version__
    assert HouseCatalog().version("kriegspiel-meta") == ""  # (no built-in bot has one yet)


async def test_an_account_is_not_rated_against_its_own_bot_account(
    server: UmpireServer, connect: Any
) -> None:
    ana = await account(connect, "ana")
    made = await ana.request("create_bot", "bot_account", name="mine")
    botty: WsClient = await connect()
    await botty.hello("mine", token=made["token"], bot=True)
    room = await rated_room(ana)
    await botty.request("join", "joined", room=room)
    await opening(ana, room, botty)
    await ana.request("act", "ack", room=room, action="resign")
    assert (await ana.expect("room", room=room, state="finished")).get("rated") is not True
    row = await server.store.game(room)
    assert row is not None and row.rated is None
    assert not await server.store.rating_changes(room)
