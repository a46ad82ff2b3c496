"""Every error code and every limit, over real sockets."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from server.net.app import Limits, UmpireServer
from server.wire.protocol import ERROR_CODES
from tests.eventually import eventually
from tests.server.wsclient import RawSocket, WsClient

TESTED: set[str] = set()


async def expect_error(client: WsClient, code: str, **fields: Any) -> dict[str, Any]:
    frame = await client.error(code)
    assert frame["message"]
    for key, value in fields.items():
        assert frame.get(key) == value, frame
    TESTED.add(code)
    return frame


async def mover(room: str, *clients: WsClient) -> WsClient:
    """The client whose seat is to move in ``room``: the one that gets a ``turn`` frame."""
    waits = {asyncio.ensure_future(c.expect("turn", room=room)): c for c in clients}
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    (first,) = done
    first.result()
    return waits[first]


async def new_room(client: WsClient, **create: Any) -> str:
    create.setdefault("game", "perudo")
    create.setdefault("options", {"seats": 2})
    return str((await client.request("create_room", "created", **create))["room"])


async def test_malformed_traffic(connect: Any) -> None:
    c = await connect(None)
    await c.send_raw("{")
    await expect_error(c, "bad_json")
    await c.send_raw(b'{"type": "ping"}')
    await expect_error(c, "bad_json")
    await c.send_raw("[1, 2]")
    await expect_error(c, "bad_json")
    await c.send(type="ping", ref=7)
    await expect_error(c, "hello_required", ref=7)
    await c.send(type="teleport", ref="x")
    await expect_error(c, "unknown_type", ref="x")
    await c.send(type="hello", name="ana")
    await expect_error(c, "bad_message")
    await c.send(type="hello", v=1, name="ana", colour="red")
    await expect_error(c, "bad_message")
    await c.send(type="hello", v=99, name="ana")
    await expect_error(c, "version")
    for name in ("", "x" * 33, "a\x07b", "n" * 5000):
        await c.send(type="hello", v=1, name=name)
        await expect_error(c, "bad_name")
    await c.send(type="hello", v=1, name="ana", token="not-a-token")
    await expect_error(c, "bad_token")
    await c.hello("ana")
    await c.send(type="hello", v=1, name="ana")
    await expect_error(c, "already_hello")
    assert (await c.request("ping", "pong", ref=3))["ref"] == 3


async def test_lobby_and_room_errors(server: UmpireServer, connect: Any) -> None:
    a = await connect("ana")
    b = await connect("bob")
    c = await connect("cid")
    await a.send(type="create_room", game="chess")
    await expect_error(a, "bad_options")
    await a.send(type="list_rooms", game="chess")
    await expect_error(a, "bad_options")
    await a.send(type="create_room", game="perudo", options={"seats": 99})
    await expect_error(a, "bad_options")
    await a.send(type="create_room", game="kriegspiel", turn_time=10)
    await expect_error(a, "bad_options")
    await b.send(type="join", room="nope")
    await expect_error(b, "no_such_room")
    await b.send(type="profile", player="nobody")
    await expect_error(b, "no_such_player")

    room = await new_room(a, options={"seats": 3}, autostart=False)
    await a.send(type="join", room=room, seat=1)
    await expect_error(a, "already_seated", room=room)
    await b.send(type="join", room=room, seat=0)
    await expect_error(b, "seat_taken")
    await b.send(type="join", room=room, seat=7)
    await expect_error(b, "seat_taken")
    await b.request("join", "joined", room=room)
    await c.request("join", "joined", room=room)
    d = await connect("dan")
    await d.send(type="join", room=room)
    await expect_error(d, "room_full")
    await a.send(type="act", room=room, action="1x2")
    await expect_error(a, "bad_state")
    await b.send(type="start", room=room)
    await expect_error(b, "not_host")
    await b.send(type="add_bot", room=room)
    await expect_error(b, "not_host")
    await a.request("start", "started", room=room)
    await a.send(type="start", room=room)
    await expect_error(a, "bad_state")
    await d.send(type="join", room=room)
    await expect_error(d, "bad_state")

    to_move = await mover(room, a, b, c)
    other = next(x for x in (a, b, c) if x is not to_move)
    await other.send(type="act", room=room, action="1x2")
    await expect_error(other, "not_your_turn")
    await to_move.send(type="act", room=room, action="bid high")
    await expect_error(to_move, "malformed")
    await to_move.send(type="act", room=room, action="1x1")
    await expect_error(to_move, "illegal")
    await d.send(type="act", room=room, action="1x2")
    await expect_error(d, "not_seated")
    await a.send(type="act", room=room, action="1x2", seat=1)
    await expect_error(a, "not_your_seat")
    await to_move.send(type="act", room=room, action="forfeit:timeout")
    await expect_error(to_move, "malformed")


async def test_spectator_policies_and_private_rooms(server: UmpireServer, connect: Any) -> None:
    a = await connect("ana")
    b = await connect("bob")
    watcher = await connect("wes")
    closed = await new_room(a, spectators="none")
    await watcher.send(type="watch", room=closed)
    await expect_error(watcher, "no_spectators")
    later = await new_room(a, spectators="after")
    await b.request("join", "joined", room=later)
    await watcher.send(type="watch", room=later)
    await expect_error(watcher, "no_spectators")
    # a private room is invisible without its invite
    created = await a.request(
        "create_room", "created", game="perudo", options={"seats": 2}, public=False
    )
    assert created["invite"]
    rooms = await watcher.request("list_rooms", "rooms")
    assert created["room"] not in {r["room"] for r in rooms["rooms"]}
    await watcher.send(type="watch", room=created["room"])
    await expect_error(watcher, "no_such_room")
    await watcher.send(type="join", invite="wrong")
    await expect_error(watcher, "no_such_room")
    joined = await watcher.request("join", "joined", invite=created["invite"])
    assert joined["room"] == created["room"]


async def test_unsupported_and_room_limits(make_server: Any, connect: Any) -> None:
    server = await make_server(limits=Limits(rate=1000, burst=1000, max_rooms_per_player=2))
    a = await connect("ana", port=server.port)
    room = await new_room(a, game="kriegspiel", options={})
    await a.send(type="add_bot", room=room)
    await expect_error(a, "unsupported")
    await a.send(type="add_bot", room=room, bot="deep_blue")
    await expect_error(a, "unsupported")
    await new_room(a)
    await a.send(type="create_room", game="perudo")
    await expect_error(a, "too_many_rooms")


async def test_actions_after_the_end_and_the_sequence_check(
    server: UmpireServer, connect: Any
) -> None:
    a = await connect("ana")
    b = await connect("bob")
    room = await new_room(a, game="kriegspiel", options={})
    await b.request("join", "joined", room=room)
    await a.send(type="act", room=room, action="resign")
    await a.expect("ack")
    await b.send(type="act", room=room, action="e7e5")
    await expect_error(b, "game_over")
    await b.send(type="resume", room=room, since=99)
    await expect_error(b, "bad_seq", room=room)


async def test_kriegspiel_repeated_attempt(server: UmpireServer, connect: Any) -> None:
    a = await connect("ana")
    b = await connect("bob")
    room = await new_room(a, game="kriegspiel", options={"rules": "cincinnati"})
    await b.request("join", "joined", room=room)
    await a.send(type="act", room=room, action="e2e5")
    await a.expect("ack")
    await a.send(type="act", room=room, action="e2e5")
    await expect_error(a, "repeated")


@pytest.mark.allow_errors
async def test_an_engine_crash_aborts_only_its_room(
    server: UmpireServer, connect: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = await connect("ana")
    b = await connect("bob")
    doomed = await new_room(a)
    await b.request("join", "joined", room=doomed)
    healthy = await new_room(b)
    await a.request("join", "joined", room=healthy)
    game = server.lobby.rooms[doomed].game
    assert game is not None

    def explode(*_: Any) -> Any:
        raise RuntimeError("engine bug")

    monkeypatch.setattr(game, "apply", explode)
    to_move = await mover(doomed, a, b)
    await to_move.send(type="act", room=doomed, action="1x2")
    await expect_error(to_move, "aborted", room=doomed)
    for c in (a, b):
        aborted = await c.expect("event", room=doomed)
        while aborted["event"]["type"] != "aborted":
            aborted = await c.expect("event", room=doomed)
        assert aborted["event"]["reason"] == "internal_error"  # a code (protocol.md)
    await to_move.send(type="act", room=doomed, action="1x2")
    await expect_error(to_move, "aborted")
    rows = await server.store.games(["aborted"])
    assert [r.id for r in rows] == [doomed]
    # the other room plays on
    player = await mover(healthy, a, b)
    await player.send(type="act", room=healthy, action="1x2")
    await player.expect("ack", room=healthy)


@pytest.mark.allow_errors
async def test_a_handler_crash_closes_with_1011_and_the_server_serves_on(
    server: UmpireServer, connect: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = await connect("ana")

    async def crash(*_: Any) -> Any:
        raise RuntimeError("handler bug")

    monkeypatch.setattr(server, "_profile", crash)
    await a.send(type="profile")
    await expect_error(a, "internal")
    code, _ = await a.closed()
    assert code == 1011
    monkeypatch.undo()
    b = await connect("bob")
    assert (await b.request("profile", "profile"))["player"]["name"] == "bob"


async def test_rate_limit_then_abuse_closes_with_1008(make_server: Any) -> None:
    server = await make_server(limits=Limits(rate=1, burst=3, abuse_limit=4, abuse_decay=0))
    c = await WsClient.open(server.port)
    try:
        await c.hello("ana")
        for _ in range(2):
            await c.request("ping", "pong")
        await c.send(type="ping")
        await expect_error(c, "rate_limited")
        for _ in range(6):
            await c.send(type="ping")
        code, reason = await c.closed()
        assert code == 1008 and "bad messages" in (reason or "")
    finally:
        await c.close()


async def test_garbage_closes_with_1008(connect: Any) -> None:
    c = await connect(None)
    for _ in range(12):
        await c.send_raw("garbage")
    code, _ = await c.closed()
    assert code == 1008


async def test_oversize_frame_closes_with_1009(make_server: Any) -> None:
    server = await make_server(limits=Limits(max_frame=1024))
    c = await WsClient.open(server.port)
    await c.send(type="hello", v=1, name="x" * 2000)
    code, _ = await c.closed()
    assert code == 1009


async def test_connections_per_address(make_server: Any) -> None:
    server = await make_server(limits=Limits(max_connections_per_address=2))
    first = [await WsClient.open(server.port) for _ in range(2)]
    third = await WsClient.open(server.port)
    await expect_error(third, "too_many_connections")
    code, _ = await third.closed()
    assert code == 1008
    await first[0].close()

    async def admitted() -> WsClient | None:
        """A new connection, if the server has freed the closed one's slot by now."""
        client = await WsClient.open(server.port)
        try:
            await client.hello("dee")
        except (AssertionError, ConnectionClosed):  # too_many_connections: not yet
            await client.close()
            return None
        return client

    fourth = await eventually(admitted, what="a freed slot")
    for c in [*first, fourth]:
        await c.close()


