"""The embedded store: the :class:`~server.store.contract.Store` contract on one SQLite file.

``umpire serve`` uses it by default (``--db umpire.db``; :func:`server.store.contract.open_store`
maps any path here). One writer task makes group commits on its own ``sqlite3``
connection in a thread of its own (``server.store.worker``); reads go through a second,
read-only ``aiosqlite`` connection, so they only ever see committed rows. The database is
in WAL mode; ``PRAGMA user_version`` counts the migrations applied.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import time
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite

from server.errors import NameTaken, StoreError
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
    ADD_SIGNING_KEY,
    CURRENT_RATING,
    GAME_CHANGES,
    INSERT_CHANGE,
    INSERT_PLAYER,
    INSERT_SEEK,
    INSERT_SESSION,
    NAME_TAKEN,
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
from server.store.worker import Worker

log = logging.getLogger(__name__)

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE players (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        bot INTEGER NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created REAL NOT NULL
    );
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        settings TEXT NOT NULL,
        host TEXT,
        invite TEXT,
        public INTEGER NOT NULL,
        seats TEXT NOT NULL,
        status TEXT NOT NULL,
        seed BLOB NOT NULL,
        seed_sha256 TEXT NOT NULL,
        seed_revealed INTEGER NOT NULL DEFAULT 0,
        result TEXT,
        reason TEXT,
        created REAL NOT NULL,
        started REAL,
        finished REAL
    );
    CREATE INDEX games_status ON games (status);
    CREATE TABLE game_players (
        game_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        player_id TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX game_players_player ON game_players (player_id);
    CREATE TABLE actions (
        game_id TEXT NOT NULL,
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        at REAL NOT NULL,
        clocks TEXT,
        PRIMARY KEY (game_id, n)
    ) WITHOUT ROWID;
    CREATE TABLE events (
        game_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        source TEXT NOT NULL,
        action_n INTEGER,
        truth TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE player_stats (
        player_id TEXT NOT NULL,
        game TEXT NOT NULL,
        key TEXT NOT NULL,
        value REAL NOT NULL,
        PRIMARY KEY (player_id, game, key)
    ) WITHOUT ROWID;
    """,
    # 2: durable house-seat tickets; an index for paging through games in created order
    """
    ALTER TABLE games ADD COLUMN house TEXT NOT NULL DEFAULT '{}';
    CREATE INDEX games_created ON games (created, id);
    """,
    # 3: find a private room by its invite code (the log is the room: ended ones too)
    """
    CREATE INDEX games_invite ON games (invite) WHERE invite IS NOT NULL;
    """,
    # 4: a room's chat, stored with its game (shown again on reconnects and replays)
    """
    CREATE TABLE chat (
        game_id TEXT NOT NULL,
        n INTEGER NOT NULL,
        at REAL NOT NULL,
        channel TEXT NOT NULL,
        seat INTEGER,
        player_id TEXT NOT NULL,
        name TEXT NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (game_id, n)
    ) WITHOUT ROWID;
    """,
    # 5: accounts and ratings (issue 27). Tokens move to sessions (a player may hold
    # several); players is rebuilt without token_hash (SQLite cannot drop a UNIQUE
    # column), with its kind, a bot account's owner, an account's name key and password
    # hash. House bots (bot-<kind>) are recognised by their ids.
    """
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        player_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        created REAL NOT NULL,
        last_used REAL NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO sessions (token_hash, player_id, kind, created, last_used)
        SELECT token_hash, id, 'session', created, created FROM players;
    CREATE INDEX sessions_player ON sessions (player_id, kind);
    CREATE TABLE players_v5 (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        bot INTEGER NOT NULL,
        created REAL NOT NULL,
        kind TEXT NOT NULL DEFAULT 'guest',
        owner TEXT,
        account TEXT UNIQUE,
        password TEXT
    );
    INSERT INTO players_v5 (id, name, bot, created, kind, account)
        SELECT id, name, bot, created,
               CASE WHEN bot AND id LIKE 'bot-%' THEN 'house' ELSE 'guest' END,
               CASE WHEN bot AND id LIKE 'bot-%' THEN lower(name) END
        FROM players;
    DROP TABLE players;
    ALTER TABLE players_v5 RENAME TO players;
    CREATE INDEX players_owner ON players (owner) WHERE owner IS NOT NULL;
    ALTER TABLE games ADD COLUMN rated TEXT;
    CREATE TABLE ratings (
        player_id TEXT NOT NULL,
        version TEXT NOT NULL,
        game TEXT NOT NULL,
        rules TEXT NOT NULL,
        pool TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL,
        games INTEGER NOT NULL,
        updated REAL NOT NULL,
        PRIMARY KEY (player_id, version, game, rules)
    ) WITHOUT ROWID;
    CREATE INDEX ratings_board
        ON ratings (game, rules, pool, rating DESC, games, player_id, version);
    CREATE TABLE rating_changes (
        n INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        player_id TEXT NOT NULL,
        version TEXT NOT NULL,
        game TEXT NOT NULL,
        rules TEXT NOT NULL,
        pool TEXT NOT NULL,
        before_rating REAL NOT NULL,
        before_deviation REAL NOT NULL,
        before_volatility REAL,
        before_games INTEGER NOT NULL,
        after_rating REAL NOT NULL,
        after_deviation REAL NOT NULL,
        after_volatility REAL,
        after_games INTEGER NOT NULL,
        at REAL NOT NULL,
        UNIQUE (game_id, seat)
    );
    CREATE INDEX rating_changes_key ON rating_changes (player_id, game, rules, version, n);
    """,
    # 6: seeks (issue 28, server.matchmaking; docs/matchmaking.md). The ladder's seeks
    # are rows here too (``ladder``, ``max_concurrent``).
    """
    CREATE TABLE seeks (
        id TEXT PRIMARY KEY,
        player_id TEXT NOT NULL,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        rated INTEGER NOT NULL,
        seats INTEGER NOT NULL,
        created REAL NOT NULL,
        pool TEXT NOT NULL,
        clock TEXT,
        rating REAL,
        rating_range TEXT,
        fill_after REAL,
        ladder INTEGER NOT NULL DEFAULT 0,
        max_concurrent INTEGER NOT NULL DEFAULT 1,
        status TEXT NOT NULL DEFAULT 'open',
        room TEXT,
        updated REAL NOT NULL
    );
    CREATE INDEX seeks_open ON seeks (status, created, id);
    CREATE INDEX seeks_player ON seeks (player_id, status);
    CREATE INDEX seeks_room ON seeks (room) WHERE room IS NOT NULL;
    -- a cluster's poll reads the seeks changed since the last one (server.matchmaking)
    CREATE INDEX seeks_updated ON seeks (updated);
    """,
    # 7: hosted tournaments (issue 28, server.tournaments; docs/tournaments.md).
    # One row per tournament, holding its whole state.
    """
    CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        state TEXT NOT NULL,
        version INTEGER NOT NULL,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE INDEX tournaments_status ON tournaments (status, created);
    -- its games once over, append-only: the state holds only those after them
    CREATE TABLE tournament_games (
        tournament TEXT NOT NULL,
        seq INTEGER NOT NULL,
        game TEXT NOT NULL,
        PRIMARY KEY (tournament, seq)
    );
    """,
    # 8: the tamper-evident log (issue 32, server.store.chain; docs/data.md): each log
    # row's place in its game's chain and its link, who decided each action, the end's
    # link signed, and the public keys that signed. Games logged before are unchained
    # (a room still waiting, with nothing logged yet, is chained from now on).
    """
    ALTER TABLE actions ADD COLUMN decided_by TEXT;
    ALTER TABLE actions ADD COLUMN pos INTEGER;
    ALTER TABLE actions ADD COLUMN hash TEXT;
    ALTER TABLE events ADD COLUMN pos INTEGER;
    ALTER TABLE events ADD COLUMN hash TEXT;
    ALTER TABLE chat ADD COLUMN pos INTEGER;
    ALTER TABLE chat ADD COLUMN hash TEXT;
    ALTER TABLE games ADD COLUMN chained INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN final_hash TEXT;
    ALTER TABLE games ADD COLUMN signature TEXT;
    ALTER TABLE games ADD COLUMN key_id TEXT;
    UPDATE games SET chained = 1 WHERE status = 'waiting'
        AND NOT EXISTS (SELECT 1 FROM chat c WHERE c.game_id = games.id);
    CREATE TABLE signing_keys (
        id TEXT PRIMARY KEY,
        public TEXT NOT NULL,
        created REAL NOT NULL
    );
    """,
)


