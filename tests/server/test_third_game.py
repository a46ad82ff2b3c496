"""A game the server was never told about, played to the end through a real server.

Goofspiel (``tests/games/goofspiel.py``) exists only as an engine module in the tests.
Registered at run time, it gets rooms, per-seat projections, the log, statistics, a
profile and ``verify`` with no line of the server knowing its name.
"""

from __future__ import annotations

import asyncio
from typing import Any

from server.export.reader import verify_game
from server.games import register
from server.net.app import UmpireServer
from tests.server.wsclient import WsClient

register("goofspiel", "tests.games.goofspiel")

CARDS = 5


async def play_on_turns(client: WsClient, room: str, seat: int) -> dict[str, Any]:
    """Answer every ``turn`` frame with the highest card offered; return the game_over."""
    while True:
        frame = await client.next(timeout=10)
        if frame.get("room") != room:
            continue
        assert frame["type"] != "error", frame
        if frame["type"] == "turn":
            assert frame["seat"] == seat and frame["legal"], frame
            await client.send(type="act", room=room, action=frame["legal"][-1])
        elif frame["type"] == "event" and (frame.get("event") or {}).get("type") == "game_over":
            return dict(frame["event"])


async def test_goofspiel_is_played_to_the_end_over_websockets(
    server: UmpireServer, connect: Any
) -> None:
    host = await connect("ana")
    created = await host.request(
        "create_room", "created", game="goofspiel", options={"seats": 2, "cards": CARDS}
    )
    room_id = created["room"]
    assert created["seat"] == 0
    guest = await connect("bob")
    spectator = await connect("eve")
    await spectator.request("watch", "watching", room=room_id)
    joined = await guest.request("join", "joined", room=room_id)
    assert joined["seat"] == 1

    endings = await asyncio.wait_for(
        asyncio.gather(play_on_turns(host, room_id, 0), play_on_turns(guest, room_id, 1)), 30
    )
    assert endings[0] == endings[1]
    over = endings[0]
    # both always bid their highest card: every prize is tied, nobody scores, a draw
    assert over["scores"] == [0, 0] and over["ranks"] == [1, 1]

    # every seat received exactly its own projections: the other's bids only after reveal
    for seat, client in enumerate((host, guest)):
        events = [f["event"] for f in client.events(room_id)]
        bids = [e for e in events if e["type"] == "bid"]
        assert len(bids) == 2 * CARDS
        for bid in bids:
            assert ("card" in bid) == (bid["seat"] == seat), bid
        reveals = [e for e in events if e["type"] == "reveal"]
        assert [r["bids"] for r in reveals] == [[CARDS - i, CARDS - i] for i in range(CARDS)]
    while ((await spectator.next()).get("event") or {}).get("type") != "game_over":
        pass
    watched = [f["event"] for f in spectator.events(room_id)]
    assert [e["type"] for e in watched].count("bid") == 2 * CARDS
    assert all("card" not in e for e in watched if e["type"] == "bid")

    # the log, the statistics and the fairness check, all from the engine contract
    final = await host.expect("room", state="finished")
    assert final["seed"]
    assert await verify_game(server.store, room_id) == []
    profile = await host.request("profile", "profile")
    assert profile["stats"]["goofspiel"]["games"] == 1
    assert profile["stats"]["goofspiel"]["draws"] == 1
