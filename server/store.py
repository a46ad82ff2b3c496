"""The knowledge base: players, games and their event logs, behind a small interface.

:class:`Store` is what the rest of the server uses; :class:`SqliteStore` implements it on
one SQLite file in WAL mode through ``aiosqlite``. A PostgreSQL store implements the same
methods and must pass the same contract suite (``tests/server/store_contract.py``; the
guarantees are listed in docs/data.md, "Store contract"). The log is the truth (DESIGN.md,
idea 3): :meth:`Store.append` returns only once an action and its events are committed, so
a room acknowledges and broadcasts only what survives a crash. Concurrent writes from many
rooms are written in one transaction (group commit) by a single writer task on its own
connection; reads use a second connection, so they only ever see committed rows.

Schema (``PRAGMA user_version`` counts the migrations applied)::

    players       id, name, bot, token_hash (sha256 of the secret token), created
    games         id (= room id), game, options, settings, host, invite, public, seats,
                  status (waiting|playing|finished|aborted), seed, seed_sha256,
                  seed_revealed, result, reason, created, started, finished,
                  house (seat -> durable house-seat ticket; never exported)  [migration 2]
    game_players  game_id, seat, player_id           (who played: for histories)
    actions       game_id, n, seat, action, at, clocks (every accepted action record,
                  forfeits included: with the seed they rebuild the game)
    events        game_id, seq, source (game|room), action_n, truth
    chat          game_id, n, at, channel (players|spectators), seat, player_id, name,
                  text (a room's chat lines, stored with its game)            [migration 4]
    player_stats  player_id, game, key, value        (public statistics, summed)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiosqlite
import msgspec

from server.errors import StoreError
from server.group_commit import commit_in_groups, write_failed
from server.worker import Worker

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
)


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player as stored: the public part (the token is kept only as a hash)."""

    id: str
    name: str
    bot: bool
    created: float


