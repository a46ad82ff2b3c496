"""A bot that exceeds the rate limit no longer stalls (issue 34): the ``rate_limited``
error says when to send again (``retry_after``), and when the dropped message was an
``act`` the room sends the ``turn`` again once the window is open. The bot here is as
naive as bots come: plain websockets, it acts at once on every ``turn`` and does nothing
else (no pacing, no retry), against the server's house bot."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from websockets.asyncio.client import connect

from server.net.app import Limits
from tests.server.conftest import ServerFactory

GAMES = 10
#: the turns after which the bot resigns (a game of random attempts can last long)
PATIENCE = 120
#: seconds without a frame that mean the bot stalls (the house bot moves at once)
STALLED = 10.0


async def test_a_naive_bot_finishes_its_kriegspiel_games(make_server: ServerFactory) -> None:
    server = await make_server(limits=Limits(rate=300, burst=4))
    rng = random.Random(34)
    limited: list[dict[str, Any]] = []
    finished = 0
    requests: dict[int, dict[str, Any]] = {}  # (its requests but acts, to send again)

    async with connect(f"ws://127.0.0.1:{server.port}", compression=None) as ws:

        async def request(**message: Any) -> None:
            message["ref"] = len(requests) + 1
            requests[message["ref"]] = message
            await ws.send(json.dumps(message))

        await request(type="hello", v=1, name="naive", bot=True)
        while finished < GAMES:
            await request(type="create_room", game="kriegspiel", options={"rules": "wild16"})
            room = None
            turns = 0
            while True:
                async with asyncio.timeout(STALLED):
                    frame = json.loads(await ws.recv())
                kind = frame["type"]
                if kind == "created":
                    room = frame["room"]
                    await request(type="add_bot", room=room, bot="kriegspiel-random", seat=1)
                elif kind == "turn" and frame["room"] == room:
                    turns += 1
                    moves = [a for a in frame["legal"] if a != "resign"]
                    action = rng.choice(moves) if turns < PATIENCE else "resign"
                    await ws.send(json.dumps({"type": "act", "room": room, "action": action}))
                elif kind == "error":
                    # (never an error of the game: the random attempts are all possible)
                    assert frame["code"] == "rate_limited", frame
                    limited.append(frame)
                    if frame.get("ref") in requests:  # not an act: as the error says
                        await asyncio.sleep(frame["retry_after"])
                        await ws.send(json.dumps(requests[frame["ref"]]))
                elif kind == "room" and frame["room"] == room and frame["state"] == "finished":
                    finished += 1
                    break
    assert limited, "the bot never exceeded the rate: the test tests nothing"
    assert all(f["retry_after"] > 0 for f in limited)
    assert any(f.get("ref") is None and f["room"] is not None for f in limited)  # acts
