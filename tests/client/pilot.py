"""Helpers for the TUI tests: wait on a condition while the app runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from client_cli.app import UmpireApp
from client_cli.screens.lobby import LobbyScreen
from client_cli.session import Session
from tests.eventually import eventually

Json = dict[str, Any]


async def until(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app run until ``condition()`` holds (fail after ``timeout`` seconds): the
    shared :func:`~tests.eventually.eventually`, pausing through the pilot."""
    await eventually(condition, timeout=timeout, pause=pilot.pause, what=repr(condition))


async def click(pilot: Pilot[Any], selector: str, timeout: float = 10.0) -> None:
    """Click the widget ``selector`` of the current screen once it is laid out there (a
    screen just pushed is drawn a moment later; a click before that lands elsewhere, and
    a test then waited 10 s for an answer to a button never pressed), and fail if the
    click did not land on it."""
    app = pilot.app

    def laid_out() -> bool:
        found = app.screen.query(selector)
        return bool(found) and found.first().region.area > 0

    await until(pilot, laid_out, timeout)
    assert await pilot.click(selector), f"the click on {selector} landed elsewhere"


async def in_the_lobby(app: UmpireApp, pilot: Pilot[Any]) -> None:
    """Wait until the app shows the lobby, connected, with the server's catalogue of games."""
    session = app.session
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, LobbyScreen)
            and session.ready.is_set()
            and session.state.catalogue is not None
        ),
    )


async def type_text(pilot: Pilot[Any], text: str) -> None:
    """Press one real key per character of ``text`` (a space is the ``space`` key)."""
    await pilot.press(*("space" if char == " " else char for char in text))


class RecordingSession(Session):
    """A session that keeps every message the client sent (what went to the server)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sent: list[Json] = []

    async def send(self, message: Json) -> int:
        self.sent.append(message)
        return await super().send(message)

    async def request(self, message: Json, timeout: float = 10.0) -> Json:
        self.sent.append(message)
        return await super().request(message, timeout)

    def count(self, kind: str) -> int:
        """How many messages of type ``kind`` were sent."""
        return sum(1 for m in self.sent if m.get("type") == kind)
