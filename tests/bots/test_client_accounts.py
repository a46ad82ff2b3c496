"""The client core's account side without sockets: ``bot_version`` in hello, ``login`` as
the first message or after a guest's hello, ``register``, ``logout``."""

from __future__ import annotations

from typing import Any

from bots.client.core import PROTOCOL_VERSION, ClientCore, HelloRefused, Received, Refused
from tests.bots.test_client_core import LIMITS, event, joined, kinds, sent

Json = dict[str, Any]


def welcome(player: Json, token: str = "tok", seats: list[Json] | None = None) -> Json:
    return {
        "type": "welcome",
        "v": 1,
        "server": "umpire test",
        "player": player,
        "token": token,
        "seats": seats or [],
        "limits": LIMITS,
    }


GUEST = {"id": "p1", "name": "ana", "bot": False, "kind": "guest"}
ACCOUNT = {"id": "p2", "name": "Ana", "bot": False, "kind": "account"}


def test_a_bot_says_its_version_in_hello_and_login() -> None:
    core = ClientCore("mybot", bot=True, bot_version="2.1")
    core.connection_made()
    assert sent(core) == [
        {"type": "hello", "v": PROTOCOL_VERSION, "name": "mybot", "bot": True, "bot_version": "2.1"}
    ]
    assert core.login_message("mybot", "pw")["bot_version"] == "2.1"
    human = ClientCore("ana")
    human.connection_made()
    assert "bot_version" not in sent(human)[0]


def test_login_first_then_the_token_and_the_stored_name() -> None:
    core = ClientCore("ana", credentials=("ana", "secret password"), follow_seats=True)
    core.connection_made()
    assert sent(core) == [
        {"type": "login", "v": PROTOCOL_VERSION, "name": "ana", "password": "secret password"}
    ]
    seats = [{"room": "r9", "game": "kriegspiel", "seat": 1, "state": "playing", "seq": 4}]
    out = core.receive(welcome(ACCOUNT, "session-token", seats))
    assert kinds(out) == ["welcome"] and core.ready
    assert core.credentials is None  # the password is not kept
    assert core.token == "session-token" and core.name == "Ana"  # the stored name wins
    assert sent(core) == [{"type": "resume", "room": "r9", "since": 0, "ref": 1}]
    core.connection_lost()
    core.connection_made()  # a reconnect says hello with the new token, no password
    assert sent(core) == [
        {"type": "hello", "v": PROTOCOL_VERSION, "name": "Ana", "token": "session-token"}
    ]


def test_a_refused_login_is_final_and_forgets_the_password() -> None:
    core = ClientCore("ana", credentials=("ana", "wrong password"))
    core.connection_made()
    sent(core)
    (out,) = core.receive({"type": "error", "code": "bad_login", "message": "wrong"})
    assert isinstance(out, HelloRefused) and core.credentials is None
    assert sent(core) == []


def test_login_after_a_guest_hello_leaves_the_guests_rooms() -> None:
    core = ClientCore("ana", follow_seats=True)
    core.connection_made()
    sent(core)
    core.receive(welcome(GUEST))
    joined(core, "r1")
    ref = core.send(core.login_message("Ana", "secret password"))
    sent(core)
    seats = [{"room": "r2", "game": "perudo", "seat": 0, "state": "playing", "seq": 3}]
    (out,) = core.receive({**welcome(ACCOUNT, "new", seats), "ref": ref})
    assert isinstance(out, Received) and out.request is not None
    assert out.request["type"] == "login"
    assert core.player == ACCOUNT and core.token == "new" and core.name == "Ana"
    assert set(core.streams) == {"r2"} and "r1" in core.left
    assert core.receive(event("r1", 1)) == []  # the guest's room: no longer followed
    assert [m["type"] for m in sent(core)] == ["resume"]


def test_register_renames_and_logout_ends_the_session() -> None:
    core = ClientCore("ana")
    core.connection_made()
    sent(core)
    core.receive(welcome(GUEST))
    ref = core.send({"type": "register", "password": "secret password", "name": "Anna"})
    sent(core)
    core.receive(
        {"type": "account", "ref": ref, "player": {**GUEST, "name": "Anna", "kind": "account"}}
    )
    assert core.name == "Anna" and core.player is not None and core.player["kind"] == "account"
    ref = core.send({"type": "logout", "everywhere": True})
    sent(core)
    (out,) = core.receive({"type": "logged_out", "ref": ref, "revoked": 2})
    assert (
        isinstance(out, Received)
        and out.kind == "logged_out"
        and core.logged_out
        and core.token is None
    )


def test_an_accounts_revoked_token_is_not_replaced_by_a_guest() -> None:
    core = ClientCore("Ana", token="revoked")
    core.connection_made()
    sent(core)
    core.receive(welcome(ACCOUNT, "revoked"))
    core.connection_lost()
    core.connection_made()
    sent(core)
    (out,) = core.receive({"type": "error", "code": "bad_token", "message": "revoked"})
    assert not isinstance(out, Refused) and isinstance(out, HelloRefused)
    assert sent(core) == []  # no hello as a guest under the account's name


def test_a_throttled_login_is_refused_not_sent_again() -> None:
    core = ClientCore("ana")
    core.connection_made()
    sent(core)
    core.receive(welcome(GUEST))
    ref = core.send(core.login_message("ana", "secret password"))
    sent(core)
    (out,) = core.receive({"type": "error", "code": "rate_limited", "message": "wait", "ref": ref})
    assert isinstance(out, Refused) and out.code == "rate_limited"
    assert sent(core) == []


def test_name_taken_keeps_the_token_and_says_hello_without_a_name() -> None:
    core = ClientCore("dora", token="tok")
    core.connection_made()
    assert sent(core)[0]["name"] == "dora"
    (out,) = core.receive({"type": "error", "code": "name_taken", "message": "taken"})
    assert isinstance(out, Refused) and out.code == "name_taken"
    assert core.token == "tok"
    (retry,) = sent(core)
    assert retry["token"] == "tok" and "name" not in retry
    core.receive(welcome({"id": "p1", "name": "dora0", "bot": False, "kind": "guest"}, "tok"))
    assert core.name == "dora0" and core.token == "tok"
    core.connection_lost()
    core.connection_made()
    assert sent(core)[0]["name"] == "dora0"  # the stored name from now on
