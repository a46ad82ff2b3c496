"""The PostgreSQL store: the store contract, plus what only it has (versioned
migrations shared by several nodes, reconnecting after the server drops the writer's
connection, and fencing: a write for a room whose lease moved on is refused)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from server.errors import StoreError
from server.store.contract import (
    ActionRow,
    PlayerRow,
    SessionRow,
    Store,
    TournamentRow,
    open_store,
)
from server.store.pg import MIGRATIONS, FencedError, PgStore
from tests.server.store_contract import (
    CountingPlan,
    StoreContract,
    StoreHarness,
    event,
    finished,
    game_row,
    seek_row,
)


class PgHarness(StoreHarness):
    """Stores on one fresh database of the session's PostgreSQL server."""

    def __init__(self, dsn: str) -> None:
        super().__init__()
        self.dsn = dsn

    def new(self) -> Store:
        return PgStore(self.dsn, page_size=self.page_size, pool_size=2)

    async def sql(self, statement: str, *params: Any) -> list[tuple[Any, ...]]:
        parts = statement.split("?")
        numbered = parts[0] + "".join(f"${i}{part}" for i, part in enumerate(parts[1:], 1))
        conn = await asyncpg.connect(self.dsn)
        try:
            return [tuple(r) for r in await conn.fetch(numbered, *params)]
        finally:
            await conn.close()


class TestPgStore(StoreContract):
    """The store contract on :class:`PgStore`."""

    @pytest.fixture
    def harness(self, pg_dsn: str) -> PgHarness:
        return PgHarness(pg_dsn)


@pytest.fixture
async def pg(pg_dsn: str) -> AsyncIterator[PgStore]:
    store = PgStore(pg_dsn, pool_size=2)
    await store.open()
    try:
        yield store
    finally:
        await store.close()


def test_open_store_maps_a_postgresql_url_to_the_pg_store() -> None:
    assert isinstance(open_store("postgresql://u@127.0.0.1:1/db"), PgStore)
    assert isinstance(open_store("postgres://u@127.0.0.1:1/db"), PgStore)
    with pytest.raises(StoreError, match="postgresql://"):
        open_store("mysql://u@host/db")


async def test_nodes_opening_together_migrate_once(pg_dsn: str) -> None:
    stores = [PgStore(pg_dsn, pool_size=1) for _ in range(3)]
    await asyncio.gather(*(s.open() for s in stores))
    try:
        conn = await asyncpg.connect(pg_dsn)
        try:
            versions = [r[0] for r in await conn.fetch("SELECT version FROM schema_migrations")]
        finally:
            await conn.close()
        assert sorted(versions) == list(range(1, len(MIGRATIONS) + 1))
    finally:
        for s in stores:
            await s.close()


async def test_a_newer_schema_is_refused(pg_dsn: str) -> None:
    store = PgStore(pg_dsn, pool_size=1)
    await store.open()
    await store.close()
    conn = await asyncpg.connect(pg_dsn)
    try:
        await conn.execute("INSERT INTO schema_migrations (version) VALUES (99)")
    finally:
        await conn.close()
    with pytest.raises(StoreError, match="schema version 99"):
        await PgStore(pg_dsn, pool_size=1).open()


async def test_an_unreachable_server_is_a_clear_store_error() -> None:
    store = PgStore("postgresql://nobody@127.0.0.1:1/nothing")
    with pytest.raises(StoreError, match="cannot connect"):
        await store.open()


async def test_the_writer_reconnects_after_its_connection_is_dropped(
    pg: PgStore, pg_dsn: str
) -> None:
    await pg.save_game(game_row("g1"), [event(1)])
    conn = await asyncpg.connect(pg_dsn)
    try:
        await conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    finally:
        await conn.close()
    # The batch that meets the dead connection was never committed; the writer retries
    # it alone on a new connection (a unique key stops a write committed twice).
    await pg.append("g1", [event(2, 1)], ActionRow(1, 0, "a", 1.0))
    await pg.append("g1", [event(3, 2)], ActionRow(2, 1, "b", 2.0))
    assert [e.seq for e in await pg.events("g1")] == [1, 2, 3]


