"""``Lobby.live_rooms_of`` reads an index of each player's rooms (issue 34 item 5): it
once scanned every room in memory on each ``create``, O(rooms). The index follows rooms
as they open, as seats are taken and given up, and as rooms end and close; the waiting
rooms are counted the same way."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from server.net.app import UmpireServer
from server.rooms.room import Settings
from tests.eventually import eventually


class NoScan(dict[str, Any]):
    """A room table that fails a test when walked whole."""

    def __iter__(self) -> Iterator[str]:
        raise AssertionError("scanned every room")

    def values(self) -> Any:
        raise AssertionError("scanned every room")

    def items(self) -> Any:
        raise AssertionError("scanned every room")


def brute(server: UmpireServer, player_id: str) -> int:
    rooms = dict.values(server.lobby.rooms)
    return sum(
        1
        for r in rooms
        if r.state in ("waiting", "playing") and (r.host == player_id or player_id in r.row.seats)
    )


async def test_live_rooms_of_follows_seats_without_scanning(
    server: UmpireServer, connect: Any
) -> None:
    lobby = server.lobby
    ana = await connect("ana")
    bob = await connect("bob")
    ana_p = await server.identities.get(ana.player["id"])
    bob_p = await server.identities.get(bob.player["id"])
    assert ana_p is not None and bob_p is not None
    for i in range(5):
        other = await server.identities.get((await connect(f"g{i}")).player["id"])
        assert other is not None
        await lobby.create(other, "perudo", {}, Settings())
    mine = await lobby.create(ana_p, "perudo", {}, Settings())
    theirs = await lobby.create(bob_p, "kriegspiel", {}, Settings())
    lobby.rooms = NoScan(lobby.rooms)

    def counts() -> tuple[int, int]:
        got = (lobby.live_rooms_of(ana_p.id), lobby.live_rooms_of(bob_p.id))
        assert got == (brute(server, ana_p.id), brute(server, bob_p.id))
        return got

    try:
        assert counts() == (1, 1)
        assert lobby.waiting_rooms() == 7
        await lobby.create(bob_p, "perudo", {}, Settings())  # (its limits scan nothing)
        assert lobby.waiting_rooms() == 8
        assert counts() == (1, 2)
        await ana.request("join", "joined", room=theirs.id)  # a seat taken: counted
        assert counts() == (2, 2)
        await ana.request("leave", "left", room=theirs.id)  # given up before the start
        assert counts() == (1, 2)
        await ana.request("join", "joined", room=theirs.id)
        await bob.request("join", "joined", room=theirs.id)
        await eventually(lambda: theirs.state == "playing")  # (full: it starts)
        assert counts() == (2, 2) and lobby.waiting_rooms() == 7
        await ana.request("join", "joined", room=mine.id)
        await ana.send(type="act", room=theirs.id, action="resign")  # (two seats: it ends)
        await eventually(lambda: theirs.state == "finished")
        assert counts() == (1, 1) and lobby.waiting_rooms() == 7
        await lobby.evict(mine.id)  # gone from memory: out of the index too
        assert counts() == (0, 1) and lobby.waiting_rooms() == 6
        # (an ended room in memory stays filed, not counted, until it leaves memory)
        assert lobby._by_player[ana_p.id] == {theirs.id}
        await lobby.evict(theirs.id)
        assert ana_p.id not in lobby._by_player
    finally:
        lobby.rooms = dict(dict.items(lobby.rooms))
