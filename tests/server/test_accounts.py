"""Accounts over real sockets: register (claim), log in from another connection, log out
(and everywhere), change the password, session expiry, bot accounts and their API tokens,
``bot_version``. The hostile logins are in test_accounts_hostile.py."""

from __future__ import annotations

from typing import Any

import pytest

from server.net.app import UmpireServer
from server.players.accounts import MAX_BOTS
from tests.eventually import eventually
from tests.server.accounts_kit import DAY, Rig
from tests.server.conftest import ServerFactory
from tests.server.wsclient import WsClient

PASSWORD = "correct horse battery"


@pytest.fixture
async def rig(make_server: ServerFactory) -> Rig:
    server: UmpireServer = await make_server()
    return Rig(server)


async def open_client(rig: Rig, **kwargs: Any) -> WsClient:
    return await WsClient.open(rig.server.port, **kwargs)


async def guest(rig: Rig, name: str) -> WsClient:
    client = await open_client(rig)
    await client.hello(name)
    return client


async def account(rig: Rig, name: str, password: str = PASSWORD) -> WsClient:
    """A connection whose guest registered as ``name``."""
    client = await guest(rig, name)
    claimed = await client.request("register", "account", password=password)
    assert claimed["player"]["kind"] == "account"
    return client


async def login(rig: Rig, name: str, password: str = PASSWORD, **extra: Any) -> WsClient:
    client = await open_client(rig)
    await client.send(type="login", v=1, name=name, password=password, **extra)
    welcome = await client.expect("welcome")
    assert welcome["token"]
    return client


async def test_a_guest_claims_its_name_and_logs_in_elsewhere(rig: Rig) -> None:
    ana = await guest(rig, "Ana")
    guest_id = ana.player["id"]
    assert ana.player["kind"] == "guest"
    claimed = await ana.request("register", "account", password=PASSWORD)
    assert claimed["player"] == {"id": guest_id, "name": "Ana", "bot": False, "kind": "account"}
    # another device: the same player, with a new session token
    other = await open_client(rig)
    await other.send(type="login", v=1, name="ana", password=PASSWORD, ref=1)
    welcome = await other.expect("welcome", ref=1)
    assert welcome["player"] == claimed["player"]
    assert welcome["token"] and welcome["token"] != ana.token
    # the session token says hello on a third; the stored name wins, a name may be left out
    third = await open_client(rig)
    await third.send(type="hello", v=1, token=welcome["token"])
    assert (await third.expect("welcome"))["player"]["name"] == "Ana"
    fourth = await open_client(rig)
    await fourth.send(type="hello", v=1, name="Someone Else", token=welcome["token"])
    assert (await fourth.expect("welcome"))["player"]["name"] == "Ana"
    # the guest's own token is a session of the account now
    fifth = await open_client(rig)
    await fifth.send(type="hello", v=1, name="Ana", token=ana.token)
    assert (await fifth.expect("welcome"))["player"]["kind"] == "account"
    profile = await fifth.request("profile", "profile")
    assert profile["player"]["kind"] == "account"


async def test_register_under_another_name(rig: Rig) -> None:
    client = await guest(rig, "temp")
    claimed = await client.request("register", "account", password=PASSWORD, name="Bea")
    assert claimed["player"]["name"] == "Bea"
    await login(rig, "BEA")


async def test_a_guests_games_become_the_accounts(rig: Rig) -> None:
    host = await guest(rig, "cleo")
    room = (
        await host.request("create_room", "created", game="perudo", options={"seats": 2}, sit=True)
    )["room"]
    await host.request("register", "account", password=PASSWORD)
    again = await login(rig, "cleo")
    seats = again.frames[0]["seats"]
    assert [s["room"] for s in seats] == [room]


