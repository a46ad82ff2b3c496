"""The help screen: rules of both games, the keys, and the commands."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown

from client_cli.commands import COMMANDS_HELP
from client_cli.help import KEYS_TEXT, RULES_TEXT


class HelpScreen(Screen[None]):
    """Rules, keys and commands; Escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        ("escape,q,question_mark,f1", "app.pop_screen", "Close")
    ]

    def compose(self) -> ComposeResult:
        text = f"{KEYS_TEXT}\n# Commands\n\n```text\n{COMMANDS_HELP}\n```\n\n{RULES_TEXT}"
        with VerticalScroll():
            yield Markdown(text, id="help")
        yield Footer()