@dataclass(slots=True)
class GameRow:
    """One room and its game, as stored in ``games``."""

    id: str
    game: str
    options: dict[str, Any]
    settings: dict[str, Any]
    host: str | None
    invite: str | None
    public: bool
    seats: list[str | None]
    status: str
    seed: bytes
    seed_sha256: str
    created: float
    seed_revealed: bool = False
    result: dict[str, Any] | None = None
    reason: str | None = None
    started: float | None = None
    finished: float | None = None
    #: seat index (as text) -> the durable ticket its house bot logs in with. A secret of
    #: the server: never exported, never sent to a client.
    house: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One accepted action record: the ``n``-th of its game (from 1)."""

    n: int
    seat: int
    action: str
    at: float
    clocks: list[float] | None = None


@dataclass(frozen=True, slots=True)
class EventRow:
    """One logged event: its sequence number, source (``game``/``room``) and truth."""

    seq: int
    source: str
    truth: dict[str, Any]
    action_n: int | None = None


@dataclass(frozen=True, slots=True)
class ChatRow:
    """One chat line of a room: the ``n``-th (from 1), who said what, to which channel."""

    n: int
    at: float
    channel: str  # players | spectators
    seat: int | None
    player: str
    name: str
    text: str


class Store(ABC):
    """What the server needs from its database (the store contract).

    Every implementation guarantees (and ``tests/server/store_contract.py`` checks):

    - a write returns only once committed: a second store opened on the same database
      sees it at once, and it survives a crash of the process;
    - a read never sees uncommitted rows (not even those of a transaction in progress);
    - a failed write raises :class:`StoreError` and leaves nothing of itself behind,
      without failing unrelated writes that happened to share its transaction;
    - :meth:`finish_game` is all or nothing;
    - rows come back as they were written (``events`` by ``seq``, ``actions`` by ``n``,
      games in ``(created, id)`` order).
    """

    #: several server processes may share this store's database (PostgreSQL): the
    #: server then runs as a node of a cluster (server.cluster)
    shared: bool = False
    #: called with (seconds, writes) after each group commit, by stores that group
    #: their commits (server.ops sets it for its metrics)
    on_commit: Callable[[float, int], None] | None = None

    def _committed(self, seconds: float, writes: int) -> None:
        """A group commit of ``writes`` writes took ``seconds``: tell :attr:`on_commit`."""
        if self.on_commit is not None:
            self.on_commit(seconds, writes)

    @abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema up to date."""

    @abstractmethod
    async def close(self) -> None:
        """Finish pending writes and disconnect; idempotent."""

    @abstractmethod
    async def add_player(self, player: PlayerRow, token_hash: str) -> None:
        """Store a new player (an id or token hash already used raises StoreError)."""

    @abstractmethod
    async def player(self, player_id: str) -> PlayerRow | None:
        """The player with this id."""

    @abstractmethod
    async def player_by_token(self, token_hash: str) -> PlayerRow | None:
        """The player whose token hashes to ``token_hash``."""

    @abstractmethod
    async def rename_player(self, player_id: str, name: str) -> None:
        """Change a player's display name."""

    @abstractmethod
    async def set_token(self, player_id: str, token_hash: str) -> None:
        """Replace a player's token hash (the server's own house bots, at start-up)."""

    @abstractmethod
    async def save_game(self, game: GameRow, events: Sequence[EventRow] = ()) -> None:
        """Insert or replace a room's row (lobby changes, start, end), with any events
        that must be logged in the same transaction (the opening events, an abort)."""

    @abstractmethod
    async def append(
        self, game_id: str, events: Sequence[EventRow], action: ActionRow | None = None
    ) -> None:
        """Log an accepted action (if any) and the events it caused, durably.

        An event ``seq`` or action ``n`` already logged for the game raises StoreError."""

    @abstractmethod
    async def finish_game(
        self,
        row: GameRow,
        events: Sequence[EventRow],
        stats: Mapping[str, Mapping[str, float]],
    ) -> None:
        """Record a game's end in one transaction, all or nothing: store ``row`` as given
        (status, result, reason, revealed seed, finish time), log ``events`` (the last
        ones, if any) and add ``stats`` (player id -> key -> amount) under ``row.game``."""

    @abstractmethod
    async def add_stats(self, game: str, stats: Mapping[str, Mapping[str, float]]) -> None:
        """Add per-player public statistics (player id -> key -> amount)."""

    @abstractmethod
    async def add_chat(self, game_id: str, line: ChatRow) -> None:
        """Store one chat line of a room (its number ``n`` is new for the room)."""

    @abstractmethod
    async def chat(self, game_id: str) -> list[ChatRow]:
        """A room's chat lines in order."""

    @abstractmethod
    async def game(self, game_id: str) -> GameRow | None:
        """The room or game with this id, as last committed."""

    @abstractmethod
    async def game_by_invite(self, invite: str) -> str | None:
        """The id of the game whose invite code is ``invite``, or ``None``."""

    @abstractmethod
    def iter_games(
        self, statuses: Iterable[str] | None = None, *, game: str | None = None
    ) -> AsyncIterator[GameRow]:
        """Every game (of these statuses, of this game), oldest first by ``(created, id)``.

        Streams: rows are fetched a page at a time, so memory stays bounded however many
        games the store holds. Use ``async for row in store.iter_games(...)``."""

    async def games(self, statuses: Iterable[str]) -> list[GameRow]:
        """Every room whose status is one of ``statuses``, as a list (used to recover
        after a crash, where the rooms are few; prefer :meth:`iter_games` elsewhere)."""
        return [row async for row in self.iter_games(statuses)]

    @abstractmethod
    async def actions(self, game_id: str) -> list[ActionRow]:
        """A game's action records in order."""

    @abstractmethod
    async def events(self, game_id: str) -> list[EventRow]:
        """A game's logged events in sequence order."""

    @abstractmethod
    async def history(self, player_id: str, limit: int = 20) -> list[dict[str, Any]]:
        """A player's games, newest first: id, game, status, seat, result, reason, times."""

    @abstractmethod
    async def stats(self, player_id: str) -> dict[str, dict[str, float]]:
        """A player's public statistics: game -> key -> value."""