async def test_login_after_a_guest_hello_leaves_the_guests_rooms(rig: Rig) -> None:
    await account(rig, "dora")
    client = await guest(rig, "visitor")
    room = (await client.request("create_room", "created", game="perudo", sit=True))["room"]
    await client.send(type="login", v=1, name="dora", password=PASSWORD)
    welcome = await client.expect("welcome")
    assert welcome["player"]["name"] == "dora" and welcome["seats"] == []
    connection = next(c for c in rig.server._live[welcome["player"]["id"]])
    assert not connection.rooms
    assert all(connection not in r.viewers for r in rig.server.lobby.rooms.values())
    assert room in rig.server.lobby.rooms
    # an account cannot log in again on the same connection
    await client.send(type="login", v=1, name="dora", password=PASSWORD)
    await client.error("already_hello")


async def test_logout_revokes_the_token_and_closes_the_connection(rig: Rig) -> None:
    await account(rig, "emil")
    first = await login(rig, "emil")
    second = await login(rig, "emil")
    token = first.token
    out = await first.request("logout", "logged_out", ref=9)
    assert out == {"type": "logged_out", "revoked": 1, "ref": 9}
    assert await first.closed() == (1000, "logged out")
    assert second.ws.close_code is None
    again = await open_client(rig)
    await again.send(type="hello", v=1, token=token)
    await again.error("bad_token")
    assert (await second.request("ping", "pong"))["type"] == "pong"


async def test_logout_everywhere(rig: Rig) -> None:
    owner = await account(rig, "fay")  # its guest token is one session
    phones = [await login(rig, "fay") for _ in range(2)]
    made = await phones[0].request("create_bot", "bot_account", name="FayBot")
    bot = await open_client(rig)
    await bot.send(type="hello", v=1, token=made["token"], bot=True)
    await bot.expect("welcome")
    bystander = await account(rig, "gus")
    out = await phones[0].request("logout", "logged_out", everywhere=True)
    assert out["revoked"] == 3
    for client in (phones[0], phones[1], owner):
        assert (await client.closed())[0] == 1000
    # bots' API tokens and other accounts are untouched
    assert (await bot.request("ping", "pong"))["type"] == "pong"
    assert (await bystander.request("ping", "pong"))["type"] == "pong"
    for token in (owner.token, phones[1].token):
        late = await open_client(rig)
        await late.send(type="hello", v=1, token=token)
        await late.error("bad_token")
    again = await open_client(rig)
    await again.send(type="hello", v=1, token=made["token"], bot=True)
    assert (await again.expect("welcome"))["player"]["kind"] == "bot"


async def test_change_password_revokes_the_other_sessions(rig: Rig) -> None:
    client = await account(rig, "hal", "old password")
    other = await login(rig, "hal", "old password")
    await client.send(type="change_password", old="wrong password", new="new password")
    await client.error("bad_login")
    await client.send(type="change_password", old="old password", new="short")
    await client.error("bad_password")
    changed = await client.request(
        "change_password", "account", old="old password", new="new password"
    )
    assert changed["player"]["name"] == "hal"
    assert (await other.closed())[0] == 1000
    late = await open_client(rig)
    await late.send(type="hello", v=1, token=other.token)
    await late.error("bad_token")
    still = await open_client(rig)
    await still.send(type="hello", v=1, token=client.token)  # this session is kept
    await still.expect("welcome")
    bad = await open_client(rig)
    await bad.send(type="login", v=1, name="hal", password="old password")
    await bad.error("bad_login")
    await login(rig, "hal", "new password")


async def test_an_idle_session_expires_and_a_used_one_does_not(rig: Rig) -> None:
    await account(rig, "ines")
    used = await login(rig, "ines")
    idle = await login(rig, "ines")
    guest_token = (await guest(rig, "passer-by")).token
    for _ in range(3):  # used every 20 days: alive after 60
        rig.wall.advance(20 * DAY)
        client = await open_client(rig)
        await client.send(type="hello", v=1, token=used.token)
        await client.expect("welcome")
    client = await open_client(rig)
    await client.send(type="hello", v=1, token=idle.token)
    error = await client.error("bad_token")
    assert "expired" in error["message"]
    await client.send(type="hello", v=1, token=idle.token)  # and it is gone for good
    assert "expired" not in (await client.error("bad_token"))["message"]
    await client.send(type="hello", v=1, name="passer-by", token=guest_token)
    await client.expect("welcome")  # guests never expire


