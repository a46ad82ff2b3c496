"""Room leases with fencing tokens, in PostgreSQL: which node owns which room.

Several umpire nodes share one database (docs/scale-out.md). A room is owned by exactly
one node at a time: the node holding the room's row in ``leases``. A lease is valid while
its node is alive, that is while the node's row in ``nodes`` has not expired; a node
renews its row (:meth:`Leases.heartbeat`) several times per ``ttl``. All times are the
database server's clock (``clock_timestamp()``), so the nodes' own clocks never matter.

:meth:`Leases.acquire` gives a node a room that is free, already its own, or held by a
dead node; taking a room over increments the room's **fencing token**. The owner hands
the token to the store (:meth:`server.store.pg.PgStore.fence`), which checks it in the
same transaction as every write of the room, under a share lock on the lease row that a
takeover must wait for. So once another node took a room over, the old owner (even one
that is merely slow, paused or cut off, and still believes it owns the room) can never
append to the room's log again. ``lease_log`` keeps every grant (room, token, node).

Node ids name one process's life (a name plus random digits): a restarted process is a
new node and takes its former rooms over like any other node, with new tokens.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg
import msgspec

from server.errors import StoreError

log = logging.getLogger(__name__)

# Lock the lease row first, then read its node in a statement of its own: under READ
# COMMITTED a locking read that waited for a takeover re-reads the lease row but not the
# rows it was joined with, so a join here would pair the new holder with the old one's
# node row and call a living node dead.
_FIND = "SELECT node, token FROM leases WHERE room = $1 FOR UPDATE"
_NODE = "SELECT url, expires > clock_timestamp() FROM nodes WHERE id = $1"
_ORPHANS = """
SELECT l.room FROM leases l
JOIN games g ON g.id = l.room
LEFT JOIN nodes n ON n.id = l.node
WHERE g.status IN ('waiting', 'playing')
  AND (n.expires IS NULL OR n.expires <= clock_timestamp())
ORDER BY random()
LIMIT $1
"""


@dataclass(frozen=True, slots=True)
class Granted:
    """The room is this node's, under fencing token ``token``."""

    token: int


@dataclass(frozen=True, slots=True)
class Owned:
    """The room belongs to the living node ``node``, reachable at ``url``."""

    node: str
    url: str


@dataclass(frozen=True, slots=True)
class Unknown:
    """No such room in the log (nothing was leased)."""


Claim = Granted | Owned | Unknown


def new_node_id(name: str) -> str:
    """A node id for this process: ``name`` and random digits (unique per process life)."""
    return f"{name or 'node'}-{secrets.token_hex(4)}"