@dataclass(slots=True)
class _Write:
    """One unit of work for the writer: statements to run in order, and who waits."""

    statements: list[tuple[str, Sequence[Sequence[Any]]]]
    done: asyncio.Future[None]
    events: list[tuple[Any, ...]] = field(default_factory=list)
    actions: list[tuple[Any, ...]] = field(default_factory=list)


_INSERT_CHAT = (
    "INSERT INTO chat (game_id, n, at, channel, seat, player_id, name, text) "
    "VALUES (?,?,?,?,?,?,?,?)"
)
_ACTIONS_INTO = "INSERT INTO actions (game_id, n, seat, action, at, clocks) VALUES "
_EVENTS_INTO = "INSERT INTO events (game_id, seq, source, action_n, truth) VALUES "
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


_GAME_COLUMNS = (
    "id, game, options, settings, host, invite, public, seats, status, seed, seed_sha256, "
    "seed_revealed, result, reason, created, started, finished, house"
)
_SAVE_GAME = (
    f"INSERT OR REPLACE INTO games ({_GAME_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)
_SAVE_SEATS = "INSERT OR REPLACE INTO game_players (game_id, seat, player_id) VALUES (?,?,?)"
_ADD_STAT = """
INSERT INTO player_stats (player_id, game, key, value) VALUES (?,?,?,?)
ON CONFLICT (player_id, game, key) DO UPDATE SET value = value + excluded.value
"""


_ENCODER = msgspec.json.Encoder()


def _dumps(value: Any) -> str:
    """Compact JSON (msgspec: several times faster than json.dumps on the hot path)."""
    return _ENCODER.encode(value).decode()


def _game_from_row(r: Sequence[Any]) -> GameRow:
    return GameRow(
        id=r[0],
        game=r[1],
        options=json.loads(r[2]),
        settings=json.loads(r[3]),
        host=r[4],
        invite=r[5],
        public=bool(r[6]),
        seats=json.loads(r[7]),
        status=r[8],
        seed=bytes(r[9]),
        seed_sha256=r[10],
        seed_revealed=bool(r[11]),
        result=None if r[12] is None else json.loads(r[12]),
        reason=r[13],
        created=r[14],
        started=r[15],
        finished=r[16],
        house=json.loads(r[17]),
    )


def _stat_rows(game: str, stats: Mapping[str, Mapping[str, float]]) -> list[tuple[Any, ...]]:
    return [
        (player, game, key, float(value))
        for player, values in stats.items()
        for key, value in values.items()
    ]


#: The writer connection's page cache (KiB). A group commit touches a page or more of every
#: game in it (rows are clustered by game); with SQLite's default 2 MB the cache filled up
#: mid-transaction under load, and SQLite spilled dirty pages to the WAL and read pages
#: back again (most of the writer's time was those ``pwrite``/``pread`` calls). Memory
#: only: what is durable, and when, does not change.
WRITER_CACHE_KIB = 65536
#: WAL pages between automatic checkpoints (SQLite's default: 1,000)
WAL_CHECKPOINT_PAGES = 10000


class SqliteStore(Store):
    """The embedded store: one SQLite file, WAL mode, one writer task doing group commits
    on its own connection, and a read-only connection for every read.

    The writer's connection is plain ``sqlite3`` in a thread of its own, so that a whole
    group commit (BEGIN, every statement, COMMIT) is one hand-off from the event loop;
    reads go through ``aiosqlite``.

    ``synchronous`` is SQLite's ``PRAGMA synchronous`` (``FULL`` survives power loss;
    ``NORMAL`` in WAL mode survives a crash of the process, which is what ``kill -9``
    tests). ``max_batch`` bounds how many writes share one transaction; ``page_size``
    how many games :meth:`iter_games` holds at a time.
    """

    def __init__(
        self,
        path: str,
        *,
        synchronous: str = "FULL",
        max_batch: int = 512,
        page_size: int = 200,
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
        #: the writer's connection: only ever used in ``_thread``, the writer's thread
        self._db: sqlite3.Connection | None = None
        self._thread: Worker | None = None
        self._reader: aiosqlite.Connection | None = None
        self._queue: asyncio.Queue[_Write | None] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self.commits = 0  # transactions committed (for benchmarks and tests)
        #: called with (seconds, writes) after each group commit (server.ops metrics)
        self.on_commit: Callable[[float, int], None] | None = None
        #: for fault-injection tests only: awaited inside every write transaction just
        #: before its COMMIT; raising from it rolls the transaction back
        self.before_commit: Callable[[], Awaitable[None]] | None = None

    @property
    def reader(self) -> aiosqlite.Connection:
        """The read-only connection every read uses; raise :class:`StoreError` when closed."""
        if self._reader is None:
            raise StoreError("the store is not open")
        return self._reader

    async def open(self) -> None:
        if self._thread is not None:
            return
        # The writer's connection lives in its own thread: a whole group commit (BEGIN,
        # every statement, COMMIT) is one call there, one hand-off from the event loop.
        thread = Worker("store-writer")
        try:
            await thread.run(self._connect_writer)
            reader = await aiosqlite.connect(self.path, isolation_level=None)
            await reader.execute("PRAGMA busy_timeout=5000")
            await reader.execute("PRAGMA query_only=1")
        except BaseException:
            await thread.run(self._close_writer)
            thread.stop()
            raise
        self._thread = thread
        self._reader = reader
        self._queue = asyncio.Queue()
        self._writer = asyncio.create_task(self._write_loop(), name="store-writer")

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
        events: list[tuple[Any, ...]] | None = None,
        actions: list[tuple[Any, ...]] | None = None,
    ) -> None:
        if self._writer is None:
            raise StoreError("the store is not open")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Write(statements, done, events or [], actions or []))
        await done

    async def _write_loop(self) -> None:
        await commit_in_groups(
            self._queue,
            self.max_batch,
            self._transaction,
            lambda item, exc: write_failed(self.path, item.done, exc),
            self._committed,
        )

    async def _transaction(self, batch: list[_Write]) -> None:
        thread = self._thread
        if thread is None:
            raise StoreError("the store is not open")
        hook = self.before_commit
        if hook is None:
            await thread.run(self._write, batch, True)
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
        db.execute("BEGIN")
        try:
            for item in batch:
                for sql, rows in item.statements:
                    db.executemany(sql, rows)
            _insert_rows(db, _ACTIONS_INTO, 6, [row for item in batch for row in item.actions])
            _insert_rows(db, _EVENTS_INTO, 5, [row for item in batch for row in item.events])
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

    async def add_player(self, player: PlayerRow, token_hash: str) -> None:
        await self._submit(
            [
                (
                    "INSERT INTO players (id, name, bot, token_hash, created) VALUES (?,?,?,?,?)",
                    [(player.id, player.name, int(player.bot), token_hash, player.created)],
                )
            ]
        )

    async def rename_player(self, player_id: str, name: str) -> None:
        await self._submit([("UPDATE players SET name = ? WHERE id = ?", [(name, player_id)])])

    async def set_token(self, player_id: str, token_hash: str) -> None:
        await self._submit(
            [("UPDATE players SET token_hash = ? WHERE id = ?", [(token_hash, player_id)])]
        )

    @staticmethod
    def _game_statements(game: GameRow) -> list[tuple[str, Sequence[Sequence[Any]]]]:
        row = (
            game.id,
            game.game,
            _dumps(game.options),
            _dumps(game.settings),
            game.host,
            game.invite,
            int(game.public),
            _dumps(game.seats),
            game.status,
            game.seed,
            game.seed_sha256,
            int(game.seed_revealed),
            None if game.result is None else _dumps(game.result),
            game.reason,
            game.created,
            game.started,
            game.finished,
            _dumps(game.house),
        )
        statements: list[tuple[str, Sequence[Sequence[Any]]]] = [(_SAVE_GAME, [row])]
        if game.status != "waiting":
            seats = [(game.id, s, p) for s, p in enumerate(game.seats) if p is not None]
            statements.append((_SAVE_SEATS, seats))
        return statements

    async def save_game(self, game: GameRow, events: Sequence[EventRow] = ()) -> None:
        await self._submit(
            self._game_statements(game), [self._event_row(game.id, e) for e in events]
        )

    async def finish_game(
        self,
        row: GameRow,
        events: Sequence[EventRow],
        stats: Mapping[str, Mapping[str, float]],
    ) -> None:
        statements = self._game_statements(row)
        stat_rows = _stat_rows(row.game, stats)
        if stat_rows:
            statements.append((_ADD_STAT, stat_rows))
        await self._submit(statements, [self._event_row(row.id, e) for e in events])

    async def append(
        self, game_id: str, events: Sequence[EventRow], action: ActionRow | None = None
    ) -> None:
        event_rows = [self._event_row(game_id, e) for e in events]
        action_rows = []
        if action is not None:
            clocks = None if action.clocks is None else _dumps(action.clocks)
            action_rows.append((game_id, action.n, action.seat, action.action, action.at, clocks))
        await self._submit([], event_rows, action_rows)

    @staticmethod
    def _event_row(game_id: str, e: EventRow) -> tuple[Any, ...]:
        return (game_id, e.seq, e.source, e.action_n, _dumps(e.truth))

    async def add_chat(self, game_id: str, line: ChatRow) -> None:
        row = (game_id, line.n, line.at, line.channel, line.seat, line.player, line.name, line.text)
        await self._submit([(_INSERT_CHAT, [row])])

    async def chat(self, game_id: str) -> list[ChatRow]:
        rows = await self.reader.execute_fetchall(
            "SELECT n, at, channel, seat, player_id, name, text FROM chat "
            "WHERE game_id = ? ORDER BY n",
            (game_id,),
        )
        return [ChatRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6]) for r in rows]

    async def add_stats(self, game: str, stats: Mapping[str, Mapping[str, float]]) -> None:
        rows = _stat_rows(game, stats)
        if rows:
            await self._submit([(_ADD_STAT, rows)])

    # -- reads (on the reader connection: committed rows only) --------------------------

    async def player(self, player_id: str) -> PlayerRow | None:
        rows = list(
            await self.reader.execute_fetchall(
                "SELECT id, name, bot, created FROM players WHERE id = ?", (player_id,)
            )
        )
        return PlayerRow(rows[0][0], rows[0][1], bool(rows[0][2]), rows[0][3]) if rows else None

    async def player_by_token(self, token_hash: str) -> PlayerRow | None:
        rows = list(
            await self.reader.execute_fetchall(
                "SELECT id, name, bot, created FROM players WHERE token_hash = ?", (token_hash,)
            )
        )
        return PlayerRow(rows[0][0], rows[0][1], bool(rows[0][2]), rows[0][3]) if rows else None

    async def game(self, game_id: str) -> GameRow | None:
        rows = list(
            await self.reader.execute_fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
            )
        )
        return _game_from_row(rows[0]) if rows else None

    async def game_by_invite(self, invite: str) -> str | None:
        rows = list(
            await self.reader.execute_fetchall("SELECT id FROM games WHERE invite = ?", (invite,))
        )
        return str(rows[0][0]) if rows else None

    async def iter_games(
        self, statuses: Iterable[str] | None = None, *, game: str | None = None
    ) -> AsyncIterator[GameRow]:
        filters: list[str] = []
        params: list[Any] = []
        if statuses is not None:
            wanted = list(statuses)
            if not wanted:
                return
            filters.append(f"status IN ({','.join('?' * len(wanted))})")
            params.extend(wanted)
        if game is not None:
            filters.append("game = ?")
            params.append(game)
        where = " AND ".join(filters) or "1"
        after: tuple[float, str] | None = None
        while True:
            # Keyset paging: each page starts after the last row of the one before, so a
            # page costs the same however deep it is and rows added meanwhile are not
            # seen twice.
            sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE {where}"
            page_params = list(params)
            if after is not None:
                sql += " AND (created, id) > (?, ?)"
                page_params.extend(after)
            sql += " ORDER BY created, id LIMIT ?"
            page_params.append(self.page_size)
            rows = list(await self.reader.execute_fetchall(sql, page_params))
            for r in rows:
                yield _game_from_row(r)
            if len(rows) < self.page_size:
                return
            after = (rows[-1][14], rows[-1][0])

    async def actions(self, game_id: str) -> list[ActionRow]:
        rows = await self.reader.execute_fetchall(
            "SELECT n, seat, action, at, clocks FROM actions WHERE game_id = ? ORDER BY n",
            (game_id,),
        )
        return [
            ActionRow(r[0], r[1], r[2], r[3], None if r[4] is None else json.loads(r[4]))
            for r in rows
        ]

    async def events(self, game_id: str) -> list[EventRow]:
        rows = await self.reader.execute_fetchall(
            "SELECT seq, source, truth, action_n FROM events WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [EventRow(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]

    async def history(self, player_id: str, limit: int = 20) -> list[dict[str, Any]]:
        rows = await self.reader.execute_fetchall(
            "SELECT g.id, g.game, g.status, gp.seat, g.result, g.reason, g.started, g.finished "
            "FROM game_players gp JOIN games g ON g.id = gp.game_id "
            "WHERE gp.player_id = ? ORDER BY g.started DESC, g.id LIMIT ?",
            (player_id, limit),
        )
        out = []
        for r in rows:
            result = None if r[4] is None else json.loads(r[4])
            ranks = result.get("ranks") if isinstance(result, dict) else None
            rank = ranks[r[3]] if isinstance(ranks, list) and r[3] < len(ranks) else None
            out.append(
                {
                    "room": r[0],
                    "game": r[1],
                    "status": r[2],
                    "seat": r[3],
                    "rank": rank,
                    "reason": r[5],
                    "started": r[6],
                    "finished": r[7],
                }
            )
        return out

    async def stats(self, player_id: str) -> dict[str, dict[str, float]]:
        rows = await self.reader.execute_fetchall(
            "SELECT game, key, value FROM player_stats WHERE player_id = ? ORDER BY game, key",
            (player_id,),
        )
        out: dict[str, dict[str, float]] = {}
        for game, key, value in rows:
            out.setdefault(game, {})[key] = int(value) if float(value).is_integer() else value
        return out


def open_store(location: str, *, synchronous: str = "FULL") -> Store:
    """The store for ``location`` (not yet opened): a ``postgresql://`` URL opens the
    PostgreSQL store (``server.store_pg``, needs the ``postgres`` extra), anything else
    names a SQLite file.

    The one place that maps a ``--db`` argument to an implementation.
    """
    if location.startswith(("postgresql://", "postgres://")):
        try:
            from server.store_pg import PgStore
        except ImportError as exc:  # asyncpg is the optional extra "postgres"
            raise StoreError(
                f"a PostgreSQL store needs asyncpg: pip install 'umpire[postgres]' ({exc})"
            ) from None
        return PgStore(location)
    if "://" in location:
        raise StoreError(
            f"no store implementation for {location!r}: give a SQLite file path "
            "or a postgresql:// URL"
        )
    return SqliteStore(location, synchronous=synchronous)