async def test_session_idle_days_is_configurable(make_server: ServerFactory) -> None:
    rig = Rig(await make_server(session_idle_days=1.0))
    await account(rig, "jo")
    session = await login(rig, "jo")
    rig.wall.advance(1.5 * DAY)
    client = await open_client(rig)
    await client.send(type="hello", v=1, token=session.token)
    await client.error("bad_token")


async def test_bot_accounts_and_their_tokens(rig: Rig) -> None:
    owner = await account(rig, "kim")
    made = await owner.request("create_bot", "bot_account", name="KimBot")
    bot_info = made["player"]
    assert bot_info["kind"] == "bot" and bot_info["bot"] and bot_info["name"] == "KimBot"
    listed = await owner.request("list_bots", "bot_accounts")
    assert listed["bots"] == [bot_info]
    bot = await open_client(rig)
    await bot.send(type="hello", v=1, token=made["token"], bot=True, bot_version="2.1.0")
    welcome = await bot.expect("welcome")
    assert welcome["player"] == bot_info
    (connection,) = rig.server._live[bot_info["id"]]
    assert connection.player is not None and connection.player.version == "2.1.0"
    # a bot account has no password: it cannot log in by name
    nope = await open_client(rig)
    await nope.send(type="login", v=1, name="KimBot", password=PASSWORD)
    await nope.error("bad_login")
    # a new token revokes the old one and closes its connection
    renewed = await owner.request("bot_token", "bot_account", bot=bot_info["id"])
    assert renewed["token"] != made["token"]
    assert (await bot.closed())[0] == 1000
    late = await open_client(rig)
    await late.send(type="hello", v=1, token=made["token"], bot=True)
    await late.error("bad_token")
    fresh = await open_client(rig)
    await fresh.send(type="hello", v=1, token=renewed["token"], bot=True, bot_version="2.2.0")
    await fresh.expect("welcome")
    # API tokens never expire
    rig.wall.advance(400 * DAY)
    later = await open_client(rig)
    await later.send(type="hello", v=1, token=renewed["token"], bot=True)
    await later.expect("welcome")


async def test_bot_accounts_are_an_accounts_and_limited(rig: Rig) -> None:
    owner = await account(rig, "lea")
    other = await account(rig, "max")
    made = await owner.request("create_bot", "bot_account", name="LeaBot")
    await other.send(type="bot_token", bot=made["player"]["id"])
    await other.error("no_such_player")
    await other.send(type="bot_token", bot=other.player["id"])
    await other.error("no_such_player")
    assert (await other.request("list_bots", "bot_accounts"))["bots"] == []
    for i in range(1, MAX_BOTS):
        await owner.request("create_bot", "bot_account", name=f"LeaBot{i}")
    await owner.send(type="create_bot", name="OneTooMany")
    error = await owner.error("bad_state")
    assert str(MAX_BOTS) in error["message"]
    assert len((await owner.request("list_bots", "bot_accounts"))["bots"]) == MAX_BOTS


async def test_the_server_forgets_closed_connections(rig: Rig) -> None:
    client = await account(rig, "ned")
    player = client.player["id"]
    assert player in rig.server._live
    await client.close()
    await eventually(lambda: player in rig.server._live, equals=False, what="the live map")
    assert not rig.server._signed or all(
        c.player is None or c.player.id != player for c in rig.server._signed
    )


def test_umpire_serve_takes_session_idle_days() -> None:
    from server.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["serve"]).session_idle_days == 30.0
    assert parser.parse_args(["serve", "--session-idle-days", "7.5"]).session_idle_days == 7.5
    for bad in ("0", "-1", "nan", "inf", "x"):
        with pytest.raises(SystemExit):
            parser.parse_args(["serve", "--session-idle-days", bad])


