"""The public MQTT feed against a real Mosquitto: topics, payloads, policies, delays,
leaks, and a broker that is down or restarts in the middle of a game."""

from __future__ import annotations

import json
import logging
import random
import re
import time
from typing import Any

import pytest

from server.feed.bus import FeedDelay, MqttBus
from server.net.app import UmpireServer
from server.rooms.room import Room, Timing
from server.store import signing
from tests.eventually import eventually
from tests.games.kriegspiel_leakcheck import squares_named
from tests.ops.conftest import (
    Broker,
    Subscriber,
    bot_room,
    test_bus,
)
from tests.server.conftest import wait_state
from tests.server.leaks import hidden_dice_leaks


def published(sub: Subscriber, room_id: str) -> list[int]:
    """The sequence numbers of the events of ``room_id`` received so far."""
    return [m.json()["seq"] for m in sub.on(f"rooms/{room_id}/events")]


def spectator_stream(room: Room) -> list[int]:
    """The log indices of the events a spectator sees, in order."""
    return [i for i, event in enumerate(room.log) if event.view(None) is not None]


def check_room_events(sub: Subscriber, room: Room) -> list[dict[str, Any]]:
    """Every event published for ``room`` is exactly the spectator projection of the
    spectator stream's event with that number; return the payloads."""
    stream = spectator_stream(room)
    payloads = [m.json() for m in sub.on(f"rooms/{room.id}/events")]
    for payload in payloads:
        assert payload["room"] == room.id
        event = room.log[stream[payload["seq"] - 1]]
        assert payload["event"] == event.view(None), payload
    return payloads


def assert_no_dice_leak(sub: Subscriber) -> None:
    for message in sub.messages:
        data = message.json()
        leaks = hidden_dice_leaks(data, None) if data is not None else []
        assert not leaks, (message.topic, leaks)


async def test_bot_game_lobby_events_result(
    broker: Broker, subscriber: Subscriber, make_feed_server: Any, connect: Any
) -> None:
    server: UmpireServer = await make_feed_server(test_bus(broker.url))
    room_id, _host = await bot_room(connect, server, seats=3)
    await wait_state(server, room_id, "finished")
    room = server.lobby.rooms[room_id]
    last = room.viewer_seq(None)

    await subscriber.wait_for(lambda: subscriber.on(f"results/{room_id}"), what="the result")
    payloads = check_room_events(subscriber, room)
    assert [p["seq"] for p in payloads] == list(range(1, last + 1))  # complete, in order
    assert payloads[-1]["event"]["type"] == "game_over"

    result = subscriber.on(f"results/{room_id}")[-1]
    assert result.json()["state"] == "finished"
    assert room.game is not None and room.game.outcome is not None
    assert result.json()["outcome"] == room.game.outcome.to_json()
    assert result.json()["seed"] == room.row.seed.hex()  # revealed at the end
    # the log's final hash, signed (issue 32): checked with the server's public key
    signed = result.json()
    assert server.signer is not None
    assert signed["final_hash"] == room.row.final_hash and signed["key_id"] == server.signer.key_id
    assert signing.verify(server.signer.public, room_id, signed["final_hash"], signed["signature"])

    def lobby_shows_finished() -> bool:
        lobby = subscriber.on("lobby")
        return bool(lobby) and any(
            r["room"] == room_id and r["state"] == "finished" for r in lobby[-1].json()["rooms"]
        )

    await subscriber.wait_for(lobby_shows_finished, what="the lobby listing")
    assert subscriber.on("status")[0].json() == {"online": True}
    assert_no_dice_leak(subscriber)

    # retained: a newcomer gets the lobby, the result and the status at once
    late = Subscriber(broker.port)
    await late.start()
    try:
        topics = (f"results/{room_id}", "lobby", "status")
        await late.wait_for(lambda: all(late.on(topic) for topic in topics))
        # the first copy of each is the retained one; a live listing may follow it (the
        # lobby is republished, throttled, whenever a seat or room changes)
        assert all(late.on(topic)[0].retain for topic in topics)
        assert late.on(f"results/{room_id}")[0].json() == result.json()
        assert not late.on(f"rooms/{room_id}/events")
    finally:
        await late.close()
    await subscriber.wait_for(lambda: server.bus.sent >= last + 2, what="acknowledgements")
    assert server.bus.dropped == 0


