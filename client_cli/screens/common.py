"""What every room screen shares: the command line, the message log, the waiting-room bar."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import ModalScreen, Screen
from textual.suggester import SuggestFromList
from textual.widgets import Button, Footer, Header, Input, Label, RichLog, Static

from client_cli import games
from client_cli.catalogue import GameInfo
from client_cli.state import RoomState

if TYPE_CHECKING:
    from client_cli.app import UmpireApp


class CommandLine(Input):
    """The bottom line: any ``--plain`` command (``help`` lists them)."""

    def __init__(self) -> None:
        super().__init__(
            placeholder="command (help lists them): e.g. rooms, legal, say hello",
            id="command",
            select_on_focus=False,  # `i` writes "invite " here: a paste must add to it
        )


def message_log(max_lines: int = 1000) -> RichLog:
    """The log: long lines wrap at the log's own width (not at RichLog's default 78)."""
    return RichLog(id="log", wrap=True, max_lines=max_lines, min_width=20)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question before something that cannot be undone (``y`` or ``n``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        ("y", "answer(True)", "Yes"),
        ("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Label(self.question)
            with Horizontal():
                yield Button("Yes (y)", id="yes", variant="error")
                yield Button("No (n)", id="no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The buttons answer too."""
        self.dismiss(event.button.id == "yes")


class ClientScreen(Screen[None]):
    """A screen that shows the client state and has a command line and a log."""

    BINDINGS: ClassVar[list[BindingType]] = [
        ("escape", "back", "Back"),
        ("question_mark,f1", "app.help", "Help"),
    ]

    @property
    def client(self) -> UmpireApp:
        """The running app (typed)."""
        from client_cli.app import UmpireApp

        app = self.app
        assert isinstance(app, UmpireApp)
        return app

    def refresh_view(self) -> None:
        """Redraw from the client state (called after every frame)."""

    def safe_refresh(self) -> None:
        """:meth:`refresh_view`, skipped while the screen's widgets are not composed yet."""
        with contextlib.suppress(NoMatches):
            self.refresh_view()

    def write(self, *lines: str) -> None:
        """Add lines to this screen's log."""
        for log in self.query("#log").results(RichLog):
            for line in lines:
                log.write(line)

    @on(Input.Submitted, "#command")
    async def run_command_line(self, event: Input.Submitted) -> None:
        """Run the command line, once (other inputs have their own handlers).

        A handler named ``on_input_submitted`` would be called by textual once for every
        class of the screen that defines one, so each input gets its own ``@on`` handler.
        """
        event.stop()
        line = event.value
        event.input.value = ""
        await self.client.run_line(line)

    def action_back(self) -> None:
        """Back to the lobby (the room keeps being followed)."""
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()


