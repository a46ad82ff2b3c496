"""Issue 29: the connection's state is shown. During an outage the player on turn is told
the connection is down (not "Waiting for bob." and "it is not your turn"), and the lobby
says when the server cannot be reached."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bots.client.core import Disconnected
from client_cli.app import UmpireApp
from client_cli.commands import parse
from client_cli.games.perudo.text import perudo_lines
from client_cli.plain import PlainClient
from client_cli.screens.lobby import LobbyScreen
from client_cli.session import Session
from tests.client.pilot import until
from tests.client.test_perudo_turn_line import frames

DOWN = "Connection lost: reconnecting to the server"


def on_turn_then_dropped() -> Session:
    session = Session("ws://127.0.0.1:9", "ana")
    room = frames(["1x2", "1x3"], [])
    session.state.rooms["r1"] = room
    session.state.current = "r1"
    session.state.connected = True
    session._on_output(Disconnected())
    return session


def connected(session: Session) -> bool:
    """``session.state.connected`` read anew: mypy keeps an asserted
    ``not session.state.connected`` narrowed across the frame applied since."""
    return session.state.connected


def test_the_player_on_turn_is_told_the_connection_is_down() -> None:
    session = on_turn_then_dropped()
    lines = perudo_lines(session.state.rooms["r1"])
    assert lines[-1].startswith(DOWN)
    assert not any("Waiting for" in line for line in lines)


def test_a_move_during_an_outage_is_refused_for_the_connection() -> None:
    session = on_turn_then_dropped()
    command = parse("1x2", session.state)
    assert command.message is None
    assert command.error is not None and command.error.startswith(DOWN)


def test_the_welcome_brings_the_connection_back() -> None:
    session = on_turn_then_dropped()
    assert not session.state.connected
    session.state.apply({"type": "welcome", "player": {"id": "p1", "name": "ana"}, "token": "t"})
    assert connected(session)
    assert not session.state.rooms["r1"].offline


async def test_plain_against_a_dead_server_says_so_in_one_line_and_exits_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = io.StringIO()
    session = Session("ws://127.0.0.1:9", "ana", retry=0.05)
    client = PlainClient(session, out, connect_timeout=0.5)

    async def nothing() -> AsyncIterator[str]:
        lines: list[str] = []  # (no input at all)
        for line in lines:
            yield line

    assert await client.run(nothing()) == 1
    err = capsys.readouterr().err
    assert err == (
        "umpire play: cannot reach ws://127.0.0.1:9 (no welcome in 0.5 s: is the server running?)\n"
    )
    assert out.getvalue() == ""


def test_plain_gives_up_after_a_documented_bound() -> None:
    assert PlainClient.CONNECT_TIMEOUT == 10.0
    assert "(no welcome in 10 s" in Path("docs/client.md").read_text()


async def test_the_tui_says_a_dead_server_cannot_be_reached() -> None:
    app = UmpireApp(Session("ws://127.0.0.1:9", "ana", retry=0.05))
    app.CONNECTION_TICK = 0.05
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        sub_title = app.screen.sub_title
        assert sub_title is not None and "not connected to ws://127.0.0.1:9" in sub_title
        await until(pilot, lambda: any("Cannot reach" in m for m in app.messages))
        await app.session.close()


async def test_the_tuis_timers_after_it_stopped_do_nothing() -> None:
    """Session thirteen's CI: the connection's timer ticked while the app was closing,
    its screens gone (``ScreenStackError``, and the test that closed it failed). What
    a timer, a worker or the session may call after the app stopped does nothing."""
    app = UmpireApp(Session("ws://127.0.0.1:9", "ana", retry=0.05))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
    assert app.screen_stack == [] and app.top is None
    app._watch_connection()
    app._refresh_lobby()
    app.say("a late line")
    assert app.messages[-1] == "a late line"
