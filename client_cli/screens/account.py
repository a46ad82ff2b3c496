"""Accounts in the TUI: the password forms (register, login, password), a player's profile
and a leaderboard.

A password is typed only into a form's password box (shown as dots, never echoed, never
in the command line or its history); the form gives what was typed to the app, which
sends it (:func:`client_cli.controller.run_account`) and forgets it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Footer, Header, Input, Label, Static

from client_cli import accounts
from client_cli.screens.common import ClientScreen, CommandLine, message_log

Json = dict[str, Any]

#: Each form's boxes: (field, is a password).
FORMS: dict[str, list[tuple[str, bool]]] = {
    "login": [("name", False), ("password", True)],
    "register": [("name", False), ("password", True), ("again", True)],
    "password": [("old", True), ("password", True), ("again", True)],
}

LABELS = {
    "en": {
        "title_login": "Log in to an account",
        "title_register": "Claim your name: it becomes an account, with your games",
        "title_password": "Change your password (your other sessions are logged out)",
        "name": "name",
        "password": "password",
        "again": "password again",
        "old": "current password",
        "new_password": "new password",
        "ok": "OK (Enter)",
        "cancel": "Cancel (Esc)",
        "hint": "8 to 1,024 characters; Tab: next box; Enter: send; Esc: cancel",
    },
    "it": {
        "title_login": "Entra in un account",
        "title_register": "Rivendica il tuo nome: diventa un account, con le tue partite",
        "title_password": "Cambia la password (le altre sessioni vengono chiuse)",
        "name": "nome",
        "password": "password",
        "again": "ripeti la password",
        "old": "password attuale",
        "new_password": "nuova password",
        "ok": "OK (Invio)",
        "cancel": "Annulla (Esc)",
        "hint": "da 8 a 1.024 caratteri; Tab: casella seguente; Invio: invia; Esc: annulla",
    },
}


def label(lang: str, key: str) -> str:
    """A form's word in ``lang`` (English when missing)."""
    return LABELS.get(lang, LABELS["en"]).get(key, LABELS["en"][key])


