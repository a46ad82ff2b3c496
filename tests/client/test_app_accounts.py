"""Accounts and ratings in the TUI (issue 27), pressing real keys against a real server:
register, log in from a second app, play a rated Kriegspiel game against a house bot to
its end, see the rating change, find yourself on the leaderboard and in your profile."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, RichLog, Static

from client_cli.app import UmpireApp
from client_cli.games.kriegspiel.screen import KriegspielScreen
from client_cli.screens.account import AccountForm, LeaderboardScreen, ProfileScreen
from client_cli.screens.lobby import LobbyScreen
from client_cli.screens.replay import ReplayScreen
from client_cli.state import ClientState
from server.net.app import UmpireServer
from server.players.passwords import Passwords
from tests.client.pilot import RecordingSession, in_the_lobby, type_text, until

PASSWORD = "correct horse"

Json = dict[str, Any]


class CheapHasher:
    """A salted sha256 in place of argon2id (the server's hashing is tested elsewhere)."""

    def hash(self, password: str) -> str:
        salt = secrets.token_hex(8)
        return salt + "$" + hashlib.sha256((salt + password).encode()).hexdigest()

    def verify(self, hashed: str, password: str) -> bool:
        salt, _, digest = hashed.partition("$")
        return hashlib.sha256((salt + password).encode()).hexdigest() == digest

    def needs_rehash(self, hashed: str) -> bool:
        return False


@pytest.fixture
async def rated_server(make_server: Callable[..., Any]) -> UmpireServer:
    """A server whose leaderboards take players after 1 rated game, cheap hashes."""
    server: UmpireServer = await make_server(leaderboard_min_games=1)
    server.identities.passwords = Passwords(CheapHasher())
    return server


def log_text(app: UmpireApp) -> str:
    """What the current screen's log shows."""
    return "\n".join(line.text for line in app.screen.query_one("#log", RichLog).lines)


async def command(pilot: Pilot[Any], line: str) -> None:
    """Focus the command line, type ``line`` key by key, press Enter."""
    pilot.app.screen.query_one("#command", Input).focus()
    await pilot.pause()
    await type_text(pilot, line)
    await pilot.press("enter")


def tap(session: RecordingSession) -> list[Json]:
    """Every frame the session's client core puts on the wire from now on."""
    wire: list[Json] = []
    core = session.core
    next_frame = core.next_frame

    def recorded() -> Json | None:
        frame = next_frame()
        if frame is not None:
            wire.append(frame)
        return frame

    core.next_frame = recorded  # type: ignore[method-assign]
    return wire


def focused_id(app: UmpireApp) -> str | None:
    focused = app.focused
    return focused.id if focused is not None else None


async def test_register_login_rated_game_leaderboard_profile(rated_server: UmpireServer) -> None:
    url = f"ws://127.0.0.1:{rated_server.port}"

    # -- register: a guest claims its name ------------------------------------------------
    first = RecordingSession(url, "ana", retry=0.05)
    wire = tap(first)
    app = UmpireApp(first)
    async with app.run_test(size=(130, 42)) as pilot:
        await in_the_lobby(app, pilot)
        await command(pilot, "register")
        await until(pilot, lambda: isinstance(app.screen, AccountForm))
        form = app.screen
        assert form.query_one("#f_name", Input).value == "ana"
        assert focused_id(app) == "f_password"  # the name is given: the password is next
        await type_text(pilot, PASSWORD)
        await pilot.press("enter")
        assert focused_id(app) == "f_again"
        assert form.query_one("#f_password", Input).password  # typed as dots, not echoed
        await type_text(pilot, PASSWORD)
        await pilot.press("enter")
        await until(pilot, lambda: first.count("register") == 1)
        await until(pilot, lambda: (first.state.player or {}).get("kind") == "account")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.pause()
        assert [m for m in first.sent if m["type"] == "register"] == [
            {"type": "register", "password": PASSWORD, "name": "ana"}
        ]
        assert "ana is now an account" in log_text(app)
        assert wire[0] == {"type": "hello", "v": 1, "name": "ana"}  # a guest first
        (register,) = [frame for frame in wire if frame["type"] == "register"]
        assert {k: v for k, v in register.items() if k != "ref"} == {
            "type": "register",
            "password": PASSWORD,
            "name": "ana",
        }
        assert focused_id(app) == "command"  # the focus is back where it was
        assert all("password" not in m for m in app.messages if "ana" in m)
        await first.close()

    # -- log in from a second app instance (it starts as another guest) ---------------------
    second = RecordingSession(url, "visitor", retry=0.05)
    wire = tap(second)
    app = UmpireApp(second)
    async with app.run_test(size=(130, 42)) as pilot:
        await in_the_lobby(app, pilot)
        await command(pilot, "login ana")
        await until(pilot, lambda: isinstance(app.screen, AccountForm))
        assert focused_id(app) == "f_password"
        await type_text(pilot, "wrong password")
        await pilot.press("enter")
        await until(pilot, lambda: "Wrong name or password." in log_text(app))
        assert (second.state.player or {}).get("name") == "visitor"

        await command(pilot, "login ana")
        await until(pilot, lambda: isinstance(app.screen, AccountForm))
        await type_text(pilot, PASSWORD)
        await pilot.press("enter")
        await until(pilot, lambda: (second.state.player or {}).get("kind") == "account")
        logins = [m for m in second.sent if m["type"] == "login"]
        assert [(m["name"], m["password"]) for m in logins] == [
            ("ana", "wrong password"),
            ("ana", PASSWORD),
        ]
        assert second.state.player is not None and second.state.player["name"] == "ana"
        on_wire = [frame for frame in wire if frame["type"] == "login"]
        assert [{k: v for k, v in f.items() if k != "ref"} for f in on_wire] == [
            {"type": "login", "v": 1, "name": "ana", "password": "wrong password"},
            {"type": "login", "v": 1, "name": "ana", "password": PASSWORD},
        ]
        await until(pilot, lambda: "Logged in as ana." in log_text(app))
        assert focused_id(app) == "command"

        # -- a rated Kriegspiel game against a house bot, resigned ------------------------
        await command(pilot, "create kriegspiel")
        await until(pilot, lambda: isinstance(app.screen, KriegspielScreen))
        screen = app.screen
        assert isinstance(screen, KriegspielScreen)
        room = second.state.room(screen.room_id)
        await command(pilot, "bot kriegspiel-random")
        await until(pilot, lambda: room.state == "playing")
        assert room.frame.get("rated") is True
        await until(pilot, lambda: room.turn is not None)
        first_turn = room.turn
        await command(pilot, "e2e4")  # (a game shorter than 2 plies is never rated)
        await until(pilot, lambda: room.turn is not None and room.turn is not first_turn)
        await command(pilot, "resign")
        await until(pilot, lambda: room.state == "finished")
        await until(pilot, lambda: bool(room.frame.get("ratings")), timeout=15)
        await pilot.pause()
        change = next(c for c in room.frame["ratings"] if c["seat"] == room.seat)
        before, after = round(change["before"]), round(change["after"])
        assert after < before  # resigning is a loss
        told = f"ana (you) {before} → {after} (−{before - after}), provisional"
        assert any(told in line for line in app.messages)  # the log's lines
        status = str(screen.query_one("#status", Static).render())
        assert f"Your rating: {before} → {after} (−{before - after}), provisional" in status

        # -- the leaderboard, then the profile from its row --------------------------------
        await command(pilot, "leaderboard kriegspiel")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen))
        await pilot.pause()
        assert second.sent[-1] == {"type": "leaderboard", "game": "kriegspiel", "pool": "human"}
        assert {"type": "act", "room": screen.room_id, "action": "resign"} in [
            {k: v for k, v in f.items() if k != "ref"} for f in wire
        ]
        board = app.screen
        table = board.query_one("#leaders", DataTable)
        assert focused_id(app) == "leaders"
        rows = [table.get_row_at(i) for i in range(table.row_count)]
        ours = [row for row in rows if row[1] == "ana"]
        assert ours and ours[0][2] == f"{after}?"  # provisional
        title = str(board.query_one("#board_title").render())
        assert "kriegspiel · wild16 · humans" in title
        legend = str(board.query_one("#board_legend", Static).render())
        assert legend == "? provisional: the rating is still uncertain"
        table.move_cursor(row=rows.index(ours[0]))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        await pilot.pause()
        assert second.sent[-1] == {"type": "profile", "name": "ana"}
        profile = app.screen
        text = str(profile.query_one("#profile", Static).render())
        assert "Profile of ana (account)" in text
        assert f"kriegspiel wild16: {after}? ±" in text
        assert f"{before} → {after}" not in text or "over 1 game" in text
        assert "Statistics" in text
        recent = profile.query_one("#recent", DataTable)
        assert focused_id(app) == "recent"
        assert recent.get_row_at(0)[0] == screen.room_id

        # -- Escape back twice; `profile ana` typed; Enter on the game opens its replay -----
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, KriegspielScreen))
        await command(pilot, "profile ana")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await second.close()


