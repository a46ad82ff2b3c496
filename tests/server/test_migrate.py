"""``umpire migrate --from umpire.db --to postgresql://...`` (issue 32, item 3).

One SQLite knowledge base, made once by a real server (finished, running and aborted
games; a rated game; accounts with login sessions, a bot account with its API token; chat;
seeks; a hosted tournament and its games; self-play games), is copied into fresh
PostgreSQL databases. The copy is checked row for row and through the JSONL export
(byte-identical), ``umpire verify`` passes on the target, the old tokens log in to a
server on the target, and the copy is idempotent, resumable (after an injected failure,
and after SIGKILL), and refuses: a store a server uses (either side), a target holding
other data under the same ids, and a source with a table or column it does not know.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from server.cli import main
from server.errors import StoreError
from server.net.app import Limits, ServerConfig, UmpireServer
from server.rooms.room import Timing
from server.root import build_server
from server.store.lock import ServerLock
from server.store.migrate import TABLES, CopyRefused, copy_store
from server.store.pg import COPY_MARK, PgStore
from server.store.sqlite import MIGRATIONS
from tests.server.serve import ROOT
from tests.server.wsclient import WsClient

PASSWORD = "correct horse battery"
SELFPLAY = ["selfplay", "--game", "perudo", "--bots", "perudo-random", "--seats", "3"]


def run(argv: list[str]) -> tuple[int, str, str]:
    """``umpire ARGV`` in-process: its exit status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def one_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@dataclass
class Source:
    """The SQLite knowledge base every test copies, and what a test needs to know of it."""

    path: Path
    tokens: dict[str, str] = field(default_factory=dict)  # who -> token
    ids: dict[str, str] = field(default_factory=dict)  # who or what -> id

    def clone(self, folder: Path) -> str:
        """A copy of the knowledge base in ``folder`` (SQLite's online backup)."""
        target = folder / "umpire.db"
        src, dst = sqlite3.connect(self.path), sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
        return str(target)


async def _hello(port: int, name: str, **extra: Any) -> WsClient:
    client = await WsClient.open(port)
    await client.hello(name, **extra)
    return client


async def _build(source: Source) -> None:
    db = str(source.path)
    config = ServerConfig(
        host="127.0.0.1",
        port=0,
        db=db,
        synchronous="NORMAL",
        limits=Limits(rate=1000, burst=1000),
        timing=Timing(grace=60.0, autopilot_delay=0.0, finished_ttl=30.0),
    )
    server = build_server(config)
    await server.start()
    clients: list[WsClient] = []
    try:
        ana, bob, gus = [await _hello(server.port, n) for n in ("ana", "bob", "gus")]
        clients += [ana, bob, gus]
        for client in (ana, bob):
            await client.request("register", "account", password=PASSWORD)
        bot = await ana.request("create_bot", "bot_account", name="AnaBot")
        source.tokens |= {"ana": str(ana.token), "gus": str(gus.token), "bot": bot["token"]}
        source.ids |= {"ana": ana.player["id"], "gus": gus.player["id"]}
        source.ids["bot"] = bot["player"]["id"]
        # a rated game, finished, with chat
        room = (
            await ana.request(
                "create_room", "created", game="kriegspiel", options={"rules": "wild16"}
            )
        )["room"]
        await bob.request("join", "joined", room=room)
        await ana.expect("turn", room=room)
        await ana.request("act", "ack", room=room, action="g1f3")
        await bob.expect("turn", room=room)
        await bob.request("say", "chat", room=room, text="good luck")
        await bob.request("act", "ack", room=room, action="g8f6")
        await ana.expect("turn", room=room)
        await ana.send(type="act", room=room, action="resign", ref=9)
        while (await ana.expect("room", room=room)).get("ratings") is None:
            pass
        source.ids["rated"] = room
        # a running game (gus against the autopilot) and an aborted one
        for what in ("running", "aborted"):
            room = (await gus.request("create_room", "created", game="perudo"))["room"]
            await gus.request("add_bot", "bot_added", room=room)
            await gus.request("start", "started", room=room)
            source.ids[what] = room
        await server.lobby.rooms[source.ids["aborted"]].abort("stopped by the operator")
        # seeks: one open, one cancelled
        await ana.request(
            "seek", "seek_added", game="kriegspiel", options={"rules": "wild16"}, rated=True
        )
        seek = await bob.request("seek", "seek_added", game="perudo", seats=4)
        await bob.request("cancel_seek", "seek_cancelled", seek=seek["seek"]["id"])
        # a tournament still registering, and a round robin played to its end
        await ana.request(
            "create_tournament",
            "tournament",
            game="perudo",
            format="swiss",
            options={"dice_per_player": 1},
        )
        cli = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "server.cli", "tournament", "--game", "perudo",
            "--bots", "perudo-random,perudo-random", "-o", "dice_per_player=1",
            "--server", f"ws://127.0.0.1:{server.port}", "--format", "round_robin",
            cwd=ROOT, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        _, err = await asyncio.wait_for(cli.communicate(), 120)
        assert cli.returncode == 0, err.decode()
    finally:
        for client in clients:
            await client.close()
        await server.close()


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Source]:
    made = Source(tmp_path_factory.mktemp("migrate") / "source.db")
    assert run([*SELFPLAY, "--games", "2", "--db", str(made.path), "--seed", "mig"])[0] == 0
    asyncio.run(_build(made))
    with contextlib.closing(sqlite3.connect(made.path)) as db, db:
        # (a public signing key, as a signing server keeps one: copied like any row)
        db.execute(
            "INSERT OR IGNORE INTO signing_keys (id, public, created) VALUES (?, ?, ?)",
            ("k-test", "MCowBQYDK2VwAyEA" + "A" * 44, 1_700_000_000.5),
        )
        statuses = {r[0] for r in db.execute("SELECT DISTINCT status FROM games")}
        counted = {
            t.name: db.execute(f"SELECT count(*) FROM {t.name}").fetchone()[0] for t in TABLES
        }
    assert statuses == {"finished", "playing", "aborted"}
    assert all(counted.values()), counted  # every table has rows to copy
    yield made


