"""The PostgreSQL store: the :class:`~server.store.contract.Store` contract on a shared database.

``umpire serve --db postgresql://user@host/db`` uses it (:func:`server.store.contract.open_store`
maps the URL here). It keeps every promise of the SQLite store (the contract suite in
``tests/server/store_contract.py`` runs against both): a write returns only once its
transaction is committed, reads see committed rows only, and concurrent writes of many
rooms share one transaction (group commit) made by one writer task on its own
connection; reads go through a small pool.

Several umpire nodes may share one database. Each room is then owned by one node at a
time through a lease (``server.cluster.lease``); the owner registers the lease's fencing token
here with :meth:`PgStore.fence`, and from then on every write for that room checks, in
the same transaction and under a share lock on the lease row, that the token is still
the current one. A node that lost the room (its lease taken over by another node) can
therefore never append to the room's log again: its write fails with
:class:`FencedError` and nothing of it is stored.

Schema: the tables of ``server/store/contract.py`` (same columns; JSON kept as text so the log
reads back byte for byte, ids compared bytewise with ``COLLATE "C"`` as in SQLite), plus
``schema_migrations`` (one row per migration applied), ``nodes`` and ``leases``
(``server/cluster/lease.py``). Migrations run under an advisory lock, so nodes started together
migrate once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from server.errors import LeaseLost, NameTaken, StoreError
from server.store.contract import (
    ACTION_COLUMNS,
    CHAT_COLUMNS,
    EVENT_COLUMNS,
    GAME_COLUMNS,
    ActionRow,
    ChatRow,
    EventRow,
    GameRow,
    PlayerRow,
    RatingChange,
    RatingKey,
    RatingPlan,
    SeekRow,
    SessionRow,
    TournamentRow,
    action_values,
    chat_values,
    event_values,
    game_values,
    seat_rows,
    seek_values,
    stat_rows,
)
from server.store.group_commit import WriteQueue, commit_in_groups, write_failed
from server.store.sql import (
    CHANGE_COLUMNS,
    CURRENT_RATING,
    GAME_CHANGES,
    INSERT_CHANGE,
    INSERT_PLAYER,
    INSERT_SEEK,
    INSERT_SESSION,
    NAME_TAKEN,
    RATING_COLUMNS,
    TOURNAMENT_COLUMNS,
    UPSERT_RATING,
    SqlReads,
    change_from_row,
    change_values,
    current_rating,
    final_ratings,
    planned_changes,
    player_values,
    rating_values,
)

log = logging.getLogger(__name__)

#: an arbitrary constant naming the advisory lock that serializes migrations
_MIGRATION_LOCK = 0x756D_7069_7265
#: the ``cluster`` row ``umpire migrate`` (server.store.migrate) keeps while it copies a
#: SQLite knowledge base into this database: nothing else opens it until the copy is done
COPY_MARK = "copy_from_sqlite"
#: an advisory lock every open store (serve, export, verify...) holds *shared* on its
#: writer connection for as long as it is open, and ``umpire migrate`` holds *alone* for
#: its whole copy: a copy never starts into a database a store has open (even one that
#: opened before the copy's mark was written and has not registered its node yet), and
#: no store opens one a copy is filling (even before its mark is written)
USE_LOCK = 0x756D_7069_7265_0D

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE players (
        id TEXT COLLATE "C" PRIMARY KEY,
        name TEXT NOT NULL,
        bot BOOLEAN NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE games (
        id TEXT COLLATE "C" PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        settings TEXT NOT NULL,
        host TEXT,
        invite TEXT,
        public BOOLEAN NOT NULL,
        seats TEXT NOT NULL,
        status TEXT NOT NULL,
        seed BYTEA NOT NULL,
        seed_sha256 TEXT NOT NULL,
        seed_revealed BOOLEAN NOT NULL DEFAULT FALSE,
        result TEXT,
        reason TEXT,
        created DOUBLE PRECISION NOT NULL,
        started DOUBLE PRECISION,
        finished DOUBLE PRECISION,
        house TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX games_status ON games (status);
    CREATE INDEX games_created ON games (created, id);
    CREATE INDEX games_invite ON games (invite) WHERE invite IS NOT NULL;
    CREATE TABLE game_players (
        game_id TEXT COLLATE "C" NOT NULL,
        seat INTEGER NOT NULL,
        player_id TEXT COLLATE "C" NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX game_players_player ON game_players (player_id);
    CREATE TABLE actions (
        game_id TEXT COLLATE "C" NOT NULL,
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        clocks TEXT,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE events (
        game_id TEXT COLLATE "C" NOT NULL,
        seq INTEGER NOT NULL,
        source TEXT NOT NULL,
        action_n INTEGER,
        truth TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE chat (
        game_id TEXT COLLATE "C" NOT NULL,
        n INTEGER NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        channel TEXT NOT NULL,
        seat INTEGER,
        player_id TEXT NOT NULL,
        name TEXT NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE player_stats (
        player_id TEXT COLLATE "C" NOT NULL,
        game TEXT NOT NULL,
        key TEXT NOT NULL,
        value DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (player_id, game, key)
    );
    """,
    # 2: several nodes on one database (server/cluster/lease.py): who is alive, who owns a room,
    # every lease ever granted, and the fencing token each logged row was written under
    """
    CREATE TABLE nodes (
        id TEXT COLLATE "C" PRIMARY KEY,
        url TEXT NOT NULL,
        expires TIMESTAMPTZ NOT NULL,
        listing TEXT NOT NULL DEFAULT '[]'
    );
    CREATE TABLE cluster (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    ALTER TABLE events ADD COLUMN token BIGINT;
    ALTER TABLE actions ADD COLUMN token BIGINT;
    CREATE TABLE leases (
        room TEXT COLLATE "C" PRIMARY KEY,
        node TEXT COLLATE "C" NOT NULL,
        token BIGINT NOT NULL,
        taken TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
    );
    CREATE INDEX leases_node ON leases (node);
    CREATE TABLE lease_log (
        room TEXT COLLATE "C" NOT NULL,
        token BIGINT NOT NULL,
        node TEXT COLLATE "C" NOT NULL,
        taken TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (room, token)
    );
    """,
    # 3 (SQLite's migration 5): accounts and ratings (issue 27). Tokens move to sessions
    # (a player may hold several); players gain their kind, a bot account's owner, an
    # account's name key and password hash. House bots (bot-<kind>) are recognised by
    # their ids.
    """
    CREATE TABLE sessions (
        token_hash TEXT COLLATE "C" PRIMARY KEY,
        player_id TEXT COLLATE "C" NOT NULL,
        kind TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        last_used DOUBLE PRECISION NOT NULL
    );
    INSERT INTO sessions (token_hash, player_id, kind, created, last_used)
        SELECT token_hash, id, 'session', created, created FROM players;
    CREATE INDEX sessions_player ON sessions (player_id, kind);
    ALTER TABLE players DROP COLUMN token_hash,
        ADD COLUMN kind TEXT NOT NULL DEFAULT 'guest',
        ADD COLUMN owner TEXT COLLATE "C",
        ADD COLUMN account TEXT COLLATE "C" UNIQUE,
        ADD COLUMN password TEXT;
    UPDATE players SET kind = 'house', account = lower(name) WHERE bot AND id LIKE 'bot-%';
    CREATE INDEX players_owner ON players (owner) WHERE owner IS NOT NULL;
    ALTER TABLE games ADD COLUMN rated TEXT;
    CREATE TABLE ratings (
        player_id TEXT COLLATE "C" NOT NULL,
        version TEXT COLLATE "C" NOT NULL,
        game TEXT COLLATE "C" NOT NULL,
        rules TEXT COLLATE "C" NOT NULL,
        pool TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION,
        games INTEGER NOT NULL,
        updated DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (player_id, version, game, rules)
    );
    CREATE INDEX ratings_board
        ON ratings (game, rules, pool, rating DESC, games, player_id, version);
    CREATE TABLE rating_changes (
        n BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id TEXT COLLATE "C" NOT NULL,
        seat INTEGER NOT NULL,
        player_id TEXT COLLATE "C" NOT NULL,
        version TEXT COLLATE "C" NOT NULL,
        game TEXT COLLATE "C" NOT NULL,
        rules TEXT COLLATE "C" NOT NULL,
        pool TEXT NOT NULL,
        before_rating DOUBLE PRECISION NOT NULL,
        before_deviation DOUBLE PRECISION NOT NULL,
        before_volatility DOUBLE PRECISION,
        before_games INTEGER NOT NULL,
        after_rating DOUBLE PRECISION NOT NULL,
        after_deviation DOUBLE PRECISION NOT NULL,
        after_volatility DOUBLE PRECISION,
        after_games INTEGER NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        UNIQUE (game_id, seat)
    );
    CREATE INDEX rating_changes_key ON rating_changes (player_id, game, rules, version, n);
    """,
    # 4 (SQLite's migration 6): seeks (issue 28, server.matchmaking; docs/matchmaking.md).
    # The ladder's seeks are rows here too (``ladder``, ``max_concurrent``).
    """
    CREATE TABLE seeks (
        id TEXT COLLATE "C" PRIMARY KEY,
        player_id TEXT COLLATE "C" NOT NULL,
        game TEXT COLLATE "C" NOT NULL,
        options TEXT NOT NULL,
        rated BOOLEAN NOT NULL,
        seats INTEGER NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        pool TEXT COLLATE "C" NOT NULL,
        clock TEXT,
        rating DOUBLE PRECISION,
        rating_range TEXT,
        fill_after DOUBLE PRECISION,
        ladder BOOLEAN NOT NULL DEFAULT FALSE,
        max_concurrent INTEGER NOT NULL DEFAULT 1,
        status TEXT COLLATE "C" NOT NULL DEFAULT 'open',
        room TEXT COLLATE "C",
        updated DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX seeks_open ON seeks (status, created, id);
    CREATE INDEX seeks_player ON seeks (player_id, status);
    CREATE INDEX seeks_room ON seeks (room) WHERE room IS NOT NULL;
    -- a cluster's poll reads the seeks changed since the last one (server.matchmaking)
    CREATE INDEX seeks_updated ON seeks (updated);
    """,
    # 5 (SQLite's migration 7): hosted tournaments (issue 28, server.tournaments).
    # One row per tournament, holding its whole state.
    """
    CREATE TABLE tournaments (
        id TEXT COLLATE "C" PRIMARY KEY,
        status TEXT NOT NULL,
        state TEXT NOT NULL,
        version BIGINT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX tournaments_status ON tournaments (status, created);
    -- its games once over, append-only: the state holds only those after them
    CREATE TABLE tournament_games (
        tournament TEXT COLLATE "C" NOT NULL,
        seq INTEGER NOT NULL,
        game TEXT NOT NULL,
        PRIMARY KEY (tournament, seq)
    );
    """,
    # 6 (SQLite's migration 8): the tamper-evident log (issue 32, server.store.chain;
    # docs/data.md). Games logged before are unchained (a room still waiting, with
    # nothing logged yet, is chained from now on).
    """
    ALTER TABLE actions ADD COLUMN decided_by TEXT,
        ADD COLUMN pos INTEGER, ADD COLUMN hash TEXT;
    ALTER TABLE events ADD COLUMN pos INTEGER, ADD COLUMN hash TEXT;
    ALTER TABLE chat ADD COLUMN pos INTEGER, ADD COLUMN hash TEXT;
    ALTER TABLE games ADD COLUMN chained BOOLEAN NOT NULL DEFAULT FALSE,
        ADD COLUMN final_hash TEXT, ADD COLUMN signature TEXT, ADD COLUMN key_id TEXT;
    UPDATE games SET chained = TRUE WHERE status = 'waiting'
        AND NOT EXISTS (SELECT 1 FROM chat c WHERE c.game_id = games.id);
    CREATE TABLE signing_keys (
        id TEXT COLLATE "C" PRIMARY KEY,
        public TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL
    );
    """,
)


