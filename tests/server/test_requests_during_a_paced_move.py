"""Requests that reach a room while a house bot's move is held back for its pace are
answered once the move is shown, never refused: before, they got ``aborted`` ("room ...
failed and its game was aborted") although nothing had failed, and a remote bot that
resumed its seat after a restart gave up (found by ``kill -9`` of a real server; the
other tests use no pace, so nothing is ever held)."""

from __future__ import annotations

import asyncio
from typing import Any

from server.rooms.room import Timing
from tests.server.conftest import ServerFactory


async def test_a_spectator_is_answered_during_every_paced_house_move(
    make_server: ServerFactory, connect: Any
) -> None:
    server = await make_server(timing=Timing(grace=30, autopilot_delay=0.5))
    ana = await connect("ana", port=server.port)
    wes = await connect("wes", port=server.port)
    created = await ana.request(
        "create_room", "created", game="perudo", options={"seats": 2, "dice_per_player": 2}
    )
    room_id = created["room"]
    await wes.request("watch", "watching", room=room_id)
    await ana.request("add_bot", "bot_added", room=room_id, bot="perudo-random")
    over = asyncio.Event()

    async def play() -> None:  # ana calls every bid of the bot, else bids the lowest
        while True:
            frame = await ana.next(timeout=60)
            if frame["type"] == "turn":
                legal = frame["legal"]
                action = "dudo" if "dudo" in legal else legal[0]
                await ana.send(type="act", room=room_id, action=action)
            elif frame["type"] == "room" and frame["state"] == "finished":
                over.set()
                return
            assert frame["type"] != "error", frame

    player = asyncio.create_task(play())
    asked = 0
    while not over.is_set():  # wes asks all the time, so also while a bot move is held
        asked += 1
        reply = await wes.request("watch", "watching", room=room_id, ref=asked)
        assert reply["ref"] == asked
    await player
    bot_moves = [e for e in wes.events(room_id) if e["event"].get("seat") == 1]
    assert bot_moves and asked > 1
