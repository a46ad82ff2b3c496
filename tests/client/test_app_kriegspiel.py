"""The TUI plays a Kriegspiel game (white) against a scripted websocket opponent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import chess
from textual.widgets import Input, Static

from client_cli.app import UmpireApp
from client_cli.screens.kriegspiel import BoardView, KriegspielScreen
from client_cli.screens.lobby import LobbyScreen
from client_cli.screens.replay import ReplayScreen
from client_cli.session import Session
from server.net.app import UmpireServer
from tests.client.pilot import until


async def test_kriegspiel_game_fools_mate(
    server: UmpireServer, connect: Callable[..., Any]
) -> None:
    session = Session(f"ws://127.0.0.1:{server.port}", "ana", retry=0.05)
    app = UmpireApp(session)
    async with app.run_test(size=(130, 42)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and session.ready.is_set())
        command = app.screen.query_one("#command", Input)
        command.focus()
        command.value = "create kriegspiel rules=english clock=300+5"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, KriegspielScreen))
        screen = app.screen
        assert isinstance(screen, KriegspielScreen)
        room = session.state.room(screen.room_id)

        bob = await connect("bob")
        await bob.request("join", "joined", room=screen.room_id)
        await until(pilot, lambda: room.turn is not None)
        await pilot.pause()
        status = str(screen.query_one("#status", Static).render())
        assert "Clocks: White" in status and "YOUR TURN" in status

        board = screen.query_one("#board", BoardView)
        board.focus()
        await pilot.press("up", "up", "up", "up", "up", "q")  # e2 -> e7: a marker
        assert room.kriegspiel.markers == {chess.E7: "q"}
        await pilot.press("y")  # "Are there any?" (english)
        await until(pilot, lambda: any("Are there any?" in m for m in app.messages))

        command = screen.query_one("#command", Input)
        command.focus()
        command.value = "e2e5"
        await pilot.press("enter")
        assert any("e2e5 is not possible on your board" in m for m in app.messages)

        # f2f3 by clicking squares: cells are 3 columns wide after a 3-column rank label
        await pilot.click("#board", offset=(3 + 5 * 3 + 1, 1 + 6))
        await pilot.click("#board", offset=(3 + 5 * 3 + 1, 1 + 5))
        await until(pilot, lambda: room.kriegspiel.board.piece_at(chess.F3) is not None)

        await bob.expect("turn")
        await bob.request("act", "ack", room=screen.room_id, action="e7e5")
        await until(pilot, lambda: room.turn is not None)
        command.focus()
        command.value = "g2g4"
        await pilot.press("enter")
        await bob.expect("turn")
        await bob.request("act", "ack", room=screen.room_id, action="d8h4")
        await until(pilot, lambda: room.state == "finished")
        await pilot.pause()
        assert "RESULT: bob won (checkmate)" in str(screen.query_one("#status", Static).render())
        assert any("Check: " in m for m in room.kriegspiel.log)

        board.focus()
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        captions = [step.caption for step in replay.replay.steps]
        assert [c[c.index("[") :] for c in captions if "[" in c] == [
            "[f3]",
            "[e5]",
            "[g4]",
            "[Qh4#]",
        ]
        await pilot.press("end")
        panel = str(replay.query_one("#panel", Static).render())
        assert " q " in panel.splitlines()[5]  # the black queen on h4, revealed
        assert "Game over" in str(replay.query_one("#caption", Static).render())
        await session.close()
