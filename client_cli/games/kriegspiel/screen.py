"""The Kriegspiel board: own pieces, private markers, the umpire's log, both clocks."""

from __future__ import annotations

from typing import ClassVar

import chess
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Footer, Header, Static

from client_cli.games.kriegspiel.model import KriegBoard
from client_cli.games.kriegspiel.text import board_lines, model_of, status_lines
from client_cli.render import seats_lines
from client_cli.screens.common import CommandLine, RoomScreen, message_log


class BoardView(Widget, can_focus=True):
    """The player's own board; a cursor to choose squares and to place markers."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(0, 1)", "Up", show=False),
        Binding("down", "cursor(0, -1)", "Down", show=False),
        Binding("left", "cursor(-1, 0)", "Left", show=False),
        Binding("right", "cursor(1, 0)", "Right", show=False),
        Binding("space,enter", "choose", "Choose square"),
        Binding("x", "unmark", "Clear mark"),
    ]

    class Attempt(Message):
        """The player chose a from-square and a to-square."""

        def __init__(self, uci: str) -> None:
            super().__init__()
            self.uci = uci

    def __init__(self, model: KriegBoard, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = model
        self.cursor = chess.E2 if model.color != "black" else chess.E7
        self.selected: int | None = None
        #: whether p n b r q k place markers (during the game: before it, ``b`` adds a bot)
        self.marking = False

    @property
    def white_bottom(self) -> bool:
        """Whether white sits at the bottom (it does unless you play black)."""
        return self.model.color != "black"

    def render(self) -> Text:
        text = Text()
        lines = board_lines(
            self.model.board,
            white_bottom=self.white_bottom,
            markers=self.model.markers,
            cursor=self.cursor if self.has_focus else None,
            selected=self.selected,
        )
        for line in lines:
            if line.startswith("    "):
                text.append(line + "\n", style="dim")
                continue
            for index, char in enumerate(line):
                style = ""
                if char.isalpha():
                    if index > 0 and line[index - 1] == "(":
                        style = "italic red"
                    else:
                        style = "bold bright_white" if char.isupper() else "bold cyan"
                elif char in "()":
                    style = "red"
                elif char in "<>[]":
                    style = "bold yellow"
                text.append(char, style=style)
            text.append("\n")
        return text

    def square_at(self, x: int, y: int) -> int | None:
        """The square under a click at ``(x, y)`` in the widget, if any."""
        row, col = y - 1, (x - 3) // 3
        if not (0 <= row < 8 and 0 <= col < 8 and x >= 3):
            return None
        if self.white_bottom:
            return chess.square(col, 7 - row)
        return chess.square(7 - col, row)

    def on_click(self, event: events.Click) -> None:
        """Clicking a square chooses it."""
        square = self.square_at(event.x, event.y)
        if square is not None:
            self.cursor = square
            self.focus()
            self.action_choose()

    def action_cursor(self, dx: int, dy: int) -> None:
        """Move the cursor (directions as seen on screen)."""
        if not self.white_bottom:
            dx, dy = -dx, -dy
        file = min(7, max(0, chess.square_file(self.cursor) + dx))
        rank = min(7, max(0, chess.square_rank(self.cursor) + dy))
        self.cursor = chess.square(file, rank)
        self.refresh()

    def action_choose(self) -> None:
        """First choice: the piece's square; second: where it goes (queen on promotion)."""
        piece = self.model.board.piece_at(self.cursor)
        mine = piece is not None and (piece.color == chess.WHITE) == (self.model.color == "white")
        if self.selected is None or (mine and self.cursor != self.selected):
            self.selected = self.cursor if mine else None
        elif self.cursor == self.selected:
            self.selected = None
        else:
            move = chess.Move(self.selected, self.cursor)
            moving = self.model.board.piece_at(self.selected)
            last_rank = chess.square_rank(self.cursor) in (0, 7)
            if moving is not None and moving.piece_type == chess.PAWN and last_rank:
                move.promotion = chess.QUEEN
            self.selected = None
            self.post_message(self.Attempt(move.uci()))
        self.refresh()

    def on_key(self, event: events.Key) -> None:
        """p n b r q k: mark a suspected enemy piece under the cursor."""
        if not self.marking:
            return
        if event.character and event.character in "pnbrqk" and len(event.character) == 1:
            if self.model.board.piece_at(self.cursor) is None:
                self.model.mark(chess.square_name(self.cursor), event.character)
                self.refresh()
            event.stop()

    def action_unmark(self) -> None:
        """Clear the marker under the cursor."""
        self.model.mark(chess.square_name(self.cursor), None)
        self.refresh()


