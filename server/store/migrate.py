"""``umpire migrate``: copy a SQLite knowledge base into PostgreSQL, row for row.

Everything the copy knows is :data:`TABLES`: each table of the store, its key and its
columns. The copy is driven by that list alone, and it refuses to start (one line) when
the source has a table or a column the list does not name, so nothing is ever left
behind silently: a migration that adds a table or a column must add it here too (the
tests fail until it does).

The copy is

- **faithful**: every column is copied as stored (a SQLite integer flag becomes a
  PostgreSQL boolean, nothing else changes), so both stores read and export the same
  rows byte for byte, and players keep their tokens (``sessions`` holds their hashes);
- **idempotent**: a row whose key the target holds already with the same values is
  skipped; a second run copies nothing and says so;
- **resumable**: it commits every ``batch`` rows; killed midway, a rerun (from the same
  file) skips what arrived and copies the rest;
- **careful**: it starts only into an empty database or one holding its own unfinished
  copy. A target with knowledge and no unfinished copy (a finished copy a server may have
  used since, or a server's own data) is only compared, never written: a rerun that
  finds every row says so, and one that finds a row missing or different refuses (one
  line) and leaves it as it was. While the copy is unfinished the target carries a mark
  (``cluster`` row :data:`server.store.pg.COPY_MARK`) that makes every server, export and
  verify refuse to open it until a rerun finishes.
- **alone**: it holds :data:`server.store.pg.USE_LOCK` alone for its whole run, a lock
  every open store holds shared: it refuses a target some store has open (serve, export,
  verify, ratings), and no store opens the target meanwhile, with or without the mark.
  A node killed without stopping keeps a living row in ``nodes`` for its lease's time;
  that is refused too (checked before every batch).

The SQLite source is locked (:class:`server.store.lock.ServerLock`) for the whole copy:
a server cannot start on it meanwhile, and the copy refuses a source a server uses.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from server.errors import StoreError
from server.store.contract import (
    ACTION_COLUMNS,
    CHAT_COLUMNS,
    EVENT_COLUMNS,
    GAME_COLUMNS,
    SEEK_COLUMNS,
)
from server.store.lock import ServerLock, StoreInUse, describe
from server.store.pg import COPY_MARK, USE_LOCK, PgStore, one_line
from server.store.pg import connect as pg_connect
from server.store.sql import CHANGE_COLUMNS, RATING_COLUMNS, TOURNAMENT_COLUMNS
from server.store.sqlite import MIGRATIONS as SQLITE_MIGRATIONS
from server.store.sqlite import SqliteStore

__all__ = ["TABLES", "CopyRefused", "Report", "Table", "copy_store"]

#: an arbitrary constant naming the advisory lock one copy into a database holds
_COPY_LOCK = 0x756D_7069_7265_0C


@dataclass(frozen=True, slots=True)
class Table:
    """One table the copy carries: its name, its key (the columns that identify a row:
    the primary key in both stores) and every column, in the order copied."""

    name: str
    key: tuple[str, ...]
    columns: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.columns[: len(self.key)] != self.key:  # (the copy pages by the first ones)
            raise ValueError(f"table {self.name}: the key columns must come first")

    @classmethod
    def of(cls, name: str, key: str, columns: str) -> Table:
        return cls(name, tuple(key.split(", ")), tuple(columns.split(", ")))


#: Every table of the knowledge base, with every column, in the order they are copied.
#: The one list the copy knows (a table or column missing here stops it: see the module).
TABLES: tuple[Table, ...] = (
    Table.of("players", "id", "id, name, bot, created, kind, owner, account, password"),
    Table.of("sessions", "token_hash", "token_hash, player_id, kind, created, last_used"),
    Table.of("games", "id", GAME_COLUMNS),
    Table.of("game_players", "game_id, seat", "game_id, seat, player_id"),
    Table.of("actions", "game_id, n", ACTION_COLUMNS),
    Table.of("events", "game_id, seq", EVENT_COLUMNS),
    Table.of("chat", "game_id, n", CHAT_COLUMNS),
    Table.of("player_stats", "player_id, game, key", "player_id, game, key, value"),
    Table.of("ratings", "player_id, version, game, rules", RATING_COLUMNS),
    Table.of("rating_changes", "n", CHANGE_COLUMNS),
    Table.of("seeks", "id", SEEK_COLUMNS),
    Table.of("tournaments", "id", TOURNAMENT_COLUMNS),
    Table.of("tournament_games", "tournament, seq", "tournament, seq, game"),
    Table.of("signing_keys", "id", "id, public, created"),
)


class CopyRefused(StoreError):
    """The copy cannot be made (or go on) as asked; the message says why, in one line."""


@dataclass(slots=True)
class Counts:
    """One table's rows: copied now, and found in the target already (identical)."""

    copied: int = 0
    present: int = 0
    #: (checking a finished target) rows of the source it lacks, and the first one's key
    missing: int = 0
    first_missing: str = ""


