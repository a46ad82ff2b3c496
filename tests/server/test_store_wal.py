"""The SQLite store keeps its WAL bounded (issue 34, item 1): a size limit SQLite cuts the
WAL file back to, and checkpoints of its own (docs/server.md; the figure of a long load
run is in docs/benchmarks.md)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from server.store import sqlite as sqlite_store
from server.store.contract import ActionRow, EventRow
from server.store.sqlite import SqliteStore


async def test_a_truncating_checkpoint_empties_the_wal(tmp_path: Path) -> None:
    db = tmp_path / "wal.db"
    store = SqliteStore(str(db), synchronous="NORMAL")
    await store.open()
    try:
        for n in range(1, 301):
            event = EventRow(n, "game", {"type": "x", "pad": "y" * 2000}, n)
            await store.append("g1", [event], ActionRow(n, 0, "a", 0.0, None))
        wal = Path(f"{db}-wal")
        assert wal.stat().st_size > 300 * 2000
        busy, pages, copied = await store.checkpoint("TRUNCATE")
        assert busy == 0 and pages == copied == 0  # (TRUNCATE reports the emptied WAL)
        assert wal.stat().st_size == 0
        with sqlite3.connect(db) as other:  # every row is in the database itself
            (count,) = other.execute("SELECT count(*) FROM actions").fetchone()
        assert count == 300
    finally:
        await store.close()


async def test_the_writer_limits_the_wal_file(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "limit.db"))
    await store.open()
    try:
        assert store._thread is not None

        def limit() -> int:
            assert store._db is not None
            return int(store._db.execute("PRAGMA journal_size_limit").fetchone()[0])

        assert await store._thread.run(limit) == sqlite_store.WAL_SIZE_LIMIT
        assert sqlite_store.CHECKPOINT_INTERVAL <= 5
    finally:
        await store.close()
    assert not os.path.exists(tmp_path / "limit.db-wal")  # (the last close checkpoints)