async def test_a_read_that_meets_a_dropped_connection_is_tried_once_more(
    pg: PgStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # CI, once: the read after pg_terminate_backend (the test above) took a pooled
    # connection still mid-protocol, and asyncpg's internal error left the store raw.
    await pg.save_game(game_row("g1"), [event(1)])
    failures = [asyncpg.InternalClientError("cannot switch to state 11")]

    class Flaky:
        """The pool, its reads failing first with ``failures`` (the pool's own slots
        cannot be patched)."""

        def __init__(self, pool: Any) -> None:
            self.pool = pool

        def __getattr__(self, name: str) -> Any:
            return getattr(self.pool, name)

        async def fetch(self, *args: Any, **kwargs: Any) -> Any:
            if failures:
                raise failures.pop()
            return await self.pool.fetch(*args, **kwargs)

    monkeypatch.setattr(pg, "_pool", Flaky(pg.pool))
    assert [e.seq for e in await pg.events("g1")] == [1]
    failures[:] = [asyncpg.ConnectionDoesNotExistError("closed"), asyncpg.InterfaceError("x")]
    with pytest.raises(StoreError, match="read failed"):
        await pg.events("g1")  # twice: a clear store error, not asyncpg's


async def _set_lease(dsn: str, room: str, token: int) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(
            "INSERT INTO leases (room, node, token) VALUES ($1, 'n', $2) "
            "ON CONFLICT (room) DO UPDATE SET token = excluded.token",
            room,
            token,
        )
    finally:
        await conn.close()


async def test_a_stale_fencing_token_refuses_the_write_and_only_it(
    pg: PgStore, pg_dsn: str
) -> None:
    await _set_lease(pg_dsn, "g1", 1)
    pg.fence("g1", 1)
    await pg.save_game(game_row("g1"), [event(1)])
    await pg.save_game(game_row("g2"), [event(1)])
    await _set_lease(pg_dsn, "g1", 2)  # another node took the room over
    stale = asyncio.create_task(pg.append("g1", [event(2, 1)], ActionRow(1, 0, "a", 1.0)))
    other = asyncio.create_task(pg.append("g2", [event(2, 1)], ActionRow(1, 0, "b", 1.0)))
    with pytest.raises(FencedError, match="lease lost"):
        await stale
    await other
    assert [e.seq for e in await pg.events("g1")] == [1]
    assert await pg.actions("g1") == []
    assert [a.action for a in await pg.actions("g2")] == ["b"]
    with pytest.raises(FencedError):
        await pg.save_game(game_row("g1", status="finished"))
    assert (await pg.game("g1")) == game_row("g1")


def test_cli_selfplay_tournament_export_verify_on_postgresql(
    pg_dsn: str, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    from server.cli import main

    key = str(tmp_path / "cluster.key")  # (PostgreSQL needs its key file)
    argv = ["--bots", "perudo-random", "--seats", "3", "--games", "3", "--db", pg_dsn]
    argv += ["--signing-key", key]
    assert main(["selfplay", "--game", "perudo", *argv, "--seed", "x"]) == 0
    assert "3 perudo games logged" in capsys.readouterr().out
    argv = ["--game", "kriegspiel", "--bots", "kriegspiel-random", "--games", "2"]
    argv += ["--db", pg_dsn, "--signing-key", key]
    assert main(["tournament", *argv, "--seed", "s", "--json"]) == 0
    capsys.readouterr()
    assert main(["export", "--db", pg_dsn]) == 0
    lines = capsys.readouterr().out.splitlines()
    ids = [json.loads(line)["id"] for line in lines]
    assert len(ids) == 5
    assert main(["verify", "--db", pg_dsn, *ids]) == 1  # (no key trusted: none beside it)
    capsys.readouterr()
    assert main(["verify", "--db", pg_dsn, "--trusted-key", key, *ids]) == 0
    assert capsys.readouterr().out.count("verified:") == 5
    assert main(["verify", "--db", pg_dsn, "nope"]) == 1
    assert main(["export", "--db", "postgresql://nobody@127.0.0.1:1/none"]) == 1
    assert "cannot connect" in capsys.readouterr().err


def test_without_asyncpg_a_postgresql_url_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "asyncpg", None)  # as if the extra were not installed
    monkeypatch.delitem(sys.modules, "server.store.pg")
    with pytest.raises(
        StoreError, match=r"the postgres extra of umpire-games \(pip install -e '\.\[postgres\]'"
    ):
        open_store("postgresql://u@127.0.0.1:1/db")
    assert isinstance(open_store("x.db"), Store)  # SQLite needs nothing more


async def test_concurrent_writes_share_commits(pg: PgStore) -> None:
    await pg.save_game(game_row("g1"), [event(1)])
    before = pg.commits
    await asyncio.gather(
        *(pg.append("g1", [event(n + 1, n)], ActionRow(n, 0, str(n), n)) for n in range(1, 201))
    )
    assert pg.commits - before < 200 / 4  # group commit: many writes a transaction
    assert len(await pg.actions("g1")) == 200


async def test_a_killed_writer_process_leaves_all_of_a_finish_or_nothing(
    pg_dsn: str, tmp_path: Path
) -> None:
    """The process dies (os._exit) inside finish_game's transaction, before COMMIT."""
    script = tmp_path / "crash.py"
    script.write_text(CRASH)
    done = subprocess.run(
        [sys.executable, str(script), pg_dsn], cwd=ROOT, capture_output=True, timeout=60
    )
    assert done.returncode == 9, done.stderr
    store = PgStore(pg_dsn, pool_size=1)
    await store.open()
    try:
        row = await store.game("g1")
        assert row is not None and row.status == "playing"  # nothing of the finish
        assert [e.seq for e in await store.events("g1")] == [1]
        assert await store.stats("p1") == {}
    finally:
        await store.close()


ROOT = Path(__file__).resolve().parents[2]
CRASH = """
import asyncio, dataclasses, os, sys
sys.path.insert(0, ".")
from server.store.pg import PgStore
from tests.server.store_contract import event, game_row

async def main(dsn: str) -> None:
    store = PgStore(dsn)
    await store.open()
    row = game_row("g1")
    await store.save_game(row, [event(1)])

    async def die() -> None:  # the transaction is written but not committed
        os._exit(9)

    store.before_commit = die
    final = dataclasses.replace(row, status="finished", seed_revealed=True, finished=2.0)
    await store.finish_game(final, [event(2)], {"p1": {"games": 1}})

asyncio.run(main(sys.argv[1]))
"""


async def test_a_version_2_database_moves_its_tokens_to_sessions(pg_dsn: str) -> None:
    """Migration 3 (SQLite's 5) on a database the previous release made: players keep
    their ids, names and tokens (now their first sessions); house bots become kind
    "house"; games gain ``rated``; rated games can be played at once."""
    conn = await asyncpg.connect(pg_dsn)
    try:
        await conn.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
            "applied TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        for number, script in enumerate(MIGRATIONS[:2], start=1):
            await conn.execute(script)
            await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)
        await conn.executemany(
            "INSERT INTO players (id, name, bot, token_hash, created) VALUES ($1,$2,$3,$4,$5)",
            [
                ("p1", "Ana", False, "hash-ana", 3.0),
                ("bot-perudo-random", "perudo-random", True, "hash-house", 1.0),
                ("p2", "a bot client", True, "hash-bot", 2.0),
            ],
        )
        await conn.execute(
            "INSERT INTO games (id, game, options, settings, public, seats, status, seed, "
            "seed_sha256, created) VALUES ('old1', 'perudo', '{}', '{}', TRUE, '[\"p1\"]', "
            "'finished', '\\x00', 'x', 1.0)"
        )
        await conn.execute("INSERT INTO game_players VALUES ('old1', 0, 'p1')")
    finally:
        await conn.close()
    store = PgStore(pg_dsn, pool_size=1)
    await store.open()
    try:
        assert await store.player_by_token("hash-ana") == PlayerRow("p1", "Ana", False, 3.0)
        assert await store.session("hash-ana") == SessionRow("hash-ana", "p1", "session", 3.0, 3.0)
        house = await store.player_by_token("hash-house")
        assert house is not None and house.kind == "house"
        assert await store.player_by_name("perudo-random") == house  # (by players.account)
        assert await store.player("p2") == PlayerRow("p2", "a bot client", True, 2.0, "guest")
        old = await store.game("old1")
        assert old is not None and old.rated is None
        await store.claim("p1", "Ana", "ana", "pw")
        assert [h["room"] for h in await store.history("p1")] == ["old1"]
        plan = CountingPlan().plan(["p1", "bot-perudo-random"], [1, 2])
        changes = await store.finish_game(
            finished("new1", ["p1", "bot-perudo-random"]), [], {}, plan
        )
        assert [c.n for c in changes] == [1, 2]
        with pytest.raises(StoreError):  # a token hash is still unique
            await store.add_player(PlayerRow("p3", "x", False, 1.0), "hash-ana")
    finally:
        await store.close()