async def test_idle_connections_are_closed(make_server: Any) -> None:
    server = await make_server(limits=Limits(idle_timeout=0.2))
    c = await WsClient.open(server.port)
    code, reason = await c.closed()
    assert code == 1000 and reason == "idle timeout"


async def test_a_connection_that_keeps_talking_is_not_idle(make_server: Any) -> None:
    """Every message puts the idle deadline back; silence after the last one closes."""
    server = await make_server(limits=Limits(idle_timeout=0.3))
    c = await WsClient.open(server.port)
    await c.hello("ana")
    loop = asyncio.get_running_loop()
    start = loop.time()
    last = start
    n = 0
    while loop.time() < start + 1.0:  # over three idle timeouts of traffic
        n += 1
        await c.send(type="ping", ref=n)
        assert (await c.expect("pong"))["ref"] == n
        last = loop.time()
        await asyncio.sleep(0.1)  # pacing: a message every 0.1 s, within the timeout
    code, reason = await c.closed()
    assert code == 1000 and reason == "idle timeout"
    assert loop.time() - last >= 0.3 - 0.05  # closed for the silence after the last ping


async def test_keepalive_pings_are_answered(make_server: Any) -> None:
    """The server pings; a client that answers stays connected past the ping timeout."""
    server = await make_server(limits=Limits(ping_interval=0.05, ping_timeout=0.3))
    raw = await RawSocket.open(server.port)
    loop = asyncio.get_running_loop()
    first = None
    pings = 0
    try:
        async with asyncio.timeout(5):
            # answer pings until they have spanned more than two ping timeouts
            while first is None or loop.time() - first < 0.7:
                opcode, payload = await raw.read_frame()
                assert opcode == 0x9, (opcode, payload)  # nothing but pings so far
                raw.send_frame(0xA, payload)
                pings += 1
                first = first if first is not None else loop.time()
        assert pings >= 3
        raw.send_text('{"type":"hello","v":1,"name":"ana","ref":1}')
        async with asyncio.timeout(5):
            while True:
                opcode, payload = await raw.read_frame()
                if opcode == 0x9:
                    raw.send_frame(0xA, payload)
                    continue
                assert opcode == 0x1, (opcode, payload)
                assert json.loads(payload)["type"] == "welcome"
                break
    finally:
        raw.close()


