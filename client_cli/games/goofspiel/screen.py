"""The Goofspiel table: the prize, the scores, your hand, and a box for your card."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.widgets import Button, Footer, Header, Input, RichLog, Static

from client_cli.games.goofspiel import model_of
from client_cli.screens.common import CommandLine, TextScreen, message_log


class GoofspielScreen(TextScreen):
    """One Goofspiel room: its picture, the log, and the card box (``e`` goes to it)."""

    BINDINGS: ClassVar[list[BindingType]] = [("e", "focus_card", "Enter a card")]
    PLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset({"focus_card"})

    def compose(self) -> ComposeResult:
        words = model_of(self.room).words
        yield Header()
        with Horizontal(id="main"):
            yield Static(id="table")
            yield message_log()
        yield from self.waiting_bar()
        with Horizontal(id="controls"):
            yield Input(placeholder=words("card_box"), id="card")
            yield Button(words("bid_button"), id="bid_card", variant="primary")
        yield CommandLine()
        yield Footer()

    def refresh_view(self) -> None:
        """Redraw the picture; the card box only for a player of the running game."""
        super().refresh_view()
        room = self.room
        self.query_one("#controls").display = room.state == "playing" and room.seat is not None
        self.query_one("#bid_card", Button).disabled = not room.legal

    @on(Input.Submitted, "#card")
    async def submit_card(self, event: Input.Submitted) -> None:
        """Enter in the card box bids that card."""
        event.stop()
        await self.action_bid_card()

    async def action_bid_card(self) -> None:
        """Bid the card in the box (checked against your hand before sending); then the
        focus goes to the log, so the keys work again."""
        box = self.query_one("#card", Input)
        card = box.value.strip()
        if card and await self.client.run_line(f"bid {card}"):
            box.value = ""
            self.query_one("#log", RichLog).focus()

    def action_focus_card(self) -> None:
        """Move the focus to the card box."""
        self.query_one("#card", Input).focus()
