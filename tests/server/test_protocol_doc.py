"""docs/protocol.md stays true: its example bot plays a whole game against a house bot,
and every error code of the server is documented there."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path
from typing import Any

from server.app import UmpireServer
from server.protocol import ERROR_CODES, MESSAGE_TYPES

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_every_error_code_and_message_is_documented() -> None:
    text = DOC.read_text()
    for code in ERROR_CODES:
        assert f"| `{code}` |" in text, code
    for kind in MESSAGE_TYPES:
        assert f"### `{kind}`" in text, kind


async def test_the_example_bot_finishes_a_game(
    server: UmpireServer, connect: Any, tmp_path: Path
) -> None:
    code = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert code is not None
    script = tmp_path / "tinybot.py"
    script.write_text(code.group(1))
    host = await connect("host")
    room_id = (
        await host.request("create_room", "created", game="perudo", options={"seats": 2}, sit=False)
    )["room"]
    await host.request("add_bot", "bot_added", room=room_id)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(script), f"ws://127.0.0.1:{server.port}", room_id
    )
    assert await asyncio.wait_for(proc.wait(), 30) == 0
    room = server.lobby.rooms[room_id]
    assert room.state == "finished"
    assert any(seat == 1 for seat, _ in room.game.history)