class FencedError(LeaseLost):
    """A write for a room whose lease this node no longer holds (its fencing token is
    stale): nothing of it was stored."""


_SAVE_GAME = (
    f"INSERT INTO games ({GAME_COLUMNS}) VALUES "
    f"({','.join(f'${n}' for n in range(1, len(GAME_COLUMNS.split(', ')) + 1))}) "
    "ON CONFLICT (id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in GAME_COLUMNS.split(", ")[1:])
)
_SAVE_SEATS = (
    "INSERT INTO game_players (game_id, seat, player_id) VALUES ($1,$2,$3) "
    "ON CONFLICT (game_id, seat) DO UPDATE SET player_id = excluded.player_id"
)
_INSERT_EVENT = f"INSERT INTO events ({EVENT_COLUMNS}, token) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)"
_INSERT_ACTION = (
    f"INSERT INTO actions ({ACTION_COLUMNS}, token) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)"
)
_INSERT_CHAT = f"INSERT INTO chat ({CHAT_COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)"
_ADD_SIGNING_KEY = (
    "INSERT INTO signing_keys (id, public, created) VALUES ($1,$2,$3) ON CONFLICT (id) DO NOTHING"
)
_ADD_STAT = (
    "INSERT INTO player_stats (player_id, game, key, value) VALUES ($1,$2,$3,$4) "
    "ON CONFLICT (player_id, game, key) DO UPDATE SET value = player_stats.value + excluded.value"
)
# The fence: the lease rows of the batch's fenced rooms, share-locked until the commit, so
# a takeover (which updates the row) waits for this transaction or this one sees its token.
_CHECK_FENCES = "SELECT room, token FROM leases WHERE room = any($1::text[]) FOR SHARE"