async def test_policies_private_after_none(
    broker: Broker, subscriber: Subscriber, make_feed_server: Any, connect: Any
) -> None:
    server: UmpireServer = await make_feed_server(test_bus(broker.url))
    after, _ = await bot_room(connect, server, seats=2, spectators="after")
    hidden, _ = await bot_room(connect, server, seats=2, spectators="none")
    private, _ = await bot_room(connect, server, seats=2, public=False)
    live, _ = await bot_room(connect, server, seats=2)
    for room_id in (after, hidden, private, live):
        await wait_state(server, room_id, "finished")
    await subscriber.wait_for(
        lambda: subscriber.on(f"results/{after}") and subscriber.on(f"results/{live}")
    )
    # the bus publishes in order: once a room started now is heard, anything the four
    # published before (a leak too) has been received
    marker, _ = await bot_room(connect, server, seats=2)
    await subscriber.wait_for(lambda: subscriber.on(f"rooms/{marker}/events"), what="the marker")
    topics = {m.topic for m in subscriber.messages}
    assert f"test/rooms/{live}/events" in topics
    assert f"test/rooms/{after}/events" not in topics  # nothing live
    for room_id in (hidden, private):  # nothing at all
        assert not any(room_id in topic for topic in topics), topics
    listed = {r["room"] for r in subscriber.on("lobby")[-1].json()["rooms"]}
    assert private not in listed and live in listed
    invite = server.lobby.rooms[private].invite
    assert invite is not None
    for message in subscriber.messages:
        assert invite not in message.payload.decode()


async def test_kriegspiel_feed_never_names_a_move(
    broker: Broker, subscriber: Subscriber, make_feed_server: Any, connect: Any
) -> None:
    server: UmpireServer = await make_feed_server(test_bus(broker.url))
    white = await connect(server, "white")
    black = await connect(server, "black")
    created = await white.request(
        "create_room", "created", game="kriegspiel", options={"rules": "wild16"}
    )
    room_id = created["room"]
    await black.request("join", "joined", room=room_id)
    room = server.lobby.rooms[room_id]
    rng = random.Random(7)
    clients = [white, black]
    for _ in range(120):
        game = room.game
        assert game is not None
        if game.is_over:
            break
        seat = game.to_move
        assert seat is not None
        attempts = [str(a) for a in game.legal_actions(seat) if re.match(r"^[a-h]\d", str(a))]
        await clients[seat].send(type="act", room=room_id, action=rng.choice(attempts))
        frame = await clients[seat].next()
        while frame["type"] not in ("ack", "error"):
            frame = await clients[seat].next()
    else:
        assert room.game is not None
        seat = room.game.to_move
        assert seat is not None
        await clients[seat].send(type="act", room=room_id, action="resign")
        await clients[seat].expect("ack")
    await wait_state(server, room_id, "finished")
    await subscriber.wait_for(lambda: subscriber.on(f"results/{room_id}"))
    payloads = check_room_events(subscriber, room)
    assert [p["seq"] for p in payloads] == list(range(1, room.viewer_seq(None) + 1))
    secret = room.row.seed.hex()
    for payload in payloads:
        event = payload["event"]
        assert "move" not in event and "board" not in event, event
        if event["type"] not in ("game_over",):
            # a spectator hears only what both players hear: at most a capture square
            assert squares_named(event) <= {event.get("capture")} - {None}, event
            assert secret not in json.dumps(payload)
    # attempts the opponent never heard of (wild16) leave no trace in the public stream
    assert len(payloads) < len(room.log)


async def test_delay_in_moves_holds_events_until_the_end(
    broker: Broker, subscriber: Subscriber, make_feed_server: Any, connect: Any
) -> None:
    bus = test_bus(broker.url, delay=FeedDelay(moves=3))
    server: UmpireServer = await make_feed_server(bus)
    white = await connect(server, "white")
    black = await connect(server, "black")
    created = await white.request("create_room", "created", game="kriegspiel", options={})
    room_id = created["room"]
    await black.request("join", "joined", room=room_id)
    room = server.lobby.rooms[room_id]
    for seat, move in [(0, "e2e4"), (1, "e7e5"), (0, "g1f3"), (1, "b8c6"), (0, "f1c4")]:
        await [white, black][seat].send(type="act", room=room_id, action=move)
        await [white, black][seat].expect("ack")
    await subscriber.wait_for(  # all but the newest three
        lambda: published(subscriber, room_id) == list(range(1, room.viewer_seq(None) - 3 + 1)),
        what="the events older than three moves",
    )
    await black.send(type="act", room=room_id, action="resign")
    await black.expect("ack")
    await subscriber.wait_for(lambda: subscriber.on(f"results/{room_id}"))
    payloads = check_room_events(subscriber, room)
    assert [p["seq"] for p in payloads] == list(range(1, room.viewer_seq(None) + 1))
    # the rest of the stream went out before the result
    events_topic = f"test/rooms/{room_id}/events"
    order = [m.topic for m in subscriber.messages if room_id in m.topic]
    assert order.index(f"test/results/{room_id}") > max(
        i for i, t in enumerate(order) if t == events_topic
    )