@dataclass(slots=True)
class Report:
    """What a copy did, table by table."""

    source: str
    target: str
    tables: dict[str, Counts] = field(default_factory=dict)

    @property
    def copied(self) -> int:
        return sum(c.copied for c in self.tables.values())

    @property
    def present(self) -> int:
        return sum(c.present for c in self.tables.values())

    def lines(self) -> list[str]:
        """The report as a person reads it: one line per table, then a summary."""
        out = [
            f"{name}: {c.copied} rows copied, {c.present} there already"
            for name, c in self.tables.items()
        ]
        if self.copied == 0:
            out.append(
                f"nothing to copy: the {self.present} rows of {self.source} are all in "
                f"{self.target} already"
            )
        else:
            out.append(
                f"copied {self.copied} rows from {self.source} to {self.target} "
                f"({self.present} were there already)"
            )
        return out


# -- the source --------------------------------------------------------------------------


def _q(name: str) -> str:
    """An identifier, quoted (``key``, ``at`` and ``by`` are words of SQL)."""
    return '"' + name.replace('"', '""') + '"'


def check_source(db: sqlite3.Connection, path: str, tables: Sequence[Table] = TABLES) -> None:
    """Raise :class:`CopyRefused` (one line) when the SQLite database has a table or a
    column that ``tables`` does not name, or lacks one it names."""
    known = {t.name: t for t in tables}
    found = [
        str(r[0])
        for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name"
        )
    ]
    unknown = [name for name in found if name not in known]
    if unknown:
        raise CopyRefused(
            f"{path} has tables this copy does not know: {', '.join(unknown)}; "
            "nothing was copied (server.store.migrate.TABLES must list them)"
        )
    for table in tables:
        if table.name not in found:
            raise CopyRefused(f"{path} has no table {table.name}: it is not a knowledge base")
        columns = [str(r[1]) for r in db.execute(f"PRAGMA table_info({_q(table.name)})")]
        extra = [c for c in columns if c not in table.columns]
        if extra:
            raise CopyRefused(
                f"{path}: table {table.name} has columns this copy does not know: "
                f"{', '.join(extra)}; nothing was copied (server.store.migrate.TABLES "
                "must list them)"
            )
        missing = [c for c in table.columns if c not in columns]
        if missing:
            raise CopyRefused(
                f"{path}: table {table.name} lacks the columns {', '.join(missing)}: "
                "it is not a knowledge base of this version"
            )


def _source_rows(
    db: sqlite3.Connection, table: Table, batch: int
) -> Iterator[list[tuple[Any, ...]]]:
    """The table's rows in key order, ``batch`` at a time (keyset paging)."""
    columns = ", ".join(_q(c) for c in table.columns)
    keys = ", ".join(_q(c) for c in table.key)
    width = len(table.key)
    where = ""
    after: tuple[Any, ...] = ()
    while True:
        rows = db.execute(
            f"SELECT {columns} FROM {_q(table.name)} {where} ORDER BY {keys} LIMIT ?",
            (*after, batch),
        ).fetchall()
        if not rows:
            return
        yield rows
        if len(rows) < batch:
            return
        after = tuple(rows[-1][:width])  # (the key columns come first: see TABLES)
        where = f"WHERE ({keys}) > ({', '.join('?' * width)})"


# -- the target ---------------------------------------------------------------------------


def _flag(value: Any) -> bool:
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise ValueError(f"{value!r} is not a flag (0 or 1)")