def read_sqlite(path: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in key order, as the copy sees them."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        return {
            t.name: db.execute(
                f"SELECT {', '.join(t.columns)} FROM {t.name} ORDER BY {', '.join(t.key)}"
            ).fetchall()
            for t in TABLES
        }


async def read_pg(dsn: str) -> dict[str, list[tuple[Any, ...]]]:
    conn = await asyncpg.connect(dsn)
    try:
        out = {}
        for t in TABLES:
            rows = await conn.fetch(
                f"SELECT {', '.join(t.columns)} FROM {t.name} ORDER BY {', '.join(t.key)}"
            )
            out[t.name] = [tuple(r) for r in rows]
        return out
    finally:
        await conn.close()


def same_rows(
    sqlite_rows: dict[str, list[tuple[Any, ...]]], pg_rows: dict[str, list[tuple[Any, ...]]]
) -> None:
    for name, rows in sqlite_rows.items():
        theirs = pg_rows[name]
        assert len(rows) == len(theirs), name
        for mine, copied in zip(rows, theirs, strict=True):
            # (SQLite's 0/1 flags are PostgreSQL's booleans: equal as Python values)
            assert mine == copied, (name, mine, copied)


def export(db: str, out: Path) -> bytes:
    code, _, err = run(["export", "--db", db, "--out", str(out)])
    assert code == 0, err
    return out.read_bytes()


