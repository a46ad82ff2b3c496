"""The TUI plays a whole Goofspiel game with real keys (issue 31).

Goofspiel exists only in the tests (``tests/games/goofspiel.py``): registered on the
server at run time, it reaches the terminal client through the server's catalogue (the
create form offers it, with its own options) and is shown by its small module under
``client_cli/games/``; nothing else in the client knows it. Ana plays against a scripted
websocket opponent who always bids his lowest card, while she bids her highest: with
three cards she takes the first prize, the second is a tie, and he takes the last.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.widget import Widget
from textual.widgets import Input, RichLog, Select, Static

from client_cli.app import UmpireApp
from client_cli.games.goofspiel import model_of
from client_cli.games.goofspiel.screen import GoofspielScreen
from client_cli.screens.create import CreateScreen
from client_cli.screens.replay import ReplayScreen
from client_cli.state import RoomState
from server.games import register
from server.net.app import UmpireServer
from tests.client.pilot import RecordingSession, in_the_lobby, type_text, until
from tests.server.wsclient import WsClient

register("goofspiel", "tests.games.goofspiel")

CARDS = 3


def focused(app: UmpireApp) -> Widget | None:
    """``app.focused`` read anew: mypy keeps an asserted ``app.focused is game`` narrowed
    across the keys pressed since."""
    return app.focused


def is_over(room: RoomState) -> bool:
    """``room.over`` read anew (as :func:`focused`: the loop's test narrows it)."""
    return room.over


def outcome(scores: list[int]) -> str:
    """The result line's words for ana's and bob's scores."""
    if scores[0] == scores[1]:
        return "draw (all cards played) · you placed 1st of 2"
    place = "1st" if scores[0] > scores[1] else "2nd"
    winner = "ana" if scores[0] > scores[1] else "bob"
    return f"{winner} won (all cards played) · you placed {place} of 2"


async def lowest_card_always(bob: WsClient, room: str) -> dict[str, Any]:
    """Bob bids the lowest card offered at every turn; return the game_over event."""
    while True:
        frame = await bob.next(timeout=20)
        if frame.get("room") != room:
            continue
        assert frame["type"] != "error", frame
        if frame["type"] == "turn":
            await bob.send(type="act", room=room, action=frame["legal"][0])
        elif frame["type"] == "event" and frame["event"]["type"] == "game_over":
            return dict(frame["event"])


async def test_a_whole_goofspiel_game_with_real_keys(
    server: UmpireServer, connect: Callable[..., Any]
) -> None:
    session = RecordingSession(f"ws://127.0.0.1:{server.port}", "ana", retry=0.05)
    app = UmpireApp(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await in_the_lobby(app, pilot)
        catalogue = session.state.catalogue
        assert catalogue is not None and "goofspiel" in catalogue.names

        # the create form, from the catalogue: choose the game, then its own option
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CreateScreen))
        form = app.screen
        await pilot.pause()
        game = form.query_one("#game", Select)
        assert app.focused is game
        index = catalogue.names.index("goofspiel") - catalogue.names.index("perudo")
        await pilot.press("enter", *["down"] * index, "enter")
        await pilot.pause()
        assert game.value == "goofspiel"
        assert form.query_one("#fields-goofspiel").display
        cards = form.query_one("#goofspiel-cards", Input)
        while focused(app) is not cards:
            await pilot.press("tab")
        await type_text(pilot, str(CARDS))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GoofspielScreen))
        screen = app.screen
        assert isinstance(screen, GoofspielScreen)
        [create] = [m for m in session.sent if m["type"] == "create_room"]
        assert create["game"] == "goofspiel" and create["options"] == {"cards": CARDS}
        room = session.state.room(screen.room_id)

        bob = await connect("bob")
        await bob.request("join", "joined", room=screen.room_id)
        opponent = asyncio.create_task(lowest_card_always(bob, screen.room_id))
        await until(pilot, lambda: room.state == "playing")
        await pilot.pause()
        # issue 29: after the screen change the typing lands in the command line
        assert focused(app) is screen.query_one("#command", Input)

        # a card not in the hand is refused before sending; the command line takes a bid
        await until(pilot, lambda: room.turn is not None)
        line = screen.query_one("#command", Input)
        line.focus()
        await type_text(pilot, f"bid {CARDS + 4}")
        await pilot.press("enter")
        assert any(f"{CARDS + 4} is not in your hand" in m for m in app.messages)
        screen.query_one("#log", RichLog).focus()

        while not room.over:
            await until(pilot, lambda: room.turn is not None or room.over)
            if is_over(room):
                break
            await pilot.pause()
            table = str(screen.query_one("#table", Static).render())
            assert "YOUR TURN" in table and "Your hand: " in table
            turn, card = room.turn, room.legal[-1]

            def played(t: dict[str, Any] | None = turn) -> bool:
                return room.turn is not t or room.over

            await pilot.press("e")
            assert focused(app) is screen.query_one("#card", Input)
            await type_text(pilot, card)
            await pilot.press("enter")
            await until(pilot, played)
            assert not isinstance(focused(app), Input)  # back to the log: keys work again
        over = await asyncio.wait_for(opponent, 20)
        await until(pilot, lambda: room.state == "finished")
        await pilot.pause()

        # what went over the wire: one act per round, her highest card each time
        acts = [m["action"] for m in session.sent if m["type"] == "act"]
        assert acts == [str(card) for card in range(CARDS, 0, -1)]
        assert session.count("add_bot") == 0 and session.count("leave") == 0
        # 3 against 1, a tie of 2s, 1 against 3: she takes the first prize, he the last
        prizes = [e["card"] for e in room.history.values() if e["type"] == "prize"]
        scores = [prizes[0], prizes[2]]
        assert over["scores"] == scores and model_of(room).scores == scores
        table = str(screen.query_one("#table", Static).render())
        assert f"0 ana (you): {scores[0]}" in table and f"1 bob: {scores[1]}" in table
        assert "RESULT: " + outcome(scores) in table
        assert "You bid 3." in app.messages and "bob bids a card." in app.messages
        assert any(m.startswith("Bids: ana 2, bob 2. A tie") for m in app.messages)
        assert any(m.startswith("Game over: ") for m in app.messages)

        screen.query_one("#log", RichLog).focus()
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        await pilot.press("end")
        assert "Game over" in str(replay.query_one("#caption", Static).render())
        await session.close()
