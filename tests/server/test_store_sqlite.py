"""The SQLite store: the store contract, plus what only a SQLite file has (schema
upgrades in place, group commits, a real crash in the middle of a commit)."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from server.errors import StoreError
from server.store.contract import ActionRow, PlayerRow, SessionRow, Store, TournamentRow
from server.store.sqlite import MIGRATIONS, SqliteStore
from tests.server.store_contract import (
    CountingPlan,
    StoreContract,
    StoreHarness,
    event,
    finished,
    game_row,
    seek_row,
)


class SqliteHarness(StoreHarness):
    """Stores on one SQLite file in the test's temporary folder."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = str(path)

    def new(self) -> Store:
        return SqliteStore(self.path, synchronous="NORMAL", page_size=self.page_size)

    async def sql(self, statement: str, *params: Any) -> list[tuple[Any, ...]]:
        conn = sqlite3.connect(self.path)
        try:
            with conn:
                return list(conn.execute(statement, params).fetchall())
        finally:
            conn.close()


class TestSqliteStore(StoreContract):
    """The store contract on :class:`SqliteStore`."""

    @pytest.fixture
    def harness(self, tmp_path: Path) -> SqliteHarness:
        return SqliteHarness(tmp_path / "store.db")


V1_ROW = (
    "old1",
    "perudo",
    '{"seats":2}',
    "{}",
    None,
    None,
    1,
    '["p1",null]',
    "finished",
    b"old seed",
    "x" * 64,
    1,
    '{"ranks":[1,2]}',
    "done",
    1.0,
    1.5,
    2.0,
)


async def test_a_version_1_file_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    with sqlite3.connect(path) as conn:  # the schema as the previous release made it
        conn.executescript(MIGRATIONS[0])
        conn.execute("PRAGMA user_version=1")
        conn.execute(f"INSERT INTO games VALUES ({','.join('?' * len(V1_ROW))})", V1_ROW)
        conn.execute("INSERT INTO events VALUES ('old1', 1, 'game', NULL, '{\"type\":\"x\"}')")
    conn.close()
    store = SqliteStore(str(path))
    await store.open()
    try:
        old = await store.game("old1")
        assert old is not None and old.house == {} and old.result == {"ranks": [1, 2]}
        assert old.seed == b"old seed" and old.seats == ["p1", None]
        assert [e.truth for e in await store.events("old1")] == [{"type": "x"}]
        await store.save_game(game_row("new1", created=3.0, house={"0": "t"}))
        assert [g.id async for g in store.iter_games()] == ["old1", "new1"]
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert conn.execute("SELECT house FROM games WHERE id = 'new1'").fetchone()[0] == (
            '{"0":"t"}'
        )
    conn.close()


async def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    conn.close()
    store = SqliteStore(str(path))
    with pytest.raises(StoreError, match="upgrade the server"):
        await store.open()
    await store.close()


async def test_concurrent_writes_share_commits(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "group.db"), synchronous="NORMAL")
    await store.open()
    try:
        await store.save_game(game_row("g1"), [event(1)])
        before = store.commits
        await asyncio.gather(
            *(
                store.append("g1", [event(n + 1, n)], ActionRow(n, 0, str(n), n))
                for n in range(1, 201)
            )
        )
        assert store.commits - before < 200 / 4  # group commit: many writes a transaction
        assert len(await store.actions("g1")) == 200
    finally:
        await store.close()


async def test_a_group_commit_larger_than_one_statement(tmp_path: Path) -> None:
    """A group commit inserts its rows with multi-row statements, several when SQLite's
    parameter limit calls for it; every row arrives, in order, and a bad row still fails
    only its own write."""
    store = SqliteStore(str(tmp_path / "big.db"), synchronous="NORMAL")
    await store.open()
    try:
        await store.save_game(game_row("g1"), [event(1)])
        await asyncio.gather(
            store.append("g1", [event(n, 1) for n in range(2, 602)], ActionRow(1, 0, "a", 1.0)),
            *(
                store.append("g1", [event(600 + n, n)], ActionRow(n, 0, str(n), n))
                for n in range(2, 402)
            ),
        )
        with pytest.raises(StoreError):  # event 5 is there already
            await store.append("g1", [event(5, 1)])
        assert [e.seq for e in await store.events("g1")] == list(range(1, 1002))
        assert [a.n for a in await store.actions("g1")] == list(range(1, 402))
    finally:
        await store.close()