Statements = list[tuple[str, Sequence[Sequence[Any]]]]
#: runs inside a write's transaction, after its statements; its result is the write's
Hook = Callable[[asyncpg.Connection], Awaitable[Any]]


@dataclass(slots=True)
class _Write:
    """One unit of work for the writer: statements in order, the room it fences, waiter."""

    statements: Statements
    done: asyncio.Future[None]
    fence: tuple[str, int] | None = None
    events: list[tuple[Any, ...]] = field(default_factory=list)
    actions: list[tuple[Any, ...]] = field(default_factory=list)
    #: awaited inside the transaction after the statements (rating a game, counting
    #: revoked sessions); what it returns is kept in ``result`` for the caller
    hook: Hook | None = None
    result: Any = None
    #: the rating keys (and pools) the hook rates: locked before any hook runs
    locks: tuple[tuple[RatingKey, str], ...] = ()


def one_line(exc: BaseException) -> str:
    """An exception's message on one line (PostgreSQL adds its DETAIL and HINT on lines
    of their own)."""
    return "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())


def _problem(name: str, exc: BaseException) -> str:
    """One line on a failure to open or read the database; for a missing privilege, the
    privileges each use needs."""
    if isinstance(exc, asyncpg.InsufficientPrivilegeError):
        return (
            f"{name}: {exc}: umpire serve needs the role that owns the database's tables "
            '(deploy/README.md, "PostgreSQL"); umpire export and verify need SELECT on '
            "every table (GRANT SELECT ON ALL TABLES IN SCHEMA public TO the role)"
        )
    return f"{name}: {one_line(exc)}"


def _redact(dsn: str) -> str:
    """The DSN without its password, for messages."""
    if "@" not in dsn or "://" not in dsn:
        return dsn
    scheme, rest = dsn.split("://", 1)
    credentials, host = rest.rsplit("@", 1)
    return f"{scheme}://{credentials.split(':', 1)[0]}@{host}"


