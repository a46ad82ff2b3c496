"""The textual app of ``umpire play``: screens over one :class:`~client_cli.session.Session`.

The app owns no game logic: frames go to the shared :class:`~client_cli.state.ClientState`,
commands go through :mod:`client_cli.commands` and :mod:`client_cli.controller` exactly as
in ``--plain``, and the screens redraw from the state after every frame.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from client_cli import commands, games
from client_cli.controller import fetch_replay, run_account, send_command
from client_cli.screens.account import AccountForm, LeaderboardScreen, ProfileScreen
from client_cli.screens.common import ClientScreen
from client_cli.screens.help import HelpScreen
from client_cli.screens.lobby import LobbyScreen
from client_cli.screens.matchmaking import SeeksScreen, TournamentScreen
from client_cli.screens.replay import ReplayScreen
from client_cli.session import Session, SessionError
from client_cli.state import RoomState

Json = dict[str, Any]

CSS = """
#rooms { height: 1fr; }
#log { height: 1fr; border: round $primary; }
#main { height: 1fr; }
#table { width: 1fr; padding: 0 1; border: round $secondary; }
#controls, #waiting { height: auto; }
#botname { width: 24; }
#create { width: 76; height: auto; max-height: 100%; border: thick $primary; padding: 0 1;
          background: $surface; }