async def test_busy_when_too_many_hints_are_being_worked_out(
    server: UmpireServer, connect: Any
) -> None:
    a = await connect("ana")
    b = await connect("bob")
    room = await new_room(a)
    await b.request("join", "joined", room=room)
    # every hint is one too many (tests/server/test_hints.py: the other limits)
    server.house.max_hints = 0
    await a.send(type="hint", room=room, ref=4)
    await expect_error(a, "busy", ref=4, room=room)


async def test_account_errors(connect: Any) -> None:
    """(tests/server/test_accounts*.py test accounts in depth.)"""
    ana = await connect("ana")
    await ana.send(type="register", password="short")
    await expect_error(ana, "bad_password")
    await ana.send(type="create_bot", name="AnaBot")
    await expect_error(ana, "account_required")
    await ana.request("register", "account", password="long enough")
    bob = await connect("bob")
    await bob.send(type="register", password="long enough", name="ANA")
    await expect_error(bob, "name_taken")
    await bob.send(type="login", v=1, name="ana", password="not the one")
    await expect_error(bob, "bad_login")


async def test_a_rated_rooms_seats_are_for_accounts(connect: Any) -> None:
    ana = await connect("ana")
    await ana.request("register", "account", password="correct horse battery")
    gus = await connect("gus")
    room = await new_room(ana, game="kriegspiel", options={}, rated=True)
    await gus.send(type="join", room=room)
    await expect_error(gus, "account_required")
    await gus.send(type="create_room", game="kriegspiel", rated=True)
    await expect_error(gus, "account_required")


