"""The help screen: the keys, the commands, and the rules of the server's games."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown

from client_cli.catalogue import Catalogue
from client_cli.help import commands_help, keys_text, rules_text


class HelpScreen(Screen[None]):
    """Rules, keys and commands; Escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        ("escape,q,question_mark,f1", "app.pop_screen", "Close")
    ]

    def __init__(self, catalogue: Catalogue | None = None, lang: str = "en") -> None:
        super().__init__()
        self.catalogue = catalogue
        self.lang = lang

    def compose(self) -> ComposeResult:
        catalogue, lang = self.catalogue, self.lang
        text = (
            f"{keys_text(catalogue, lang)}\n# Commands\n\n```text\n"
            f"{commands_help(catalogue, lang)}\n```\n\n{rules_text(catalogue, lang)}"
        )
        with VerticalScroll():
            yield Markdown(text, id="help")
        yield Footer()