@dataclass(slots=True)
class _Write:
    """One unit of work for the writer: statements to run in order, and who waits."""

    statements: list[tuple[str, Sequence[Sequence[Any]]]]
    done: asyncio.Future[None]
    #: the game the events and the action belong to; they become rows (their truths
    #: JSON) in the writer's thread, not on the event loop
    game_id: str = ""
    events: Sequence[EventRow] = ()
    action: ActionRow | None = None
    #: run in the writer's thread, inside the transaction, after the statements (reads
    #: and writes that depend on what the transaction sees: rating a game, counting
    #: revoked sessions); what it returns is kept in ``result`` for the caller
    hook: Callable[[sqlite3.Connection], Any] | None = None
    result: Any = None


def _settle(batch: list[_Write]) -> None:
    """(In the loop, once their COMMIT returned: durable.) Resolve the writes' futures."""
    for item in batch:
        if not item.done.done():
            item.done.set_result(None)


_INSERT_CHAT = f"INSERT INTO chat ({CHAT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)"
_ACTIONS_INTO = f"INSERT INTO actions ({ACTION_COLUMNS}) VALUES "
_EVENTS_INTO = f"INSERT INTO events ({EVENT_COLUMNS}) VALUES "
#: bound parameters per statement (SQLite's limit before 3.32 is 999)
_MAX_PARAMETERS = 999