def _real(value: Any) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise ValueError(f"{value!r} is not a number")


def _whole(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise ValueError(f"{value!r} is not a whole number")


def _bounded(bits: int) -> Callable[[Any], int]:
    """A whole number that fits a signed ``bits``-bit column."""
    limit = 1 << (bits - 1)

    def whole(value: Any) -> int:
        number = _whole(value)
        if not -limit <= number < limit:
            raise ValueError(f"{number} does not fit a {bits}-bit integer column")
        return number

    return whole


def _blob(value: Any) -> bytes:
    if isinstance(value, bytes):
        return value
    raise ValueError(f"{value!r} is not bytes")


def _text(value: Any) -> str:
    if isinstance(value, str) and "\x00" not in value:
        return value
    if isinstance(value, str):
        raise ValueError(f"{value!r} holds a NUL character (PostgreSQL text cannot)")
    raise ValueError(f"{value!r} is not text")


def _converter(pg_type: str) -> Callable[[Any], Any]:
    """How a SQLite value becomes a value of the PostgreSQL column type ``pg_type``
    (strictly: a value that would change on the way is refused, never bent)."""
    return {
        "boolean": _flag,
        "double precision": _real,
        "real": _real,
        "integer": _bounded(32),
        "bigint": _bounded(64),
        "smallint": _bounded(16),
        "bytea": _blob,
        "text": _text,
        "character varying": _text,
    }.get(pg_type, lambda value: value)


async def _target_types(conn: asyncpg.Connection, table: Table, target: str) -> list[str]:
    """The PostgreSQL types of ``table``'s columns, in its order; :class:`CopyRefused`
    when the target lacks one (its schema is not this version's)."""
    rows = await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = $1",
        table.name,
    )
    types = {r[0]: r[1] for r in rows}
    missing = [c for c in table.columns if c not in types]
    if missing:
        raise CopyRefused(
            f"{target}: table {table.name} lacks the columns {', '.join(missing)}: "
            "its schema is not this version's"
        )
    return [types[c] for c in table.columns]


async def _live_nodes(conn: asyncpg.Connection, target: str) -> None:
    """Raise :class:`CopyRefused` when a server node uses the target (a living row in
    ``nodes``: every server on PostgreSQL registers one, ``server.cluster.lease``)."""
    rows = await conn.fetch(
        "SELECT id, url FROM nodes WHERE expires > clock_timestamp() ORDER BY id"
    )
    if rows:
        names = ", ".join(f"{r[0]} ({r[1] or 'starting'})" for r in rows)
        raise CopyRefused(
            f"{target} is in use by umpire serve: node {names}; stop every node first "
            "(a node killed without stopping counts as alive for --lease-ttl seconds)"
        )


def _key_match(table: Table, types: Sequence[str]) -> str:
    """A WHERE clause matching the keys of ``table`` given as one array per key column
    (``$1`` ...; ``types`` are the key columns' PostgreSQL types): a batch of any size is
    one statement of ``len(table.key)`` values."""
    keys = ", ".join(_q(c) for c in table.key)
    arrays = ", ".join(f"${i + 1}::{t}[]" for i, t in enumerate(types[: len(table.key)]))
    return f"({keys}) IN (SELECT * FROM unnest({arrays}))"


def _show_key(table: Table, row: Sequence[Any]) -> str:
    return ", ".join(f"{c}={v!r}" for c, v in zip(table.key, row, strict=False))


