"""Room leases and fencing tokens on a real PostgreSQL: one owner at a time, takeovers
only from dead nodes, and a node that lost a room can never write to its log again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from server.cluster.lease import Granted, Leases, Owned, Unknown, new_node_id
from server.store.contract import ActionRow
from server.store.pg import FencedError, PgStore
from tests.eventually import eventually
from tests.server.store_contract import event, game_row


@pytest.fixture
async def stores(pg_dsn: str) -> AsyncIterator[list[PgStore]]:
    """Two nodes' stores on one database."""
    opened = [PgStore(pg_dsn, pool_size=1) for _ in range(2)]
    for store in opened:
        await store.open()
    try:
        yield opened
    finally:
        for store in opened:
            await store.close()


async def test_a_room_has_one_owner_until_that_node_dies(
    stores: list[PgStore], pg_dsn: str
) -> None:
    one = Leases(pg_dsn, "one", ttl=30)
    two = Leases(pg_dsn, "two", ttl=30)
    await one.open("ws://one")
    await two.open("ws://two")
    try:
        assert await one.acquire("nothing") == Unknown()
        assert await one.acquire("r1", new=True) == Granted(1)
        assert await one.acquire("r1") == Granted(1)  # already its own
        assert await two.acquire("r1") == Owned("one", "ws://one")
        assert await two.heartbeat([]) == set()
        assert await one.heartbeat([{"room": "r1"}]) == {"r1"}
        assert await two.listings() == [{"room": "r1"}]
        await stores[0].save_game(game_row("r1"), [event(1)])
        assert await two.orphans() == []
    finally:
        await one.close(leave=True)  # as if it died: its lease on life is over
    try:
        assert await two.orphans() == ["r1"]
        assert await two.acquire("r1") == Granted(2)
        assert await two.orphans() == []
    finally:
        await two.close()


async def test_a_node_that_lost_the_lease_can_never_append(
    stores: list[PgStore], pg_dsn: str
) -> None:
    old, new = stores
    first = Leases(pg_dsn, new_node_id("first"), ttl=30)
    second = Leases(pg_dsn, new_node_id("second"), ttl=30)
    await first.open()
    await second.open()
    try:
        granted = await first.acquire("r1", new=True)
        assert isinstance(granted, Granted)
        old.fence("r1", granted.token)
        await old.save_game(game_row("r1"), [event(1)])
        await old.append("r1", [event(2, 1)], ActionRow(1, 0, "a", 1.0))
        # The first node stalls (no heartbeat) past its lease: the second takes over.
        await first.close(leave=True)
        taken = await second.acquire("r1")
        assert taken == Granted(granted.token + 1)
        new.fence("r1", taken.token)
        # The stale owner still believes it owns the room: every write is refused.
        with pytest.raises(FencedError):
            await old.append("r1", [event(3, 2)], ActionRow(2, 1, "stale", 2.0))
        with pytest.raises(FencedError):
            await old.save_game(game_row("r1", status="aborted"))
        await new.append("r1", [event(3, 2)], ActionRow(2, 1, "b", 2.0))
        assert [a.action for a in await new.actions("r1")] == ["a", "b"]
        assert (await new.game("r1")) == game_row("r1")
        conn = await asyncpg.connect(pg_dsn)
        try:
            tokens = [r[0] for r in await conn.fetch("SELECT token FROM events ORDER BY seq")]
            grants = await conn.fetch("SELECT token, node FROM lease_log ORDER BY token")
        finally:
            await conn.close()
        assert tokens == [1, 1, 2]  # each row names the lease it was written under
        assert [(g[0], g[1]) for g in grants] == [(1, first.node), (2, second.node)]
    finally:
        await second.close()


async def test_a_claim_that_waited_for_a_takeover_sees_the_new_living_owner(
    stores: list[PgStore], pg_dsn: str
) -> None:
    one = Leases(pg_dsn, "one", ttl=30)
    two = Leases(pg_dsn, "two", ttl=30)
    dead = Leases(pg_dsn, "dead", ttl=30)
    for node in (one, two, dead):
        await node.open(f"ws://{node.node}")
    await stores[0].save_game(game_row("r1"), [event(1)])
    assert await dead.acquire("r1") == Granted(1)
    await dead.close(leave=True)
    conn = await asyncpg.connect(pg_dsn)
    try:
        # Node two is taking the room over (its transaction holds the lease row) ...
        takeover = conn.transaction()
        await takeover.start()
        await conn.execute("UPDATE leases SET node = 'two', token = 2 WHERE room = 'r1'")
        # ... while node one's claim waits for that row.
        claim = asyncio.create_task(one.acquire("r1"))
        waiting = (
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND datname = current_database()"
        )
        await eventually(lambda: conn.fetchval(waiting), interval=0.01, what="a waiting claim")
        await takeover.commit()
        assert await claim == Owned("two", "ws://two")  # not: "two is dead, take it"
    finally:
        await conn.close()
        await one.close()
        await two.close()