async def test_accounts_on_postgresql(make_server: ServerFactory, pg_dsn: str) -> None:
    """The same flows on a PostgreSQL store (the server then runs as a cluster node)."""
    rig = Rig(await make_server(db=pg_dsn))
    ana = await account(rig, "Ana")
    phone = await login(rig, "ＡＮＡ")
    assert phone.player["id"] == ana.player["id"]
    taken = await open_client(rig)
    await taken.send(type="hello", v=1, name="ana")
    await taken.error("name_taken")
    made = await phone.request("create_bot", "bot_account", name="AnaBot")
    bot = await open_client(rig)
    await bot.send(type="hello", v=1, token=made["token"], bot=True, bot_version="1")
    await bot.expect("welcome")
    rig.wall.advance(31 * DAY)
    stale = await open_client(rig)
    await stale.send(type="hello", v=1, token=ana.token)
    await stale.error("bad_token")
    rig.wall.advance(-31 * DAY)
    out = await phone.request("logout", "logged_out", everywhere=True)
    assert out["revoked"] == 1  # the phone's session (the expired one is gone already)
    assert (await ana.closed())[0] == 1000
    again = await open_client(rig)
    await again.send(type="hello", v=1, token=made["token"], bot=True)
    await again.expect("welcome")


async def test_logout_closes_every_connection_using_the_revoked_token(rig: Rig) -> None:
    await account(rig, "tabs")
    first = await login(rig, "tabs")
    tab = await open_client(rig)  # another tab: the same session token
    await tab.send(type="hello", v=1, token=first.token)
    await tab.expect("welcome")
    other = await login(rig, "tabs")  # another session: kept
    out = await first.request("logout", "logged_out")
    assert out["revoked"] == 1
    assert await first.closed() == (1000, "logged out")
    assert await tab.closed() == (1000, "logged out")
    assert (await other.request("ping", "pong"))["type"] == "pong"


async def test_change_password_closes_exactly_the_revoked_sessions(rig: Rig) -> None:
    client = await account(rig, "ivy", "old password")
    twin = await open_client(rig)  # the same (kept) token on another connection
    await twin.send(type="hello", v=1, token=client.token)
    await twin.expect("welcome")
    other = await login(rig, "ivy", "old password")
    await client.request("change_password", "account", old="old password", new="new password")
    assert (await other.closed())[0] == 1000
    assert (await twin.request("ping", "pong"))["type"] == "pong"
    assert (await client.request("ping", "pong"))["type"] == "pong"


async def test_every_connection_of_a_guest_that_registers_becomes_the_account(rig: Rig) -> None:
    first = await guest(rig, "twin")
    second = await open_client(rig)
    await second.send(type="hello", v=1, name="twin", token=first.token)
    await second.expect("welcome")
    await first.request("register", "account", password=PASSWORD)
    await second.send(type="register", password=PASSWORD)
    error = await second.error("bad_state")  # not a crash of its handler
    assert "account" in error["message"]
    assert second.ws.close_code is None
    host = await account(rig, "host")
    room = (await host.request("create_room", "created", game="kriegspiel", rated=True, sit=False))[
        "room"
    ]
    await second.request("join", "joined", room=room)  # an account: not account_required
    live = rig.server._live[first.player["id"]]
    assert len(live) == 2
    assert all(c.player is not None and c.player.kind == "account" for c in live)


async def test_a_bot_account_is_told_it_cannot_register(rig: Rig) -> None:
    owner = await account(rig, "maker")
    made = await owner.request("create_bot", "bot_account", name="MakerBot")
    bot = await open_client(rig)
    await bot.send(type="hello", v=1, token=made["token"], bot=True)
    await bot.expect("welcome")
    await bot.send(type="register", password=PASSWORD)
    error = await bot.error("bad_state")
    assert "bot account" in error["message"]


async def test_a_profile_always_carries_its_ratings_even_none(rig: Rig) -> None:
    client = await guest(rig, "newbie")
    profile = await client.request("profile", "profile")
    assert profile["ratings"] == []  # (sent even when empty: docs/protocol.md)