class AccountForm(ModalScreen[dict[str, str] | None]):
    """The boxes of ``register``, ``login`` or ``password``; dismissed with what was typed,
    or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [("escape", "cancel", "Cancel")]

    def __init__(self, kind: str, name: str = "", lang: str = "en") -> None:
        super().__init__()
        self.kind = kind
        self.name_given = name
        self.lang = lang

    def compose(self) -> ComposeResult:
        lang = self.lang
        with Vertical(id="account"):
            yield Label(label(lang, f"title_{self.kind}"), id="account_title")
            for field, secret in FORMS[self.kind]:
                key = "new_password" if self.kind == "password" and field == "password" else field
                with Horizontal(classes="field"):
                    yield Label(label(lang, key), classes="name")
                    yield Input(
                        value=self.name_given if field == "name" else "",
                        password=secret,
                        id=f"f_{field}",
                        max_length=accounts.PASSWORD_MAX if secret else 64,
                    )
            yield Static(label(lang, "hint"), id="account_hint")
            with Horizontal(id="buttons"):
                yield Button(label(lang, "ok"), id="ok", variant="primary")
                yield Button(label(lang, "cancel"), id="cancel")

    def on_mount(self) -> None:
        """The focus goes to the first empty box (the password when the name is given)."""
        boxes = list(self.query(Input).results(Input))
        empty = [box for box in boxes if not box.value]
        (empty or boxes)[0].focus()

    def values(self) -> dict[str, str]:
        """What was typed, by field."""
        return {field: self.query_one(f"#f_{field}", Input).value for field, _ in FORMS[self.kind]}

    @on(Input.Submitted)
    def next_or_send(self, event: Input.Submitted) -> None:
        """Enter: on to the next empty box, or send once every box is filled (the last box
        always sends: an empty one is answered by the app)."""
        event.stop()
        boxes = list(self.query(Input).results(Input))
        index = boxes.index(event.input)
        later = [box for box in boxes[index + 1 :] if not box.value]
        if later:
            later[0].focus()
        else:
            self.dismiss(self.values())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """OK sends, Cancel closes."""
        event.stop()
        self.dismiss(self.values() if event.button.id == "ok" else None)

    def action_cancel(self) -> None:
        """Close without sending."""
        self.dismiss(None)


class ProfileScreen(ClientScreen):
    """A player's page in text: ratings with their history, statistics; the recent games
    in a table (Enter opens a game's replay)."""

    def __init__(self, frame: Json) -> None:
        super().__init__()
        self.frame = frame

    def compose(self) -> ComposeResult:
        lang = self.client.session.state.lang
        lines = accounts.profile_lines(self.frame, lang)
        recent = accounts.words(lang)("recent_head")
        cut = lines.index(recent) if recent in lines else len(lines)
        yield Header()
        with Horizontal(id="main"):
            with VerticalScroll(id="profile_box"):
                yield Static("\n".join(lines[:cut]), id="profile")
            with Vertical():
                yield Label(recent, id="recent_title")
                table: DataTable[str] = DataTable(id="recent", cursor_type="row")
                table.add_columns(*accounts.words(lang)("recent_columns").split())
                yield table
                yield message_log(200)
        yield CommandLine()
        yield Footer()

    def on_mount(self) -> None:
        player = self.frame.get("player") or {}
        self.title = "umpire · profile"
        self.sub_title = str(player.get("name", ""))
        table = self.query_one("#recent", DataTable)
        self.rooms: list[str] = []
        for game in self.frame.get("history") or []:
            when = accounts.profile_date(game.get("finished") or game.get("started"))
            rank = game.get("rank")
            table.add_row(
                str(game.get("room")),
                str(game.get("game")),
                str(game.get("status")),
                str(game.get("seat")),
                "" if rank is None else str(rank),
                when,
                key=str(len(self.rooms)),
            )
            self.rooms.append(str(game.get("room")))
        if table.row_count:
            table.focus()
        else:
            self.query_one("#command", Input).focus()

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a recent game: its replay."""
        if event.row_key.value is not None:
            await self.client.open_replay(self.rooms[int(event.row_key.value)])

    def action_back(self) -> None:
        """Back to where the profile was asked (it is on top of that screen)."""
        self.app.pop_screen()


class LeaderboardScreen(ClientScreen):
    """A leaderboard as a table; Enter on a row opens that player's profile."""

    def __init__(self, frame: Json) -> None:
        super().__init__()
        self.frame = frame

    def compose(self) -> ComposeResult:
        lang = self.client.session.state.lang
        title = accounts.leaderboard_lines(self.frame, lang)[0]
        say = accounts.words(lang)
        yield Header()
        yield Label(title, id="board_title")
        table: DataTable[str] = DataTable(id="leaders", cursor_type="row")
        table.add_columns(*say("leaderboard_head").split())
        yield table
        entries = self.frame.get("entries") or []
        if not entries:
            legend = say("leaderboard_empty")
        elif any(entry.get("provisional") for entry in entries):
            legend = say("provisional_legend")
        else:
            legend = ""
        yield Static(legend, id="board_legend")
        yield message_log(200)
        yield CommandLine()
        yield Footer()

    def on_mount(self) -> None:
        self.title = "umpire · leaderboard"
        self.sub_title = f"{self.frame.get('game')} {self.frame.get('rules') or ''}".strip()
        table = self.query_one("#leaders", DataTable)
        self.names: list[str] = []
        for entry in self.frame.get("entries") or []:
            player = entry.get("player")
            name = str(player.get("name") if isinstance(player, dict) else player)
            shown = f"{name} {entry['version']}" if entry.get("version") else name
            mark = accounts.PROVISIONAL if entry.get("provisional") else ""
            table.add_row(
                str(entry.get("rank")),
                shown,
                accounts.whole(entry.get("rating")) + mark,
                accounts.whole(entry.get("deviation")),
                str(entry.get("games")),
                key=str(len(self.names)),
            )
            self.names.append(name)
        if table.row_count:
            table.focus()
        else:
            self.query_one("#command", Input).focus()

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row: that player's profile."""
        if event.row_key.value is not None:
            await self.client.run_line(f"profile {self.names[int(event.row_key.value)]}")

    def action_back(self) -> None:
        """Back to where the leaderboard was asked."""
        self.app.pop_screen()