#: How asyncpg reports a connection the server dropped (PostgreSQL restarted, the backend
#: terminated): the socket's error, the server's shutdown notice, a closed connection, or
#: (the pool's connection still mid-protocol when the notice came) an internal client
#: error: "cannot switch to state 11; another operation (2) is in progress" (CI, once).
_DROPPED = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
)


async def connect(dsn: str, name: str) -> asyncpg.Connection:
    """A connection to ``dsn``; :class:`StoreError` (one line, naming ``name``, the URL
    without its password) when it cannot be made, a bad URL included."""
    try:
        conn: asyncpg.Connection = await asyncpg.connect(dsn)
    except (
        OSError,
        ValueError,
        OverflowError,
        asyncpg.PostgresError,
        asyncpg.InterfaceError,
    ) as exc:  # (ValueError, OverflowError: a URL it cannot use, e.g. [::zz] or port 99999)
        raise StoreError(f"cannot connect to {name}: {one_line(exc)}") from None
    return conn


class PgStore(SqlReads):
    """The shared store: PostgreSQL through ``asyncpg``, group commits by one writer task.

    ``dsn`` is a libpq URL (``postgresql://user:password@host:port/db?host=/run/socket``).
    ``max_batch`` bounds how many writes share a transaction, ``page_size`` how many games
    :meth:`iter_games` holds at a time, ``pool_size`` how many reading connections.
    ``read_only``: only the readers' pool is opened, its transactions read-only; the
    schema is never migrated (an older one is refused in one line) and every write
    raises :class:`StoreError`.
    """

    shared = True

    def __init__(
        self,
        dsn: str,
        *,
        max_batch: int = 512,
        page_size: int = 200,
        pool_size: int = 4,
        read_only: bool = False,
    ) -> None:
        if page_size < 1 or max_batch < 1 or pool_size < 1:
            raise ValueError("page_size, max_batch and pool_size must be at least 1")
        self.dsn = dsn
        self.name = _redact(dsn)
        self.max_batch = max_batch
        self.page_size = page_size
        self.pool_size = pool_size
        self.read_only = read_only
        self._db: asyncpg.Connection | None = None
        self._pool: asyncpg.Pool | None = None
        self._queue: WriteQueue[_Write | None] = WriteQueue()
        self._writer: asyncio.Task[None] | None = None
        #: room id -> the fencing token of this node's lease on it (see :meth:`fence`)
        self._fences: dict[str, int] = {}
        #: with several nodes (set by server.cluster.nodes): a room's write without a lease
        #: of this node on the room is refused at once
        self.fence_all = False
        #: (umpire migrate) open the database even while a copy into it is unfinished
        self.copying = False
        self.commits = 0  # transactions committed (for benchmarks and tests)

    # -- connections -------------------------------------------------------------------

    @property
    def pool(self) -> asyncpg.Pool:
        """The readers' pool; raise :class:`StoreError` when the store is closed."""
        if self._pool is None or (self._writer is None and not self.read_only):
            raise StoreError("the store is not open")
        return self._pool

    async def _connect(self) -> asyncpg.Connection:
        return await connect(self.dsn, self.name)

    async def open(self) -> None:
        if self._db is not None or self._pool is not None:
            return
        if self.read_only:
            await self._open_read_only()
            return
        db = await self._connect()
        try:
            await self._migrate(db)
            self._pool = await asyncpg.create_pool(self.dsn, min_size=1, max_size=self.pool_size)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            await db.close()
            raise StoreError(_problem(self.name, exc)) from None
        except BaseException:
            await db.close()
            raise
        self._db = db
        self._queue = WriteQueue()
        self._writer = asyncio.create_task(self._write_loop(), name="store-writer")

    async def _open_read_only(self) -> None:
        """Check the schema and that no copy into it is under way or unfinished on one
        connection, kept for the store's life to hold :data:`USE_LOCK` (so ``umpire
        migrate`` cannot start meanwhile), then open the readers' pool, every transaction
        of it read-only."""
        db = await self._connect()
        try:
            await self._hold_use_lock(db)
            known = await db.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
            version = (
                int(await db.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations"))
                if known
                else 0
            )
            if version > len(MIGRATIONS):
                raise StoreError(
                    f"{self.name} has schema version {version}; this umpire knows "
                    f"{len(MIGRATIONS)}: upgrade umpire"
                )
            if version < len(MIGRATIONS):
                raise StoreError(
                    f"{self.name} has schema version {version}, older than this umpire's "
                    f"{len(MIGRATIONS)}; reading, it never writes, so it does not upgrade "
                    "it: `umpire serve` on it upgrades it when it starts"
                )
            await self._refuse_unfinished_copy(db)
            self._pool = await asyncpg.create_pool(
                self.dsn,
                min_size=1,
                max_size=self.pool_size,
                server_settings={"default_transaction_read_only": "on"},
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            await db.close()
            raise StoreError(_problem(self.name, exc)) from None
        except BaseException:
            await db.close()
            raise
        self._db = db

    async def _refuse_unfinished_copy(self, db: asyncpg.Connection) -> None:
        """:class:`StoreError` if ``umpire migrate`` left its copy into ``db`` unfinished."""
        mark = await db.fetchval("SELECT value FROM cluster WHERE key = $1", COPY_MARK)
        if mark is not None:
            source = json.loads(mark).get("from", "a SQLite file")
            raise StoreError(
                f"{self.name}: the copy from {source} (umpire migrate) has not "
                "finished; run it again to finish it before using this database"
            )

    async def _migrate(self, db: asyncpg.Connection) -> None:
        async with db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            if not self.copying:
                await self._hold_use_lock(db)  # (before anything is read or migrated)
            # An up-to-date database is only read here: a role that may only read it
            # (umpire export, verify) opens it too.
            version = 0
            if await db.fetchval("SELECT to_regclass('schema_migrations')") is not None:
                version = int(
                    await db.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations")
                )
            if version > len(MIGRATIONS):
                raise StoreError(
                    f"{self.name} has schema version {version}; this server knows "
                    f"{len(MIGRATIONS)}: upgrade the server"
                )
            if version < len(MIGRATIONS):
                await db.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations ("
                    "version INTEGER PRIMARY KEY, applied TIMESTAMPTZ NOT NULL DEFAULT now())"
                )
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                await db.execute(script)
                await db.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)
                log.info("store %s: migrated to schema version %d", self.name, number)
            if not self.copying:
                await self._refuse_unfinished_copy(db)

    async def _hold_use_lock(self, db: asyncpg.Connection) -> None:
        """Take :data:`USE_LOCK` shared on ``db`` (for its life); :class:`StoreError` while
        ``umpire migrate`` holds it."""
        if not await db.fetchval("SELECT pg_try_advisory_lock_shared($1)", USE_LOCK):
            raise StoreError(
                f"{self.name}: umpire migrate is copying into it; wait for the copy to "
                "finish before using this database"
            )

    async def close(self) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:  # new writes are refused from here; queued ones finish
            self._queue.put_nowait(None)
            await writer
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
        if self._db is not None:
            await self._db.close()
            self._db = None

    # -- fencing -----------------------------------------------------------------------

    def fence(self, room: str, token: int) -> None:
        """From now on, every write for ``room`` commits only while ``token`` is the
        current fencing token of its lease (``server.cluster.lease``). Call it right after taking
        the lease, before loading or creating the room."""
        self._fences[room] = token

    # -- writes ------------------------------------------------------------------------

    async def _submit(
        self,
        room: str | None,
        statements: Statements,
        events: list[tuple[Any, ...]] | None = None,
        actions: list[tuple[Any, ...]] | None = None,
        hook: Hook | None = None,
        locks: tuple[tuple[RatingKey, str], ...] = (),
    ) -> Any:
        """Queue a write for the next group commit; return once it is committed, with
        what its ``hook`` returned (``None`` without one)."""
        if self.read_only:
            raise StoreError(f"{self.name} is open read-only: nothing is written")
        if self._writer is None:
            raise StoreError("the store is not open")
        token = None if room is None else self._fences.get(room)
        if room is not None and token is None and self.fence_all:
            raise FencedError(f"room {room}: this node holds no lease on it; write refused")
        fence = None if room is None or token is None else (room, token)
        # Each logged row keeps the fencing token it was written under (None: unfenced),
        # so the log itself shows which lease wrote it.
        events = [(*row, token) for row in events or ()]
        actions = [(*row, token) for row in actions or ()]
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        item = _Write(statements, done, fence, events, actions, hook, locks=locks)
        self._queue.put_nowait(item)
        await done
        return item.result

    async def _write_loop(self) -> None:
        await commit_in_groups(
            self._queue, self.max_batch, self._transaction, self._fail, self._committed
        )

    def _fail(self, item: _Write, exc: Exception) -> None:
        if isinstance(exc, FencedError):
            log.warning("store %s: %s", self.name, exc)
            item.done.set_exception(exc)
        else:
            first = self._write_failed(exc)
            write_failed(self.name, item.done, exc, first)

    async def _writer_connection(self) -> asyncpg.Connection:
        if self._db is None or self._db.is_closed():
            # The server restarted or the connection broke: the failed batch was rolled
            # back; reconnect for the next one (holding the use lock again).
            db = await self._connect()
            try:
                if not self.copying:
                    await self._hold_use_lock(db)
            except BaseException:
                await db.close()
                raise
            self._db = db
        return self._db

    async def _transaction(self, batch: list[_Write]) -> None:
        db = await self._writer_connection()
        events = [row for item in batch for row in item.events]
        actions = [row for item in batch for row in item.actions]
        fences = {item.fence[0]: item.fence[1] for item in batch if item.fence is not None}
        async with db.transaction():
            if fences:
                current = dict(await db.fetch(_CHECK_FENCES, list(fences)))
                for room, token in fences.items():
                    if current.get(room) != token:
                        raise FencedError(
                            f"room {room}: lease lost (fencing token {token}, now "
                            f"{current.get(room)}); the write was refused"
                        )
            placeholders = await _lock_ratings(db, batch) if any(i.locks for i in batch) else []
            for item in batch:
                for sql, rows in item.statements:
                    if rows:
                        await db.executemany(sql, rows)
                if item.hook is not None:
                    item.result = await item.hook(db)
            if placeholders:
                await _drop_placeholders(db, placeholders)
            if actions:
                await db.executemany(_INSERT_ACTION, actions)
            if events:
                await db.executemany(_INSERT_EVENT, events)
            if self.before_commit is not None:
                await self.before_commit()
        self.commits += 1

    # -- players, accounts and sessions ---------------------------------------------------

    async def add_player(self, player: PlayerRow, token_hash: str) -> None:
        session = (token_hash, player.id, "session", player.created, player.created)
        await self._submit(
            None, [(_INSERT_PLAYER, [player_values(player)]), (_INSERT_SESSION, [session])]
        )

    async def rename_player(self, player_id: str, name: str) -> None:
        await self._submit(
            None, [("UPDATE players SET name = $1 WHERE id = $2", [(name, player_id)])]
        )

    async def set_token(self, player_id: str, token_hash: str) -> None:
        now = time.time()
        await self._submit(
            None,
            [
                ("DELETE FROM sessions WHERE player_id = $1", [(player_id,)]),
                (_INSERT_SESSION, [(token_hash, player_id, "session", now, now)]),
            ],
        )

    async def add_session(self, session: SessionRow) -> None:
        row = (session.token_hash, session.player, session.kind, session.created, session.last_used)
        await self._submit(None, [(_INSERT_SESSION, [row])])

    async def touch_session(self, token_hash: str, at: float) -> None:
        await self._submit(
            None,
            [("UPDATE sessions SET last_used = $1 WHERE token_hash = $2", [(at, token_hash)])],
        )

    async def drop_sessions(
        self, player_id: str, *, kinds: Sequence[str] = ("session",), keep: str | None = None
    ) -> int:
        kinds = list(kinds)
        if not kinds:
            return 0

        async def drop(db: asyncpg.Connection) -> int:
            status: str = await db.execute(
                "DELETE FROM sessions WHERE player_id = $1 AND kind = any($2::text[]) "
                "AND token_hash IS DISTINCT FROM $3",
                player_id,
                kinds,
                keep,
            )
            return int(status.split()[-1])

        return int(await self._submit(None, [], hook=drop))

    async def drop_session(self, token_hash: str) -> None:
        await self._submit(None, [("DELETE FROM sessions WHERE token_hash = $1", [(token_hash,)])])

    async def claim(self, player_id: str, name: str, account: str, password_hash: str) -> None:
        async def claim(db: asyncpg.Connection) -> None:
            await _check_name_free(db, account, player_id)
            status = await db.execute(
                "UPDATE players SET name = $1, account = $2, password = $3, kind = 'account' "
                "WHERE id = $4 AND kind = 'guest'",
                name,
                account,
                password_hash,
                player_id,
            )
            if status != "UPDATE 1":
                raise StoreError(f"player {player_id} is not a guest")

        await self._submit(None, [], hook=claim)

    async def set_password(self, player_id: str, password_hash: str) -> None:
        await self._submit(
            None,
            [
                (
                    "UPDATE players SET password = $1 WHERE id = $2 AND kind = 'account'",
                    [(password_hash, player_id)],
                )
            ],
        )

    async def add_bot_account(self, player: PlayerRow, account: str, token_hash: str) -> None:
        if player.kind != "bot" or player.owner is None:
            raise ValueError("a bot account has kind 'bot' and an owner")

        async def add(db: asyncpg.Connection) -> None:
            await _check_name_free(db, account, player.id)
            await db.execute(_INSERT_PLAYER, *player_values(player, account))
            await db.execute(
                _INSERT_SESSION, token_hash, player.id, "api", player.created, player.created
            )

        await self._submit(None, [], hook=add)

    @staticmethod
    def _game_statements(game: GameRow) -> Statements:
        statements: Statements = [(_SAVE_GAME, [game_values(game)])]
        seats = seat_rows(game)
        if seats:
            statements.append((_SAVE_SEATS, seats))
        return statements

    async def save_game(self, game: GameRow, events: Sequence[EventRow] = ()) -> None:
        await self._submit(
            game.id, self._game_statements(game), [event_values(game.id, e) for e in events]
        )

    async def finish_game(
        self,
        row: GameRow,
        events: Sequence[EventRow],
        stats: Mapping[str, Mapping[str, float]],
        plan: RatingPlan | None = None,
    ) -> list[RatingChange]:
        statements = self._game_statements(row)
        added = stat_rows(row.game, stats)
        if added:
            statements.append((_ADD_STAT, added))
        event_rows = [event_values(row.id, e) for e in events]
        if plan is None:
            await self._submit(row.id, statements, event_rows)
            return []

        async def rate(db: asyncpg.Connection) -> list[RatingChange]:
            return await _rate(db, row, plan)

        changes: list[RatingChange] = await self._submit(
            row.id, statements, event_rows, hook=rate, locks=plan.seats
        )
        return changes

    async def replace_ratings(self, changes: Sequence[RatingChange]) -> None:
        rows = []
        last = 0
        for change in changes:
            last = change.n if change.n > 0 else last + 1
            rows.append((last, *change_values(change)))

        async def replace(db: asyncpg.Connection) -> None:
            # finishing games wait (their rating rows) until the rebuild is committed
            await db.execute("LOCK TABLE ratings, rating_changes IN SHARE ROW EXCLUSIVE MODE")
            await db.execute("DELETE FROM rating_changes")
            await db.execute("DELETE FROM ratings")
            if rows:
                await db.executemany(_INSERT_CHANGE, rows)
                await db.executemany(_UPSERT_RATING, final_ratings(changes))
            # the numbering goes on after the last change
            await db.execute(
                "SELECT setval(pg_get_serial_sequence('rating_changes', 'n'), "
                "coalesce(max(n), 0) + 1, false) FROM rating_changes"
            )

        await self._submit(None, [], hook=replace)

    async def append(
        self, game_id: str, events: Sequence[EventRow], action: ActionRow | None = None
    ) -> None:
        event_rows = [event_values(game_id, e) for e in events]
        action_rows = [] if action is None else [action_values(game_id, action)]
        await self._submit(game_id, [], event_rows, action_rows)

    async def add_chat(self, game_id: str, line: ChatRow) -> None:
        row = chat_values(game_id, line)
        await self._submit(game_id, [(_INSERT_CHAT, [row])])

    async def discard_unfinished_game(self, game_id: str) -> bool:
        async def discard(db: asyncpg.Connection) -> bool:
            status = await db.execute(
                "DELETE FROM games WHERE id = $1 AND status IN ('waiting', 'playing')",
                game_id,
            )
            if status != "DELETE 1":
                return False
            for table in ("game_players", "actions", "events", "chat"):
                await db.execute(f"DELETE FROM {table} WHERE game_id = $1", game_id)
            return True

        return bool(await self._submit(None, [], hook=discard))

    async def add_stats(self, game: str, stats: Mapping[str, Mapping[str, float]]) -> None:
        rows = stat_rows(game, stats)
        if rows:
            await self._submit(None, [(_ADD_STAT, rows)])

    # -- signing keys ---------------------------------------------------------------------

    async def add_signing_key(self, key_id: str, public: str, created: float) -> None:
        await self._submit(None, [(_ADD_SIGNING_KEY, [(key_id, public, created)])])

    # -- tournaments ----------------------------------------------------------------------

    async def save_tournament(
        self, row: TournamentRow, expect: int | None, games: Sequence[tuple[int, str]] = ()
    ) -> bool:
        async def save(db: asyncpg.Connection) -> bool:
            if expect is None:
                status = await db.execute(
                    f"INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) "
                    "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING",
                    row.id,
                    row.status,
                    row.state,
                    row.version,
                    row.created,
                    row.updated,
                )
            else:
                status = await db.execute(
                    "UPDATE tournaments SET status = $1, state = $2, version = $3, "
                    "updated = $4 WHERE id = $5 AND version = $6",
                    row.status,
                    row.state,
                    row.version,
                    row.updated,
                    row.id,
                    expect,
                )
            if not status.endswith(" 1"):
                return False
            if games:
                await db.executemany(
                    "INSERT INTO tournament_games (tournament, seq, game) VALUES ($1, $2, $3) "
                    "ON CONFLICT DO NOTHING",
                    [(row.id, seq, game) for seq, game in games],
                )
            return True

        written: bool = await self._submit(None, [], hook=save)
        return written

    # -- reads (pooled connections, autocommit: committed rows only; queries in SqlReads)

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Sequence[Any]]:
        """The rows of one read; tried once more on a connection the server dropped (a
        read changes nothing, and the pool replaces the broken connection)."""
        for attempt in (1, 2):
            try:
                rows: list[asyncpg.Record] = await self.pool.fetch(_numbered(sql), *params)
            except asyncpg.InsufficientPrivilegeError as exc:
                raise StoreError(_problem(self.name, exc)) from None
            except _DROPPED as exc:
                if attempt == 1:
                    log.warning("a read met a dropped connection, tried again: %s", one_line(exc))
                    continue
                raise StoreError(f"read failed: {exc}") from exc
            except asyncpg.PostgresError as exc:
                raise StoreError(f"read failed: {exc}") from exc
            return rows
        raise AssertionError("unreachable")  # pragma: no cover

    # -- seeks --------------------------------------------------------------------------

    async def add_seek(self, seek: SeekRow) -> None:
        await self._submit(None, [(_INSERT_SEEK, [seek_values(seek)])])

    async def claim_seeks(self, seek_ids: Sequence[str], room: str, at: float) -> bool:
        ids = list(dict.fromkeys(seek_ids))
        if not ids:
            return False

        async def claim(db: asyncpg.Connection) -> bool:
            # A savepoint: all or none. Another node's claim of one of these seeks holds
            # its row lock until it commits; this UPDATE then finds it matched and skips
            # it (READ COMMITTED re-reads a row it waited for), so the count is short.
            try:
                async with db.transaction():
                    status: str = await db.execute(
                        "UPDATE seeks SET status = 'matched', room = $1, updated = $2 "
                        "WHERE id = any($3::text[]) AND status = 'open'",
                        room,
                        at,
                        ids,
                    )
                    if int(status.split()[-1]) != len(ids):
                        raise _NotAll
            except _NotAll:
                return False
            return True

        return bool(await self._submit(None, [], hook=claim))

    async def cancel_seeks(
        self, seek_ids: Sequence[str], at: float, *, player: str | None = None
    ) -> list[str]:
        ids = list(dict.fromkeys(seek_ids))
        if not ids:
            return []

        async def cancel(db: asyncpg.Connection) -> list[str]:
            rows = await db.fetch(
                "UPDATE seeks SET status = 'cancelled', updated = $1 WHERE id = any($2::text[]) "
                "AND status = 'open' AND ($3::text IS NULL OR player_id = $3) RETURNING id",
                at,
                ids,
                player,
            )
            return sorted((r[0] for r in rows), key=ids.index)

        cancelled: list[str] = await self._submit(None, [], hook=cancel)
        return cancelled

    async def reopen_seeks(self, room: str, at: float) -> list[str]:
        async def reopen(db: asyncpg.Connection) -> list[str]:
            rows = await db.fetch(
                "UPDATE seeks SET status = 'open', room = NULL, updated = $1 "
                "WHERE room = $2 AND status = 'matched' RETURNING id",
                at,
                room,
            )
            return sorted(r[0] for r in rows)

        reopened: list[str] = await self._submit(None, [], hook=reopen)
        return reopened