async def test_the_copy_is_faithful_idempotent_and_the_old_tokens_log_in(
    source: Source, pg_dsn: str, tmp_path: Path
) -> None:
    db = source.clone(tmp_path)
    code, out, err = await asyncio.to_thread(run, ["migrate", "--from", db, "--to", pg_dsn])
    assert (code, err) == (0, ""), err
    assert [line.split(":")[0] for line in out.splitlines()[: len(TABLES)]] == [
        t.name for t in TABLES
    ]
    assert out.splitlines()[-1].startswith("copied ")
    same_rows(read_sqlite(db), await read_pg(pg_dsn))
    conn = await asyncpg.connect(pg_dsn)
    try:  # the numbering of rating changes (the only identity column) goes on after them
        last, following = await conn.fetchrow(
            "SELECT max(n), nextval(pg_get_serial_sequence('rating_changes', 'n')) "
            "FROM rating_changes"
        )
        assert last >= 1 and following == last + 1
    finally:
        await conn.close()
    # the JSONL exports are byte-identical, and every game verifies on the target
    before = await asyncio.to_thread(export, db, tmp_path / "sqlite.jsonl")
    after = await asyncio.to_thread(export, pg_dsn, tmp_path / "pg.jsonl")
    assert before == after and before.count(b"\n") >= 5
    trusted = ["--trusted-key", str(source.path) + ".key"]  # (the SQLite server's key file)
    code, out, err = await asyncio.to_thread(run, ["verify", "--db", pg_dsn, *trusted])
    assert code == 0 and "NOT" not in out, out + err
    # a second run copies nothing, and says so
    code, out, err = await asyncio.to_thread(run, ["migrate", "--from", db, "--to", pg_dsn])
    assert code == 0 and out.splitlines()[-1].startswith("nothing to copy: the "), out + err
    # a server on the target: the old tokens are the same players; the running game is theirs
    config = ServerConfig(
        host="127.0.0.1", port=0, db=pg_dsn, limits=Limits(rate=1000, burst=1000),
        timing=Timing(grace=60.0, autopilot_delay=0.0, finished_ttl=30.0),
    )  # fmt: skip
    server = build_server(config)
    await server.start()
    clients: list[WsClient] = []
    try:
        for who in ("ana", "gus", "bot"):
            client = await WsClient.open(server.port)
            clients.append(client)
            welcome = await client.hello(who, token=source.tokens[who])
            assert welcome["player"]["id"] == source.ids[who], who
        assert clients[0].player["kind"] == "account" and clients[2].player["kind"] == "bot"
        seats = [s["room"] for s in clients[1].frames[-1].get("seats", [])]
        assert source.ids["running"] in seats
        # while that server runs, the copy refuses the target, naming the node
        code, _, err = await asyncio.to_thread(run, ["migrate", "--from", db, "--to", pg_dsn])
        assert code == 1 and "in use by umpire serve: node " in one_line(err)
        conn = await asyncpg.connect(pg_dsn)
        try:  # and leaves the target as it was
            assert (
                await conn.fetchval("SELECT count(*) FROM cluster WHERE key = $1", COPY_MARK) == 0
            )
        finally:
            await conn.close()
    finally:
        for client in clients:
            await client.close()
        await server.close()


async def test_an_interrupted_copy_is_finished_by_a_rerun_and_nothing_uses_it_meanwhile(
    source: Source, pg_dsn: str, tmp_path: Path
) -> None:
    db = source.clone(tmp_path)
    batches: list[str] = []

    def fail_after_three(table: str, rows: int) -> None:
        batches.append(table)
        if table == "actions" and batches.count("actions") == 3:
            raise RuntimeError("injected: the copy dies here")

    with pytest.raises(RuntimeError, match="injected"):
        await copy_store(db, pg_dsn, batch=7, after_batch=fail_after_three)
    partial = await read_pg(pg_dsn)
    assert len(partial["actions"]) == 21 and not partial["events"]
    # a half-copied database is refused by every user but the copy (one line)
    with pytest.raises(StoreError, match="has not finished; run it again"):
        await PgStore(pg_dsn).open()
    code, _, err = await asyncio.to_thread(run, ["export", "--db", pg_dsn])
    assert code == 1 and "umpire migrate" in one_line(err)
    # the rerun copies the rest
    report = await copy_store(db, pg_dsn, batch=7)
    assert report.tables["actions"].present == 21 and report.present == sum(
        len(rows) for rows in partial.values()
    )
    same_rows(read_sqlite(db), await read_pg(pg_dsn))
    before = await asyncio.to_thread(export, db, tmp_path / "sqlite.jsonl")
    assert await asyncio.to_thread(export, pg_dsn, tmp_path / "pg.jsonl") == before