async def test_delay_in_seconds(
    broker: Broker, subscriber: Subscriber, make_feed_server: Any, connect: Any
) -> None:
    bus = test_bus(broker.url, delay=FeedDelay(seconds=0.6))
    server: UmpireServer = await make_feed_server(bus)
    white = await connect(server, "white")
    black = await connect(server, "black")
    room_id = (await white.request("create_room", "created", game="kriegspiel", options={}))["room"]
    joined = time.monotonic()  # the game starts, and its opening events are made, after this
    await black.request("join", "joined", room=room_id)
    first = await subscriber.wait_for(lambda: subscriber.on(f"rooms/{room_id}/events"), timeout=3)
    assert first[0].at - joined >= 0.6  # a bound no load can break: never before the delay


async def test_broker_restart_mid_game(
    broker: Broker, subscriber: Subscriber, make_feed_server: Any, connect: Any
) -> None:
    timing = Timing(grace=30, autopilot_delay=0.03, finished_ttl=30)
    server: UmpireServer = await make_feed_server(test_bus(broker.url), timing=timing)
    room_id, _ = await bot_room(connect, server, seats=4)
    await subscriber.wait_for(lambda: len(subscriber.on(f"rooms/{room_id}/events")) >= 5)
    room = server.lobby.rooms[room_id]
    assert room.state == "playing"
    broker.stop()
    stopped_at = room.viewer_seq(None)
    await eventually(lambda: room.viewer_seq(None) > stopped_at, what="play without a broker")
    assert room.state == "playing"  # never stalled
    broker.start()
    await wait_state(server, room_id, "finished", timeout=30)
    await subscriber.wait_for(lambda: subscriber.on(f"results/{room_id}"), timeout=10)
    payloads = check_room_events(subscriber, room)
    seqs = [p["seq"] for p in payloads]
    assert seqs[-1] == room.viewer_seq(None)  # the feed resumed up to the end
    assert max(seqs) > stopped_at
    assert isinstance(server.bus, MqttBus) and server.bus.reconnects >= 1
    assert_no_dice_leak(subscriber)


async def test_broker_down_buffer_drops_oldest_and_games_go_on(
    broker_off: Broker, make_feed_server: Any, connect: Any, caplog: pytest.LogCaptureFixture
) -> None:
    bus = test_bus(broker_off.url, max_buffer=5)
    server: UmpireServer = await make_feed_server(bus)
    with caplog.at_level(logging.WARNING, logger="server.feed.bus"):
        room_id, _ = await bot_room(connect, server, seats=3)
        await wait_state(server, room_id, "finished")
    assert bus.dropped > 0 and bus.queued <= 5 + 1  # the buffer and the lobby slot
    assert any("buffer full" in r.getMessage() for r in caplog.records)
    room = server.lobby.rooms[room_id]
    # the broker comes up: what is left in the buffer (the newest) goes out
    broker_off.start()
    sub = Subscriber(broker_off.port)
    await sub.start()
    try:
        await sub.wait_for(lambda: sub.on(f"results/{room_id}"), timeout=10)
        assert sub.on(f"results/{room_id}")[-1].json()["seq"] == room.viewer_seq(None)
    finally:
        await sub.close()


async def test_standings_are_retained(broker: Broker, subscriber: Subscriber) -> None:
    bus = test_bus(broker.url)
    await bus.start()
    try:
        bus.standings("spring cup/2026", {"rows": [{"bot": "a", "mu": 27.1}]})
        topic = "tournaments/spring-cup-2026/standings"
        await subscriber.wait_for(lambda: subscriber.on(topic))
        assert subscriber.on(topic)[0].json()["standings"]["rows"][0]["bot"] == "a"
    finally:
        await bus.close()


@pytest.mark.allow_errors  # the last record is an error on purpose
def test_a_lost_broker_socket_is_a_warning_and_other_client_errors_stay_errors(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """paho logs a reset socket at ERROR; the feed reconnects, so the server says WARNING."""
    from server.feed.bus import client_log

    with caplog.at_level(logging.DEBUG, logger=client_log.name):
        client_log.error("failed to receive on socket: %s", ConnectionResetError(104, "reset"))
        client_log.error("timeout on socket: %s", TimeoutError())
        client_log.error("Caught exception in on_publish: %s", ValueError("bug"))
    levels = [(r.getMessage().split(":")[0], r.levelname) for r in caplog.records]
    assert levels == [
        ("failed to receive on socket", "WARNING"),
        ("timeout on socket", "WARNING"),
        ("Caught exception in on_publish", "ERROR"),
    ]