async def test_batches_rating_crossing_players_lock_in_one_order(pg_dsn: str) -> None:
    """Two nodes' group commits each rate two games, in opposite orders of the same
    players. Each transaction locks every rating row of its batch first, in one order:
    no deadlock (which would fail both batches and redo their writes one by one)."""
    stores = [PgStore(pg_dsn, pool_size=1) for _ in range(2)]
    for store in stores:
        await store.open()
    try:
        toy = CountingPlan()
        for round_ in range(5):
            before = [s.commits for s in stores]
            finishes = []
            for index, store in enumerate(stores):
                pairs = [["p1", "p2"], ["p3", "p4"]]
                for pair in pairs if index == 0 else pairs[::-1]:
                    game_id = f"g{round_}-{index}-{pair[0]}"
                    finishes.append(
                        store.finish_game(finished(game_id, pair), [], {}, toy.plan(pair, [1, 2]))
                    )
            await asyncio.gather(*finishes)
            assert [s.commits - b for s, b in zip(stores, before, strict=True)] == [1, 1]
        for player in ("p1", "p2", "p3", "p4"):
            (rating,) = await stores[0].ratings(player)
            assert rating.rating.games == 10
    finally:
        for store in stores:
            await store.close()


async def test_a_version_3_database_gains_seeks(pg_dsn: str) -> None:
    """Migration 4 (SQLite's 6) on a database the previous release made."""
    conn = await asyncpg.connect(pg_dsn)
    try:
        await conn.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
            "applied TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        for number, script in enumerate(MIGRATIONS[:3], start=1):
            await conn.execute(script)
            await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)
        await conn.execute(
            "INSERT INTO games (id, game, options, settings, public, seats, status, seed, "
            "seed_sha256, created) VALUES ('old1', 'perudo', '{}', '{}', TRUE, '[\"p1\"]', "
            "'finished', '\\x00', 'x', 1.0)"
        )
    finally:
        await conn.close()
    store = PgStore(pg_dsn, pool_size=1)
    await store.open()
    try:
        assert await store.game("old1") is not None
        await store.add_seek(seek_row("s1", "p1"))
        assert await store.claim_seeks(["s1"], "r1", 2.0)
        assert [s.id for s in await store.seeks_of_room("r1")] == ["s1"]
    finally:
        await store.close()