def _insert_rows(
    db: sqlite3.Connection, into: str, width: int, rows: list[tuple[Any, ...]]
) -> None:
    """Insert ``rows`` (each ``width`` values) with ``into`` ("INSERT ... VALUES ") in as few
    statements as SQLite's parameter limit allows.

    One multi-row statement instead of ``executemany`` matters: ``sqlite3`` lets go of the
    GIL around every statement step, and taking it back from a busy event loop costs a
    thread switch, so a row-by-row group commit of a few hundred rows took the writer
    thread a hundred milliseconds or more under load."""
    per = _MAX_PARAMETERS // width
    one = "(" + ",".join("?" * width) + ")"
    for start in range(0, len(rows), per):
        chunk = rows[start : start + per]
        db.execute(into + ",".join([one] * len(chunk)), [v for row in chunk for v in row])


_SAVE_GAME = (
    f"INSERT OR REPLACE INTO games ({GAME_COLUMNS}) "
    f"VALUES ({','.join('?' * len(GAME_COLUMNS.split(', ')))})"
)
_SAVE_SEATS = "INSERT OR REPLACE INTO game_players (game_id, seat, player_id) VALUES (?,?,?)"
_ADD_STAT = """
INSERT INTO player_stats (player_id, game, key, value) VALUES (?,?,?,?)
ON CONFLICT (player_id, game, key) DO UPDATE SET value = value + excluded.value
"""


def _check_name_free(db: sqlite3.Connection, account: str, player_id: str) -> None:
    """(In the writer's transaction.) Raise :class:`NameTaken` if another player holds
    the name key ``account`` (or a house bot has that name)."""
    if db.execute(NAME_TAKEN, (account, player_id)).fetchone() is not None:
        raise NameTaken(f"the name {account!r} is taken")


def _rate(db: sqlite3.Connection, row: GameRow, plan: RatingPlan) -> list[RatingChange]:
    """(In the writer's transaction, the only writer there is.) Apply ``plan`` to game
    ``row``, unless its rating changes are stored already: then return those."""
    stored = db.execute(GAME_CHANGES, (row.id,)).fetchall()
    if stored:
        return [change_from_row(r) for r in stored]
    current = [
        current_rating(
            db.execute(CURRENT_RATING, (key.player, key.version, key.game, key.rules)).fetchone()
        )
        for key, _pool in plan.seats
    ]
    last = int(db.execute("SELECT coalesce(max(n), 0) FROM rating_changes").fetchone()[0])
    changes = planned_changes(row, plan, current, last + 1)
    for change in changes:
        db.execute(INSERT_CHANGE, (change.n, *change_values(change)))
        db.execute(UPSERT_RATING, rating_values(change.key, change.pool, change.after, change.at))
    return changes


#: The writer connection's page cache (KiB). A group commit touches a page or more of every
#: game in it (rows are clustered by game); with SQLite's default 2 MB the cache filled up
#: mid-transaction under load, and SQLite spilled dirty pages to the WAL and read pages
#: back again (most of the writer's time was those ``pwrite``/``pread`` calls). Memory
#: only: what is durable, and when, does not change.
WRITER_CACHE_KIB = 65536
#: WAL pages between automatic checkpoints (SQLite's default: 1,000)
WAL_CHECKPOINT_PAGES = 10000
#: bytes the WAL file is cut back to once a checkpoint has emptied it
WAL_SIZE_LIMIT = 16 * 1024 * 1024
#: seconds between two checkpoints the writer makes itself (besides SQLite's automatic
#: ones every WAL_CHECKPOINT_PAGES pages): the WAL holds at most about this many
#: seconds of writes, or WAL_CHECKPOINT_PAGES pages, whichever is less
CHECKPOINT_INTERVAL = 1.0