class RoomScreen(ClientScreen):
    """A screen for one room: waiting-room controls plus the game's own widgets (each
    game's module subclasses it with its table or board)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        ("b", "add_bot", "Add bot"),
        ("s", "start", "Start"),
        ("l", "leave", "Leave"),
        ("v", "replay", "Replay"),
        ("m", "rematch", "Rematch"),
    ]

    #: a new room screen (after ``create``, a join, ``room``) types into its command line
    AUTO_FOCUS = "#command"

    #: actions (keys) that make sense only while this client plays the running game
    PLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, room_id: str) -> None:
        super().__init__()
        self.room_id = room_id
        self._last: RoomState | None = None
        self._heard = False  #: whether the log holds what the room heard before the mount

    def write(self, *lines: str) -> None:
        """Add lines to the log once it holds the room's history (:meth:`show_first`): a
        line said between the push and the mount is in that history already."""
        if self._heard:
            super().write(*lines)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer (in the footer, and on its key) only what the room's state allows (and
        hints only in a game the server gives hints for)."""
        room = self.room
        if action == "hint" and not self.hints():
            return False
        if action in ("add_bot", "start"):
            return room.state == "waiting"
        if action == "replay":
            return room.over
        if action == "rematch":
            return room.over and room.seat is not None
        if action in self.PLAY_ACTIONS:
            # a letter typed while no widget has the focus never plays a move
            return room.state == "playing" and room.seat is not None and self.focused is not None
        return True

    @property
    def room(self) -> RoomState:
        """This screen's room state (a room left is not made again by looking at it: the
        screen keeps showing what it last knew)."""
        state = self.client.session.state
        room = state.rooms.get(self.room_id)
        if room is None and self.room_id in state.left:
            room = self._last or RoomState(room=self.room_id, lang=state.lang)
        elif room is None:
            room = state.room(self.room_id)
        self._last = room
        return room

    @property
    def game(self) -> games.ClientGame:
        """The client module of this room's game."""
        return games.game(self.room.game)

    def info(self) -> GameInfo | None:
        """What the server's catalogue says of this room's game (None before it came)."""
        catalogue = self.client.session.state.catalogue
        return catalogue.game(self.room.game) if catalogue is not None else None

    def hints(self) -> bool:
        """Whether the server gives hints in this room's game."""
        info = self.info()
        return info is not None and info.hints

    def game_title(self) -> str:
        """The game's title as the server's catalogue gives it (else its name)."""
        info = self.info()
        return info.label if info is not None else self.room.game

    def bot_names(self) -> list[str]:
        """The house bots the server offers for this room's game (from its catalogue)."""
        info = self.info()
        return info.bot_names() if info is not None else []

    def show_first(self, heard: list[str]) -> None:
        """On mounting: title the screen with its game, write what the room heard so far
        into the log, and draw the room."""
        self.title = f"umpire · {self.game_title()}"
        self.sub_title = self.room_id
        self._heard = True
        self.write(*heard)
        self.refresh_view()

    def waiting_bar(self) -> ComposeResult:
        """The waiting room's controls: bot name (free text, the game's house bots
        suggested, the first of them written in), add, start, leave."""
        names = self.bot_names()
        with Horizontal(id="waiting"):
            yield Input(
                value=names[0] if names else "",
                placeholder="bot name",
                suggester=SuggestFromList(names, case_sensitive=False),
                id="botname",
            )
            yield Button("Add bot (b)", id="add_bot")
            yield Button("Start (s)", id="start", variant="success")
            yield Button("Leave (l)", id="leave")

    def show_waiting(self) -> None:
        """Show the waiting bar only before the start."""
        for bar in self.query("#waiting"):
            bar.display = self.room.state == "waiting"

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        """Buttons run the same commands as the keys."""
        handler: Any = getattr(self, f"action_{event.button.id}", None)
        if handler is not None:
            await handler()

    @on(Input.Submitted, "#botname")
    async def submit_bot_name(self, event: Input.Submitted) -> None:
        """Enter in the bot box adds that bot."""
        event.stop()
        await self.action_add_bot()

    async def action_add_bot(self) -> None:
        """Add the bot named in the bot box."""
        name = self.query_one("#botname", Input).value.strip()
        await self.client.run_line(f"bot {name}" if name else "bot")

    async def action_start(self) -> None:
        """Start the game now (host)."""
        await self.client.run_line("start")

    async def action_leave(self) -> None:
        """Leave the room and go back to the lobby (asking first during a game you play)."""
        room = self.room
        if room.state == "playing" and room.seat is not None:
            question = "Leave this game while it is running? (y: leave · n: stay)"
            self.app.push_screen(ConfirmScreen(question), self._leave_confirmed)
            return
        await self._leave()

    async def _leave_confirmed(self, yes: bool | None) -> None:
        if yes:
            await self._leave()

    async def _leave(self) -> None:
        await self.client.run_line("leave")
        self.action_back()

    async def action_rematch(self) -> None:
        """Offer (or accept) a rematch once the game is over: the new room opens when all
        the players accept."""
        await self.client.run_line("rematch")

    async def action_replay(self) -> None:
        """Open the replay of this room once it is over."""
        await self.client.open_replay(self.room_id)

    def on_screen_resume(self) -> None:
        """Point the command line's room at this screen's room."""
        self.client.session.state.current = self.room_id
        self.safe_refresh()


class TextScreen(RoomScreen):
    """A room of a game the client has no screen for: its text picture and the log."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            yield Static(id="table")
            yield message_log()
        yield from self.waiting_bar()
        yield CommandLine()
        yield Footer()

    def on_mount(self) -> None:
        self.show_first(self.room.log)

    def refresh_view(self) -> None:
        """Redraw the game's picture and the waiting bar."""
        self.query_one("#table", Static).update("\n".join(self.game.lines(self.room)))
        self.show_waiting()
        self.refresh_bindings()