async def _copy_batch(
    conn: asyncpg.Connection,
    table: Table,
    rows: list[tuple[Any, ...]],
    types: Sequence[str],
    target: str,
    *,
    write: bool = True,
    hint: str = "copy into an empty database",
) -> Counts:
    """(In a transaction.) Insert the rows the target lacks (only count them unless
    ``write``); skip those it holds with the same values; refuse (:class:`CopyRefused`,
    ending with ``hint``) one it holds with other values."""
    width = len(table.key)
    columns = ", ".join(_q(c) for c in table.columns)
    params = [[row[i] for row in rows] for i in range(width)]
    there = await conn.fetch(
        f"SELECT {columns} FROM {_q(table.name)} WHERE {_key_match(table, types)}", *params
    )
    held = {tuple(r[:width]): tuple(r) for r in there}
    new: list[tuple[Any, ...]] = []
    counts = Counts()
    for row in rows:
        found = held.get(row[:width])
        if found is None:
            new.append(row)
        elif found == row:
            counts.present += 1
        else:
            differ = [c for c, a, b in zip(table.columns, row, found, strict=True) if a != b]
            raise CopyRefused(
                f"{target} already holds different data for {table.name} "
                f"{_show_key(table, row)} (column {', '.join(differ)}); {hint}"
            )
    if new and not write:
        counts.missing = len(new)
        counts.first_missing = f"{table.name} {_show_key(table, new[0])}"
    elif new:
        try:
            await conn.copy_records_to_table(table.name, records=new, columns=table.columns)
        except asyncpg.UniqueViolationError as exc:
            raise CopyRefused(
                f"{target} already holds different data for {table.name}: {one_line(exc)}; {hint}"
            ) from None
        counts.copied = len(new)
    return counts


async def _finished(
    conn: asyncpg.Connection, source: str, shown: str, tables: Sequence[Table]
) -> bool:
    """Whether the target holds knowledge but no unfinished copy (a finished copy, or a
    server's data): then the copy only checks it, and writes nothing. An unfinished copy
    from another file than ``source`` is refused (:class:`CopyRefused`)."""
    if await conn.fetchval("SELECT to_regclass('cluster')") is not None:
        mark = await conn.fetchval("SELECT value FROM cluster WHERE key = $1", COPY_MARK)
        if mark is not None:
            began = str(json.loads(mark).get("from"))
            if began != os.path.abspath(source):
                raise CopyRefused(
                    f"{shown} holds an unfinished copy from {began}: finish it with --from "
                    f"{began}, or drop the database, create it empty and copy again"
                )
            return False
    for table in tables:
        if await conn.fetchval("SELECT to_regclass($1)", table.name) is not None and (
            await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {_q(table.name)})")
        ):
            return True
    return False


# -- the copy -------------------------------------------------------------------------------


def _open_source(path: str) -> sqlite3.Connection:
    """The source, read-only (the caller holds its lock); :class:`CopyRefused` for a
    file that is no knowledge base, or one of a newer umpire."""
    try:
        probe = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            version = int(probe.execute("PRAGMA user_version").fetchone()[0])
        finally:
            probe.close()
    except sqlite3.DatabaseError as exc:
        raise CopyRefused(f"{path} is not a knowledge base: {exc}") from None
    if version == 0:  # (empty, or another program's database: never given our schema)
        raise CopyRefused(f"{path} is not a knowledge base: it has no umpire schema")
    if version > len(SQLITE_MIGRATIONS):
        raise CopyRefused(
            f"{path} has schema version {version}; this umpire knows "
            f"{len(SQLITE_MIGRATIONS)}: upgrade umpire"
        )
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)


async def _upgrade_source(path: str) -> None:
    """Apply the SQLite migrations the source lacks (as ``umpire serve`` would)."""
    store = SqliteStore(path)
    try:
        await store.open()
    except sqlite3.DatabaseError as exc:
        raise CopyRefused(f"{path} is not a knowledge base: {exc}") from None
    finally:
        await store.close()


async def _prepare_target(target: str) -> None:
    """Create (or bring up to this version) the target's schema."""
    store = PgStore(target, pool_size=1)
    store.copying = True
    await store.open()
    await store.close()