def explain(path: str, exc: sqlite3.Error) -> str:
    """One line naming the database ``path``, what is wrong with it (SQLite's own
    words in brackets) and what to do."""
    said = str(exc) or type(exc).__name__
    code = getattr(exc, "sqlite_errorcode", None)
    low = said.lower()
    if "not a database" in low or code == sqlite3.SQLITE_NOTADB:
        return (
            f"{path} is not an umpire database ({said}): give another --db, "
            "or move it away and restore the database from a backup"
        )
    if "malformed" in low or code == sqlite3.SQLITE_CORRUPT:
        return (
            f"{path} is damaged ({said}): stop every server using it and restore it "
            'from a backup (deploy/README.md, "Backups")'
        )
    if "readonly" in low or "read-only" in low or code == sqlite3.SQLITE_READONLY:
        return (
            f"{path} cannot be written ({said}): the server writes every move there; "
            "make the file and its folder writable by the server, or give another --db"
        )
    if "disk is full" in low or code == sqlite3.SQLITE_FULL:
        return f"{path}: the disk is full ({said}): free some space and start again"
    if "unable to open" in low or code == sqlite3.SQLITE_CANTOPEN:
        return (
            f"{path} cannot be opened ({said}): check that its folder exists and the "
            "server may read and write there"
        )
    return f"{path}: SQLite cannot use it ({said}): check the file, or restore it from a backup"


async def _user_version(reader: aiosqlite.Connection) -> int:
    """``PRAGMA user_version``: the migrations a database has had (its first read)."""
    async with reader.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row is not None else 0


def _writable_fs(path: str) -> bool:
    """Whether the file system holding ``path`` is mounted read-write."""
    return not os.statvfs(path).f_flag & os.ST_RDONLY