CRASH = textwrap.dedent(
    """
    import asyncio, dataclasses, os, sys
    from server.store.sqlite import SqliteStore
    from tests.server.store_contract import event, game_row

    async def main(path: str, fatal: int) -> None:
        store = SqliteStore(path)
        await store.open()
        row = game_row("g1")
        await store.save_game(row, [event(1)])
        commits = 0

        async def die() -> None:
            nonlocal commits
            commits += 1
            if commits == fatal:  # the transaction is written but not committed
                os._exit(9)

        store.before_commit = die
        final = dataclasses.replace(row, status="finished", seed_revealed=True, finished=2.0)
        await store.finish_game(final, [event(2)], {"p1": {"games": 1}})
        await store.close()

    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
    """
)


@pytest.mark.parametrize("fatal", [1, 2, 3])
async def test_a_crash_during_finish_game_leaves_all_of_it_or_nothing(
    tmp_path: Path, fatal: int
) -> None:
    # The process dies just before its ``fatal``-th commit after the game started. Were
    # finish_game several transactions, one of these runs would leave part of it behind.
    path = tmp_path / "crash.db"
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", CRASH, str(path), str(fatal)], cwd=root, timeout=60, check=False
    )
    assert done.returncode in (0, 9)
    store = SqliteStore(str(path))
    await store.open()
    try:
        row = await store.game("g1")
        assert row is not None
        seqs = [e.seq for e in await store.events("g1")]
        stats = await store.stats("p1")
        if done.returncode == 9:
            assert (row.status, row.seed_revealed, seqs, stats) == ("playing", False, [1], {})
        else:
            assert (row.status, row.seed_revealed, seqs) == ("finished", True, [1, 2])
            assert stats == {"perudo": {"games": 1}}
    finally:
        await store.close()


def test_a_store_needs_a_file() -> None:
    with pytest.raises(ValueError, match="needs a file"):
        SqliteStore(":memory:")


async def test_iter_games_holds_one_page_at_a_time(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "pages.db"), page_size=5)
    await store.open()
    try:
        for i in range(23):
            await store.save_game(game_row(f"g{i:02}", created=float(i)))
        queries: list[str] = []
        await store.reader.set_trace_callback(queries.append)
        fetched = [row.id async for row in store.iter_games()]
        # None removes the callback (sqlite3's API; aiosqlite's hint leaves None out)
        await store.reader.set_trace_callback(None)  # type: ignore[arg-type]
        assert fetched == [f"g{i:02}" for i in range(23)]
        pages = [q for q in queries if q.startswith("SELECT") and "FROM games" in q]
        assert len(pages) == 5 and all(q.endswith("LIMIT 5") for q in pages)
    finally:
        await store.close()