async def copy_store(
    source: str,
    target: str,
    *,
    batch: int = 500,
    progress: int = 100_000,
    say: Callable[[str], None] = lambda line: None,
    after_batch: Callable[[str, int], None] | None = None,
    tables: Sequence[Table] = TABLES,
) -> Report:
    """Copy the SQLite knowledge base at ``source`` into the PostgreSQL database at
    ``target`` (a ``postgresql://`` URL); see the module. ``say`` gets a line as each
    table is done, and one each time a table's copy passes a multiple of ``progress``
    rows (``0``: never); ``after_batch(table, rows)`` is called after each committed
    batch (tests inject failures there). Raises :class:`CopyRefused` or another
    :class:`StoreError` (one line each)."""
    if batch < 1:
        raise ValueError("batch must be at least 1")
    shown = PgStore(target).name  # (the URL without its password)
    if not os.path.isfile(source):
        raise CopyRefused(f"no knowledge base at {source}")
    _open_source(source).close()  # (a file that is no knowledge base gets no lock file)
    try:
        lock = ServerLock.acquire(source, what="umpire migrate", to=shown)
    except StoreInUse as exc:
        raise CopyRefused(
            f"{source} is in use by {describe(exc.holder)}; stop it first: the copy needs "
            "the file alone"
        ) from None
    try:
        src = _open_source(source)
        try:
            version = int(src.execute("PRAGMA user_version").fetchone()[0])
        finally:
            src.close()
        # the target is reached (and claimed) before the source is changed in any way
        conn = await pg_connect(target, shown)
        try:
            await _claim(conn, shown)
            if version < len(SQLITE_MIGRATIONS):
                await _upgrade_source(source)
            src = _open_source(source)
            try:
                check_source(src, source, tables)
                return await _copy(
                    conn, src, source, target, shown, batch, progress, say, after_batch, tables
                )
            except sqlite3.Error as exc:
                raise CopyRefused(f"cannot read {source}: {exc}") from None
            finally:
                src.close()
        except asyncpg.InsufficientPrivilegeError as exc:
            raise StoreError(
                f"{shown}: {one_line(exc)}; umpire migrate needs the role that owns the "
                "database (the umpire role of deploy/README.md)"
            ) from None
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            lost = "the connection to PostgreSQL was lost: " if conn.is_closed() else ""
            raise StoreError(
                f"copy into {shown} failed: {lost}{one_line(exc)}; what was copied stays: "
                "run the same command again to finish the copy"
            ) from None
        finally:
            await conn.close()
    finally:
        lock.release()


async def _claim(conn: asyncpg.Connection, shown: str) -> None:
    """Hold, on ``conn`` for its life, the lock against a second copy and
    :data:`~server.store.pg.USE_LOCK` alone (no store has the target open, none opens it
    from now on); :class:`CopyRefused` when either is held elsewhere."""
    if not await conn.fetchval("SELECT pg_try_advisory_lock($1)", _COPY_LOCK):
        raise CopyRefused(f"another umpire migrate is copying into {shown}")
    if not await conn.fetchval("SELECT pg_try_advisory_lock($1)", USE_LOCK):
        if await conn.fetchval("SELECT to_regclass('nodes')") is not None:
            await _live_nodes(conn, shown)  # (a server: named by its node)
        holders = await conn.fetchval(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND classid = $1 AND objid = $2 AND objsubid = 1",
            USE_LOCK >> 32,
            USE_LOCK & 0xFFFF_FFFF,
        )
        raise CopyRefused(
            f"{shown} is open in another umpire (serve, export, verify or ratings: "
            f"{holders} connection(s) hold it); stop it first"
        )


async def _copy(
    conn: asyncpg.Connection,
    src: sqlite3.Connection,
    source: str,
    target: str,
    shown: str,
    batch: int,
    progress: int,
    say: Callable[[str], None],
    after_batch: Callable[[str, int], None] | None,
    tables: Sequence[Table],
) -> Report:
    if await conn.fetchval("SELECT to_regclass('nodes')") is not None:
        await _live_nodes(conn, shown)  # (before the schema is touched)
    if await _finished(conn, source, shown, tables):
        # A target with knowledge and no unfinished copy (a finished copy a server may
        # have used since, or a server's own data) is only compared: nothing is merged
        # into it, no mark is set, and it is left as it was.
        await _prepare_target(target)
        return await _check(conn, src, source, shown, batch, progress, say, tables)
    await _prepare_target(target)
    # The mark first (from now on no server opens the target, even after this copy
    # dies), then the nodes again (a node killed without stopping still has a living
    # row for --lease-ttl seconds: the copy waits for it to expire).
    mark = {
        "from": os.path.abspath(source),
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "since": time.time(),
    }
    fresh = await conn.fetchval(
        "INSERT INTO cluster (key, value) VALUES ($1, $2) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value "
        "RETURNING xmax = 0",
        COPY_MARK,
        json.dumps(mark, sort_keys=True),
    )
    try:
        await _live_nodes(conn, shown)
    except CopyRefused:
        if fresh:  # nothing was copied: the target is as it was
            await conn.execute("DELETE FROM cluster WHERE key = $1", COPY_MARK)
        raise
    report = await _walk(
        conn, src, source, shown, batch, progress, say, after_batch, tables, write=True
    )
    await conn.execute("DELETE FROM cluster WHERE key = $1", COPY_MARK)
    return report