class _NotAll(Exception):
    """(In :meth:`PgStore.claim_seeks`.) A seek was not open: undo the claim."""


#: a new change numbered by the sequence (CHANGE_COLUMNS but n)
_ADD_CHANGE = (
    f"INSERT INTO rating_changes ({CHANGE_COLUMNS.split(', ', 1)[1]}) "
    f"VALUES ({', '.join(f'${n}' for n in range(1, 17))}) RETURNING n"
)
#: Lock one key's rating row (making a placeholder of 0 games if there is none yet:
#: a row must exist to be locked) and return its games. A no-op update of a
#: conflicting row takes its row lock; a concurrent insert of the same new key waits for
#: the first one's commit, then locks the committed row.
_LOCK_RATING = (
    f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES ($1, $2, $3, $4, $5, 0, 0, NULL, 0, 0) "
    "ON CONFLICT (player_id, version, game, rules) DO UPDATE SET games = ratings.games "
    "RETURNING games"
)


async def _check_name_free(db: asyncpg.Connection, account: str, player_id: str) -> None:
    """(In a write's transaction.) Raise :class:`NameTaken` if another player holds the
    name key ``account`` (or a house bot has that name). Two nodes claiming one key at
    once: the second's UPDATE waits for the first's commit and fails on the unique key;
    retried alone, it finds the key taken here."""
    if await db.fetchrow(_NAME_TAKEN, account, player_id) is not None:
        raise NameTaken(f"the name {account!r} is taken")


