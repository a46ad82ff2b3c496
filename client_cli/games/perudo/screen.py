"""The Perudo table: players and dice, the round's bids, bid entry, Dudo, Calza, hints."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Header, Input, RichLog, Select, Static

from client_cli import commands
from client_cli.games.perudo.model import PerudoModel
from client_cli.games.perudo.text import model_of
from client_cli.screens.common import CommandLine, RoomScreen, message_log
from client_cli.state import describe_hint
from server.games.perudo_actions import Bid

Json = dict[str, Any]


def legal_bids(legal: list[str]) -> list[Bid]:
    """The bids among a turn's legal actions."""
    return [Bid.parse(a) for a in legal if a not in ("dudo", "calza")]


class PerudoScreen(RoomScreen):
    """One Perudo room, before, during and after the game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        ("d", "dudo", "Dudo"),
        ("a", "calza", "Calza"),
        ("h", "hint", "Hint"),
        ("e", "focus_bid", "Enter a bid"),
    ]
    PLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset({"dudo", "calza", "hint", "focus_bid"})
    DEFAULT_CSS = """
    #side { width: 1fr; }
    #hint { height: auto; max-height: 8; overflow-y: auto; color: $warning; }
    #bid { width: 19; }
    #quantity, #face { width: 11; }
    #controls Button { min-width: 6; width: auto; }
    """

    def __init__(self, room_id: str) -> None:
        super().__init__(room_id)
        self._hint: Json | None = None
        self._hint_turn: Json | None = None
        self._picker_turn: Json | None = None  #: the turn the pickers were set up for

    @property
    def model(self) -> PerudoModel:
        """The room's Perudo table."""
        return model_of(self.room)

    def compose(self) -> ComposeResult:
        words = self.model.words
        yield Header()
        with Horizontal(id="main"):
            yield Static(id="table")
            with Vertical(id="side"):
                yield Static("", id="hint")
                yield message_log()
        yield from self.waiting_bar()
        with Horizontal(id="controls"):
            yield Input(placeholder=words("bid_box"), id="bid")
            yield Select[int]([], prompt=words("quantity"), id="quantity")
            faces = [(str(f), f) for f in range(1, 7)]
            yield Select[int](faces, prompt=words("face"), id="face")
            yield Button(words("bid_button"), id="bid_button", variant="primary")
            yield Button(words("dudo_button"), id="dudo", variant="error")
            yield Button(words("calza_button"), id="calza", variant="warning")
            yield Button(words("hint_button"), id="hint_button")
        yield CommandLine()
        yield Footer()

    def on_mount(self) -> None:
        self.show_first(self.room.log)

    def refresh_view(self) -> None:
        """Redraw the table and enable what the turn allows."""
        room = self.room
        self.query_one("#table", Static).update("\n".join(self.game.lines(room)))
        self.show_waiting()
        self.refresh_bindings()
        legal = room.legal
        self.query_one("#controls").display = room.state != "waiting" and room.seat is not None
        self.query_one("#dudo", Button).disabled = "dudo" not in legal
        self.query_one("#calza", Button).disabled = "calza" not in legal
        self.query_one("#calza", Button).display = self.model.table.calza_allowed
        self.query_one("#bid_button", Button).disabled = not legal
        self.query_one("#hint_button", Button).display = self.hints()
        if room.turn is not self._picker_turn:
            self._picker_turn = room.turn
            self._reset_pickers(legal)
        self._show_hint()

    def _show_hint(self) -> None:
        """Show a new hint for this room, if it was worked out for the game as it stands
        (a hint may come after later events); clear the box once its turn is over."""
        box = self.query_one("#hint", Static)
        hint = self.client.session.state.last_hint
        current = hint is not None and hint.get("seq", self.room.seq) == self.room.seq
        if hint is not None and hint.get("room") == self.room_id and hint is not self._hint:
            if not current:
                self._hint = hint  # stale: the game went on while it was worked out
                return
            self._hint, self._hint_turn = hint, self.room.turn
            box.update(describe_hint(hint))
        elif self._hint_turn is not None and self.room.turn is not self._hint_turn:
            self._hint_turn = None
            box.update("")

    def _reset_pickers(self, legal: list[str]) -> None:
        """A new turn (or none): blank pickers offering this turn's quantities and faces."""
        bids = legal_bids(legal)
        self._set_options("#quantity", sorted({b.quantity for b in bids}))
        self._set_options("#face", sorted({b.face for b in bids}) or list(range(1, 7)))

    def _set_options(self, picker_id: str, values: list[int]) -> None:
        picker: Select[int] = self.query_one(picker_id, Select)
        with picker.prevent(Select.Changed):
            picker.set_options([(str(v), v) for v in values])

    @on(Select.Changed, "#quantity")
    def quantity_picked(self, event: Select.Changed) -> None:
        """A quantity: offer only the faces legal with it, and go on to the face."""
        quantity = event.value
        if not isinstance(quantity, int):
            return
        face: Select[int] = self.query_one("#face", Select)
        before = face.value
        faces = [b.face for b in legal_bids(self.room.legal) if b.quantity == quantity]
        self._set_options("#face", faces)
        if before in faces:
            with face.prevent(Select.Changed):
                face.value = before
        self._write_bid()
        if event.select.has_focus_within:
            face.focus()

    @on(Select.Changed, "#face")
    def face_picked(self, event: Select.Changed) -> None:
        """A face: with a quantity the bid is complete, so Enter on the Bid button sends it."""
        if self._write_bid() and event.select.has_focus_within:
            self.query_one("#bid_button", Button).focus()

    def _write_bid(self) -> bool:
        """The pickers write their bid into the bid box; True when both are chosen."""
        quantity = self.query_one("#quantity", Select).value
        face = self.query_one("#face", Select).value
        if isinstance(quantity, int) and isinstance(face, int):
            self.query_one("#bid", Input).value = f"{quantity}x{face}"
            return True
        return False

    @on(Input.Submitted, "#bid")
    async def submit_bid(self, event: Input.Submitted) -> None:
        """Enter in the bid box bids."""
        event.stop()
        await self.action_bid_button()

    async def action_bid_button(self) -> None:
        """Bid what the bid box says (checked against the legal bids before sending)."""
        box = self.query_one("#bid", Input)
        text = box.value.strip()
        if not text:
            self.client.say(self.model.words("type_a_bid"))
            return
        move = commands.parse(text, self.client.session.state).message
        if await self.client.run_line(text):
            box.value = ""
            if move is not None and move.get("type") == "act":
                self.focus_table()  # after a bid the keys play; after ``say`` typing goes on

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """As for every room, and calza only where the room's rules have it."""
        if action == "calza" and not self.model.table.calza_allowed:
            return False
        return super().check_action(action, parameters)

    def focus_table(self) -> None:
        """Put the focus on the log after an action, so the single-letter keys work again."""
        self.query_one("#log", RichLog).focus()

    async def action_dudo(self) -> None:
        """Call dudo on the last bid."""
        if await self.client.run_line("dudo"):
            self.focus_table()

    async def action_calza(self) -> None:
        """Call calza (when the table allows it)."""
        if await self.client.run_line("calza"):
            self.focus_table()

    async def action_hint(self) -> None:
        """Ask the expert for a suggestion; its explanation shows above the log."""
        box = self.query_one("#hint", Static)
        box.update(self.model.words("asking"))
        self._hint_turn = self.room.turn
        before = self.client.session.state.last_hint
        await self.client.run_line("hint")
        hint = self.client.session.state.last_hint
        if hint is None or hint is before or hint.get("room") != self.room_id:
            box.update(self.model.words("no_hint"))
        else:
            self._show_hint()

    async def action_hint_button(self) -> None:
        """The Hint button."""
        await self.action_hint()

    def action_focus_bid(self) -> None:
        """Move the focus to the bid box."""
        self.query_one("#bid", Input).focus()