async def test_a_version_4_database_gains_tournaments(pg_dsn: str) -> None:
    """Migration 5 (SQLite's 7) on a database the previous schema made: its games and
    seeks stay, and a tournament is stored at once."""
    conn = await asyncpg.connect(pg_dsn)
    try:
        await conn.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
            "applied TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        for number, script in enumerate(MIGRATIONS[:4], start=1):
            await conn.execute(script)
            await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)
        await conn.execute(
            "INSERT INTO games (id, game, options, settings, public, seats, status, seed, "
            "seed_sha256, created) VALUES ('old1', 'perudo', '{}', '{}', TRUE, '[\"p1\"]', "
            "'finished', '\\x00', 'x', 1.0)"
        )
    finally:
        await conn.close()
    store = PgStore(pg_dsn, pool_size=1)
    await store.open()
    try:
        assert await store.game("old1") is not None
        row = TournamentRow("t1", "created", "{}", 1, 1.0, 1.0)
        assert await store.save_tournament(row, None)
        assert await store.tournament("t1") == row
    finally:
        await store.close()


async def test_a_version_5_database_marks_its_games_unchained(pg_dsn: str) -> None:
    """Migration 6 (SQLite's 8: the tamper-evident log, issue 32) on a database the
    previous schema made: its games are unchained, their actions' decider unknown; a
    waiting room with nothing logged yet is chained from now on."""
    conn = await asyncpg.connect(pg_dsn)
    try:
        await conn.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
            "applied TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        for number, script in enumerate(MIGRATIONS[:5], start=1):
            await conn.execute(script)
            await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)
        for gid, status in (("old1", "finished"), ("wait1", "waiting")):
            await conn.execute(
                "INSERT INTO games (id, game, options, settings, public, seats, status, seed, "
                "seed_sha256, created) VALUES ($1, 'perudo', '{}', '{}', TRUE, '[\"p1\"]', "
                "$2, '\\x00', 'x', 1.0)",
                gid,
                status,
            )
        await conn.execute("INSERT INTO actions VALUES ('old1', 1, 0, 'dudo', 1.0, NULL, NULL)")
    finally:
        await conn.close()
    store = PgStore(pg_dsn, pool_size=1)
    await store.open()
    try:
        old = await store.game("old1")
        assert old is not None and not old.chained and old.final_hash is None
        assert await store.actions("old1") == [ActionRow(1, 0, "dudo", 1.0, None, None)]
        waiting = await store.game("wait1")
        assert waiting is not None and waiting.chained
        await store.add_signing_key("k1", "aa" * 32, 1.0)
        assert await store.signing_keys() == {"k1": "aa" * 32}
    finally:
        await store.close()