async def _walk(
    conn: asyncpg.Connection,
    src: sqlite3.Connection,
    source: str,
    shown: str,
    batch: int,
    progress: int,
    say: Callable[[str], None],
    after_batch: Callable[[str, int], None] | None,
    tables: Sequence[Table],
    *,
    write: bool,
) -> Report:
    """Every row of the source, table by table, batch by batch: copied where the target
    lacks it (``write``) or only counted (a finished target: see :func:`_check`)."""
    report = Report(source, shown)
    hint = _CHANGED if write else _FINISHED
    src.execute("BEGIN")  # one snapshot of the source (locked anyway)
    try:
        for table in tables:
            types = await _target_types(conn, table, shown)
            convert = [_converter(t) for t in types]
            counts = report.tables.setdefault(table.name, Counts())
            total = (
                int(src.execute(f"SELECT count(*) FROM {_q(table.name)}").fetchone()[0])
                if progress > 0
                else 0
            )
            done = 0
            for rows in _source_rows(src, table, batch):
                values = [_convert(table, row, convert, source) for row in rows]
                async with conn.transaction():
                    await _live_nodes(conn, shown)
                    now = await _copy_batch(
                        conn, table, values, types, shown, write=write, hint=hint
                    )
                counts.copied += now.copied
                counts.present += now.present
                counts.missing += now.missing
                counts.first_missing = counts.first_missing or now.first_missing
                if progress > 0 and (done + len(rows)) // progress > done // progress:
                    n = done + len(rows)
                    say(f"{table.name}: {n} of {total} rows ({100 * n // max(total, 1)}%)")
                done += len(rows)
                if after_batch is not None:
                    after_batch(table.name, len(rows))
            if write and table.name == "rating_changes":
                # the numbering goes on after the last change copied
                await conn.execute(
                    "SELECT setval(pg_get_serial_sequence('rating_changes', 'n'), "
                    "coalesce(max(n), 0) + 1, false) FROM rating_changes"
                )
            say(f"{table.name}: {counts.copied} rows copied, {counts.present} there already")
    finally:
        src.execute("COMMIT")
    return report


#: what to do when a half-copied target holds different data than the source
_CHANGED = (
    "the source changed since the copy began (a server ran on it), or the target was "
    "changed: drop the target database, create it empty and copy again"
)


#: what to do when a finished target differs from the source
_FINISHED = (
    "nothing was written (a finished copy that servers have used since differs from its "
    "source: that is expected); to copy again, copy into an empty database"
)


async def _check(
    conn: asyncpg.Connection,
    src: sqlite3.Connection,
    source: str,
    shown: str,
    batch: int,
    progress: int,
    say: Callable[[str], None],
    tables: Sequence[Table],
) -> Report:
    """Compare every row of the source with a finished target, writing nothing:
    :class:`CopyRefused` (one line) when one differs or is missing."""
    report = await _walk(conn, src, source, shown, batch, progress, say, None, tables, write=False)
    missing = sum(c.missing for c in report.tables.values())
    if missing:
        first = next(c.first_missing for c in report.tables.values() if c.missing)
        raise CopyRefused(
            f"{shown} holds a finished copy or other data, and lacks {missing} "
            f"row{'' if missing == 1 else 's'} of {source} (first: {first}): the source "
            f"changed since it was copied, or the target holds another knowledge base; {_FINISHED}"
        )
    return report


def _convert(
    table: Table, row: Sequence[Any], convert: Sequence[Callable[[Any], Any]], source: str
) -> tuple[Any, ...]:
    try:
        return tuple(None if v is None else f(v) for v, f in zip(row, convert, strict=True))
    except (TypeError, ValueError) as exc:
        raise CopyRefused(
            f"{source}: {table.name} {_show_key(table, row)} holds a value of the wrong "
            f"type ({exc}); nothing of it was copied"
        ) from None
