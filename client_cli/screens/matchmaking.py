"""Finding a game in the TUI: the open seeks (Enter takes one) and a tournament's live
standings and rounds (redrawn as its ``tournament`` frames come).

Both read :class:`~client_cli.state.ClientState` (``seeks``, ``tournament``) and act
through the command line's commands, as ``--plain`` does.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Footer, Header, Label, Static

from client_cli import matchmaking
from client_cli.screens.common import ClientScreen, CommandLine, message_log

TITLES = {
    "en": {
        "seeks": "Open seeks (Enter: take · x: cancel yours · n: new seek · r: refresh)",
        "columns": ("id", "game", "options", "rated", "range", "by"),
        "tournament": "Live standings and rounds (j: join · l: leave · r: refresh · Esc: back)",
    },
    "it": {
        "seeks": "Proposte aperte (Invio: accetta · x: ritira la tua · n: nuova · r: aggiorna)",
        "columns": ("id", "gioco", "opzioni", "tipo", "punti", "di"),
        "tournament": "Classifica e turni dal vivo (j: iscriviti · l: ritirati · r: aggiorna · "
        "Esc: indietro)",
    },
}


def title(lang: str, key: str) -> object:
    """A screen word in ``lang`` (English when missing)."""
    return TITLES.get(lang, TITLES["en"]).get(key, TITLES["en"][key])


class SeeksScreen(ClientScreen):
    """The open seeks as a table; the highlighted row is the target of the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        ("r", "refresh", "Refresh"),
        ("x", "cancel_seek", "Cancel yours"),
        ("n", "new_seek", "New seek"),
    ]

    def compose(self) -> ComposeResult:
        lang = self.client.session.state.lang
        yield Header()
        yield Label(str(title(lang, "seeks")), id="title")
        table: DataTable[str] = DataTable(id="seeks", cursor_type="row")
        table.add_columns(*title(lang, "columns"))  # type: ignore[misc]
        yield table
        yield message_log(200)
        yield CommandLine()
        yield Footer()

    def on_mount(self) -> None:
        self.title = "umpire"
        self.sub_title = "seeks"
        self.refresh_view()
        self.query_one("#seeks", DataTable).focus()

    def refresh_view(self) -> None:
        """Fill the table from the last ``seeks`` frame (yours marked)."""
        state = self.client.session.state
        table = self.query_one("#seeks", DataTable)
        selected = self.selected()
        table.clear()
        for row in matchmaking.seek_rows(state.seeks, state.my_seeks, state.lang):
            table.add_row(*row, key=row[0])
        if selected is not None and selected in table.rows:
            table.move_cursor(row=table.get_row_index(selected))

    def selected(self) -> str | None:
        """The seek id on the highlighted row."""
        table = self.query_one("#seeks", DataTable)
        if table.row_count == 0:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        except Exception:
            return None
        return str(key.value) if key.value is not None else None

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row: take that seek (yours: nothing to take)."""
        seek = event.row_key.value
        if seek is None:
            return
        if seek in self.client.session.state.my_seeks:
            self.client.say(matchmaking.words(self.client.session.state.lang)("seeks_take"))
            return
        await self.client.run_line(f"take {seek}")

    async def action_refresh(self) -> None:
        """List the open seeks again."""
        await self.client.run_line("seeks")

    async def action_cancel_seek(self) -> None:
        """Cancel the highlighted seek (yours), or your last one."""
        seek = self.selected()
        mine = self.client.session.state.my_seeks
        await self.client.run_line(f"cancel {seek}" if seek in mine else "cancel")

    def action_new_seek(self) -> None:
        """Write ``seek `` in the command line for the game and its options."""
        line = self.query_one("#command", CommandLine)
        line.value = "seek "
        line.cursor_position = len(line.value)
        line.focus()


class TournamentScreen(ClientScreen):
    """One tournament: what it is, its standings and its rounds, redrawn live."""

    BINDINGS: ClassVar[list[BindingType]] = [
        ("r", "refresh", "Refresh"),
        ("j", "join", "Join"),
        ("l", "leave", "Leave"),
    ]

    def __init__(self, tournament: str) -> None:
        super().__init__()
        self.tournament = tournament

    def compose(self) -> ComposeResult:
        yield Header()
        yield Label(str(title(self.client.session.state.lang, "tournament")), id="title")
        with VerticalScroll(id="standings_box"):
            yield Static(id="standings")
        yield message_log(200)
        yield CommandLine()
        yield Footer()

    def on_mount(self) -> None:
        self.title = "umpire"
        self.sub_title = f"tournament {self.tournament}"
        self.refresh_view()
        self.query_one("#standings_box").focus()

    def text(self) -> str:
        """The tournament as the text the screen shows."""
        state = self.client.session.state
        frame = state.tournament.get(self.tournament)
        if frame is None:
            return ""
        me = str((state.player or {}).get("name") or "") or None
        return "\n".join(matchmaking.tournament_lines(frame, state.lang, me))

    def refresh_view(self) -> None:
        """Redraw from the tournament's last frame."""
        self.query_one("#standings", Static).update(self.text())

    async def action_refresh(self) -> None:
        """Ask for the tournament again."""
        await self.client.run_line(f"tournament {self.tournament}")

    async def action_join(self) -> None:
        """Enter the tournament."""
        await self.client.run_line(f"join-tournament {self.tournament}")

    async def action_leave(self) -> None:
        """Withdraw from the tournament."""
        await self.client.run_line(f"leave-tournament {self.tournament}")