class Leases:
    """This node's side of the lease table. ``await open()`` registers the node (alive
    for ``ttl`` seconds); call :meth:`heartbeat` every ``ttl / 3`` or so."""

    def __init__(self, dsn: str, node: str, *, ttl: float = 5.0) -> None:
        if ttl <= 0:
            raise ValueError("the lease ttl must be positive")
        self.dsn = dsn
        self.node = node
        self.ttl = ttl
        self._pool: asyncpg.Pool | None = None

    @property
    def pool(self) -> asyncpg.Pool:
        """The lease connections; :class:`StoreError` before :meth:`open`."""
        if self._pool is None:
            raise StoreError("the lease table is not open")
        return self._pool

    async def open(self, url: str = "") -> None:
        """Connect and register this node (its schema comes with the PostgreSQL store)."""
        try:
            self._pool = await asyncpg.create_pool(self.dsn, min_size=1, max_size=2)
        except (OSError, asyncpg.PostgresError) as exc:
            raise StoreError(f"cannot connect for leases: {exc}") from exc
        await self.pool.execute(
            "INSERT INTO nodes (id, url, expires) "
            "VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3))",
            self.node,
            url,
            self.ttl,
        )

    async def close(self, *, leave: bool = True) -> None:
        """Disconnect; with ``leave``, expire this node at once so that other nodes take
        its rooms over without waiting for the ttl (a graceful shutdown)."""
        if self._pool is None:
            return
        try:
            if leave:
                await self._pool.execute(
                    "UPDATE nodes SET expires = '-infinity' WHERE id = $1", self.node
                )
        finally:
            await self._pool.close()
            self._pool = None

    async def secret(self) -> str:
        """The cluster's shared secret (made by the first node): it authenticates one
        node's relayed connections to another (server.cluster.nodes)."""
        await self.pool.execute(
            "INSERT INTO cluster (key, value) VALUES ('peer_secret', $1) ON CONFLICT DO NOTHING",
            secrets.token_urlsafe(32),
        )
        value: str = await self.pool.fetchval("SELECT value FROM cluster WHERE key = 'peer_secret'")
        return value

    async def advertise(self, url: str) -> None:
        """Publish the URL where other nodes reach this one."""
        await self.pool.execute("UPDATE nodes SET url = $2 WHERE id = $1", self.node, url)

    async def heartbeat(self, listing: Sequence[object]) -> set[str]:
        """Keep this node alive for another ``ttl`` and publish its public rooms (any
        JSON-encodable values: the lobby's ``RoomInfo``); return the rooms whose lease
        this node holds now."""
        async with self.pool.acquire() as conn:
            renewed = await conn.fetchval(
                "UPDATE nodes SET expires = clock_timestamp() + make_interval(secs => $2), "
                "listing = $3 WHERE id = $1 RETURNING id",
                self.node,
                self.ttl,
                msgspec.json.encode(listing).decode(),
            )
            if renewed is None:
                raise StoreError(f"node {self.node} is not registered")
            rows = await conn.fetch("SELECT room FROM leases WHERE node = $1", self.node)
        return {r[0] for r in rows}

    async def alive(self) -> set[str]:
        """The ids of the nodes alive now (this one included, once registered)."""
        rows = await self.pool.fetch("SELECT id FROM nodes WHERE expires > clock_timestamp()")
        return {r[0] for r in rows}

    async def listings(self) -> list[dict[str, Any]]:
        """The public rooms the other living nodes published at their last heartbeat."""
        rows = await self.pool.fetch(
            "SELECT listing FROM nodes WHERE id <> $1 AND expires > clock_timestamp()",
            self.node,
        )
        return [room for r in rows for room in json.loads(r[0])]

    async def acquire(self, room: str, *, new: bool = False) -> Claim:
        """Lease ``room`` to this node if it is free, already ours, or held by a dead
        node (a takeover: the token goes up by one). ``new``: the room is being created
        (it has no row in ``games`` yet); otherwise a room unknown to the log is not
        leased (:class:`Unknown`)."""
        async with self.pool.acquire() as conn, conn.transaction():
            row = await conn.fetchrow(_FIND, room)
            if row is None:
                if (
                    not new
                    and await conn.fetchval("SELECT 1 FROM games WHERE id = $1", room) is None
                ):
                    return Unknown()
                inserted = await conn.fetchval(
                    "INSERT INTO leases (room, node, token) VALUES ($1, $2, 1) "
                    "ON CONFLICT DO NOTHING RETURNING token",
                    room,
                    self.node,
                )
                if inserted is None:  # another node leased it meanwhile
                    row = await conn.fetchrow(_FIND, room)
                else:
                    await self._log(conn, room, 1)
                    return Granted(1)
            node, token = row["node"], row["token"]
            found = await conn.fetchrow(_NODE, node)
            url, alive = ("", False) if found is None else (found[0], found[1])
            if node == self.node:
                return Granted(int(token))
            if alive:
                return Owned(node, url)
            token = int(token) + 1
            await conn.execute(
                "UPDATE leases SET node = $2, token = $3, taken = clock_timestamp() "
                "WHERE room = $1",
                room,
                self.node,
                token,
            )
            await self._log(conn, room, token)
            log.info("room %s: taken over from node %s (fencing token %d)", room, node, token)
            return Granted(token)

    async def _log(self, conn: asyncpg.Connection, room: str, token: int) -> None:
        await conn.execute(
            "INSERT INTO lease_log (room, token, node) VALUES ($1, $2, $3)", room, token, self.node
        )

    async def orphans(self, limit: int = 50) -> list[str]:
        """Unfinished rooms whose lease holder is dead (for this node to take over)."""
        rows = await self.pool.fetch(_ORPHANS, limit)
        return [r[0] for r in rows]

    async def rooms_of(self, player_id: str) -> list[str]:
        """The unfinished rooms where ``player_id`` holds a seat (on any node)."""
        rows = await self.pool.fetch(
            "SELECT id, seats FROM games WHERE status IN ('waiting', 'playing') "
            "AND strpos(seats, $1) > 0",
            json.dumps(player_id),
        )
        return [r[0] for r in rows if player_id in json.loads(r[1])]