#fields { height: auto; max-height: 18; }
.fields, .field, #buttons { height: auto; }
.field .name { width: 20; padding: 1 1 0 0; }
CreateScreen, ConfirmScreen, AccountForm { align: center middle; }
#account { width: 72; height: auto; border: thick $primary; padding: 0 1; background: $surface; }
#account_title { padding: 1 0; text-style: bold; }
#account_hint { color: $text-muted; padding: 0 0 1 0; }
#profile_box { width: 56; border: round $secondary; padding: 0 1; }
ProfileScreen #log, LeaderboardScreen #log { height: 8; }
#board_legend { padding: 0 1; color: $text-muted; }
#recent, #leaders, #seeks, #standings_box { height: 1fr; }
SeeksScreen #log, TournamentScreen #log { height: 8; }
#board_title, #recent_title { padding: 0 1; text-style: bold; }
#confirm { width: 60; height: auto; border: thick $error; padding: 1 2; background: $surface; }
#confirm Label { width: 1fr; }
#confirm Horizontal { height: auto; }
#caption { padding: 1 1; text-style: bold; }
#panel { padding: 0 2; height: auto; }
#notes { padding: 1 1; color: $success; }
"""


#: Requests whose reply opens a screen (the log keeps only the reply's first line).
PAGES = frozenset({"seeks", "tournament"})
#: Screens shown in place of one of their kind already on top.
PAGE_SCREENS = (ProfileScreen, LeaderboardScreen, SeeksScreen, TournamentScreen)


class UmpireApp(App[None]):
    """``umpire play``: lobby, tables, boards, replays and help."""

    CSS = CSS
    TITLE = "umpire"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit"),
        Binding("f1", "help", "Help"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.messages: list[str] = []
        self._player_id: str | None = None
        self._offline_ticks = 0  #: seconds (ticks) without a live connection

    def on_mount(self) -> None:
        self.session.listeners.append(self._on_frame)
        self.push_screen(LobbyScreen())
        self.run_worker(self.session.run(), name="session", exit_on_error=False)
        self.run_worker(self._first_listing(), name="lobby")
        self.set_interval(LobbyScreen.REFRESH_EVERY, self._refresh_lobby)
        self.set_interval(self.CONNECTION_TICK, self._watch_connection)

    #: seconds between looks at the connection; after OFFLINE_TICKS of them down, say so
    CONNECTION_TICK: float = 1.0
    OFFLINE_TICKS: int = 3

    @property
    def top(self) -> Screen[object] | None:
        """The screen on top, or ``None`` once the app has stopped: its screens are gone
        while a timer, a worker or the session may still call in (``self.screen`` would
        raise ``ScreenStackError``)."""
        stack = self.screen_stack
        return stack[-1] if stack else None

    def _watch_connection(self) -> None:
        """Say once when the server cannot be reached (the lobby's title shows it too)."""
        if self.session.ready.is_set():
            self._offline_ticks = 0
            return
        self._offline_ticks += 1
        if self._offline_ticks == self.OFFLINE_TICKS and not self.session.closing:
            line = f"Cannot reach {self.session.url}: retrying (is the server running?)"
            self.say(line)
            self.notify(line, severity="error", timeout=6)
        screen = self.top
        if isinstance(screen, ClientScreen):
            screen.safe_refresh()

    def _refresh_lobby(self) -> None:
        screen = self.top
        if isinstance(screen, LobbyScreen):
            screen.list_rooms_again()

    async def _first_listing(self) -> None:
        await self.session.ready.wait()
        await self.run_line("rooms")
        await self._back_to_my_seat()

    async def _back_to_my_seat(self) -> None:
        """After a restart, open the room of an unfinished seat (``welcome.seats``), if any."""
        state = self.session.state
        current = state.current
        if current is None or not isinstance(self.top, LobbyScreen):
            return
        room = state.room(current)
        try:
            await self.session.wait_until(lambda: room.game != "", timeout=5)
        except (SessionError, TimeoutError):
            return
        if isinstance(self.top, LobbyScreen):
            self.show_room(current)

    def say(self, *lines: str) -> None:
        """Show lines in the current screen's log."""
        self.messages.extend(lines)
        screen = self.top
        if isinstance(screen, ClientScreen):
            screen.write(*lines)

    def _on_frame(self, frame: Json, lines: list[str]) -> None:
        if self.top is None:
            return  # the app has stopped; the session still speaks
        kind = frame.get("type")
        if kind == "error" and isinstance(frame.get("ref"), int):
            lines = []  # explained by the command that caused it
        if lines:
            self.say(*lines)
        if kind in ("created", "joined", "watching") and isinstance(frame.get("room"), str):
            self.show_room(frame["room"])
        elif kind == "match" and isinstance(frame.get("room"), str):
            self.notify(lines[-1] if lines else str(frame["room"]), timeout=5)
            self.show_room(frame["room"])  # (its screen puts the focus where play begins)
        elif kind in ("logged_out", "_fatal") or (kind == "welcome" and self._new_player()):
            self.to_lobby()  # logged out, refused, or another player: its rooms are gone
        elif kind == "welcome" and self.session.state.current:
            self.call_later(self._show_current)
        screen = self.top
        if isinstance(screen, ClientScreen):
            screen.safe_refresh()

    def _new_player(self) -> bool:
        """Whether the last ``welcome`` is for another player than the one before."""
        player = self.session.state.player or {}
        before, self._player_id = self._player_id, player.get("id")
        return before is not None and before != self._player_id

    def _show_current(self) -> None:
        if self.session.state.current:
            self.show_room(self.session.state.current)

    def show_room(self, room_id: str) -> None:
        """Bring the room's screen to the front (its game's screen, from its module)."""
        screen = self.top
        if getattr(screen, "room_id", None) == room_id:
            return
        room = self.session.state.room(room_id)
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.push_screen(games.game(room.game).screen(room_id))

    async def run_line(self, line: str) -> bool:
        """Run one command line as ``--plain`` would; True when it was sent and accepted."""
        state = self.session.state
        command = commands.parse(line, state)
        if command.error is not None:
            self.say(f"Not sent: {command.error}")
            self.notify(command.error, severity="warning", timeout=3)
            return False
        if command.message is not None:
            reply, lines = await send_command(self.session, command)
            kind = reply.get("type") if reply is not None else None
            sent = str(command.message.get("type"))
            if (kind in ("profile", "leaderboard") or sent in PAGES) and lines:
                lines = lines[:1]  # the screen shows the rest
            if lines:
                self.say(*lines)
            if reply is None and lines:
                self.notify(lines[-1], severity="error", timeout=4)
            if reply is not None and kind == "profile":
                self._show_page(ProfileScreen(reply))
            elif reply is not None and kind == "leaderboard":
                self._show_page(LeaderboardScreen(reply))
            elif reply is not None and sent == "seeks":
                self._show_page(SeeksScreen())
            elif reply is not None and sent == "tournament":
                self._show_page(TournamentScreen(str(command.message.get("tournament"))))
            return reply is not None
        return await self._local(command)

    def _show_page(self, page: ClientScreen) -> None:
        """Show a profile or a leaderboard (in place of one already on top)."""
        screen = self.top
        if isinstance(screen, PAGE_SCREENS) and isinstance(page, type(screen)):
            self.pop_screen()
        self.push_screen(page)

    def to_lobby(self) -> None:
        """Back to the lobby (every screen above it closed)."""
        while len(self.screen_stack) > 2:
            self.pop_screen()
        screen = self.top
        if isinstance(screen, ClientScreen):
            screen.safe_refresh()

    def ask_account(self, kind: str, name: str = "") -> None:
        """Open the form of ``register``, ``login`` or ``password``; send what is typed."""
        state = self.session.state
        if kind == "register" and not name:
            name = str((state.player or {}).get("name") or self.session.name)
        form = AccountForm(kind, name, state.lang)

        async def typed(fields: dict[str, str] | None) -> None:
            if fields is not None:
                await self._send_account(kind, fields)

        self.push_screen(form, typed)

    async def _send_account(self, kind: str, fields: dict[str, str]) -> None:
        reply, lines = await run_account(self.session, kind, fields)
        fields.clear()  # the password is not kept
        self.say(*lines)
        if reply is None:
            self.notify(lines[-1], severity="error", timeout=4)
            return
        self.notify(lines[-1], timeout=4)
        if kind == "login":
            self.to_lobby()  # (the lobby lists the rooms again as it comes back)
            await self._back_to_my_seat()
        screen = self.top
        if isinstance(screen, ClientScreen):
            screen.safe_refresh()

    async def _local(self, command: commands.Command) -> bool:
        name, args = command.local, command.args
        state = self.session.state
        if name in ("quit", "exit"):
            self.exit()
        elif name in commands.SECRET:
            self.ask_account(name, args[0] if args else "")
        elif name == "help":
            self.action_help()
        elif name == "replay":
            target = args[0] if args else state.current
            if target:
                await self.open_replay(target)
        elif name == "legal":
            room = state.current_room
            self.say("Legal now: " + (" ".join(room.legal) if room and room.legal else "nothing"))
        elif name == "room" and args:
            if args[0] in state.rooms:
                self.show_room(args[0])
        elif name == "lobby":
            self.to_lobby()
        elif name == "wait":
            self.say("wait is for --plain scripts.")
        elif name is not None and state.current_room is not None:
            return self._game_command(name, args, state.current_room)
        return True

    def _game_command(self, name: str, args: list[str], room: RoomState) -> bool:
        """A local command of the room's game (notes on its board, say)."""
        module = games.game(room.game)
        if name not in module.LOCAL:
            return True
        try:
            self.say(*module.run_local(name, args, room))
        except ValueError as exc:
            self.say(f"Not done: {exc}")
            return False
        screen = self.top
        if isinstance(screen, ClientScreen):
            screen.safe_refresh()
        return True

    async def open_replay(self, room_id: str) -> None:
        """Fetch a finished game and show its replay."""
        try:
            replay = await fetch_replay(self.session, room_id)
        except SessionError as exc:
            self.say(f"No replay: {exc}")
            self.notify(f"No replay: {exc}", severity="warning")
            return
        self.push_screen(ReplayScreen(replay))

    def action_help(self) -> None:
        """Show the help screen."""
        if not isinstance(self.top, HelpScreen):
            state = self.session.state
            self.push_screen(HelpScreen(state.catalogue, state.lang))

    async def action_quit(self) -> None:
        """Close the session and leave."""
        await self.session.close()
        self.exit()
