"""A secret a connection presents in a header (the house bots' ``X-Umpire-House``, a
cluster peer's) is compared in constant time (the house header was compared with
``==``), and any header value is only a wrong secret: HTTP headers are decoded as
ISO-8859-1, and ``hmac.compare_digest``, which the cluster's peer check used on the
text, raises on non-ASCII characters."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from server.ids import opaque, same_secret
from server.rooms.house import HOUSE_HEADER
from tests.server.wsclient import WsClient


@given(st.text(max_size=40))
def test_any_text_is_just_a_wrong_secret(given_text: str) -> None:
    secret = opaque(24)
    assert same_secret(given_text, secret) is (given_text == secret)
    assert same_secret(secret, secret)
    assert not same_secret(None, secret)
    assert not same_secret("", "")  # no secret set: nothing matches it


async def test_a_non_ascii_house_header_is_an_ordinary_client(server: Any) -> None:
    client = await WsClient.open(server.port, additional_headers={HOUSE_HEADER: "caf\xe9 \xff"})
    try:
        welcome = await client.hello("ana")
        assert welcome["type"] == "welcome"
        rooms = await client.request("list_rooms", "rooms")
        assert rooms["rooms"] == []
    finally:
        await client.close()
