"""Step through a finished game with everything revealed."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.widgets import Footer, Header, Static

from client_cli.games import Replay
from client_cli.screens.common import ClientScreen


class ReplayScreen(ClientScreen):
    """A replay: the step's caption, the whole position after it, and what was verified."""

    BINDINGS: ClassVar[list[BindingType]] = [
        ("right,n", "step(1)", "Next"),
        ("left,p", "step(-1)", "Previous"),
        ("home", "jump(0)", "First"),
        ("end", "jump(-1)", "Last"),
    ]

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay
        self.index = 0

    def compose(self) -> ComposeResult:
        yield Header()
        # plain text, not markup: a caption's SAN is in brackets (``[f3]``)
        yield Static(id="caption", markup=False)
        yield Static(id="panel", markup=False)
        yield Static("\n".join(self.replay.notes), id="notes", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"umpire · replay of {self.replay.room} ({self.replay.game})"
        self.refresh_view()

    def refresh_view(self) -> None:
        """Show the current step."""
        steps = self.replay.steps
        if not steps:
            self.query_one("#caption", Static).update("Nothing to replay.")
            return
        step = steps[self.index]
        self.query_one("#caption", Static).update(
            f"Step {self.index + 1}/{len(steps)}: {step.caption}"
        )
        self.query_one("#panel", Static).update("\n".join(step.panel))

    def action_step(self, delta: int) -> None:
        """Move by ``delta`` steps."""
        self.index = min(max(0, self.index + delta), max(0, len(self.replay.steps) - 1))
        self.refresh_view()

    def action_jump(self, where: int) -> None:
        """Go to the first (0) or last (-1) step."""
        self.index = 0 if where == 0 else max(0, len(self.replay.steps) - 1)
        self.refresh_view()

    def action_back(self) -> None:
        """Close the replay."""
        self.app.pop_screen()