async def test_a_read_only_store_never_migrates_or_writes(pg_dsn: str) -> None:
    """Issue 34: ``umpire verify``/``export`` open the store read-only: an older schema
    is refused in one line and left as it was; on the current one reads work and every
    write is refused (by the store, and by PostgreSQL's read-only transactions)."""
    conn = await asyncpg.connect(pg_dsn)
    try:
        await conn.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
            "applied TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        for number, script in enumerate(MIGRATIONS[:-1], start=1):
            await conn.execute(script)
            await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)
        with pytest.raises(StoreError, match=r"older than this umpire's.*never writes"):
            await open_store(pg_dsn, read_only=True).open()
        versions = await conn.fetchval("SELECT max(version) FROM schema_migrations")
        assert versions == len(MIGRATIONS) - 1
        writer = PgStore(pg_dsn, pool_size=1)
        await writer.open()  # (migrates)
        await writer.save_game(game_row("g1"), [event(1)])
        await writer.close()
        reader = open_store(pg_dsn, read_only=True)
        await reader.open()
        try:
            assert [e.seq for e in await reader.events("g1")] == [1]
            with pytest.raises(StoreError, match="read-only"):
                await reader.save_game(game_row("g2"))
            assert isinstance(reader, PgStore)
            async with reader.pool.acquire() as db:
                with pytest.raises(asyncpg.ReadOnlySQLTransactionError):
                    await db.execute("DELETE FROM games")
        finally:
            await reader.close()
        assert await conn.fetchval("SELECT count(*) FROM games") == 1
    finally:
        await conn.close()
