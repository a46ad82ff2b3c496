"""Matches in the TUI, pressing real keys against a real server: the ``match`` frame
takes each player's app to its room and they play; a seek made in one app is taken from a
second; a rematch; a tournament's standings."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from client_cli.app import UmpireApp
from client_cli.games.kriegspiel.screen import BoardView, KriegspielScreen
from client_cli.games.perudo.screen import PerudoScreen
from client_cli.screens.matchmaking import SeeksScreen, TournamentScreen
from client_cli.session import Session
from client_cli.state import ClientState
from client_cli.tokens import TokenStore
from server.net.app import UmpireServer
from server.rooms.lobby import MatchSeat
from tests.client.pilot import in_the_lobby, type_text, until
from tests.eventually import eventually


async def command(pilot: Pilot[Any], line: str) -> None:
    """Focus the command line, type ``line`` key by key, press Enter."""
    pilot.app.screen.query_one("#command", Input).focus()
    await pilot.pause()
    await type_text(pilot, line)
    await pilot.press("enter")


#: Seconds to wait for what the other app does: two apps in threads share the cores (and
#: with other tests'), each key pressed through a pilot costs a frame of each.
SLOW = 60.0


class Player:
    """An app run in a thread of its own, with its own event loop (textual keeps its
    running app in context variables: two apps in one loop trip over each other); the
    script runs with the app's pilot once it shows the lobby."""

    def __init__(self, server: UmpireServer, name: str, tmp: Path) -> None:
        self.url = f"ws://127.0.0.1:{server.port}"
        self.name = name
        store = TokenStore(tmp / name / "client.json")  # (each its own file, as two machines)
        self.app: UmpireApp = UmpireApp(Session(self.url, name, retry=0.05, store=store))
        self.ready = threading.Event()

    async def run(self, script: Callable[[Pilot[Any]], Awaitable[None]]) -> None:
        async with self.app.run_test(size=(130, 42)) as pilot:
            self.pilot = pilot
            await in_the_lobby(self.app, pilot)
            self.ready.set()
            try:
                await script(pilot)
            finally:
                await self.app.session.close()

    @property
    def state(self) -> ClientState:
        return self.app.session.state


def start(player: Player, script: Callable[[Pilot[Any]], Awaitable[None]]) -> asyncio.Task[None]:
    """Run ``player``'s app and script in a thread with its own event loop."""

    def run() -> None:
        try:
            asyncio.run(player.run(script))
        except BaseException:
            print(f"{player.name} saw:", *player.app.messages, sep="\n  ", flush=True)
            raise

    return asyncio.get_running_loop().create_task(asyncio.to_thread(run))


async def test_a_match_frame_opens_the_room_in_both_apps_and_they_play(
    server: UmpireServer, tmp_path: Path
) -> None:
    ana, bob = Player(server, "ana", tmp_path), Player(server, "bob", tmp_path)
    room_id: list[str] = []

    async def ana_plays(pilot: Pilot[Any]) -> None:
        app = ana.app
        await until(pilot, lambda: isinstance(app.screen, KriegspielScreen))
        screen = app.screen
        assert isinstance(screen, KriegspielScreen) and screen.room_id == room_id[0]
        await until(pilot, lambda: isinstance(app.focused, BoardView))  # typing is a move
        white = ana.state.rooms[room_id[0]]
        await until(pilot, lambda: white.turn is not None)
        await command(pilot, "e2e4")
        await until(pilot, lambda: white.over, timeout=20)
        assert any("Matched (seek) with bob" in m for m in app.messages)

    async def bob_plays(pilot: Pilot[Any]) -> None:
        app = bob.app
        await until(pilot, lambda: isinstance(app.screen, KriegspielScreen))
        black = bob.state.rooms[room_id[0]]
        await until(pilot, lambda: black.turn is not None, timeout=20)
        await command(pilot, "resign")
        await until(pilot, lambda: black.over)

    tasks = [start(ana, ana_plays), start(bob, bob_plays)]
    await eventually(lambda: ana.ready.is_set() and bob.ready.is_set(), timeout=20)
    seats: list[MatchSeat] = []
    for p in (ana, bob):
        assert p.state.player is not None
        known = await server.identities.get(p.state.player["id"])
        assert known is not None
        seats.append(known)
    room = await server.lobby.open_match(
        "kriegspiel", {"rules": "wild16"}, seats, source="seek", ref="s-test"
    )
    room_id.append(room.id)
    await asyncio.wait_for(asyncio.gather(*tasks), 60)
    assert room.state == "finished"


async def play_kriegspiel_briefly(player: Player, pilot: Pilot[Any]) -> str:
    """From the lobby: wait for the room the match opens; white moves e2e4, black
    resigns at its first turn. Return the room's id."""
    app = player.app
    await until(pilot, lambda: isinstance(app.screen, KriegspielScreen), timeout=SLOW)
    screen = app.screen
    assert isinstance(screen, KriegspielScreen)
    room_id = screen.room_id
    room = player.state.rooms[room_id]
    await until(pilot, lambda: isinstance(app.focused, BoardView), SLOW)  # typing is a move
    await until(pilot, lambda: room.over or room.turn is not None, timeout=SLOW)
    if not room.over:
        await command(pilot, "e2e4" if room.seat == 0 else "resign")
    await until(pilot, lambda: room.over, timeout=SLOW)
    return room_id


