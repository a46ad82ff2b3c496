"""Issue 29: the Kriegspiel replay's TUI captions show the SAN (``[f3]`` was read as
markup and vanished); a caption, a panel or a note is shown as the text it is."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Static

from client_cli.games import Replay, Step
from client_cli.screens.replay import ReplayScreen


async def test_the_caption_shows_the_san_in_brackets() -> None:
    replay = Replay(room="r1", game="kriegspiel")
    replay.steps.append(Step(caption="White moved. [f3]", panel=["[b] [/x]"]))
    replay.notes.append("[bold]not markup")
    app: App[None] = App()
    async with app.run_test() as pilot:
        screen = ReplayScreen(replay)
        await app.push_screen(screen)
        await pilot.pause()
        assert str(screen.query_one("#caption", Static).render()).endswith("White moved. [f3]")
        assert str(screen.query_one("#panel", Static).render()) == "[b] [/x]"
        assert str(screen.query_one("#notes", Static).render()) == "[bold]not markup"