class SqliteStore(SqlReads):
    """The embedded store: one SQLite file, WAL mode, one writer task doing group commits
    on its own connection, and a read-only connection for every read.

    The writer's connection is plain ``sqlite3`` in a thread of its own, so that a whole
    group commit (BEGIN, every statement, COMMIT) is one hand-off from the event loop;
    the event and action rows (the events' truths as JSON) are made there too, not on the
    loop. Reads go through ``aiosqlite``.

    ``synchronous`` is SQLite's ``PRAGMA synchronous`` (``FULL`` survives power loss;
    ``NORMAL`` in WAL mode survives a crash of the process, which is what ``kill -9``
    tests). ``max_batch`` bounds how many writes share one transaction; ``page_size``
    how many games :meth:`iter_games` holds at a time.

    ``read_only``: only the reader's connection is opened (``mode=ro``), never the
    writer's: the file is neither migrated nor written (``umpire verify``, ``export``),
    an older schema is refused in one line, and every write raises :class:`StoreError`.
    """

    def __init__(
        self,
        path: str,
        *,
        synchronous: str = "FULL",
        max_batch: int = 512,
        page_size: int = 200,
        read_only: bool = False,
    ) -> None:
        if synchronous.upper() not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
            raise ValueError(f"unknown synchronous mode {synchronous!r}")
        if path == ":memory:" or not path:
            raise ValueError("SqliteStore needs a file: its reader and writer share it")
        if page_size < 1 or max_batch < 1:
            raise ValueError("page_size and max_batch must be at least 1")
        self.path = path
        self.synchronous = synchronous.upper()
        self.max_batch = max_batch
        self.page_size = page_size
        self.read_only = read_only
        #: the writer's connection: only ever used in ``_thread``, the writer's thread
        self._db: sqlite3.Connection | None = None
        self._thread: Worker | None = None
        self._reader: aiosqlite.Connection | None = None
        self._queue: WriteQueue[_Write | None] = WriteQueue()
        self._writer: asyncio.Task[None] | None = None
        self.commits = 0  # transactions committed (for benchmarks and tests)

    @property
    def reader(self) -> aiosqlite.Connection:
        """The read-only connection every read uses; raise :class:`StoreError` when closed."""
        if self._reader is None:
            raise StoreError("the store is not open")
        return self._reader

    async def open(self) -> None:
        if self._thread is not None or self._reader is not None:
            return
        if self.read_only:
            self._reader = await self._open_reader_only()
            return
        # The writer's connection lives in its own thread: a whole group commit (BEGIN,
        # every statement, COMMIT) is one call there, one hand-off from the event loop.
        thread = Worker("store-writer")
        try:
            try:
                await thread.run(self._connect_writer)
                reader = await aiosqlite.connect(self.path, isolation_level=None)
                await reader.execute("PRAGMA busy_timeout=5000")
                await reader.execute("PRAGMA query_only=1")
            except sqlite3.Error as exc:
                raise StoreError(explain(self.path, exc)) from exc
        except BaseException:
            await thread.run(self._close_writer)
            thread.stop()
            raise
        self._thread = thread
        self._reader = reader
        self._queue = WriteQueue()
        self._writer = asyncio.create_task(self._write_loop(), name="store-writer")

    async def _open_reader_only(self) -> aiosqlite.Connection:
        """The read-only store's one connection (``mode=ro``), its schema checked.

        On a read-only file system SQLite cannot make the WAL's index (``-shm``) that a
        read needs, so it cannot open a WAL database even to read it; there the file is
        opened ``immutable`` (no lock, no WAL), which is exact when no WAL is left beside
        it (a server that stopped cleanly removes it), and refused otherwise."""
        path = os.path.abspath(self.path)
        if not os.path.exists(path):
            raise StoreError(f"no knowledge base at {self.path}")
        quoted = urllib.parse.quote(path)
        try:
            try:
                reader = await aiosqlite.connect(
                    f"file:{quoted}?mode=ro", uri=True, isolation_level=None
                )
                try:
                    await reader.execute("PRAGMA busy_timeout=5000")
                    version = await _user_version(reader)
                except BaseException:
                    await reader.close()
                    raise
            except sqlite3.OperationalError as exc:
                if os.access(os.path.dirname(path), os.W_OK) and _writable_fs(path):
                    raise
                wal = f"{path}-wal"
                if os.path.exists(wal) and os.path.getsize(wal) > 0:
                    raise StoreError(
                        f"{self.path} is on a read-only file system with a write-ahead log "
                        f"beside it ({wal}) that SQLite cannot read there: copy both files "
                        "to a writable folder and give that copy"
                    ) from exc
                reader = await aiosqlite.connect(
                    f"file:{quoted}?immutable=1", uri=True, isolation_level=None
                )
                version = await _user_version(reader)
            await reader.execute("PRAGMA query_only=1")
        except sqlite3.Error as exc:
            raise StoreError(explain(self.path, exc)) from exc
        if version != len(MIGRATIONS):
            await reader.close()
            if version > len(MIGRATIONS):
                raise StoreError(
                    f"{self.path} has schema version {version}; this umpire knows "
                    f"{len(MIGRATIONS)}: upgrade umpire"
                )
            raise StoreError(
                f"{self.path} has schema version {version}, older than this umpire's "
                f"{len(MIGRATIONS)}; reading, it never writes, so it does not upgrade it: "
                f"`umpire serve --db {self.path}` upgrades it when it starts"
            )
        return reader

    def _connect_writer(self) -> None:
        """(In the writer thread.) Open the writer's connection and migrate the schema."""
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db = db
        db.execute("PRAGMA busy_timeout=5000")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={self.synchronous}")
        db.execute(f"PRAGMA cache_size=-{WRITER_CACHE_KIB}")
        # A multi-row INSERT keeps a statement journal (to undo itself alone if it fails);
        # past 64 KiB SQLite spills it to a temporary file, written and thrown away on
        # every group commit. In memory instead. It never was part of what is durable.
        db.execute("PRAGMA temp_store=MEMORY")
        # Checkpoint every 10,000 WAL pages (about 40 MB) instead of 1,000: a game's page
        # changes again and again while it is played, and a rarer checkpoint copies it
        # back to the database once instead of many times. Durability is the WAL's own
        # (a commit is durable once its frames are synced), so this changes nothing there.
        db.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
        # Once a checkpoint has copied the whole WAL back, the next write starts the WAL
        # over from its beginning; the file is then cut back to this size (SQLite would
        # otherwise keep it at its largest for ever).
        db.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version > len(MIGRATIONS):
            raise StoreError(
                f"{self.path} has schema version {version}; this server knows "
                f"{len(MIGRATIONS)}: upgrade the server"
            )
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            statements = [s.strip() for s in script.split(";") if s.strip()]
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in statements:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version={number}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            log.info("store %s: migrated to schema version %d", self.path, number)

    async def check_writable(self) -> None:
        """Write the database's header once (its schema version, unchanged): raise
        :class:`StoreError` naming the file and what to do when that fails (a read-only
        file or file system, a full disk)."""
        thread = self._thread
        if thread is None:
            raise StoreError("the store is not open")
        try:
            await thread.run(self._probe)
        except sqlite3.Error as exc:
            raise StoreError(explain(self.path, exc)) from exc

    def _probe(self) -> None:
        """(In the writer thread.) One real write, rolled forward: the schema version
        written again as it is."""
        db = self._db
        if db is None:
            raise StoreError("the store is not open")
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(f"PRAGMA user_version={version}")
            db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise

    def _checkpoint(self, mode: str) -> tuple[int, int, int]:
        """(In the writer thread.) ``PRAGMA wal_checkpoint(mode)``: (busy, WAL pages,
        pages copied back)."""
        db = self._db
        if db is None:
            raise StoreError("the store is not open")
        busy, pages, copied = db.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        return int(busy), int(pages), int(copied)

    async def checkpoint(self, mode: str = "PASSIVE") -> tuple[int, int, int]:
        """Copy the WAL back into the database now (``PASSIVE``: never waits for a
        reader; ``TRUNCATE``: also empties the WAL file, waiting for readers up to the
        busy timeout). The writer task calls it every :data:`CHECKPOINT_INTERVAL`
        seconds, and after a failed write (a full disk: a truncated WAL frees space)."""
        thread = self._thread
        if thread is None:
            raise StoreError("the store is not open")
        return await thread.run(self._checkpoint, mode)

    def _close_writer(self) -> None:
        """(In the writer thread.) Close the writer's connection."""
        db, self._db = self._db, None
        if db is not None:
            db.close()

    async def close(self) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:  # new writes are refused from here; queued ones finish
            self._queue.put_nowait(None)
            await writer
        if self._reader is not None:
            await self._reader.close()
            self._reader = None
        thread, self._thread = self._thread, None
        if thread is not None:
            await thread.run(self._close_writer)
            thread.stop()

    # -- writes ------------------------------------------------------------------------

    async def _submit(
        self,
        statements: list[tuple[str, Sequence[Sequence[Any]]]],
        game_id: str = "",
        events: Sequence[EventRow] = (),
        action: ActionRow | None = None,
        hook: Callable[[sqlite3.Connection], Any] | None = None,
    ) -> Any:
        """Queue a write for the next group commit; return once it is committed, with
        what its ``hook`` returned (``None`` without one)."""
        if self.read_only:
            raise StoreError(f"{self.path} is open read-only: nothing is written")
        if self._writer is None:
            raise StoreError("the store is not open")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        item = _Write(statements, done, game_id, events, action, hook)
        self._queue.put_nowait(item)
        await done
        return item.result

    async def _write_loop(self) -> None:
        checkpoints = asyncio.create_task(self._checkpoints(), name="store-checkpoints")
        try:
            await commit_in_groups(
                self._queue, self.max_batch, self._transaction, self._fail, self._committed
            )
        finally:
            checkpoints.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await checkpoints

    def _fail(self, item: _Write, exc: Exception) -> None:
        first = self._write_failed(exc)
        write_failed(self.path, item.done, exc, first)

    async def _checkpoints(self) -> None:
        """Checkpoint the WAL every :data:`CHECKPOINT_INTERVAL` seconds (PASSIVE: it
        never waits), and empty it (TRUNCATE) while writes fail: on a full disk the
        WAL's space is what there is to free. Queued on the writer's thread between
        group commits, so it never runs inside a transaction."""
        while True:
            await asyncio.sleep(CHECKPOINT_INTERVAL)
            mode = "TRUNCATE" if self.failing else "PASSIVE"
            try:
                result = await self.checkpoint(mode)
                log.debug(
                    "store %s: checkpoint (%s): busy, pages, copied = %s", self.path, mode, result
                )
            except (sqlite3.Error, StoreError) as exc:
                log.debug("store %s: checkpoint (%s) failed: %s", self.path, mode, exc)

    async def _transaction(self, batch: list[_Write]) -> None:
        thread = self._thread
        if thread is None:
            raise StoreError("the store is not open")
        hook = self.before_commit
        if hook is None:
            # the writes are settled in the same turn of the loop as the COMMIT returns:
            # their rooms wake a turn sooner than if the writer task settled them
            await thread.run(self._write, batch, True, then=lambda _: _settle(batch))
        else:  # (fault-injection tests) the hook runs between the writes and the COMMIT
            await thread.run(self._write, batch, False)
            try:
                await hook()
            except BaseException:
                await thread.run(self._end, "ROLLBACK")
                raise
            await thread.run(self._end, "COMMIT")
        self.commits += 1

    def _write(self, batch: list[_Write], commit: bool) -> None:
        """(In the writer thread.) Write ``batch`` in one transaction; COMMIT it if
        ``commit``, else leave it open for :meth:`_end`."""
        db = self._db
        if db is None:
            raise StoreError("the store is not open")
        db.execute("BEGIN IMMEDIATE")  # the write lock first: a hook reads, then writes
        try:
            for item in batch:
                for sql, rows in item.statements:
                    db.executemany(sql, rows)
                if item.hook is not None:
                    item.result = item.hook(db)
            # (the rows, their truths as JSON, are made here: off the event loop)
            actions = [
                action_values(item.game_id, action)
                for item in batch
                if (action := item.action) is not None
            ]
            _insert_rows(db, _ACTIONS_INTO, 9, actions)
            events = [event_values(item.game_id, event) for item in batch for event in item.events]
            _insert_rows(db, _EVENTS_INTO, 7, events)
            if commit:
                db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise

    def _end(self, statement: str) -> None:
        """(In the writer thread.) COMMIT or ROLLBACK the open transaction."""
        db = self._db
        if db is None:
            raise StoreError("the store is not open")
        try:
            db.execute(statement)
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise

    # -- players, accounts and sessions ---------------------------------------------------

    async def add_player(self, player: PlayerRow, token_hash: str) -> None:
        await self._submit(
            [
                (INSERT_PLAYER, [player_values(player)]),
                (
                    INSERT_SESSION,
                    [(token_hash, player.id, "session", player.created, player.created)],
                ),
            ]
        )

    async def rename_player(self, player_id: str, name: str) -> None:
        await self._submit([("UPDATE players SET name = ? WHERE id = ?", [(name, player_id)])])

    async def set_token(self, player_id: str, token_hash: str) -> None:
        now = time.time()
        await self._submit(
            [
                ("DELETE FROM sessions WHERE player_id = ?", [(player_id,)]),
                (INSERT_SESSION, [(token_hash, player_id, "session", now, now)]),
            ]
        )

    async def add_session(self, session: SessionRow) -> None:
        row = (session.token_hash, session.player, session.kind, session.created, session.last_used)
        await self._submit([(INSERT_SESSION, [row])])

    async def touch_session(self, token_hash: str, at: float) -> None:
        await self._submit(
            [("UPDATE sessions SET last_used = ? WHERE token_hash = ?", [(at, token_hash)])]
        )

    async def drop_sessions(
        self, player_id: str, *, kinds: Sequence[str] = ("session",), keep: str | None = None
    ) -> int:
        kinds = list(kinds)
        if not kinds:
            return 0
        sql = (
            f"DELETE FROM sessions WHERE player_id = ? AND kind IN ({', '.join('?' * len(kinds))}) "
            "AND token_hash IS NOT ?"
        )

        def drop(db: sqlite3.Connection) -> int:
            return db.execute(sql, (player_id, *kinds, keep)).rowcount

        return int(await self._submit([], hook=drop))

    async def drop_session(self, token_hash: str) -> None:
        await self._submit([("DELETE FROM sessions WHERE token_hash = ?", [(token_hash,)])])

    async def claim(self, player_id: str, name: str, account: str, password_hash: str) -> None:
        def claim(db: sqlite3.Connection) -> None:
            _check_name_free(db, account, player_id)
            done = db.execute(
                "UPDATE players SET name = ?, account = ?, password = ?, kind = 'account' "
                "WHERE id = ? AND kind = 'guest'",
                (name, account, password_hash, player_id),
            )
            if done.rowcount != 1:
                raise StoreError(f"player {player_id} is not a guest")

        await self._submit([], hook=claim)

    async def set_password(self, player_id: str, password_hash: str) -> None:
        await self._submit(
            [
                (
                    "UPDATE players SET password = ? WHERE id = ? AND kind = 'account'",
                    [(password_hash, player_id)],
                )
            ]
        )

    async def add_bot_account(self, player: PlayerRow, account: str, token_hash: str) -> None:
        if player.kind != "bot" or player.owner is None:
            raise ValueError("a bot account has kind 'bot' and an owner")

        def add(db: sqlite3.Connection) -> None:
            _check_name_free(db, account, player.id)
            db.execute(INSERT_PLAYER, player_values(player, account))
            db.execute(
                INSERT_SESSION, (token_hash, player.id, "api", player.created, player.created)
            )

        await self._submit([], hook=add)

    @staticmethod
    def _game_statements(game: GameRow) -> list[tuple[str, Sequence[Sequence[Any]]]]:
        statements: list[tuple[str, Sequence[Sequence[Any]]]] = [(_SAVE_GAME, [game_values(game)])]
        seats = seat_rows(game)
        if seats:
            statements.append((_SAVE_SEATS, seats))
        return statements

    async def save_game(self, game: GameRow, events: Sequence[EventRow] = ()) -> None:
        await self._submit(self._game_statements(game), game.id, events)

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
        if plan is None:
            await self._submit(statements, row.id, events)
            return []

        def rate(db: sqlite3.Connection) -> list[RatingChange]:
            return _rate(db, row, plan)

        changes: list[RatingChange] = await self._submit(statements, row.id, events, hook=rate)
        return changes

    async def replace_ratings(self, changes: Sequence[RatingChange]) -> None:
        rows = []
        last = 0
        for change in changes:
            last = change.n if change.n > 0 else last + 1
            rows.append((last, *change_values(change)))
        await self._submit(
            [
                ("DELETE FROM rating_changes", [()]),
                ("DELETE FROM ratings", [()]),
                (INSERT_CHANGE, rows),
                (UPSERT_RATING, final_ratings(changes)),
            ]
        )

    async def append(
        self, game_id: str, events: Sequence[EventRow], action: ActionRow | None = None
    ) -> None:
        await self._submit([], game_id, events, action)

    async def add_chat(self, game_id: str, line: ChatRow) -> None:
        row = chat_values(game_id, line)
        await self._submit([(_INSERT_CHAT, [row])])

    async def discard_unfinished_game(self, game_id: str) -> bool:
        def discard(db: sqlite3.Connection) -> bool:
            done = db.execute(
                "DELETE FROM games WHERE id = ? AND status IN ('waiting', 'playing')",
                (game_id,),
            )
            if done.rowcount != 1:
                return False
            for table in ("game_players", "actions", "events", "chat"):
                db.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            return True

        return bool(await self._submit([], hook=discard))

    async def add_stats(self, game: str, stats: Mapping[str, Mapping[str, float]]) -> None:
        rows = stat_rows(game, stats)
        if rows:
            await self._submit([(_ADD_STAT, rows)])

    # -- tournaments ----------------------------------------------------------------------

    async def save_tournament(
        self, row: TournamentRow, expect: int | None, games: Sequence[tuple[int, str]] = ()
    ) -> bool:
        values = (row.id, row.status, row.state, row.version, row.created, row.updated)

        def save(db: sqlite3.Connection) -> bool:
            if expect is None:
                cur = db.execute(
                    f"INSERT OR IGNORE INTO tournaments ({TOURNAMENT_COLUMNS}) "
                    "VALUES (?,?,?,?,?,?)",
                    values,
                )
            else:
                cur = db.execute(
                    "UPDATE tournaments SET status = ?, state = ?, version = ?, updated = ? "
                    "WHERE id = ? AND version = ?",
                    (row.status, row.state, row.version, row.updated, row.id, expect),
                )
            if cur.rowcount != 1:
                return False
            db.executemany(
                "INSERT OR IGNORE INTO tournament_games (tournament, seq, game) VALUES (?,?,?)",
                [(row.id, seq, game) for seq, game in games],
            )
            return True

        written: bool = await self._submit([], hook=save)
        return written

    # -- signing keys ---------------------------------------------------------------------

    async def add_signing_key(self, key_id: str, public: str, created: float) -> None:
        await self._submit([(ADD_SIGNING_KEY, [(key_id, public, created)])])

    # -- reads (on the reader connection: committed rows only; queries in SqlReads) ------

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Sequence[Any]]:
        try:
            return list(await self.reader.execute_fetchall(sql, params))
        except sqlite3.Error as exc:
            raise StoreError(f"a read failed: {explain(self.path, exc)}") from exc

    # -- seeks --------------------------------------------------------------------------

    async def add_seek(self, seek: SeekRow) -> None:
        await self._submit([(INSERT_SEEK, [seek_values(seek)])])

    async def claim_seeks(self, seek_ids: Sequence[str], room: str, at: float) -> bool:
        ids = list(dict.fromkeys(seek_ids))
        marks = ", ".join("?" * len(ids))
        sql = (
            f"UPDATE seeks SET status = 'matched', room = ?, updated = ? "
            f"WHERE id IN ({marks}) AND status = 'open'"
        )

        def claim(db: sqlite3.Connection) -> bool:
            db.execute("SAVEPOINT claim_seeks")
            if db.execute(sql, (room, at, *ids)).rowcount == len(ids):
                db.execute("RELEASE claim_seeks")
                return True
            db.execute("ROLLBACK TO claim_seeks")  # all or none
            db.execute("RELEASE claim_seeks")
            return False

        return bool(await self._submit([], hook=claim)) if ids else False

    async def cancel_seeks(
        self, seek_ids: Sequence[str], at: float, *, player: str | None = None
    ) -> list[str]:
        ids = list(dict.fromkeys(seek_ids))
        if not ids:
            return []
        marks = ", ".join("?" * len(ids))
        sql = f"SELECT id FROM seeks WHERE id IN ({marks}) AND status = 'open'"
        params: list[Any] = list(ids)
        if player is not None:
            sql += " AND player_id = ?"
            params.append(player)

        def cancel(db: sqlite3.Connection) -> list[str]:
            found = [r[0] for r in db.execute(sql, params)]
            db.executemany(
                "UPDATE seeks SET status = 'cancelled', updated = ? WHERE id = ?",
                [(at, seek_id) for seek_id in found],
            )
            return found

        cancelled: list[str] = await self._submit([], hook=cancel)
        return cancelled

    async def reopen_seeks(self, room: str, at: float) -> list[str]:
        def reopen(db: sqlite3.Connection) -> list[str]:
            found = [
                r[0]
                for r in db.execute(
                    "SELECT id FROM seeks WHERE room = ? AND status = 'matched'", (room,)
                )
            ]
            db.execute(
                "UPDATE seeks SET status = 'open', room = NULL, updated = ? "
                "WHERE room = ? AND status = 'matched'",
                (at, room),
            )
            return found

        reopened: list[str] = await self._submit([], hook=reopen)
        return reopened