async def test_a_killed_copy_is_finished_by_a_rerun(
    source: Source, pg_dsn: str, tmp_path: Path
) -> None:
    db = source.clone(tmp_path)
    argv = [sys.executable, "-m", "server.cli", "migrate", "--from", db, "--to", pg_dsn]
    proc = await asyncio.create_subprocess_exec(
        *argv, "--batch", "1", cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )
    assert proc.stdout is not None
    first = await asyncio.wait_for(proc.stdout.readline(), 60)
    assert first.startswith(b"players: ")  # the first table is done; the games are not
    proc.send_signal(signal.SIGKILL)
    assert await proc.wait() == -signal.SIGKILL
    assert len((await read_pg(pg_dsn))["actions"]) < len(read_sqlite(db)["actions"])
    done = await asyncio.to_thread(
        subprocess.run, argv, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    same_rows(read_sqlite(db), await read_pg(pg_dsn))


async def test_a_target_holding_other_data_under_the_same_ids_is_refused(
    source: Source, pg_dsn: str, tmp_path: Path
) -> None:
    db = source.clone(tmp_path)
    await copy_store(db, pg_dsn)
    conn = await asyncpg.connect(pg_dsn)
    try:
        await conn.execute("UPDATE games SET reason = 'edited' WHERE id = $1", source.ids["rated"])
    finally:
        await conn.close()
    code, _, err = await asyncio.to_thread(run, ["migrate", "--from", db, "--to", pg_dsn])
    line = one_line(err)
    assert code == 1 and "already holds different data for games" in line
    assert source.ids["rated"] in line and "reason" in line
    # the target (a finished copy a server may have used since) is left as it was: usable
    await (store := PgStore(pg_dsn)).open()
    await store.close()


async def test_a_finished_target_lacking_rows_of_the_source_is_refused_untouched(
    source: Source, pg_dsn: str, tmp_path: Path
) -> None:
    """Rows added to the source after a finished copy (the SQLite server ran again) are
    not merged into a target that may have lived on since: refused, nothing written."""
    db = source.clone(tmp_path)
    await copy_store(db, pg_dsn)
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("INSERT INTO player_stats VALUES ('p-late', 'perudo', 'games', 1.0)")
    before = await read_pg(pg_dsn)
    code, _, err = await asyncio.to_thread(run, ["migrate", "--from", db, "--to", pg_dsn])
    line = one_line(err)
    assert code == 1 and "holds a finished copy or other data" in line
    assert "1 row of" in line and "player_stats player_id='p-late'" in line
    assert await read_pg(pg_dsn) == before
    await (store := PgStore(pg_dsn)).open()  # (no mark was left)
    await store.close()


async def test_an_unfinished_copy_is_finished_from_its_own_source_only(
    source: Source, pg_dsn: str, tmp_path: Path
) -> None:
    db = source.clone(tmp_path)
    (tmp_path / "other").mkdir()
    other = source.clone(tmp_path / "other")

    def fail(table: str, rows: int) -> None:
        if table == "games":
            raise RuntimeError("injected")

    with pytest.raises(RuntimeError, match="injected"):
        await copy_store(db, pg_dsn, batch=5, after_batch=fail)
    code, _, err = await asyncio.to_thread(run, ["migrate", "--from", other, "--to", pg_dsn])
    line = one_line(err)
    assert code == 1 and f"unfinished copy from {db}" in line and "--from" in line
    assert (await copy_store(db, pg_dsn)).copied > 0


async def test_a_store_in_use_is_refused(source: Source, pg_dsn: str, tmp_path: Path) -> None:
    db = source.clone(tmp_path)
    with ServerLock.acquire(db, what="umpire serve", port=8765):
        code, _, err = await asyncio.to_thread(run, ["migrate", "--from", db, "--to", pg_dsn])
    line = one_line(err)
    assert code == 1 and "in use by umpire serve (pid " in line and "port 8765" in line
    assert line.endswith("stop it first: the copy needs the file alone")  # (no --db here)
    # (a server on the PostgreSQL target: see the first test)


@pytest.mark.parametrize(
    "change, named",
    [
        ("CREATE TABLE trophies (id TEXT PRIMARY KEY)", "trophies"),
        ("ALTER TABLE chat ADD COLUMN mood TEXT", "mood"),
    ],
)
async def test_a_table_or_column_the_copy_does_not_know_stops_it(
    source: Source, pg_dsn: str, tmp_path: Path, change: str, named: str
) -> None:
    db = source.clone(tmp_path)
    with contextlib.closing(sqlite3.connect(db)) as conn:
        conn.execute(change)
        conn.commit()
    code, _, err = await asyncio.to_thread(run, ["migrate", "--from", db, "--to", pg_dsn])
    line = one_line(err)
    assert code == 1 and named in line and "does not know" in line
    with pytest.raises(CopyRefused):
        await copy_store(db, pg_dsn)
    conn = await asyncpg.connect(pg_dsn)
    try:  # the target was not even touched
        assert await conn.fetchval("SELECT to_regclass('players')") is None
    finally:
        await conn.close()


def test_the_list_of_tables_is_every_table_of_the_schema(tmp_path: Path) -> None:
    """A fresh knowledge base has exactly the tables and columns the copy knows (a new
    migration that adds one fails here until server.store.migrate.TABLES lists it)."""
    db = sqlite3.connect(tmp_path / "fresh.db")
    for script in MIGRATIONS:
        db.executescript(script)
    tables = {
        r[0]: [c[1] for c in db.execute(f"PRAGMA table_info({r[0]})")]
        for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    assert sorted(tables) == sorted(t.name for t in TABLES)
    assert {name: sorted(cols) for name, cols in tables.items()} == {
        t.name: sorted(t.columns) for t in TABLES
    }


async def test_a_single_node_server_on_postgresql_registers_as_a_live_node(
    pg_dsn: str,
) -> None:
    server: UmpireServer = build_server(
        ServerConfig(host="127.0.0.1", port=0, db=pg_dsn, limits=Limits(rate=1000, burst=1000))
    )
    await server.start()
    try:
        conn = await asyncpg.connect(pg_dsn)
        try:
            alive = await conn.fetchval(
                "SELECT count(*) FROM nodes WHERE expires > clock_timestamp()"
            )
        finally:
            await conn.close()
        assert alive == 1
    finally:
        await server.close()


@pytest.mark.parametrize(
    "change",
    [
        "UPDATE games SET public = 2 WHERE id = ?",  # (a flag)
        "UPDATE game_players SET seat = 1 << 40 WHERE game_id = ? AND seat = 0",  # (int32)
        "UPDATE chat SET text = 'a' || char(0) || 'b' WHERE game_id = ?",  # (NUL in text)
    ],
)
async def test_a_value_that_would_change_on_the_way_is_refused(
    source: Source, pg_dsn: str, tmp_path: Path, change: str
) -> None:
    db = source.clone(tmp_path)
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        assert conn.execute(change, (source.ids["rated"],)).rowcount >= 1
    code, _, err = await asyncio.to_thread(run, ["migrate", "--from", db, "--to", pg_dsn])
    line = one_line(err)
    assert code == 1 and "wrong type" in line and source.ids["rated"] in line


async def test_two_copies_into_one_database_at_once_are_refused(
    source: Source, pg_dsn: str, tmp_path: Path
) -> None:
    from server.store import migrate

    db = source.clone(tmp_path)
    conn = await asyncpg.connect(pg_dsn)
    try:  # (the lock the other copy would hold)
        assert await conn.fetchval("SELECT pg_try_advisory_lock($1)", migrate._COPY_LOCK)
        code, _, err = await asyncio.to_thread(run, ["migrate", "--from", db, "--to", pg_dsn])
    finally:
        await conn.close()
    assert code == 1 and "another umpire migrate is copying into" in one_line(err)


@pytest.mark.parametrize(
    "url, said",
    [
        ("postgresql://u@127.0.0.1:99999/db", "port must be 0-65535"),
        ("postgresql://u@[::zz]/db", "'::zz' does not appear to be an IPv4 or IPv6"),
    ],
)
def test_a_target_url_that_cannot_be_used_is_one_line(
    source: Source, tmp_path: Path, url: str, said: str
) -> None:
    db = source.clone(tmp_path)
    code, _, err = run(["migrate", "--from", db, "--to", url])
    line = one_line(err)
    assert code == 1 and line.startswith("umpire migrate: cannot connect to postgresql://u@")
    assert said in line and "Error" not in line


async def test_ctrl_c_says_so_in_one_line_and_the_target_stays_marked(
    source: Source, pg_dsn: str, tmp_path: Path
) -> None:
    db = source.clone(tmp_path)
    argv = [sys.executable, "-m", "server.cli", "migrate", "--from", db, "--to", pg_dsn]
    proc = await asyncio.create_subprocess_exec(
        *argv, "--batch", "1", cwd=ROOT, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    first = await asyncio.wait_for(proc.stdout.readline(), 60)
    assert first.startswith(b"players: ")
    proc.send_signal(signal.SIGINT)
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 130
    line = one_line(err.decode())
    assert "interrupted" in line and "run the same command again" in line
    with pytest.raises(StoreError, match="has not finished; run it again"):
        await PgStore(pg_dsn).open()
    # (the rerun that finishes it: test_a_killed_copy_is_finished_by_a_rerun)


async def test_a_large_batch_is_copied_and_a_big_table_shows_its_progress(
    source: Source, pg_dsn: str, tmp_path: Path
) -> None:
    db = source.clone(tmp_path)
    bulk = [("p-bulk", "perudo", f"k{i:05}", float(i)) for i in range(12_000)]
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.executemany("INSERT INTO player_stats VALUES (?, ?, ?, ?)", bulk)
    total = len(read_sqlite(db)["player_stats"])
    said: list[str] = []
    # (12,000 keys of three columns in one batch: more than a statement's 32,767 values)
    report = await copy_store(db, pg_dsn, batch=20_000, say=said.append, progress=5_000)
    assert report.tables["player_stats"].copied == total
    same_rows(read_sqlite(db), await read_pg(pg_dsn))
    progress = [line for line in said if line.startswith("player_stats: ") and " of " in line]
    assert progress == [f"player_stats: {total} of {total} rows (100%)"]
    said.clear()
    report = await copy_store(db, pg_dsn, batch=2_000, say=said.append, progress=5_000)
    progress = [line for line in said if line.startswith("player_stats: ") and " of " in line]
    assert progress == [
        f"player_stats: {n} of {total} rows ({100 * n // total}%)" for n in (6_000, 10_000)
    ]


async def test_a_store_open_on_the_target_stops_the_copy_before_it_marks_anything(
    source: Source, pg_dsn: str, tmp_path: Path
) -> None:
    """The race a node check alone leaves: a server that opened the target (no mark yet)
    but has not registered its node when the copy looks. Every open store holds a shared
    lock on the database; the copy wants it alone."""
    db = source.clone(tmp_path)
    store = PgStore(pg_dsn)  # as umpire serve, export or verify: open, no node (yet)
    await store.open()
    try:
        code, _, err = await asyncio.to_thread(run, ["migrate", "--from", db, "--to", pg_dsn])
    finally:
        await store.close()
    line = one_line(err)
    assert code == 1 and "is open in another umpire" in line and "stop it first" in line
    conn = await asyncpg.connect(pg_dsn)
    try:  # nothing was copied, and the target carries no mark
        assert await conn.fetchval("SELECT count(*) FROM players") == 0
        assert await conn.fetchval("SELECT count(*) FROM cluster WHERE key = $1", COPY_MARK) == 0
    finally:
        await conn.close()


async def test_no_store_opens_a_target_a_copy_holds_even_before_its_mark(pg_dsn: str) -> None:
    from server.store import pg

    await (store := PgStore(pg_dsn)).open()
    await store.close()
    conn = await asyncpg.connect(pg_dsn)
    try:  # (what a copy holds from its start, before it writes its mark)
        assert await conn.fetchval("SELECT pg_try_advisory_lock($1)", pg.USE_LOCK)
        with pytest.raises(StoreError, match="umpire migrate is copying into it"):
            await PgStore(pg_dsn).open()
    finally:
        await conn.close()


@pytest.mark.parametrize("script", ["", "CREATE TABLE notes (x TEXT)"])
def test_a_sqlite_file_that_is_no_knowledge_base_is_refused_unchanged(
    pg_dsn: str, tmp_path: Path, script: str
) -> None:
    db = tmp_path / "other.db"
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        if script:
            conn.execute(script)
    before = db.read_bytes()
    code, _, err = run(["migrate", "--from", str(db), "--to", pg_dsn])
    assert code == 1 and f"{db} is not a knowledge base" in one_line(err)
    assert db.read_bytes() == before  # (no umpire schema was added to someone else's file)
    assert not (tmp_path / "other.db.lock").exists()  # (nor a lock file beside it)


async def test_a_lost_connection_is_one_line_and_a_rerun_finishes(
    source: Source, pg_dsn: str, tmp_path: Path
) -> None:
    db = source.clone(tmp_path)

    async def cut_the_copys_connection() -> None:
        conn = await asyncpg.connect(pg_dsn)
        try:
            await conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        finally:
            await conn.close()

    cuts: list[str] = []

    def cut_once(table: str, rows: int) -> None:
        if table == "games" and not cuts:  # (as a restart of PostgreSQL would)
            cuts.append(table)
            cutter = threading.Thread(target=asyncio.run, args=(cut_the_copys_connection(),))
            cutter.start()
            cutter.join()

    with pytest.raises(StoreError) as refused:
        await copy_store(db, pg_dsn, batch=5, after_batch=cut_once)
    line = one_line(str(refused.value))
    assert "the connection to PostgreSQL was lost" in line
    assert line.endswith("run the same command again to finish the copy")
    await copy_store(db, pg_dsn)
    same_rows(read_sqlite(db), await read_pg(pg_dsn))
