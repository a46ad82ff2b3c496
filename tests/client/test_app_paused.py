"""The TUI says so when the server cannot save (issue 34, item 1): the table shows the
pause, the log tells it and its end, a move typed meanwhile is not sent, and play goes on
by itself once the server can save again. Real keys, a real server whose disk is "full"
(its store's SQLITE_FULL injection, tests/server/test_disk_full.py)."""

from __future__ import annotations

from textual.widgets import Input, Static

from client_cli.app import UmpireApp
from client_cli.games.perudo.screen import PerudoScreen
from client_cli.screens.create import CreateScreen
from server.net.app import UmpireServer
from tests.client.pilot import RecordingSession, in_the_lobby, until
from tests.server.test_disk_full import DiskFull


async def test_the_table_shows_the_pause_and_play_goes_on(server: UmpireServer) -> None:
    full = DiskFull()
    server.store.before_commit = full
    session = RecordingSession(f"ws://127.0.0.1:{server.port}", "ana", retry=0.05)
    app = UmpireApp(session)
    state = session.state
    async with app.run_test(size=(130, 42)) as pilot:
        await in_the_lobby(app, pilot)
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CreateScreen))
        app.screen.query_one("#perudo-seats", Input).value = "2"
        await pilot.click("#ok")
        await until(pilot, lambda: isinstance(app.screen, PerudoScreen))
        screen = app.screen
        assert isinstance(screen, PerudoScreen)
        room = state.room(screen.room_id)
        screen.query_one("#botname", Input).value = "autopilot"
        screen.query_one("#log").focus()
        await pilot.press("b")
        await until(pilot, lambda: room.turn is not None)
        full.full = True  # the disk is full from here
        bid = room.legal[0]
        screen.query_one("#bid", Input).value = bid
        screen.query_one("#bid", Input).focus()
        await pilot.press("enter")
        await until(pilot, lambda: room.paused)
        await pilot.pause()
        table = str(screen.query_one("#table", Static).render())
        assert "The server cannot save: paused." in table
        assert any(m.startswith("The server cannot save: paused.") for m in app.messages)
        acts = session.count("act")
        screen.query_one("#log").focus()
        await pilot.press("d")  # a move typed during the pause: told why, not sent
        await until(pilot, lambda: any("cannot save" in m for m in app.messages[-2:]))
        assert session.count("act") == acts
        full.full = False  # space is freed
        await until(pilot, lambda: not room.paused)
        await until(pilot, lambda: any("goes on" in m for m in app.messages))
        await until(pilot, lambda: any(bid in str(e) for e in room.history.values()))
        await pilot.pause()
        assert "cannot save" not in str(screen.query_one("#table", Static).render())
    await session.close()
