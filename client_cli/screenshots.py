"""Make the SVG screenshots in ``docs/``: ``python -m client_cli.screenshots [DIR]``.

It starts a throwaway ``umpire serve`` process (a temporary SQLite file, nothing kept), opens
a room of every game the server offers, and saves what the headless TUI shows: the lobby
(``client-lobby.svg``), then, for each game whose module has a scene (its ``shots.py``),
the game played a little with house bots and a second client (``client-GAME.svg``).
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

from client_cli import games
from client_cli.app import UmpireApp
from client_cli.games.base import Scene
from client_cli.session import Session

SIZE = (118, 38)


async def until(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 20) -> None:
    """Let the app run until ``condition()`` holds (a game's scene waits with it)."""
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


async def add_bot(app: UmpireApp, names: list[str]) -> None:
    """Add the first of ``names`` the server accepts."""
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
            await bob.wait_until(lambda: bob.state.catalogue is not None, 10)
            assert bob.state.catalogue is not None
            for name in bob.state.catalogue.names:  # a room of every game for the lobby
                await cara.request({"type": "create_room", "game": name})
            await _shoot_app(url, out, "lobby", None, bob)
            for name in bob.state.catalogue.names:
                scene = games.game(name).screenshot_scene()
                if scene is not None:
                    await _shoot_app(url, out, name, scene, bob)
    finally:
        server.terminate()
        await server.wait()


async def _shoot_app(url: str, out: Path, name: str, scene: Scene | None, other: Session) -> None:
    """Run the app as ana, play ``scene`` (none: the lobby) and save ``client-NAME.svg``."""
    app = UmpireApp(Session(url, "ana", retry=0.05))
    state = app.session.state
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(state.lobby) >= 2 and state.catalogue is not None)
        if scene is not None:
            await scene(app, pilot, other)
        await pilot.pause(0.3)
        info = state.catalogue.game(name) if state.catalogue is not None else None
        title = f"umpire play: {info.label if info is not None else name}"
        (out / f"client-{name}.svg").write_text(app.export_screenshot(title=title))
        await app.session.close()


def main(argv: list[str] | None = None) -> int:
    """Write the screenshots into the given directory (default ``docs``)."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "docs")
    out.mkdir(parents=True, exist_ok=True)
    asyncio.run(shoot(out))
    print(f"wrote the screenshots into {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