class KriegspielScreen(RoomScreen):
    """One Kriegspiel room, before, during and after the game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        ("y", "any", "Any?"),
        ("o", "offer_draw", "Offer draw"),
    ]
    PLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset({"any", "offer_draw"})
    DEFAULT_CSS = """
    #boardbox { width: 40; }
    #board { height: 11; width: 36; padding: 0 1; }
    #status { height: auto; padding: 0 1; }
    """

    def __init__(self, room_id: str) -> None:
        super().__init__(room_id)
        self._board_given = False  #: the board took the focus when the game began

    @property
    def model(self) -> KriegBoard:
        """The room's board."""
        return model_of(self.room)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """As for every room, and "any?" only under the rules that have it (english)."""
        if action == "any" and self.model.rules != "english":
            return False
        return super().check_action(action, parameters)

    def compose(self) -> ComposeResult:
        words = self.model.words
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="boardbox"):
                yield BoardView(self.model, id="board")
                yield Static(id="status")
            yield message_log()
        yield from self.waiting_bar()
        with Horizontal(id="controls"):
            yield Button(words("any_button"), id="any")
            yield Button(words("offer_button"), id="offer_draw")
            yield Button(words("accept_button"), id="accept_draw")
            yield Button(words("decline_button"), id="decline_draw")
            yield Button(words("resign_button"), id="resign", variant="error")
        yield CommandLine()
        yield Footer()

    def on_mount(self) -> None:
        self.show_first(self.model.log)
        self.set_interval(0.5, self._tick)

    def _tick(self) -> None:
        if self.room.clock is not None and not self.room.over:
            self._status()

    def _status(self) -> None:
        room = self.room
        if room.state == "waiting":
            lines = seats_lines(room)
        else:
            model = self.model
            color = model.color_name(model.color) if model.color else model.words("spectator")
            lines = [model.words("status", rules=model.rules, color=color)]
            lines += status_lines(room, short=True)
        self.query_one("#status", Static).update("\n".join(lines))

    def refresh_view(self) -> None:
        """Redraw the board and the status from the room state."""
        board = self.query_one("#board", BoardView)
        board.model = self.model
        board.marking = self.room.state == "playing"
        board.refresh()
        if board.marking and self.room.seat is not None and not self._board_given:
            self._board_given = True  # the game began: the board takes the typing, once
            line = self.query_one("#command", CommandLine)
            if self.focused is None or (self.focused is line and not line.value):
                board.focus()
        self._status()
        self.show_waiting()
        self.refresh_bindings()
        legal = set(self.room.legal)
        self.query_one("#any", Button).display = self.model.rules == "english"
        self.query_one("#controls").display = (
            self.room.state == "playing" and self.room.seat is not None
        )
        self.query_one("#any", Button).disabled = "any" not in legal
        draw = self.model.draw_offer
        offered_to_me = draw is not None and draw != self.model.color
        self.query_one("#accept_draw", Button).disabled = not offered_to_me
        self.query_one("#decline_draw", Button).disabled = not offered_to_me

    async def on_board_view_attempt(self, message: BoardView.Attempt) -> None:
        """Squares chosen on the board: try that move."""
        await self.client.run_line(message.uci)

    async def action_any(self) -> None:
        """Ask "Are there any?" (english rules)."""
        await self.client.run_line("any")

    async def action_offer_draw(self) -> None:
        """Offer a draw."""
        await self.client.run_line("draw")

    async def action_accept_draw(self) -> None:
        """Accept the opponent's draw offer."""
        await self.client.run_line("accept")

    async def action_decline_draw(self) -> None:
        """Decline the opponent's draw offer."""
        await self.client.run_line("decline")

    async def action_resign(self) -> None:
        """Resign the game."""
        await self.client.run_line("resign")
