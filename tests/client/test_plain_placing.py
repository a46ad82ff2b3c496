"""Issue 29: plain mode tells the result and the player's placing at the end of a game
(it printed the last event and no placing)."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

from client_cli.games.perudo.text import model_of
from client_cli.plain import PlainClient
from client_cli.session import Session
from server.net.app import UmpireServer


async def test_plain_prints_the_placing_once_at_the_end(server: UmpireServer) -> None:
    out = io.StringIO()
    session = Session(f"ws://127.0.0.1:{server.port}", "ana", retry=0.05)
    client = PlainClient(session, out, wait_timeout=10)
    state = session.state

    async def script() -> AsyncIterator[str]:
        yield "create perudo seats=2 dice=1"
        yield "bot autopilot"
        yield "wait start"
        for _ in range(20):
            yield "wait turn"
            room = state.current_room
            assert room is not None
            if room.over:
                break
            yield "dudo" if model_of(room).table.last_bid else room.legal[0]
        yield "wait end"
        yield "quit"

    assert await client.run(script()) == 0
    text = out.getvalue()
    assert text.count("RESULT: ") == 1
    assert " · you placed " in text and " of 2" in text