async def test_a_version_4_file_moves_its_tokens_to_sessions(tmp_path: Path) -> None:
    """Migration 5 on a database the previous release made: every player keeps its id,
    name and token (now its first session); house bots become kind "house"; games gain
    ``rated`` (None: casual) and rated games can be played at once."""
    path = tmp_path / "v4.db"
    with sqlite3.connect(path) as conn:
        for script in MIGRATIONS[:4]:
            conn.executescript(script)
        conn.execute("PRAGMA user_version=4")
        conn.executemany(
            "INSERT INTO players (id, name, bot, token_hash, created) VALUES (?,?,?,?,?)",
            [
                ("p1", "Ana", 0, "hash-ana", 3.0),
                ("bot-perudo-random", "perudo-random", 1, "hash-house", 1.0),
                ("p2", "a bot client", 1, "hash-bot", 2.0),
            ],
        )
        conn.execute(f"INSERT INTO games VALUES ({','.join('?' * len(V1_ROW))}, '{{}}')", V1_ROW)
        conn.execute("INSERT INTO game_players VALUES ('old1', 0, 'p1')")
    conn.close()
    store = SqliteStore(str(path))
    await store.open()
    try:
        assert await store.player_by_token("hash-ana") == PlayerRow("p1", "Ana", False, 3.0)
        assert await store.session("hash-ana") == SessionRow("hash-ana", "p1", "session", 3.0, 3.0)
        house = await store.player_by_token("hash-house")
        assert house is not None and house.kind == "house"
        assert await store.player("p2") == PlayerRow("p2", "a bot client", True, 2.0, "guest")
        assert await store.player_by_name("perudo-random") == house
        old = await store.game("old1")
        assert old is not None and old.rated is None and old.result == {"ranks": [1, 2]}
        await store.claim("p1", "Ana", "ana", "pw")
        assert [h["room"] for h in await store.history("p1")] == ["old1"]
        changes = await store.finish_game(
            finished("new1", ["p1", "bot-perudo-random"]),
            [],
            {},
            CountingPlan().plan(["p1", "bot-perudo-random"], [1, 2]),
        )
        assert [c.n for c in changes] == [1, 2]
        with pytest.raises(StoreError):  # the token is unique still
            await store.add_player(PlayerRow("p3", "x", False, 1.0), "hash-ana")
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        columns = [r[1] for r in conn.execute("PRAGMA table_info(players)")]
        assert "token_hash" not in columns
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # a house bot's key is its lower-cased name, in players.account (one index)
        assert conn.execute(
            "SELECT account FROM players WHERE id = 'bot-perudo-random'"
        ).fetchone() == ("perudo-random",)
    conn.close()


async def test_names_are_found_by_the_account_index_never_a_scan(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "u.db"))
    await store.open()
    try:
        house = PlayerRow("bot-kriegspiel-random", "kriegspiel-random", True, 1.0, kind="house")
        await store.add_player(house, "hash-house")
        assert await store.player_by_name("kriegspiel-random") == house
    finally:
        await store.close()
    from server.store.sql import NAME_TAKEN, PLAYER_BY_NAME

    with sqlite3.connect(tmp_path / "u.db") as conn:
        assert conn.execute(
            "SELECT account FROM players WHERE id = 'bot-kriegspiel-random'"
        ).fetchone() == ("kriegspiel-random",)
        for sql, args in [(NAME_TAKEN, ("k", "p1")), (PLAYER_BY_NAME, ("k",))]:
            plan = " ".join(str(r[-1]) for r in conn.execute("EXPLAIN QUERY PLAN " + sql, args))
            assert "SCAN" not in plan, plan
    conn.close()


async def test_a_version_5_file_gains_seeks(tmp_path: Path) -> None:
    """Migration 6 (seeks) on a database the previous release made: its games stay, and
    seeks can be stored at once."""
    path = tmp_path / "v5.db"
    with sqlite3.connect(path) as conn:
        for script in MIGRATIONS[:5]:
            conn.executescript(script)
        conn.execute("PRAGMA user_version=5")
        conn.execute(
            f"INSERT INTO games VALUES ({','.join('?' * len(V1_ROW))}, '{{}}', NULL)", V1_ROW
        )
    conn.close()
    store = SqliteStore(str(path))
    await store.open()
    try:
        assert (await store.game("old1")) is not None
        await store.add_seek(seek_row("s1", "p1"))
        assert [s.id for s in await store.seeks()] == ["s1"]
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    conn.close()


