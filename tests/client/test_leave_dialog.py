"""Issue 29: at 80x24 the leave dialog shows its whole question and both buttons."""

from __future__ import annotations

from textual.widgets import Button, Label

from client_cli.app import UmpireApp
from client_cli.screens.common import ConfirmScreen
from client_cli.session import Session

QUESTION = "Leave this game while it is running? (y: leave · n: stay)"


async def test_the_leave_dialog_fits_80x24() -> None:
    app = UmpireApp(Session("ws://127.0.0.1:9", "ana", retry=0.05))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = ConfirmScreen(QUESTION)
        await app.push_screen(dialog)
        await pilot.pause()
        box = dialog.query_one("#confirm")
        label = dialog.query_one(Label)
        assert box.content_region.contains_region(label.region)  # wrapped, not cut off
        assert label.region.height * label.region.width >= len(QUESTION)
        assert box.region.height < 24  # a dialog, not the whole screen
        for name in ("#yes", "#no"):
            button = dialog.query_one(name, Button)
            region = button.region
            assert region.width >= len(str(button.label)) and region.height >= 1
            assert region.right <= 80 and region.bottom <= 24
            assert box.content_region.contains_region(region)
        await app.session.close()
