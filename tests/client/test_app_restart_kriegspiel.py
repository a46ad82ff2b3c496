"""A restarted terminal client opens its unfinished Kriegspiel seat on the Kriegspiel
board: before, it opened the room on the Perudo screen (the room's game was not known yet
when ``welcome`` arrived), and when a friend joined by invite the game showed a Perudo
table with "YOUR TURN: bid" and no board (found by playing two TUIs in terminals)."""

from __future__ import annotations

from client_cli.app import UmpireApp
from client_cli.screens.kriegspiel import KriegspielScreen
from client_cli.screens.lobby import LobbyScreen
from server.net.app import UmpireServer
from tests.client.pilot import RecordingSession, until


async def test_a_restarted_client_opens_its_waiting_kriegspiel_room_on_the_board(
    server: UmpireServer, connect: object
) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    first = RecordingSession(url, "ana", retry=0.05)
    created = None
    app = UmpireApp(first)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and first.ready.is_set())
        created = await first.request(
            {"type": "create_room", "game": "kriegspiel", "public": False}
        )
        await until(pilot, lambda: isinstance(app.screen, KriegspielScreen))
        await pilot.pause()  # let the new screen finish mounting (its header's title)
        await first.close()

    again = RecordingSession(url, "ana", retry=0.05)
    app = UmpireApp(again)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: getattr(app.screen, "room_id", None) == created["room"])
        assert isinstance(app.screen, KriegspielScreen), type(app.screen).__name__
        await pilot.pause()  # as above: closing mid-mount raced textual's Header
        await again.close()
