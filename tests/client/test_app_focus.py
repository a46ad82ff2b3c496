"""Issue 29: after every screen change and every command, focus is where the next typing
belongs, and a letter typed into no input never plays a move. Each test presses the exact
keys of the report and asserts what went over the wire."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from client_cli.app import UmpireApp
from client_cli.games.kriegspiel.screen import BoardView, KriegspielScreen
from client_cli.games.perudo.screen import PerudoScreen
from server.net.app import UmpireServer
from tests.client.pilot import RecordingSession, in_the_lobby, type_text, until

MOVES = ("act",)


@pytest.fixture
async def tui(
    server: UmpireServer,
) -> AsyncIterator[tuple[UmpireApp, RecordingSession, Pilot[Any]]]:
    session = RecordingSession(f"ws://127.0.0.1:{server.port}", "ana", retry=0.05)
    app = UmpireApp(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await in_the_lobby(app, pilot)
        yield app, session, pilot
        await session.close()


async def typed(pilot: Pilot[Any], line: str) -> None:
    """Type ``line`` key by key where the focus is, then Enter (no focusing first)."""
    await type_text(pilot, line)
    await pilot.press("enter")


async def test_after_create_the_next_command_lands_in_the_command_line(tui: Any) -> None:
    app, session, pilot = tui
    app.screen.query_one("#command", Input).focus()
    await pilot.pause()
    await typed(pilot, "create perudo seats=4")
    await until(pilot, lambda: isinstance(app.screen, PerudoScreen))
    await pilot.pause()
    await typed(pilot, "bot perudo-expert")
    await until(pilot, lambda: session.count("add_bot") >= 1)
    await pilot.pause(0.1)
    assert [m.get("bot") for m in session.sent if m["type"] == "add_bot"] == ["perudo-expert"]
    assert session.count("act") == 0
    assert app.screen.query_one("#bid", Input).value == ""
    assert isinstance(app.focused, Input)


async def test_after_joining_from_the_lobby_typing_goes_to_an_input(tui: Any, connect: Any) -> None:
    app, session, pilot = tui
    bob = await connect("bob")
    created = await bob.request("create_room", "created", game="perudo", options={"seats": 3})
    room_id = created["room"]
    await app.run_line("rooms")
    table = app.screen.query_one("#rooms", DataTable)
    await until(pilot, lambda: room_id in [str(k.value) for k in table.rows])
    table.focus()
    table.move_cursor(row=table.get_row_index(room_id))
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, PerudoScreen))
    await pilot.pause()
    assert isinstance(app.focused, Input)
    await typed(pilot, "say bad")  # b, a, d: no bot, no calza, no dudo
    await until(pilot, lambda: session.count("say") == 1)
    assert session.count("add_bot") == 0 and session.count("act") == 0


async def test_say_in_the_bid_box_keeps_the_focus_there(tui: Any) -> None:
    app, session, pilot = tui
    screen = app.screen
    screen.query_one("#command", Input).value = "create perudo seats=2 dice=5"
    screen.query_one("#command", Input).focus()
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, PerudoScreen))
    screen = app.screen
    room = session.state.room(screen.room_id)
    await app.run_line("bot autopilot")
    await until(pilot, lambda: room.state == "playing")
    await pilot.pause()
    screen.query_one("#bid", Input).focus()
    await pilot.pause()
    await typed(pilot, "say hello")
    await until(pilot, lambda: session.count("say") == 1)
    await pilot.pause()
    assert app.focused is screen.query_one("#bid", Input)
    before = session.count("act") + session.count("hint")
    await type_text(pilot, "ahd")
    await pilot.pause(0.1)
    assert session.count("act") + session.count("hint") == before
    assert app.focused is screen.query_one("#bid", Input)


async def test_a_letter_typed_into_no_input_plays_no_move(tui: Any) -> None:
    app, session, pilot = tui
    screen = app.screen
    screen.query_one("#command", Input).value = "create perudo seats=2 dice=5"
    screen.query_one("#command", Input).focus()
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, PerudoScreen))
    screen = app.screen
    room = session.state.room(screen.room_id)
    await app.run_line("bot autopilot")
    await until(pilot, lambda: room.state == "playing")
    screen.set_focus(None)
    await pilot.pause()
    await type_text(pilot, "dah")
    await pilot.pause(0.1)
    assert session.count("act") == 0 and session.count("hint") == 0


async def test_b_in_the_kriegspiel_waiting_room_adds_a_bot_not_a_bishop(tui: Any) -> None:
    app, session, pilot = tui
    screen = app.screen
    screen.query_one("#command", Input).value = "create kriegspiel"
    screen.query_one("#command", Input).focus()
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, KriegspielScreen))
    screen = app.screen
    await pilot.pause()
    screen.query_one("#botname", Input).value = "kriegspiel-random"
    screen.query_one("#board", BoardView).focus()
    await pilot.pause()
    await pilot.press("b")
    await until(pilot, lambda: session.count("add_bot") == 1)
    assert not screen.model.markers