async def _lock_ratings(db: asyncpg.Connection, batch: Sequence[_Write]) -> list[RatingKey]:
    """(First in a transaction that rates games.) Lock the rating row of every key the
    batch's finishes rate, making a placeholder (0 games) where there is none yet: a row
    must exist to be locked. Every transaction on every node locks in one order (the
    sorted keys) before it rates anything, so two that share players are rated one after
    the other and never deadlock. Return the keys given a placeholder."""
    pools = {key: pool for item in batch for key, pool in item.locks}
    placeholders = []
    for key in sorted(pools, key=lambda k: (k.player, k.version, k.game, k.rules)):
        games = await db.fetchval(
            _LOCK_RATING, key.player, key.version, key.game, key.rules, pools[key]
        )
        if games == 0:
            placeholders.append(key)
    return placeholders


async def _drop_placeholders(db: asyncpg.Connection, keys: Sequence[RatingKey]) -> None:
    """(Last in a transaction that rates games.) Delete the placeholders no game rated
    (a finish found its game rated already)."""
    for key in keys:
        await db.execute(
            "DELETE FROM ratings WHERE player_id = $1 AND version = $2 AND game = $3 "
            "AND rules = $4 AND games = 0",
            key.player,
            key.version,
            key.game,
            key.rules,
        )


