"""Hostile logins over real sockets: enumeration by the answer's text or by the work
done (hasher calls are counted, time never is), rate limits per address and per account
(fake clocks; the addresses are distinct loopback addresses), password bounds, revoked
and expired tokens, names that only look different, guests taking an account's name, and
garbage in every field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server.net.app import UmpireServer
from server.players.throttle import PER_ACCOUNT, PER_ADDRESS
from tests.server.accounts_kit import DAY, Rig
from tests.server.conftest import ServerFactory
from tests.server.wsclient import WsClient

PASSWORD = "correct horse battery"


@pytest.fixture
async def rig(make_server: ServerFactory) -> Rig:
    server: UmpireServer = await make_server()
    return Rig(server)


async def open_client(rig: Rig, address: str = "127.0.0.1") -> WsClient:
    return await WsClient.open(rig.server.port, local_addr=(address, 0))


async def register(rig: Rig, name: str, password: str = PASSWORD) -> WsClient:
    client = await open_client(rig)
    await client.hello(name)
    await client.request("register", "account", password=password)
    return client


async def attempt(client: WsClient, name: Any, password: Any) -> dict[str, Any]:
    """One login; its answer (a ``welcome`` or an ``error``)."""
    await client.send(type="login", v=1, name=name, password=password)
    frame = await client.next()
    assert frame["type"] in ("welcome", "error"), frame
    return frame


async def test_a_wrong_name_and_a_wrong_password_look_the_same(rig: Rig) -> None:
    await register(rig, "alice")
    made = await (await open_client(rig)).hello("bob")
    assert made
    owner = await register(rig, "carol")
    await owner.request("create_bot", "bot_account", name="CarolBot")
    client = await open_client(rig)
    # (the server's first verification also makes its dummy hash, whatever the name:
    # test_the_very_first_login_costs_the_same_for_any_name)
    await attempt(client, "warm-up", "not the password")
    answers: dict[str, tuple[str, str, int, int]] = {}
    for label, name, password in [
        ("wrong password", "alice", "not the password"),
        ("unknown name", "nobody-here", "not the password"),
        ("a guest's name", "bob", "not the password"),
        ("a bot account", "CarolBot", "not the password"),
        ("a house bot", "perudo-random", "not the password"),
        ("an unusable name", "x" * 5000, "not the password"),
        ("an empty name", "", "not the password"),
    ]:
        hashes, verifies = rig.hasher.hashes, rig.hasher.verifies
        error = await attempt(client, name, password)
        answers[label] = (
            error["code"],
            error["message"],
            rig.hasher.hashes - hashes,
            rig.hasher.verifies - verifies,
        )
    assert len(set(answers.values())) == 1, answers
    assert next(iter(answers.values()))[:1] == ("bad_login",)
    assert next(iter(answers.values()))[2:] == (0, 1)  # one verification each


async def test_the_very_first_login_costs_the_same_for_any_name(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    costs = []
    for name in ("alice", "nobody"):
        rig = Rig(await make_server(db=str(tmp_path / f"{name}.db")))
        await register(rig, "alice")
        before = rig.hasher.calls
        client = await open_client(rig)
        assert (await attempt(client, name, "wrong password"))["code"] == "bad_login"
        costs.append(rig.hasher.calls - before)
    assert costs[0] == costs[1] == 2  # the dummy hash, made once, and one verification


async def test_passwords_no_account_can_have_cost_nothing_for_any_name(rig: Rig) -> None:
    await register(rig, "alice")
    client = await open_client(rig)
    for name in ("alice", "nobody"):
        for password in ("short", "", "x" * 1025, "y" * 12_000):
            before = rig.hasher.calls
            error = await attempt(client, name, password)
            assert error["code"] == "bad_login" and error["message"] == "wrong name or password"
            assert rig.hasher.calls == before


async def test_password_length_bounds(rig: Rig) -> None:
    for length, ok in [(7, False), (8, True), (1024, True), (1025, False), (12_000, False)]:
        client = await open_client(rig)
        await client.hello(f"user{length}")
        await client.send(type="register", password="p" * length)
        frame = await client.next()
        if ok:
            assert frame["type"] == "account", frame
            again = await open_client(rig)
            assert (await attempt(again, f"USER{length}", "p" * length))["type"] == "welcome"
        else:
            assert frame == {**frame, "type": "error", "code": "bad_password"}


async def test_login_is_limited_per_address(rig: Rig) -> None:
    await register(rig, "alice")
    client = await open_client(rig, "127.0.0.2")
    burst = int(PER_ADDRESS.burst)
    for i in range(burst):
        name = "alice" if i % 7 == 0 else f"ghost{i}"  # (alice's own bucket keeps some)
        assert (await attempt(client, name, "wrong password"))["code"] == "bad_login"
    before = rig.hasher.calls
    # limited: the same answer for a real and an unknown name, and no work at all
    for name in ("alice", "ghost-x"):
        error = await attempt(client, name, PASSWORD)
        assert error["code"] == "rate_limited"
        # the address's bucket is empty: one token comes back after `every` seconds
        assert error["retry_after"] == PER_ADDRESS.every
    limited = {(await attempt(client, n, PASSWORD))["message"] for n in ("alice", "ghost-y")}
    assert len(limited) == 1
    assert rig.hasher.calls == before
    # another connection from the same address is limited too; another address is not
    same = await open_client(rig, "127.0.0.2")
    assert (await attempt(same, "alice", PASSWORD))["code"] == "rate_limited"
    other = await open_client(rig, "127.0.0.3")
    assert (await attempt(other, "alice", PASSWORD))["type"] == "welcome"
    # the bucket refills on the (fake) clock
    rig.monotonic.advance(PER_ADDRESS.every)
    assert (await attempt(client, "alice", PASSWORD))["type"] == "welcome"
    assert (await attempt(await open_client(rig, "127.0.0.2"), "alice", PASSWORD))[
        "code"
    ] == "rate_limited"


async def test_login_is_limited_per_account_from_many_addresses(rig: Rig) -> None:
    await register(rig, "alice")
    await register(rig, "bob")
    burst = int(PER_ACCOUNT.burst)
    # one guess from each of many addresses, at "alice" spelt many ways (one key)
    spellings = ["alice", "ALICE", "Ａlice", "alicE", " alice "]
    for i in range(burst):
        client = await open_client(rig, f"127.0.1.{i + 1}")
        error = await attempt(client, spellings[i % len(spellings)], "wrong password")
        assert error["code"] == "bad_login"
    fresh = await open_client(rig, "127.0.2.1")
    limited = await attempt(fresh, "alice", PASSWORD)
    assert limited["code"] == "rate_limited" and limited["retry_after"] == PER_ACCOUNT.every
    # an unknown name is limited after as many attempts, with the same answer
    for i in range(burst):
        client = await open_client(rig, f"127.0.3.{i + 1}")
        assert (await attempt(client, "nobody", "wrong password"))["code"] == "bad_login"
    unknown = await attempt(await open_client(rig, "127.0.2.2"), "nobody", PASSWORD)
    known = await attempt(await open_client(rig, "127.0.2.3"), "alice", PASSWORD)
    assert unknown["code"] == known["code"] == "rate_limited"
    assert unknown["message"] == known["message"]
    # bob is not slowed by the attack on alice
    assert (await attempt(await open_client(rig, "127.0.2.4"), "bob", PASSWORD))["type"] == (
        "welcome"
    )
    rig.monotonic.advance(PER_ACCOUNT.every)
    assert (await attempt(await open_client(rig, "127.0.2.5"), "alice", PASSWORD))[
        "type"
    ] == "welcome"


async def test_change_password_is_limited_too(rig: Rig) -> None:
    client = await register(rig, "alice")
    for _ in range(int(PER_ACCOUNT.burst)):
        await client.send(type="change_password", old="wrong password", new="new password")
        await client.error("bad_login")
    await client.send(type="change_password", old=PASSWORD, new="new password")
    error = await client.error("rate_limited")
    assert error["retry_after"] == PER_ACCOUNT.every
    rig.monotonic.advance(PER_ACCOUNT.every / 4)  # a quarter of a token back
    await client.send(type="change_password", old=PASSWORD, new="new password")
    error = await client.error("rate_limited")
    assert error["retry_after"] == PER_ACCOUNT.every * 3 / 4


async def test_revoked_and_expired_tokens(rig: Rig) -> None:
    owner = await register(rig, "alice")
    client = await open_client(rig)
    welcome = await attempt(client, "alice", PASSWORD)
    session = welcome["token"]
    made = await owner.request("create_bot", "bot_account", name="AliceBot")
    await owner.request("bot_token", "bot_account", bot=made["player"]["id"])
    await client.request("logout", "logged_out")
    rig.wall.advance(31 * DAY)
    for token, why in [(session, ""), (made["token"], ""), (owner.token, "expired")]:
        probe = await open_client(rig)
        await probe.send(type="hello", v=1, token=token, name="alice")
        error = await probe.error("bad_token")
        assert why in error["message"]
    for token in ("", "x" * 200, "\u0000", session.upper()):
        probe = await open_client(rig)
        await probe.send(type="hello", v=1, token=token, name="alice")
        await probe.error("bad_token")


async def test_names_that_only_look_different_are_one_account(rig: Rig) -> None:
    await register(rig, "alice")
    for name in ("Ａlice", "ALICE", "alice ", "ａｌｉｃｅ", "ᴬlice"):
        client = await open_client(rig)
        await client.hello("someone")
        await client.send(type="register", password=PASSWORD, name=name)
        await client.error("name_taken")
    # and each spelling logs in to the one account
    welcome = await attempt(await open_client(rig), "ＡＬＩＣＥ", PASSWORD)
    assert welcome["type"] == "welcome" and welcome["player"]["name"] == "alice"


async def test_a_guest_may_not_take_an_accounts_name(rig: Rig) -> None:
    owner = await register(rig, "alice")
    await owner.request("create_bot", "bot_account", name="RoboAlice")
    for name in ("alice", "Ａlice", "ALICE", "roboalice"):
        client = await open_client(rig)
        await client.send(type="hello", v=1, name=name)
        await client.error("name_taken")
    # nor rename to one with its token
    bob = await open_client(rig)
    await bob.hello("bob")
    again = await open_client(rig)
    await again.send(type="hello", v=1, name="Alice", token=bob.token)
    await again.error("name_taken")
    # nor register or make a bot under it
    await bob.send(type="register", password=PASSWORD, name="ALICE")
    await bob.error("name_taken")
    await owner.send(type="create_bot", name="alice")
    await owner.error("name_taken")
    # the house bots' names are reserved for accounts (a program may play as a guest
    # under one: the arena's remote bots do)
    for name in ("kriegspiel-random", "Perudo-Simple", "autopilot"):
        await owner.send(type="create_bot", name=name)
        await owner.error("name_taken")
        await bob.send(type="register", password=PASSWORD, name=name)
        await bob.error("name_taken")
    imitator = await open_client(rig)
    await imitator.hello("perudo-random")


async def test_a_guest_holding_a_name_before_it_was_claimed_keeps_it(rig: Rig) -> None:
    early = await open_client(rig)
    await early.hello("dora")
    await register(rig, "Dora")  # another guest claims the name
    back = await open_client(rig)
    await back.send(type="hello", v=1, name="dora", token=early.token)
    welcome = await back.expect("welcome")  # its stored name: its identity is kept
    assert welcome["player"]["id"] == early.player["id"]
    assert welcome["player"]["name"] == "dora"
    # only a change of a guest's name to a taken key is refused
    other = await open_client(rig)
    await other.send(type="hello", v=1, name="DORA", token=early.token)
    await other.error("name_taken")
    await other.send(type="hello", v=1, name="dora2", token=early.token)
    assert (await other.expect("welcome"))["player"]["id"] == early.player["id"]


async def test_garbage_fields(rig: Rig) -> None:
    await register(rig, "alice")
    client = await open_client(rig)
    # wrongly typed fields on purpose: the frames go out as JSON whatever they hold
    garbage: list[dict[str, Any]] = [
        {"type": "login", "v": 1, "name": 7, "password": PASSWORD},
        {"type": "login", "v": 1, "name": "alice", "password": None},
        {"type": "login", "v": 1, "name": "alice", "password": ["x"]},
        {"type": "login", "v": 1, "name": "alice"},
        {"type": "login", "name": "alice", "password": PASSWORD},
        {"type": "login", "v": 1, "name": "alice", "password": PASSWORD, "admin": True},
        {"type": "login", "v": 1, "name": "alice", "password": PASSWORD, "bot_version": "é"},
        {"type": "login", "v": 1, "name": "alice", "password": PASSWORD, "bot_version": "v" * 33},
        {"type": "hello", "v": 1, "name": "x", "bot_version": "\n"},
        {"type": "register", "password": 12345678},
        {"type": "logout", "everywhere": "yes"},
        {"type": "change_password", "old": PASSWORD},
        {"type": "create_bot"},
        {"type": "bot_token", "bot": {"id": "x"}},
        {"type": "list_bots", "all": True},
    ]
    for message in garbage:
        probe = await open_client(rig)  # (ten bad messages close a connection: 1008)
        await probe.send(**message)
        await probe.error("bad_message")
    await client.send(type="login", v=99, name="alice", password=PASSWORD)
    await client.error("version")
    for name in ("al\u0000ice", "alice\u202e", "🙂" * 40):
        error = await attempt(client, name, PASSWORD)
        assert error["code"] == "bad_login"
    for message in [
        {"type": "register", "password": PASSWORD},
        {"type": "logout"},
        {"type": "list_bots"},
    ]:
        await client.send(**message)
        await client.error("hello_required")
    await client.hello("guest")
    await client.send(type="create_bot", name="GuestBot")
    await client.error("account_required")
    await client.send(type="list_bots")
    await client.error("account_required")
    await client.send(type="change_password", old=PASSWORD, new=PASSWORD)
    await client.error("account_required")
    await client.send(type="register", password=PASSWORD, name="")
    await client.error("bad_name")
    await client.send(type="register", password=PASSWORD, name="n" * 33)
    await client.error("bad_name")
    await client.request("register", "account", password=PASSWORD)
    await client.send(type="register", password=PASSWORD)
    await client.error("bad_state")
    assert client.ws.close_code is None
