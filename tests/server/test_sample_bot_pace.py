"""The sample bot of docs/protocol.md plays a whole Kriegspiel game against itself under the
server's default rate: two bots that answer each other at once are soon ``rate_limited``
unless they pace themselves from ``welcome.limits`` (found by trying the doc from outside).
The burst is small here so that an unpaced bot fails at once, not only in a long game."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from server.net.app import Limits
from tests.server.conftest import ServerFactory

#: a short game: each side a king and a rook, so the 50-move rule ends it within 100 plies
SHORT = "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1"


async def test_two_sample_bots_play_kriegspiel_under_the_default_rate(
    make_server: ServerFactory, connect: Any, sample_bot: Path
) -> None:
    server = await make_server(limits=Limits(burst=4))
    host = await connect("host", port=server.port)
    created = await host.request(
        "create_room", "created", game="kriegspiel", options={"fen": SHORT}, sit=False
    )
    room_id = created["room"]
    await host.request("watch", "watching", room=room_id)
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            str(sample_bot),
            f"ws://127.0.0.1:{server.port}",
            room_id,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(2)
    ]
    outputs = await asyncio.wait_for(asyncio.gather(*(p.communicate() for p in procs)), 60)
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err.decode()
        assert b"rate_limited" not in err
        assert "game over" in out.decode()
    finished = await host.expect("room", room=room_id, state="finished", timeout=30)
    assert finished["outcome"]["reason"] != "abandoned"
