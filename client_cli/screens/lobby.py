"""The lobby: your rooms and the public ones, create, join by invite, watch, replay."""

from __future__ import annotations

import contextlib
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.widgets import DataTable, Footer, Header, Input, Label

from client_cli import games
from client_cli.screens.common import ClientScreen, CommandLine, message_log
from client_cli.screens.create import CreateScreen
from client_cli.session import SessionError
from client_cli.state import ClientState

Json = dict[str, Any]


def lobby_rows(state: ClientState) -> list[tuple[Json, str]]:
    """The lobby's rows: the rooms this client follows (private ones too, as the web
    client's "your rooms"), then the public listing's other rooms; each with what you are
    in it (``you: seat 1``, ``you: watching``, or nothing)."""
    rows: list[tuple[Json, str]] = []
    for room in state.rooms.values():
        if room.frame and room.room not in state.left:
            you = "you: watching" if room.seat is None else f"you: seat {room.seat}"
            rows.append(({**room.frame, "room": room.room}, you))
    followed = {frame["room"] for frame, _ in rows}
    rows += [(room, "") for room in state.lobby if room.get("room") not in followed]
    return rows


class LobbyScreen(ClientScreen):
    """Your rooms and the public rooms as a table; the highlighted row is the target of
    the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        ("r", "refresh", "Refresh"),
        ("c", "create", "Create"),
        ("i", "invite", "Join by code"),
        ("w", "watch", "Watch"),
        ("p", "replay", "Replay"),
        ("k", "seeks", "Seeks"),
        ("t", "tournaments", "Tournaments"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Label(
            "Your rooms, then the public ones (Enter: open or join · w: watch · c: create"
            " · i: invite code)",
            id="title",
        )
        table: DataTable[str] = DataTable(id="rooms", cursor_type="row")
        table.add_columns("room", "game", "variant", "state", "seats", "players", "you")
        yield table
        yield message_log(500)
        yield CommandLine()
        yield Footer()

    #: seconds between listings while the lobby is on screen (room states move on)
    REFRESH_EVERY: ClassVar[float] = 15.0

    def on_mount(self) -> None:
        self.title = "umpire"
        self.sub_title = "lobby"
        self.query_one("#rooms", DataTable).focus()
        self.safe_refresh()  # (says "not connected" until the welcome)

    def list_rooms_again(self) -> None:
        """List the rooms again (the app calls this every REFRESH_EVERY seconds)."""
        if self.is_current and self.client.session.ready.is_set():
            self.run_worker(self._list_quietly(), name="rooms", exclusive=True)

    def on_screen_resume(self) -> None:
        """Back in the lobby: list the rooms again (their states have moved on)."""
        if self.client.session.ready.is_set():
            self.run_worker(self._list_quietly(), name="rooms", exclusive=True)

    async def _list_quietly(self) -> None:
        """Refresh the table from a new listing without writing it into the log again
        (``r`` and the ``rooms`` command still write it)."""
        with contextlib.suppress(SessionError, TimeoutError):
            # (the page shown stays the page shown: ``rooms PAGE`` chose it)
            offset = self.client.session.state.lobby_offset
            await self.client.session.request({"type": "list_rooms", "offset": offset})

    def refresh_view(self) -> None:
        """Fill the table: the rooms followed, then the last ``rooms`` listing."""
        table = self.query_one("#rooms", DataTable)
        selected = self.selected_room()
        table.clear()
        for room, you in lobby_rows(self.client.session.state):
            seats = room.get("seats", [])
            taken = sum(1 for s in seats if s.get("player"))
            players = ", ".join(str(s.get("name")) for s in seats if s.get("player"))
            table.add_row(
                room["room"],
                str(room.get("game")),
                games.flavour(room) + (" · rated" if room.get("rated") else ""),
                str(room.get("state")),
                f"{taken}/{len(seats)}",
                players,
                you,
                key=room["room"],
            )
        if selected is not None and selected in table.rows:
            table.move_cursor(row=table.get_row_index(selected))
        player = self.client.session.state.player
        if not self.client.session.ready.is_set():
            self.sub_title = f"lobby · not connected to {self.client.session.url}"
        elif player:
            kind = player.get("kind", "guest")
            self.sub_title = f"lobby · {player['name']}" + ("" if kind == "guest" else f" ({kind})")

    def selected_room(self) -> str | None:
        """The room id on the highlighted row."""
        table = self.query_one("#rooms", DataTable)
        if table.row_count == 0:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        except Exception:
            return None
        return str(key.value) if key.value is not None else None

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row: open a room you follow, join any other."""
        room = event.row_key.value
        if room is None:
            return
        state = self.client.session.state
        if room in state.rooms and room not in state.left:
            self.client.show_room(room)
        else:
            await self.client.run_line(f"join {room}")

    async def action_refresh(self) -> None:
        """Ask for the public rooms again."""
        await self.client.run_line("rooms")

    async def action_seeks(self) -> None:
        """Open the open seeks (Enter there takes one)."""
        await self.client.run_line("seeks")

    async def action_tournaments(self) -> None:
        """List the hosted tournaments in the log (``tournament ID`` opens one)."""
        await self.client.run_line("tournaments")

    async def action_watch(self) -> None:
        """Watch the highlighted room."""
        room = self.selected_room()
        if room:
            await self.client.run_line(f"watch {room}")

    async def action_replay(self) -> None:
        """Replay the highlighted room (finished games only)."""
        room = self.selected_room()
        if room:
            await self.client.open_replay(room)

    def action_create(self) -> None:
        """Open the create-room form (made from the server's catalogue of games)."""
        catalogue = self.client.session.state.catalogue
        if catalogue is None or not catalogue.games:
            self.client.say("The server's list of games has not come yet.")
            return
        self.app.push_screen(CreateScreen(catalogue), self._created)

    def action_invite(self) -> None:
        """Put ``invite`` in the command line for the code."""
        line = self.query_one("#command", Input)
        line.value = "invite "
        line.cursor_position = len(line.value)
        line.focus()

    async def _created(self, line: str | None) -> None:
        if line:
            await self.client.run_line(line)