async def test_a_version_6_file_gains_tournaments(tmp_path: Path) -> None:
    """Migration 7 (tournaments) on a database the previous schema made: its games and
    seeks stay, and tournaments can be stored at once."""
    path = tmp_path / "v6.db"
    with sqlite3.connect(path) as conn:
        for script in MIGRATIONS[:6]:
            conn.executescript(script)
        conn.execute("PRAGMA user_version=6")
        conn.execute(
            f"INSERT INTO games VALUES ({','.join('?' * len(V1_ROW))}, '{{}}', NULL)", V1_ROW
        )
    conn.close()
    store = SqliteStore(str(path))
    await store.open()
    try:
        assert (await store.game("old1")) is not None
        row = TournamentRow("t1", "created", "{}", 1, 1.0, 1.0)
        assert await store.save_tournament(row, None)
        assert await store.tournament("t1") == row
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    conn.close()


async def test_a_version_7_file_marks_its_games_unchained(tmp_path: Path) -> None:
    """Migration 8 (the tamper-evident log, issue 32) on a database the previous schema
    made: its games are unchained (never passed as if they were chained), their actions'
    decider unknown; a waiting room with nothing logged yet is chained from now on."""
    path = tmp_path / "v7.db"
    with sqlite3.connect(path) as conn:
        for script in MIGRATIONS[:7]:
            conn.executescript(script)
        conn.execute("PRAGMA user_version=7")
        holes = ",".join("?" * len(V1_ROW))
        conn.execute(f"INSERT INTO games VALUES ({holes}, '{{}}', NULL)", V1_ROW)
        waiting = ("wait1", *V1_ROW[1:8], "waiting", *V1_ROW[9:])
        conn.execute(f"INSERT INTO games VALUES ({holes}, '{{}}', NULL)", waiting)
        conn.execute("INSERT INTO actions VALUES ('old1', 1, 0, 'dudo', 1.0, NULL)")
    conn.close()
    store = SqliteStore(str(path))
    await store.open()
    try:
        old = await store.game("old1")
        assert old is not None and not old.chained and old.final_hash is None
        assert await store.actions("old1") == [ActionRow(1, 0, "dudo", 1.0, None, None)]
        waiting_row = await store.game("wait1")
        assert waiting_row is not None and waiting_row.chained
        await store.add_signing_key("k1", "aa" * 32, 1.0)
        assert await store.signing_keys() == {"k1": "aa" * 32}
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) == 8
    conn.close()


async def test_a_read_only_store_reads_and_refuses_every_write(tmp_path: Path) -> None:
    """Issue 34 (``umpire verify``/``export``): only the reader is opened; a write is
    refused in one line and the file is not touched."""
    path = tmp_path / "kb.db"
    writer = SqliteStore(str(path))
    await writer.open()
    await writer.save_game(game_row("g1"), [event(1)])
    await writer.close()
    before = path.read_bytes()
    reader = SqliteStore(str(path), read_only=True)
    await reader.open()
    try:
        assert [e.seq for e in await reader.events("g1")] == [1]
        with pytest.raises(StoreError, match="read-only"):
            await reader.save_game(game_row("g2"))
    finally:
        await reader.close()
    assert path.read_bytes() == before
    with pytest.raises(StoreError, match="no knowledge base"):
        await SqliteStore(str(tmp_path / "none.db"), read_only=True).open()


async def test_a_run_of_failed_writes_is_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 34: a paused room retries its write every 2 s while the disk is full; the
    store's log says the first failure of a run, not each retry (the rooms log their
    pause and its end)."""
    store = SqliteStore(str(tmp_path / "kb.db"))
    await store.open()
    full = [True]

    async def disk_full() -> None:
        if full[0]:
            raise sqlite3.OperationalError("database or disk is full")

    store.before_commit = disk_full
    try:
        with caplog.at_level("DEBUG", logger="server.store.group_commit"):
            for n in range(3):
                with pytest.raises(StoreError):
                    await store.save_game(game_row(f"g{n}"))
            full[0] = False
            await store.save_game(game_row("ok"))
            full[0] = True
            with pytest.raises(StoreError):
                await store.save_game(game_row("again"))
    finally:
        full[0] = False
        await store.close()
    failed = [r for r in caplog.records if "a write failed" in r.getMessage()]
    assert [r.levelname for r in failed] == ["WARNING", "DEBUG", "DEBUG", "WARNING"]
    assert store.write_failures == 4