async def test_logout_then_login_again_in_italian_and_bad_input_is_one_line(
    rated_server: UmpireServer,
) -> None:
    url = f"ws://127.0.0.1:{rated_server.port}"
    session = RecordingSession(url, "bea", retry=0.05, state=ClientState(lang="it"))
    app = UmpireApp(session)
    async with app.run_test(size=(130, 42)) as pilot:
        await in_the_lobby(app, pilot)
        await command(pilot, "password")  # a guest has none: one line, nothing sent
        await command(pilot, "leaderboard")
        await command(pilot, "register")
        await until(pilot, lambda: isinstance(app.screen, AccountForm))
        await pilot.press("escape")  # cancelled: nothing sent, the focus back in the line
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert focused_id(app) == "command"
        await command(pilot, "register")
        await until(pilot, lambda: isinstance(app.screen, AccountForm))
        await type_text(pilot, "corta")
        await pilot.press("enter")
        await type_text(pilot, "corta")
        await pilot.press("enter")  # too short: refused before sending
        await until(pilot, lambda: any("non 5" in m for m in app.messages))
        await command(pilot, "register")
        await until(pilot, lambda: isinstance(app.screen, AccountForm))
        await type_text(pilot, PASSWORD)
        await pilot.press("tab")
        await type_text(pilot, PASSWORD)
        await pilot.press("enter")
        await until(pilot, lambda: (session.state.player or {}).get("kind") == "account")
        assert session.count("register") == 1
        assert (
            "Not sent: solo un account ha una password: registrati prima (register)" in app.messages
        )
        assert "Not sent: leaderboard GIOCO [REGOLE] [bots]" in app.messages
        assert any("una password ha da 8 a 1024 caratteri, non 5" in m for m in app.messages)

        await command(pilot, "logout everywhere")
        await until(pilot, lambda: session.closing)
        await until(
            pilot, lambda: any(m.startswith("Uscito (1 sessione chiusa)") for m in app.messages)
        )
        assert {"type": "logout", "everywhere": True} in session.sent
        await command(pilot, "rooms")  # no connection: answered at once, in one line
        await until(pilot, lambda: "non connesso: entra con `login NOME`, o esci" in app.messages)
        await command(pilot, "login bea")
        await until(pilot, lambda: isinstance(app.screen, AccountForm))
        assert focused_id(app) == "f_password"
        await type_text(pilot, PASSWORD)
        await pilot.press("enter")
        await until(pilot, lambda: "Entrato come bea." in app.messages)
        await until(pilot, lambda: session.ready.is_set())
        assert (session.state.player or {}).get("kind") == "account"
        assert isinstance(app.screen, LobbyScreen) and focused_id(app) == "command"
        await command(pilot, "profile")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        await pilot.pause()
        text = str(app.screen.query_one("#profile", Static).render())
        assert text.startswith("Profilo di bea (account)\nPunteggi\n  ancora nessuna partita")
        assert focused_id(app) == "command"  # no games to open: the line has the focus
        assert not any("Traceback" in m for m in app.messages)
        await session.close()
