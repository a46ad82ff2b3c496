"""Bots started together with "any open room of this game, or a new one" end up playing
together (docs/bots.md, "Running a bot on a server"): each lists the rooms at the same
moment, finds none and creates its own; then each bot alone with bots in its waiting
room moves to the open room with the smallest id, whose bots stay."""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from bots.baseline import PerudoRandom
from bots.sdk.remote import RemotePlayer, Target, gather_room
from server.net.app import UmpireServer


async def test_four_bots_started_at_once_all_play(server: UmpireServer) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    players = [
        RemotePlayer(
            url,
            functools.partial(PerudoRandom, seed=i),
            name=f"rnd{i}",
            target=Target(game="perudo", options={"seats": 4}),
            gather_every=0.05,
        )
        for i in range(4)
    ]
    results = await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 60)
    # each played one game of four seats: the same game (there are only four bots)
    assert sorted(r.seat for (r,) in results) == [0, 1, 2, 3]
    assert all(len(r.ranks) == 4 for (r,) in results)


def room(rid: str, *seats: tuple[str | None, bool], state: str = "waiting") -> dict[str, Any]:
    return {
        "room": rid,
        "state": state,
        "seats": [{"player": p, "bot": bot} for p, bot in seats],
    }


def test_the_gathering_rule() -> None:
    free = (None, False)
    lobby = [room("b", ("x", True), free), room("c", ("me", True), free), room("a", free, free)]
    assert gather_room(lobby, "c", "me") == "a"  # the smallest open room
    assert gather_room(lobby, "a", "me") is None  # the smallest's bots stay
    # a person who sat down with the bot is never left; a full or started room is no goal
    mine = room("c", ("me", True), ("ann", False), free)
    assert gather_room([mine, room("a", free, free)], "c", "me") is None
    full = room("a", ("x", True), ("y", True))
    started = room("b", ("x", True), free, state="playing")
    assert gather_room([room("c", ("me", True), free), full, started], "c", "me") is None
