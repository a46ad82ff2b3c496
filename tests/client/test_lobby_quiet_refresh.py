"""The lobby's automatic listings (every REFRESH_EVERY seconds, and on coming back to it)
refresh the table without writing the listing into the log again: before, a person who
stayed two minutes in the lobby found the same rooms listed eight times in the log, and
each room's log began with copies of it (found by using the TUI in a terminal). Asking
for a listing (``r``, ``rooms``) still writes it."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import DataTable

from client_cli.app import UmpireApp
from client_cli.screens.lobby import LobbyScreen
from server.net.app import UmpireServer
from tests.client.pilot import RecordingSession, until


async def test_automatic_listings_stay_out_of_the_log(
    server: UmpireServer, monkeypatch: pytest.MonkeyPatch, connect: Any
) -> None:
    monkeypatch.setattr(LobbyScreen, "REFRESH_EVERY", 0.1)
    bob = await connect("bob")
    room = (await bob.request("create_room", "created", game="perudo", options={}))["room"]
    session = RecordingSession(f"ws://127.0.0.1:{server.port}", "ana", retry=0.05)
    app = UmpireApp(session)

    def listed() -> int:
        return sum(1 for line in app.messages if line.startswith(room))

    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: session.count("list_rooms") >= 5)
        await pilot.pause()
        assert app.screen.query_one("#rooms", DataTable).row_count == 1
        assert listed() == 1  # the first listing, when the client connects
        await pilot.press("r")
        await until(pilot, lambda: listed() == 2)
        await session.close()