async def rematch(player: Player, pilot: Pilot[Any], rooms: dict[str, str]) -> None:
    """At the game's end press ``m`` (rematch) on the board; the new room opens when both
    have; play it briefly too."""
    app = player.app
    before = player.state.match_count
    rooms[f"{player.name} first seat"] = str(player.state.rooms[rooms[player.name]].seat)
    app.screen.query_one(BoardView).focus()
    await pilot.press("m")
    await until(pilot, lambda: player.state.match_count > before, SLOW)
    assert (player.state.last_match or {}).get("source") == "rematch"
    await until(pilot, lambda: app.screen.room_id != rooms[player.name], SLOW)  # type: ignore[attr-defined]
    rooms[f"{player.name} again"] = await play_kriegspiel_briefly(player, pilot)
    rooms[f"{player.name} seat"] = str(player.state.rooms[rooms[f"{player.name} again"]].seat)


async def test_a_seek_made_in_one_app_is_taken_from_another_and_they_play(
    server: UmpireServer, tmp_path: Path
) -> None:
    ana, bob = Player(server, "ana", tmp_path), Player(server, "bob", tmp_path)
    rooms: dict[str, str] = {}

    async def ana_seeks(pilot: Pilot[Any]) -> None:
        await command(pilot, "seek kriegspiel rules=wild16 fill soon")
        said = ana.app.messages
        await until(pilot, lambda: any(m.startswith("Not sent: fill is") for m in said), SLOW)
        await command(pilot, "seek kriegspiel rules=wild16")
        await until(pilot, lambda: bool(ana.state.my_seeks) or ana.state.match_count > 0, SLOW)
        assert any(m.startswith("Seek ") and "open" in m for m in ana.app.messages)
        rooms["ana"] = await play_kriegspiel_briefly(ana, pilot)
        assert ana.state.my_seeks == []
        await rematch(ana, pilot, rooms)

    async def bob_takes(pilot: Pilot[Any]) -> None:
        app = bob.app
        await pilot.press("k")  # the lobby's key: the open seeks, followed live
        await until(pilot, lambda: isinstance(app.screen, SeeksScreen))
        table = app.screen.query_one("#seeks", DataTable)
        await until(pilot, lambda: table.row_count == 1, timeout=SLOW)
        assert "ana" in " ".join(str(c) for c in table.get_row_at(0))
        table.focus()
        await pilot.press("enter")  # take it
        rooms["bob"] = await play_kriegspiel_briefly(bob, pilot)
        await until(pilot, lambda: any("offer a rematch" in m for m in app.messages), SLOW)
        await rematch(bob, pilot, rooms)

    await asyncio.wait_for(asyncio.gather(start(ana, ana_seeks), start(bob, bob_takes)), 4 * SLOW)
    assert rooms["ana"] == rooms["bob"]
    assert rooms["ana again"] == rooms["bob again"] != rooms["ana"]
    for room_id in (rooms["ana"], rooms["ana again"]):
        row = await server.store.game(room_id)
        assert row is not None and row.status == "finished"
    assert rooms["ana seat"] != rooms["ana first seat"]  # the colours swapped
    assert rooms["bob seat"] != rooms["bob first seat"]


def shown(app: UmpireApp) -> str:
    """The tournament screen's text."""
    screen = app.screen
    assert isinstance(screen, TournamentScreen)
    return str(screen.query_one("#standings", Static).render())


def shows(app: UmpireApp, *parts: str) -> bool:
    """Whether the tournament screen is up and its text holds every one of ``parts`` (a
    screen just pushed is drawn a moment later: its first text is empty)."""
    return isinstance(app.screen, TournamentScreen) and all(p in shown(app) for p in parts)


async def test_a_tournament_joined_by_key_its_standings_live_its_game_played(
    server: UmpireServer, connect: Callable[..., Any]
) -> None:
    host = await connect("host")
    created = await host.request(
        "create_tournament",
        "tournament",
        game="perudo",
        options={"dice_per_player": 1},
        format="swiss",
        rounds=1,
        name="cup",
    )
    tid = created["tournament"]["id"]
    app = UmpireApp(Session(f"ws://127.0.0.1:{server.port}", "ana", retry=0.05))
    async with app.run_test(size=(130, 42)) as pilot:
        await in_the_lobby(app, pilot)
        await pilot.press("t")  # the lobby's key: the tournaments in the log
        await until(pilot, lambda: any("cup" in m and tid in m for m in app.messages))
        await command(pilot, f"tournament {tid}")
        await until(pilot, lambda: shows(app, f"Tournament {tid}: cup", "nobody has entered yet"))
        await pilot.press("j")
        await until(pilot, lambda: "ana" in shown(app))
        # the host registers a house bot: the screen follows without a key
        await host.request("join_tournament", "tournament", tournament=tid, bot="perudo-random")
        await until(pilot, lambda: "perudo-random" in shown(app))
        await host.request("start_tournament", "tournament", tournament=tid)
        await until(pilot, lambda: isinstance(app.screen, PerudoScreen))
        assert any("Matched (tournament) with perudo-random" in m for m in app.messages)
        room = app.session.state.current_room
        assert room is not None
        for _ in range(10):
            await until(pilot, lambda: room.over or room.turn is not None, timeout=20)
            if room.over:
                break
            turn = room.turn

            def moved(turn: dict[str, Any] | None = turn) -> bool:
                return room.over or room.turn is not turn

            await command(pilot, "dudo" if "dudo" in room.legal else room.legal[0])
            await until(pilot, moved)
        await until(pilot, lambda: app.session.state.tournament[tid]["status"] == "finished")
        await command(pilot, f"tournament {tid}")
        await until(pilot, lambda: shows(app, "finished", "Round 1"))
        text = shown(app)
        assert "1–0" in text or "0–1" in text
        assert "Buch." in text and "S-B" in text
