"""Accounts in ``--plain`` mode against a real server: each password is read from the next
input line (never from the command), every bad input is one line, and ``--login``."""

from __future__ import annotations

import asyncio
import getpass
import io
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from client_cli.plain import PlainClient
from client_cli.session import Session
from client_cli.state import ClientState
from client_cli.tokens import Identity, TokenStore
from server.net.app import UmpireServer
from tests.client.helpers import running
from tests.client.pilot import RecordingSession
from tests.client.test_app_accounts import PASSWORD, rated_server  # noqa: F401

NEW = "another horse"


def lines_of(script: list[str]) -> Callable[[], AsyncIterator[str]]:
    async def feed() -> AsyncIterator[str]:
        for line in script:
            yield line

    return feed


async def test_register_password_logout_login_in_plain_mode(
    rated_server: UmpireServer,  # noqa: F811
) -> None:
    out = io.StringIO()
    url = f"ws://127.0.0.1:{rated_server.port}"
    session = RecordingSession(url, "ana", retry=0.05)
    client = PlainClient(session, out, wait_timeout=10)
    script = [
        "password",  # a guest has none
        "register",
        "short",  # refused before sending
        "short",
        "register",
        PASSWORD,
        PASSWORD + "!",  # the two differ
        "register",
        PASSWORD,
        PASSWORD,
        "register",  # already an account
        "password",
        "wrong old one",
        NEW,
        NEW,
        "password",
        PASSWORD,
        NEW,
        NEW,
        "leaderboard",
        "leaderboard chess",
        "leaderboard kriegspiel",
        "profile nobody-here",
        "profile",
        "logout",
        "rooms",  # not connected any more: one line, no wait
        "login ana",
        PASSWORD,  # the old password no longer works
        "login ana",
        NEW,
        "profile",
        "quit",
    ]
    assert await client.run(lines_of(script)()) == 0
    text = out.getvalue()
    assert "Traceback" not in text
    assert "only an account has a password: register first" in text
    assert "a password has 8 to 1024 characters, not 5" in text
    assert "the two passwords differ" in text
    assert "ana is now an account" in text
    assert "you are already the account ana" in text
    assert "Wrong current password: nothing changed." in text
    assert "Password changed; your other sessions are logged out." in text
    assert "Not sent: leaderboard GAME [RULES] [bots]" in text
    assert "Not sent: the games are" in text and "not 'chess'" in text
    assert "Leaderboard · kriegspiel · wild16 · humans (at least 1 rated game to appear)" in text
    assert "No player of that name." in text
    assert "Profile of ana (account)" in text
    assert "Logged out (1 session ended)." in text
    assert "not connected: log in with `login NAME`, or quit" in text
    assert "Logged in as ana." in text
    assert text.count("Profile of ana (account)") == 2
    for line in text.splitlines():  # a password is never printed
        assert PASSWORD not in line and NEW not in line
    sent = [m["type"] for m in session.sent if m["type"] != "list_rooms"]
    assert sent.count("register") == 1 and sent.count("change_password") == 2
    assert "logout" in sent
    # the account's name, not the guest token, is remembered for the next start
    identity = TokenStore().load(url)
    assert identity is not None and identity.name == "ana"


async def test_login_flag_logs_in_and_a_wrong_password_is_one_line(
    rated_server: UmpireServer,  # noqa: F811
    connect: Callable[..., Any],
) -> None:
    url = f"ws://127.0.0.1:{rated_server.port}"
    ana = await connect("ana", port=rated_server.port)
    await ana.request("register", "account", password=PASSWORD)

    out = io.StringIO()
    wrong = Session(url, "ana", retry=0.05, password="not it at all", state=ClientState())
    assert await PlainClient(wrong, out).run(lines_of(["profile", "quit"])()) == 1
    assert out.getvalue().strip() == "Wrong name or password."

    out = io.StringIO()
    right = Session(url, "ANA", retry=0.05, password=PASSWORD, state=ClientState(lang="it"))
    assert await PlainClient(right, out).run(lines_of(["profile", "quit"])()) == 0, out.getvalue()
    assert "Profilo di ana (account)" in out.getvalue()
    assert right.name == "ana"  # the stored name wins

    out = io.StringIO()
    TokenStore().forget(url, "ana")  # a guest's hello under the account's name
    taken = Session(url, "ana", retry=0.05, state=ClientState())
    assert await PlainClient(taken, out).run(lines_of(["quit"])()) == 1
    assert "ana is an account's name: log in with `login ana`" in out.getvalue()


async def test_logout_everywhere_ends_the_accounts_other_client(
    rated_server: UmpireServer,  # noqa: F811
) -> None:
    url = f"ws://127.0.0.1:{rated_server.port}"
    heard: list[str] = []
    async with running(rated_server.port, "cleo") as phone:
        await phone.request({"type": "register", "password": PASSWORD})
        async with running(rated_server.port, "other") as laptop:
            laptop.listeners.append(lambda frame, lines: heard.extend(lines))
            await laptop.login("cleo", PASSWORD)
            assert laptop.name == "cleo" and TokenStore().load(url) is not None
            reply = await phone.request({"type": "logout", "everywhere": True})
            assert reply["revoked"] == 2
            await asyncio.wait_for(laptop.stopped.wait(), 10)
            assert heard[-1] == (
                "Your session ended (logged out elsewhere, or expired): "
                "log in again with `login cleo`."
            )
            assert TokenStore().load(url, "cleo") is None  # the revoked token is forgotten


def test_login_flag_asks_the_password_with_getpass(monkeypatch: pytest.MonkeyPatch) -> None:
    from client_cli import cli

    asked: list[str] = []

    def fake_getpass(prompt: str) -> str:
        asked.append(prompt)
        return PASSWORD

    # (the module ``cli`` imported: ``cli.getpass is getpass``)
    monkeypatch.setattr(getpass, "getpass", fake_getpass)
    assert cli.ask_password("ana", "ws://h:1") == PASSWORD
    assert asked == ["Password of ana on ws://h:1: "]

    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(getpass, "getpass", interrupted)
    assert cli.ask_password("ana", "ws://h:1") is None
    monkeypatch.setattr(getpass, "getpass", lambda prompt: "")
    assert cli.main(["--login", "ana", "--server", "ws://127.0.0.1:9"]) == 1  # none typed
    assert cli.main(["--login", " ", "--server", "ws://127.0.0.1:9"]) == 2


async def test_name_taken_with_a_token_keeps_the_token_and_the_stored_name(
    rated_server: UmpireServer,  # noqa: F811
    connect: Callable[..., Any],
) -> None:
    url = f"ws://127.0.0.1:{rated_server.port}"
    async with running(rated_server.port, "dorian") as guest:
        player = guest.state.player
    identity = TokenStore().load(url, "dorian")
    assert identity is not None and player is not None
    # the token is remembered under a name an account claims (renamed in another client)
    TokenStore().save(url, Identity(token=identity.token, name="Dora"))
    dora = await connect("dora", port=rated_server.port)
    await dora.request("register", "account", password=PASSWORD)
    out = io.StringIO()
    session = Session(url, "Dora", retry=0.05, state=ClientState())
    assert await PlainClient(session, out).run(lines_of(["profile", "quit"])()) == 0, out.getvalue()
    assert session.name == "dorian" and session.state.player is not None
    assert session.state.player["id"] == player["id"]  # the same player: nothing lost
    kept = TokenStore().load(url, "dorian")
    assert kept is not None and kept.token == identity.token
    assert "Dora is an account's name: you go on under your own name" in out.getvalue()
