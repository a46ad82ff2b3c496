"""``umpire tournament --server URL`` is a client of a hosted tournament: it creates one
on a real ``umpire serve``, enters its bots, and prints the server's standings."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from pathlib import Path

from tests.server.serve import ROOT, spawn_serve


async def test_umpire_tournament_server_hosts_a_round_robin(tmp_path: Path) -> None:
    proc, port = await spawn_serve(tmp_path / "hosted.db")
    try:
        cli = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "server.cli",
            "tournament",
            "--game",
            "perudo",
            "--bots",
            "perudo-random,perudo-simple,perudo-random",
            "-o",
            "dice_per_player=1",
            "--server",
            f"ws://127.0.0.1:{port}",
            "--format",
            "round_robin",
            "--json",
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(cli.communicate(), timeout=120)
        assert cli.returncode == 0, err.decode()
    finally:
        proc.send_signal(signal.SIGINT)
        await proc.wait()
    final = json.loads(out)
    assert final["status"] == "finished" and final["format"] == "round_robin"
    assert [e["name"] for e in final["entrants"]] == [
        "perudo-random-1",
        "perudo-simple-2",
        "perudo-random-3",
    ]
    games = [g for g in final["games"] if len(g["players"]) == 2]
    assert len(games) == 3 and all(g["scores"] is not None for g in games)
    assert sorted(r["byes"] for r in final["standings"]) == [1, 1, 1]
    assert sum(r["points"] for r in final["standings"]) == 3 + 3
