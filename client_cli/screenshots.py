"""Make the SVG screenshots in ``docs/``: ``python -m client_cli.screenshots [DIR]``.

It starts a throwaway ``umpire serve`` process (a temporary SQLite file, nothing kept), plays
a little with house bots and a second client, and saves what the headless TUI shows:
``client-lobby.svg``, ``client-perudo.svg`` and ``client-kriegspiel.svg``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from client_cli.app import UmpireApp
from client_cli.session import Session, SessionError

SIZE = (118, 38)


async def _until(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 20) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise TimeoutError("the screenshot script waited too long: " + str(condition))
        await pilot.pause(0.05)


@contextlib.asynccontextmanager
async def _other(url: str, name: str) -> AsyncIterator[Session]:
    session = Session(url, name, retry=0.05)
    task = asyncio.create_task(session.run())
    await session.ready.wait()
    try:
        yield session
    finally:
        await session.close()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def _add_bot(app: UmpireApp, names: list[str]) -> None:
    for name in names:
        if await app.run_line(f"bot {name}"):
            return


async def shoot(out: Path) -> None:
    """Run a server, drive the TUI, save the three screenshots into ``out``."""
    tmp = tempfile.mkdtemp(prefix="umpire-shots-")
    os.environ["XDG_CONFIG_HOME"] = tmp
    # the server runs as its own process, as a player would meet it (and the client never
    # imports the server)
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server.cli",
        "serve",
        "--port",
        "0",
        "--db",
        str(Path(tmp) / "umpire.db"),
        "--synchronous",
        "NORMAL",
        "--rate",
        "1000",
        "--burst",
        "1000",
        "--grace",
        "30",
        "--autopilot-delay",
        "0.3",
        "--log-level",
        "WARNING",
        stdout=asyncio.subprocess.PIPE,
    )
    assert server.stdout is not None
    line = (await server.stdout.readline()).decode()
    if "listening on" not in line:
        raise SystemExit(f"the server did not start: {line!r}")
    port = int(line.rsplit(":", 1)[1])
    url = f"ws://127.0.0.1:{port}"
    try:
        async with _other(url, "bob") as bob, _other(url, "cara") as cara:
            await bob.request({"type": "create_room", "game": "perudo", "options": {"seats": 4}})
            await cara.request(
                {
                    "type": "create_room",
                    "game": "kriegspiel",
                    "options": {"rules": "cincinnati"},
                    "clock": {"base": 600, "increment": 5},
                }
            )
            await _perudo_and_lobby(url, out)
            await _kriegspiel(url, bob, out)
    finally:
        server.terminate()
        await server.wait()


async def _perudo_and_lobby(url: str, out: Path) -> None:
    app = UmpireApp(Session(url, "ana", retry=0.05))
    state = app.session.state
    async with app.run_test(size=SIZE) as pilot:
        await _until(pilot, lambda: len(state.lobby) >= 2)
        await pilot.pause(0.2)
        (out / "client-lobby.svg").write_text(app.export_screenshot(title="umpire play: lobby"))
        await app.run_line("create perudo seats=4 dice=3 calza=true")
        await _until(pilot, lambda: state.current is not None)
        room = state.room(state.current or "")
        for _ in range(3):
            await _add_bot(app, ["perudo-expert", "perudo-simple", "autopilot"])
        await _until(pilot, lambda: room.state == "playing")
        mine = room.seat

        def my_turn_or_out() -> bool:
            return room.turn is not None or room.over or mine in room.perudo.out

        for _ in range(40):
            await _until(pilot, my_turn_or_out)
            if room.turn is None or (room.perudo.reveal is not None and room.perudo.bids):
                break
            action = "dudo" if len(room.perudo.bids) >= 2 else room.legal[0]
            turn = room.turn
            if not await app.run_line(action):
                break
            await _until(pilot, lambda t=turn: room.turn is not t or room.over)  # type: ignore[misc]
        with contextlib.suppress(SessionError, TimeoutError):
            await app.run_line("hint")
        await pilot.pause(0.3)
        (out / "client-perudo.svg").write_text(app.export_screenshot(title="umpire play: Perudo"))
        await app.session.close()


async def _kriegspiel(url: str, bob: Session, out: Path) -> None:
    app = UmpireApp(Session(url, "ana", retry=0.05))
    state = app.session.state
    async with app.run_test(size=SIZE) as pilot:
        await _until(pilot, lambda: app.session.ready.is_set())
        await app.run_line("create kriegspiel rules=english clock=300+5")
        await _until(
            pilot,
            lambda: state.current_room is not None and state.current_room.game == "kriegspiel",
        )
        room_id = state.current or ""
        room = state.room(room_id)
        await bob.request({"type": "join", "room": room_id})
        theirs = bob.state.room(room_id)
        for mine, reply in (("e2e4", "e7e5"), ("g1f3", "b8c6"), ("f1c4", "f8c5")):
            await _until(pilot, lambda: room.turn is not None)
            await app.run_line(mine)
            await bob.wait_until(lambda: theirs.turn is not None, 10)
            await bob.request({"type": "act", "room": room_id, "action": reply})
        await _until(pilot, lambda: room.turn is not None)
        await app.run_line("f3g5")
        await bob.wait_until(lambda: theirs.turn is not None, 10)
        await bob.request({"type": "act", "room": room_id, "action": "g8f6"})
        await _until(pilot, lambda: room.turn is not None)
        await app.run_line("any")
        for square, piece in (("e5", "p"), ("c6", "n"), ("c5", "b"), ("e8", "k")):
            await app.run_line(f"mark {square} {piece}")
        await pilot.pause(0.3)
        (out / "client-kriegspiel.svg").write_text(
            app.export_screenshot(title="umpire play: Kriegspiel")
        )
        await app.session.close()


def main(argv: list[str] | None = None) -> int:
    """Write the screenshots into the given directory (default ``docs``)."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "docs")
    out.mkdir(parents=True, exist_ok=True)
    asyncio.run(shoot(out))
    print(f"wrote {out}/client-lobby.svg, client-perudo.svg, client-kriegspiel.svg")
    return 0


if __name__ == "__main__":
    sys.exit(main())
