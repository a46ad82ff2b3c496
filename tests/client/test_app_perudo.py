"""The TUI plays a whole Perudo game against house bots on a real server."""

from __future__ import annotations

from textual.widgets import Input, Static

from client_cli.app import UmpireApp
from client_cli.games.perudo.screen import PerudoScreen
from client_cli.games.perudo.text import model_of
from client_cli.screens.create import CreateScreen
from client_cli.screens.help import HelpScreen
from client_cli.screens.lobby import LobbyScreen
from client_cli.screens.replay import ReplayScreen
from client_cli.session import Session
from server.net.app import UmpireServer
from tests.client.pilot import click, in_the_lobby, until


async def test_full_perudo_game_against_bots(server: UmpireServer) -> None:
    session = Session(f"ws://127.0.0.1:{server.port}", "ana", retry=0.05)
    app = UmpireApp(session)
    state = session.state
    async with app.run_test(size=(130, 42)) as pilot:
        await in_the_lobby(app, pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))

        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CreateScreen))
        app.screen.query_one("#perudo-seats", Input).value = "3"
        app.screen.query_one("#options", Input).value = "dice=2"
        await click(pilot, "#ok")
        await until(pilot, lambda: isinstance(app.screen, PerudoScreen))
        screen = app.screen
        assert isinstance(screen, PerudoScreen)
        room = state.room(screen.room_id)

        screen.query_one("#botname", Input).value = "no-such-bot"
        await click(pilot, "#add_bot")
        await until(pilot, lambda: any("no house bot" in m for m in app.messages))
        screen.query_one("#botname", Input).value = "autopilot"
        screen.query_one("#log").focus()
        await pilot.press("b")
        await until(pilot, lambda: sum(1 for n in room.names if n) == 2)
        await pilot.press("b")
        await until(pilot, lambda: room.state == "playing")

        refused_once = False
        for _ in range(60):
            await until(pilot, lambda: room.turn is not None or room.over)
            if room.over:
                break
            await pilot.pause()
            table = str(screen.query_one("#table", Static).render())
            assert "YOUR TURN" in table and "Your dice:" in table
            if not refused_once:
                screen.query_one("#bid", Input).value = "99x9"
                await click(pilot, "#bid_button")
                assert any("Not sent" in m for m in app.messages)
                await pilot.press("h")
                box = screen.query_one("#hint", Static)
                await until(pilot, lambda b=box: "hint" in str(b.render()).lower())  # type: ignore[misc]
                refused_once = True
            turn = room.turn
            if model_of(room).table.last_bid is None:
                screen.query_one("#bid", Input).value = room.legal[0]
                screen.query_one("#bid", Input).focus()
                await pilot.press("enter")
            else:
                screen.query_one("#log").focus()
                await pilot.press("d")
            await until(pilot, lambda t=turn: room.turn is not t or room.over)  # type: ignore[misc]
        await until(pilot, lambda: room.state == "finished")
        await pilot.pause()
        assert "RESULT:" in str(screen.query_one("#table", Static).render())
        assert any(m.startswith("Reveal:") for m in app.messages)
        assert any(m.startswith("Game over:") for m in app.messages)

        screen.query_one("#log").focus()
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert "The seed matches its commitment (sha256)." in replay.replay.notes
        await pilot.press("right", "right", "end")
        assert replay.index == len(replay.replay.steps) - 1
        assert "Game over" in str(replay.query_one("#caption", Static).render())
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, PerudoScreen))
        await session.close()
