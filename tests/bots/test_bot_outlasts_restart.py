"""``umpire bot`` outlasts a server restart: its default reconnection is patient enough
(docs/bots.md, "Running a bot on a server")."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

from tests.eventually import eventually
from tests.server.scripted import SeatScript, play_seat, play_steps, resume_seat
from tests.server.serve import ROOT, spawn_serve
from tests.server.wsclient import WsClient

#: connection attempts the stand-in listener refuses while the server is down: the old
#: default (--retries 4) gave up at the fourth, a few seconds after the drop
REFUSED = 5


async def test_umpire_bot_resumes_its_game_after_a_server_restart(tmp_path: Path) -> None:
    db = tmp_path / "umpire.db"
    proc, port = await spawn_serve(db)
    bot: asyncio.subprocess.Process | None = None
    try:
        host = await WsClient.open(port)
        await host.hello("host")
        created = await host.request("create_room", "created", game="perudo", options={"seats": 2})
        script = SeatScript(created["room"], created["seat"])
        bot = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "server.cli", "bot", "perudo-random"),
            *("--server", f"ws://127.0.0.1:{port}", "--room", script.room),
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        assert await play_steps(host, script, 1) == 1  # the game is on, the bot seated
        assert script.over is None
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 30) == 0

        # while the server is down, its port refuses the bot's attempts (counted)
        attempts = 0

        async def refuse(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            nonlocal attempts
            attempts += 1
            writer.close()

        down = await asyncio.start_server(refuse, "127.0.0.1", port)
        try:
            await eventually(
                lambda: attempts >= REFUSED or bot.returncode is not None,
                timeout=60,
                what=f"{REFUSED} refused attempts",
            )
            assert bot.returncode is None, "the bot gave up while the server was down"
        finally:
            down.close()
            await down.wait_closed()

        proc, _ = await spawn_serve(db, port=port)
        back = await WsClient.open(port)
        await back.hello("host", token=host.token)
        await resume_seat(back, script)
        over = await asyncio.wait_for(play_seat(back, script.room, script.seat, script=script), 60)
        assert over is not None  # (the bot played its turns after the restart)
        out, err = await asyncio.wait_for(bot.communicate(), 30)
        assert await bot.wait() == 0, err.decode()  # (its return code, now it has ended)
        assert b"seat 1: placed" in out
    finally:
        for p in (proc, bot):
            if p is not None and p.returncode is None:
                p.kill()
                await p.wait()