async def test_seek_errors(connect: Any) -> None:
    """(tests/server/test_seeks.py tests seeks in depth.)"""
    ana, bob = await connect("ana"), await connect("bob")
    await bob.send(type="cancel_seek", seek="nope")
    await expect_error(bob, "no_such_seek")
    ks = {"game": "kriegspiel", "options": {"rules": "wild16"}}
    first = await ana.request("seek", "seek_added", **ks, rating_range=[1700, 1800])
    await bob.send(type="take_seek", seek=first["seek"]["id"])
    await expect_error(bob, "rating_range")
    for _ in range(4):
        await ana.request("seek", "seek_added", game="perudo", seats=3)
    await ana.send(type="seek", **ks)
    await expect_error(ana, "too_many_seeks")


async def test_tournament_errors(connect: Any) -> None:
    ana = await connect("ana")
    await ana.send(type="tournament", tournament="nope")
    await expect_error(ana, "no_such_tournament")
    await ana.send(type="create_tournament", game="perudo", format="arena")
    await expect_error(ana, "bad_options")  # an arena needs a duration
    made = await ana.request("create_tournament", "tournament", game="perudo", format="swiss")
    tid = made["tournament"]["id"]
    bob = await connect("bob")
    await bob.send(type="start_tournament", tournament=tid)
    await expect_error(bob, "not_host")
    await ana.send(type="start_tournament", tournament=tid)
    await expect_error(ana, "bad_state")  # fewer than two entrants
    await bob.send(type="join_tournament", tournament=tid, bot="perudo-random")
    await expect_error(bob, "not_host")
    await ana.send(type="join_tournament", tournament=tid, bot="kriegspiel-random")
    await expect_error(ana, "unsupported")


async def test_store_errors(server: UmpireServer, connect: Any) -> None:
    """(tests/server/test_disk_full.py tests a full disk in depth.)"""
    from tests.server.test_disk_full import DiskFull

    ana, bob = await connect("ana"), await connect("bob")
    room = await new_room(ana)
    await ana.request("join", "joined", room=room)
    await bob.request("join", "joined", room=room)
    first = await mover(room, ana, bob)
    full = DiskFull()
    server.store.before_commit = full
    full.full = True
    await first.send(type="say", room=room, text="hello")
    await first.expect("paused", room=room)
    other = bob if first is ana else ana  # (the first one's line waits for its write)
    await other.expect("paused", room=room)
    await other.send(type="say", room=room, text="again")
    await expect_error(other, "paused", room=room)
    zoe = await connect(None)
    zoe.core.name = "zoe"
    await zoe.send(**zoe.core.hello_message())
    await expect_error(zoe, "unavailable")
    full.full = False
    await first.expect("paused", room=room, paused=False)


def test_every_error_code_is_tested() -> None:
    """Runs last in this module: every documented code was seen on the wire."""
    untested = set(ERROR_CODES) - TESTED
    assert not untested, sorted(untested)


async def test_a_client_that_never_answers_pings_is_dropped(make_server: Any) -> None:
    server = await make_server(limits=Limits(ping_interval=0.1, ping_timeout=0.2))
    raw = await RawSocket.open(server.port)
    raw.send_text('{"type":"hello","v":1,"name":"mute"}')
    await raw.writer.drain()
    # the raw client reads nothing and answers no ping: closed after about 0.3 s
    assert await raw.closed_within(3.0)
    raw.close()
