"""The names of house bots the terminal client suggests and explains are the server's:
``perudo-search`` was missing from the bot box's suggestions, and a refused name in a
Perudo room was answered with a list that had Kriegspiel's bots and not perudo-search
(found by playing the TUI in a terminal)."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

from client_cli.commands import HOUSE_BOTS
from client_cli.plain import PlainClient
from client_cli.session import Session
from server.net.app import UmpireServer


def test_the_suggestions_hold_every_bot_the_server_offers(server: UmpireServer) -> None:
    offered = {"autopilot", *server.house.available("perudo")}
    offered |= set(server.house.available("kriegspiel"))
    assert offered <= set(HOUSE_BOTS)


async def test_a_refused_bot_name_is_answered_with_this_games_names(server: UmpireServer) -> None:
    out = io.StringIO()
    session = Session(f"ws://127.0.0.1:{server.port}", "ana", retry=0.05)
    client = PlainClient(session, out, wait_timeout=10)

    async def script() -> AsyncIterator[str]:
        yield "create perudo seats=3"
        yield "bot perudo-expertperudo-simple"
        yield "bot perudo-search"
        yield "quit"

    assert await client.run(script()) == 0
    refusal = next(line for line in out.getvalue().splitlines() if "perudo-expertperudo" in line)
    assert "perudo-search" in refusal
    assert "kriegspiel" not in refusal
    assert refusal.count("perudo-simple") == 2  # in the name refused, and once in the list
    assert "Bot bot-perudo-search took seat 1." in out.getvalue()
