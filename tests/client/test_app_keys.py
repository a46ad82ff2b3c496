"""Real keys into the real widgets (issue 17): what goes to the server, what the screen shows."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Checkbox, DataTable, Input, RichLog, Select, Static

from client_cli.app import UmpireApp
from client_cli.screens.kriegspiel import KriegspielScreen
from client_cli.screens.lobby import CreateScreen, LobbyScreen
from client_cli.screens.perudo import PerudoScreen
from server.net.app import UmpireServer
from tests.client.pilot import RecordingSession, type_text, until


@pytest.fixture
async def tui(
    server: UmpireServer,
) -> AsyncIterator[tuple[UmpireApp, RecordingSession, Pilot[Any]]]:
    """The app in the lobby, connected as ana, at the size of a real terminal."""
    session = RecordingSession(f"ws://127.0.0.1:{server.port}", "ana", retry=0.05)
    app = UmpireApp(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and session.ready.is_set())
        await until(pilot, lambda: session.count("list_rooms") == 1)
        yield app, session, pilot
        await session.close()


async def command(pilot: Pilot[Any], line: str) -> None:
    """Focus the command line, type ``line`` key by key and press Enter."""
    pilot.app.screen.query_one("#command", Input).focus()
    await pilot.pause()
    await type_text(pilot, line)
    await pilot.press("enter")


async def enter_room(app: UmpireApp, pilot: Pilot[Any], line: str, screen: type[Any]) -> Any:
    box = app.screen.query_one("#command", Input)  # setup, not under test: no key per letter
    box.focus()
    box.value = line
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, screen))
    await pilot.pause()
    return app.screen


async def test_a_command_in_a_room_runs_once(tui: Any) -> None:
    app, session, pilot = tui
    screen = await enter_room(app, pilot, "create perudo seats=3", PerudoScreen)
    room = session.state.room(screen.room_id)
    await command(pilot, "bot perudo-random")
    await until(pilot, lambda: sum(1 for n in room.names if n) == 2)
    await pilot.pause()
    assert session.count("add_bot") == 1
    assert sum(1 for n in room.names if n) == 2
    assert screen.query_one("#command", Input).value == ""


async def test_kriegspiel_command_line_runs_once_and_hotkeys_stay_quiet(tui: Any) -> None:
    app, session, pilot = tui
    screen = await enter_room(app, pilot, "create kriegspiel", KriegspielScreen)
    room = session.state.room(screen.room_id)
    await command(pilot, "bot kriegspiel-meta")
    await until(pilot, lambda: room.state == "playing")
    await pilot.pause()
    assert session.count("add_bot") == 1
    assert session.count("leave") == 0
    assert app.screen is screen
    assert not any("Refused" in m for m in app.messages)


async def test_typing_hotkey_letters_in_the_bot_box_does_not_leave(tui: Any) -> None:
    app, session, pilot = tui
    screen = await enter_room(app, pilot, "create perudo seats=3", PerudoScreen)
    box = screen.query_one("#botname", Input)
    box.focus()
    box.value = ""
    await pilot.pause()
    await type_text(pilot, "kriegspiel-meta")
    await pilot.pause()
    assert box.value == "kriegspiel-meta"
    assert session.count("leave") == 0 and session.count("add_bot") == 0
    assert app.screen is screen


async def test_leaving_a_running_game_asks_first(tui: Any) -> None:
    app, session, pilot = tui
    screen = await enter_room(app, pilot, "create perudo seats=2 dice=5", PerudoScreen)
    room = session.state.room(screen.room_id)
    await command(pilot, "bot autopilot")
    await until(pilot, lambda: room.state == "playing")
    screen.query_one("#log").focus()
    await pilot.press("l")
    await pilot.pause()
    assert session.count("leave") == 0
    assert app.screen is not screen  # the confirmation
    await pilot.press("n")
    await until(pilot, lambda: app.screen is screen)
    assert session.count("leave") == 0
    await pilot.press("l")
    await until(pilot, lambda: app.screen is not screen)
    await pilot.press("y")
    await until(pilot, lambda: session.count("leave") == 1)
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
    await pilot.pause(0.2)  # frames still in flight for the room left must not bring it back
    assert screen.room_id not in session.state.rooms


async def test_after_a_bid_hotkeys_work_again(tui: Any) -> None:
    app, session, pilot = tui
    screen = await enter_room(app, pilot, "create perudo seats=2 dice=5", PerudoScreen)
    room = session.state.room(screen.room_id)
    await command(pilot, "bot autopilot")
    await until(pilot, lambda: room.turn is not None)
    await pilot.pause()
    bid = screen.query_one("#bid", Input)
    bid.focus()
    await pilot.pause()
    await type_text(pilot, room.legal[0])
    await pilot.press("enter")
    await until(pilot, lambda: session.count("act") == 1)
    await pilot.pause()
    assert not isinstance(app.focused, Input)


async def test_join_by_invite_code_pasted(tui: Any, connect: Any) -> None:
    app, session, pilot = tui
    bob = await connect("bob")
    created = await bob.request("create_room", "created", game="perudo", options={}, public=False)
    code = created["invite"]
    await pilot.press("i")
    await pilot.pause()
    line = app.screen.query_one("#command", Input)
    assert app.focused is line and line.value == "invite "
    app.post_message(events.Paste(code))  # what a terminal sends for a paste
    await pilot.pause()
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, PerudoScreen))
    joins = [m for m in session.sent if m.get("type") == "join"]
    assert joins == [{"type": "join", "invite": code}]


async def test_the_log_wraps_and_the_hint_is_cleared_next_turn(tui: Any) -> None:
    app, session, pilot = tui
    screen = await enter_room(app, pilot, "create perudo seats=2 dice=5", PerudoScreen)
    room = session.state.room(screen.room_id)
    log = screen.query_one("#log", RichLog)
    words = " ".join(f"word{n}" for n in range(40))
    app.say(words)
    await pilot.pause()
    width = log.scrollable_content_region.width
    assert all(strip.cell_length <= width for strip in log.lines)
    assert "word39" in "".join(strip.text for strip in log.lines)

    await command(pilot, "bot autopilot")
    await until(pilot, lambda: room.turn is not None)
    screen.query_one("#log").focus()
    await pilot.press("h")
    hint = screen.query_one("#hint", Static)
    await until(pilot, lambda: "hint" in str(hint.render()).lower())
    assert hint.region.intersection(log.region).area == 0
    turn = room.turn
    await command(pilot, room.legal[0])
    await until(pilot, lambda: (room.turn is not None and room.turn is not turn) or room.over)
    await pilot.pause()
    assert str(hint.render()).strip() == ""


async def test_keys_follow_the_room_state_and_the_placing_is_shown(tui: Any) -> None:
    app, session, pilot = tui
    screen = await enter_room(app, pilot, "create perudo seats=2 dice=1", PerudoScreen)
    room = session.state.room(screen.room_id)
    assert screen.check_action("add_bot", ()) and not screen.check_action("dudo", ())
    await command(pilot, "bot autopilot")
    await until(pilot, lambda: room.state == "playing")
    await pilot.pause()
    assert not screen.check_action("add_bot", ()) and not screen.check_action("start", ())
    table = str(screen.query_one("#table", Static).render())
    assert "? di" not in table and table.count(": 1 die") == 2  # the bot's is inferred
    screen.query_one("#log").focus()
    await pilot.press("b", "s", "v")
    await pilot.pause()
    assert session.count("add_bot") == 1 and session.count("start") == 0
    while not room.over:
        await until(pilot, lambda: room.turn is not None or room.over)
        if room.turn is not None:
            turn = room.turn
            await command(pilot, "dudo" if "dudo" in room.legal else room.legal[0])
            await until(pilot, lambda t=turn: room.turn is not t or room.over)  # type: ignore[misc]
    await until(pilot, lambda: room.state == "finished")
    await pilot.pause()
    table = str(screen.query_one("#table", Static).render())
    assert "you placed 1st of 2" in table or "you placed 2nd of 2" in table
    assert screen.check_action("replay", ()) and not screen.check_action("dudo", ())


async def test_the_create_form_shows_the_chosen_game_only(tui: Any) -> None:
    app, _session, pilot = tui
    await pilot.press("c")
    await until(pilot, lambda: isinstance(app.screen, CreateScreen))
    form = app.screen
    await pilot.pause()
    assert form.query_one("#seats").display and not form.query_one("#rules").display
    form.query_one("#game", Select).value = "kriegspiel"
    await pilot.pause()
    assert not form.query_one("#seats").display and form.query_one("#rules").display
    form.query_one("#private", Checkbox).focus()
    await pilot.press("space")
    await pilot.pause()
    assert "yes" in str(form.query_one("#private", Checkbox).label)


async def test_any_is_offered_only_under_english_rules(tui: Any, connect: Any) -> None:
    app, session, pilot = tui
    screen = await enter_room(app, pilot, "create kriegspiel rules=wild16", KriegspielScreen)
    room = session.state.room(screen.room_id)
    bob = await connect("bob")
    await bob.request("join", "joined", room=screen.room_id)
    await until(pilot, lambda: room.turn is not None)
    await pilot.pause()
    assert screen.check_action("any", ()) is False
    assert not screen.query_one("#any").display
    screen.query_one("#board").focus()
    await pilot.press("y")
    await pilot.pause()
    assert session.count("act") == 0


async def test_a_restarted_client_opens_the_private_room_it_sits_in(server: UmpireServer) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    first = RecordingSession(url, "ana", retry=0.05)
    app = UmpireApp(first)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and first.ready.is_set())
        screen = await enter_room(app, pilot, "create perudo seats=2 private", PerudoScreen)
        room_id = screen.room_id
        await command(pilot, "bot autopilot")
        await until(pilot, lambda: first.state.room(room_id).state == "playing")
        await first.close()

    again = RecordingSession(url, "ana", retry=0.05)
    app = UmpireApp(again)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, PerudoScreen))
        assert getattr(app.screen, "room_id", None) == room_id
        await pilot.pause()
        await until(pilot, lambda: again.state.room(room_id).state == "playing")
        await pilot.pause()
        assert "ana (you)" in str(app.screen.query_one("#table", Static).render())
        assert again.count("join") == 0 and again.count("create_room") == 0
        await again.close()


async def test_the_lobby_lists_again_when_shown_again(tui: Any) -> None:
    app, session, pilot = tui
    await enter_room(app, pilot, "create perudo seats=3", PerudoScreen)
    before = session.count("list_rooms")
    app.screen.query_one("#log").focus()
    await pilot.press("escape")
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
    await until(pilot, lambda: session.count("list_rooms") == before + 1)


async def test_chat_typed_in_a_room_is_sent_once_and_shown(tui: Any) -> None:
    app, session, pilot = tui
    await enter_room(app, pilot, "create perudo seats=3", PerudoScreen)
    await command(pilot, "say hola dudo")
    await until(pilot, lambda: any("hola dudo" in m for m in app.messages))
    await pilot.pause()
    assert [m.get("text") for m in session.sent if m.get("type") == "say"] == ["hola dudo"]


async def test_the_lobby_lists_by_itself_while_shown(
    server: UmpireServer, monkeypatch: pytest.MonkeyPatch, connect: Any
) -> None:
    monkeypatch.setattr(LobbyScreen, "REFRESH_EVERY", 0.1)
    session = RecordingSession(f"ws://127.0.0.1:{server.port}", "ana", retry=0.05)
    app = UmpireApp(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: session.ready.is_set() and not session.state.lobby)
        bob = await connect("bob")
        await bob.request("create_room", "created", game="perudo", options={})
        await until(pilot, lambda: len(session.state.lobby) == 1)
        await pilot.pause()
        assert app.screen.query_one("#rooms", DataTable).row_count == 1
        await session.close()


async def test_the_lobby_lists_the_private_room_you_sit_in_after_a_reconnect(tui: Any) -> None:
    app, session, pilot = tui
    screen = await enter_room(app, pilot, "create perudo seats=2 private", PerudoScreen)
    room_id = screen.room_id
    await command(pilot, "bot autopilot")
    await until(pilot, lambda: session.state.room(room_id).state == "playing")
    before = session.connections
    await session.drop()
    await until(pilot, lambda: session.connections == before + 1 and session.ready.is_set())
    await until(pilot, lambda: session.state.room(room_id).state == "playing")
    screen.query_one("#log").focus()
    listed = session.count("list_rooms")
    await pilot.press("escape")
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
    lobby = app.screen
    await until(pilot, lambda: session.count("list_rooms") == listed + 1)
    await pilot.pause()
    assert all(r["room"] != room_id for r in session.state.lobby)  # private: not public
    table = lobby.query_one("#rooms", DataTable)
    assert room_id in table.rows
    row = table.get_row(room_id)
    assert "you: seat 0" in row and "playing" in row
    table.focus()
    table.move_cursor(row=table.get_row_index(room_id))
    joins = session.count("join")
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, PerudoScreen))
    assert getattr(app.screen, "room_id", None) == room_id
    assert session.count("join") == joins  # shown, not joined again


async def pick(pilot: Pilot[Any], index: int) -> None:
    """Open the focused picker with Enter, go down to its ``index``-th value, Enter."""
    await pilot.press("enter", *["down"] * (index + 1), "enter")
    await pilot.pause()


async def test_the_bid_pickers_lead_to_the_bid_and_start_afresh_each_turn(
    tui: Any, connect: Any
) -> None:
    app, session, pilot = tui
    screen = await enter_room(app, pilot, "create perudo seats=2 dice=5", PerudoScreen)
    room = session.state.room(screen.room_id)
    bob = await connect("bob")
    await bob.request("join", "joined", room=screen.room_id)
    await until(pilot, lambda: room.state == "playing")
    if room.turn is None:  # bob starts: he bids first
        turn = await bob.expect("turn")
        await bob.send(type="act", room=screen.room_id, action="1x2")
    await until(pilot, lambda: room.turn is not None)
    await pilot.pause()
    quantity = screen.query_one("#quantity", Select)
    face = screen.query_one("#face", Select)
    quantity.focus()
    await pilot.pause()
    quantities = sorted({int(a.split("x")[0]) for a in room.legal if "x" in a})
    await pick(pilot, 0)
    assert quantity.value == quantities[0]
    assert app.focused is face  # on to the face
    faces = [f for f in range(1, 7) if f"{quantities[0]}x{f}" in room.legal]
    await pick(pilot, 1)  # the second face legal with that quantity, not the second face
    assert face.value == faces[1]
    bid = f"{quantities[0]}x{faces[1]}"
    assert screen.query_one("#bid", Input).value == bid
    assert app.focused is screen.query_one("#bid_button")  # Enter bids
    await pilot.press("enter")
    await until(pilot, lambda: session.count("act") == 1)
    assert [m["action"] for m in session.sent if m["type"] == "act"] == [bid]
    turn = await bob.expect("turn")
    raise_ = next(a for a in turn["legal"] if "x" in a)
    mine = room.turn
    await bob.send(type="act", room=screen.room_id, action=raise_)
    await until(pilot, lambda: room.turn is not None and room.turn is not mine)
    await pilot.pause()
    assert not isinstance(app.focused, (Input, Select))  # the keys work again
    assert quantity.is_blank() and face.is_blank()  # nothing stale from the last bid
    assert screen.query_one("#bid", Input).value == ""
    await pilot.press("d")
    await until(pilot, lambda: session.count("act") == 2)
    assert [m["action"] for m in session.sent if m["type"] == "act"] == [bid, "dudo"]
