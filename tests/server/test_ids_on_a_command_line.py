"""Room ids, invite codes and tokens never start with ``-``: a person passes them to
``umpire bot --room ID --invite CODE --token TOKEN``, and argparse took ``--room -Xgp0IO9``
(one room in 64) for a missing argument (found by trying the commands from outside)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from server.cli import build_parser


@pytest.fixture
def dashes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every other random string the server draws starts with ``-``."""
    real = secrets.token_urlsafe
    calls = 0

    def token_urlsafe(nbytes: int | None = None) -> str:
        nonlocal calls
        calls += 1
        text = real(nbytes)
        return "-" + text[1:] if calls % 2 else text

    monkeypatch.setattr(secrets, "token_urlsafe", token_urlsafe)
    yield


async def test_ids_invites_and_tokens_can_be_typed_as_arguments(dashes: None, connect: Any) -> None:
    ana = await connect("ana")
    public = await ana.request("create_room", "created", game="perudo", options={"seats": 2})
    private = await ana.request(
        "create_room", "created", game="kriegspiel", public=False, sit=False
    )
    texts = {
        "room": public["room"],
        "private room": private["room"],
        "invite": private["invite"],
        "token": ana.token,
    }
    for what, text in texts.items():
        assert not text.startswith("-"), f"the {what} {text!r} reads as an option"
    args = build_parser().parse_args(
        ["bot", "perudo-random", "--room", public["room"], "--token", ana.token]
    )
    assert (args.room, args.token) == (public["room"], ana.token)
    args = build_parser().parse_args(["bot", "kriegspiel-random", "--invite", private["invite"]])
    assert args.invite == private["invite"]