async def _rate(db: asyncpg.Connection, row: GameRow, plan: RatingPlan) -> list[RatingChange]:
    """(In a write's transaction, its seats' rating rows locked by :func:`_lock_ratings`.)
    Apply ``plan`` to game ``row``, unless its rating changes are stored already: then
    return those. The look for them comes after the locks (READ COMMITTED: it sees a
    finish of the same game another node committed while this one waited for them)."""
    stored = await db.fetch(_GAME_CHANGES, row.id)
    if stored:
        return [change_from_row(r) for r in stored]
    current = [
        current_rating(
            await db.fetchrow(_CURRENT_RATING, key.player, key.version, key.game, key.rules)
        )
        for key, _pool in plan.seats
    ]
    changes = planned_changes(row, plan, current, 0)
    numbered = []
    for change in changes:
        n = await db.fetchval(_ADD_CHANGE, *change_values(change))
        await db.execute(
            _UPSERT_RATING, *rating_values(change.key, change.pool, change.after, change.at)
        )
        numbered.append(dataclasses.replace(change, n=int(n)))
    return numbered


def _numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2...`` (no query here has a literal ``?``)."""
    parts = sql.split("?")
    return "".join(f"{part}${n}" for n, part in enumerate(parts[:-1], 1)) + parts[-1]


_INSERT_PLAYER = _numbered(INSERT_PLAYER)
_INSERT_SESSION = _numbered(INSERT_SESSION)
_INSERT_SEEK = _numbered(INSERT_SEEK)
_INSERT_CHANGE = _numbered(INSERT_CHANGE)
_UPSERT_RATING = _numbered(UPSERT_RATING)
_GAME_CHANGES = _numbered(GAME_CHANGES)
_CURRENT_RATING = _numbered(CURRENT_RATING)
_NAME_TAKEN = _numbered(NAME_TAKEN)
