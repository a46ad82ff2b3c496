"""The create-room form, made from the server's catalogue of games.

One set of fields per game (shown only while that game is chosen): a picker for an option
with choices, a checkbox for a yes/no one, a text box for the rest, each with the option's
help as its tooltip; a free line for the options every room takes (``clock=300+5``...);
and the private switch. The form returns the ``create`` command it stands for, so its
values are checked exactly as a typed command's are.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select

from client_cli.catalogue import Catalogue, GameInfo, Option, Preset

BOOLEAN = ("bool", "boolean")


def field_id(game: GameInfo, name: str) -> str:
    """The id of a game's field for option ``name`` (``GAME-seats``)."""
    return f"{game.name}-{name}"


def _field(game: GameInfo, option: Option) -> Widget:
    """The widget that edits ``option``: blank (or the default, for a checkbox) means the
    game's default."""
    ident = field_id(game, option.name)
    if option.choices:
        choices = [(str(c), c) for c in option.choices]
        return Select(choices, prompt=f"default: {option.default}", id=ident)
    if option.type.lower() in BOOLEAN:
        return Checkbox(option.name, value=bool(option.default), id=ident)
    return Input(placeholder=f"{option.describe()} (default {option.default})", id=ident)


def _presets(game: GameInfo, presets: list[Preset]) -> Widget:
    choices = [(p.name, p.name) for p in presets]
    return Select(choices, prompt="preset", id=field_id(game, "preset"))


class CreateScreen(ModalScreen[str | None]):
    """The create-room form; it returns the ``create`` command it stands for."""

    BINDINGS: ClassVar[list[BindingType]] = [("escape", "cancel", "Cancel")]

    def __init__(self, catalogue: Catalogue) -> None:
        super().__init__()
        self.catalogue = catalogue

    def compose(self) -> ComposeResult:
        catalogue = self.catalogue
        with Vertical(id="create"):
            yield Label("Create a room")
            yield Select(
                [(game.label, game.name) for game in catalogue.games],
                value=catalogue.games[0].name,
                allow_blank=False,
                id="game",
            )
            with VerticalScroll(id="fields"):
                for game in catalogue.games:
                    with Vertical(id=f"fields-{game.name}", classes="fields"):
                        yield from self._game_fields(game)
            rooms = " ".join(o.describe() for o in catalogue.room_options)
            yield Input(placeholder=f"more: {rooms}".strip(), id="options")
            yield Checkbox("private (invite code only): no", id="private")
            with Horizontal(id="buttons"):
                yield Button("Create", variant="primary", id="ok")
                yield Button("Cancel", id="cancel")

    def _game_fields(self, game: GameInfo) -> ComposeResult:
        """A row per option (and seats, and presets, when they are not options)."""
        if game.option("seats") is None and game.seats.min != game.seats.max:
            seats = Option("seats", "int", game.seats.min, None, game.seats.min, game.seats.max)
            yield from self._row(game, seats, "how many players")
        if game.presets and game.option("preset") is None:
            with Horizontal(classes="field"):
                yield Label("preset", classes="name")
                yield _presets(game, game.presets)
        for option in game.options:
            yield from self._row(game, option, option.help)

    def _row(self, game: GameInfo, option: Option, help_text: str) -> ComposeResult:
        with Horizontal(classes="field"):
            widget = _field(game, option)
            yield Label("" if isinstance(widget, Checkbox) else option.name, classes="name")
            widget.tooltip = help_text or None
            yield widget

    def on_mount(self) -> None:
        self._show_fields()

    @on(Select.Changed, "#game")
    def game_chosen(self) -> None:
        """Show only the chosen game's fields."""
        self._show_fields()

    @on(Checkbox.Changed, "#private")
    def private_changed(self, event: Checkbox.Changed) -> None:
        """Say the private box's state in words, not only by colour."""
        event.checkbox.label = f"private (invite code only): {'yes' if event.value else 'no'}"

    def chosen(self) -> GameInfo:
        """The game chosen in the form."""
        game = self.catalogue.game(str(self.query_one("#game", Select).value))
        return game if game is not None else self.catalogue.games[0]

    def _show_fields(self) -> None:
        chosen = self.chosen().name
        for game in self.catalogue.games:
            self.query_one(f"#fields-{game.name}").display = game.name == chosen

    def _value(self, game: GameInfo, name: str, default: Any) -> str | None:
        """The field's value as typed in a command (None: left at the default)."""
        widget = self.query_one(f"#{field_id(game, name)}")
        if isinstance(widget, Checkbox):
            return None if widget.value == bool(default) else str(widget.value).lower()
        if isinstance(widget, Select):
            return None if widget.is_blank() else str(widget.value)
        assert isinstance(widget, Input)
        return widget.value.strip() or None

    def command(self) -> str:
        """The ``create`` command the form describes."""
        game = self.chosen()
        words = ["create", game.name]
        names = [(o.name, o.default) for o in game.options]
        if game.option("seats") is None and game.seats.min != game.seats.max:
            names.insert(0, ("seats", None))
        if game.presets and game.option("preset") is None:
            names.insert(0, ("preset", None))
        for name, default in names:
            value = self._value(game, name, default)
            if value is not None:
                words.append(f"{name}={value}")
        words += self.query_one("#options", Input).value.split()
        if self.query_one("#private", Checkbox).value:
            words.append("private")
        return " ".join(words)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Create or cancel."""
        self.dismiss(self.command() if event.button.id == "ok" else None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in any field creates."""
        self.dismiss(self.command())

    def action_cancel(self) -> None:
        """Close without creating."""
        self.dismiss(None)
