"""The backup and restore recipes of deploy/README.md, run for real on each store:
SQLite's online ``.backup`` and PostgreSQL's ``pg_dump`` / ``pg_restore``. A restored
knowledge base exports the same games and verifies."""

from __future__ import annotations

import asyncio
import logging
import shutil
import subprocess
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from server.cli import main
from tests.pgcluster import create_database, find_bindir

SELFPLAY = ["selfplay", "--game", "perudo", "--bots", "perudo-random", "--seats", "3"]


def export(db: str, out: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["export", "--db", db, "--out", str(out)]) == 0
    capsys.readouterr()
    return out.read_text()


def test_sqlite_online_backup_and_restore(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sqlite3 = shutil.which("sqlite3")
    if sqlite3 is None:
        pytest.skip("the sqlite3 command is not installed (apt-get install sqlite3)")
    db = str(tmp_path / "umpire.db")
    assert main([*SELFPLAY, "--games", "3", "--db", db, "--seed", "b"]) == 0
    before = export(db, tmp_path / "before.jsonl", capsys)
    backup = tmp_path / "backup.db"
    subprocess.run([sqlite3, db, f".backup '{backup}'"], check=True)
    check = subprocess.run(
        [sqlite3, str(backup), "PRAGMA integrity_check"], check=True, capture_output=True
    )
    assert check.stdout.strip() == b"ok"
    # Restore: the server is stopped; the backup replaces the file (no -wal/-shm left).
    restored = tmp_path / "restored" / "umpire.db"
    restored.parent.mkdir()
    shutil.copy(backup, restored)
    assert export(str(restored), tmp_path / "after.jsonl", capsys) == before
    assert before.count("\n") == 3


def test_postgresql_dump_and_restore(
    pg_dsn: str, pg_admin_dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bindir = find_bindir()
    pg_dump = bindir / "pg_dump" if bindir else shutil.which("pg_dump")
    pg_restore = bindir / "pg_restore" if bindir else shutil.which("pg_restore")
    if not pg_dump or not pg_restore:
        pytest.skip("pg_dump and pg_restore are not installed (apt-get install postgresql)")
    key = str(tmp_path / "cluster.key")  # (PostgreSQL needs its key file)
    assert (
        main([*SELFPLAY, "--games", "3", "--db", pg_dsn, "--seed", "b", "--signing-key", key]) == 0
    )
    before = export(pg_dsn, tmp_path / "before.jsonl", capsys)
    dump = tmp_path / "umpire.dump"
    subprocess.run([str(pg_dump), "--format=custom", f"--file={dump}", pg_dsn], check=True)
    target = asyncio.run(create_database(pg_admin_dsn))  # createdb umpire (empty)
    subprocess.run(
        [str(pg_restore), "--no-owner", "--exit-on-error", f"--dbname={target}", str(dump)],
        check=True,
    )
    assert export(target, tmp_path / "after.jsonl", capsys) == before
    ids = [line.split('"id":"', 1)[1].split('"', 1)[0] for line in before.splitlines()]
    assert main(["verify", "--db", target, "--trusted-key", key, *ids]) == 0
    assert capsys.readouterr().out.count("verified:") == 3


def _as_role(dsn: str, role: str, database: str) -> str:
    """``dsn`` (a URL of the test server) for ``role`` on ``database``."""
    parts = urlsplit(dsn)
    netloc = f"{role}@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, f"/{database}", parts.query, ""))


async def _admin(dsn: str, *statements: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


def _one_line(err: str) -> str:
    """The one line of ``err`` (an INFO log line of ``serve`` aside), no traceback."""
    assert "Traceback" not in err
    lines = [line for line in err.strip().splitlines() if " INFO " not in line]
    assert len(lines) == 1, err
    return lines[0]


def test_postgresql_restore_runs_as_the_application_role_and_export_on_a_read_only_role(
    pg_admin_dsn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """deploy/README.md's PostgreSQL recipe with an application role that is no
    superuser (the ``umpire`` role of the recipe): it owns its database, dumps it, and
    restores the dump into a new database of its own, which it then serves (writes) and
    verifies. A read-only role exports and verifies it too; a role without the
    privilege is told in one line what it needs."""
    bindir = find_bindir()
    pg_dump = bindir / "pg_dump" if bindir else shutil.which("pg_dump")
    pg_restore = bindir / "pg_restore" if bindir else shutil.which("pg_restore")
    if not pg_dump or not pg_restore:
        pytest.skip("pg_dump and pg_restore are not installed (apt-get install postgresql)")
    tag = uuid.uuid4().hex[:8]
    app, reader, src, restored, foreign = (
        f"app_{tag}",
        f"ro_{tag}",
        f"src_{tag}",
        f"restored_{tag}",
        f"foreign_{tag}",
    )
    # sudo -u postgres createuser umpire && sudo -u postgres createdb -O umpire umpire
    asyncio.run(
        _admin(
            pg_admin_dsn,
            f'CREATE ROLE "{app}" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE',
            f'CREATE ROLE "{reader}" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE',
            f'CREATE DATABASE "{src}" OWNER "{app}"',
        )
    )
    src_dsn = _as_role(pg_admin_dsn, app, src)
    key = str(tmp_path / "cluster.key")  # (PostgreSQL needs its key file)
    signed, trusted = ["--signing-key", key], ["--trusted-key", key]
    assert main([*SELFPLAY, "--games", "3", "--db", src_dsn, "--seed", "r", *signed]) == 0
    before = export(src_dsn, tmp_path / "before.jsonl", capsys)
    dump = tmp_path / "umpire.dump"
    # the nightly dump, as the application role (the README's cron line)
    subprocess.run([str(pg_dump), "--format=custom", f"--file={dump}", src_dsn], check=True)
    # the recipe: a new database owned by the application role, restored as that role
    asyncio.run(_admin(pg_admin_dsn, f'CREATE DATABASE "{restored}" OWNER "{app}"'))
    target = _as_role(pg_admin_dsn, app, restored)
    restore = [str(pg_restore), "--no-owner", "--no-privileges", "--exit-on-error"]
    subprocess.run([*restore, f"--dbname={target}", str(dump)], check=True)
    assert export(target, tmp_path / "after.jsonl", capsys) == before
    assert main(["verify", "--db", target, *trusted]) == 0
    assert capsys.readouterr().out.count("verified:") == 3
    assert main([*SELFPLAY, "--games", "1", "--db", target, "--seed", "s", *signed]) == 0
    assert export(target, tmp_path / "more.jsonl", capsys).count("\n") == 4
    # a read-only role: export and verify work once it may read the tables
    read_only = _as_role(pg_admin_dsn, reader, restored)
    assert main(["export", "--db", read_only]) == 1
    line = _one_line(capsys.readouterr().err)
    assert "permission denied" in line and "GRANT SELECT ON ALL TABLES" in line
    asyncio.run(
        _admin(
            target,
            f'GRANT USAGE ON SCHEMA public TO "{reader}"',
            f'GRANT SELECT ON ALL TABLES IN SCHEMA public TO "{reader}"',
        )
    )
    assert export(read_only, tmp_path / "read.jsonl", capsys).count("\n") == 4
    assert main(["verify", "--db", read_only, *trusted]) == 0
    capsys.readouterr()
    # the old recipe (restored by a superuser into a database it owns) leaves the
    # application role without its tables: one line says what it needs, no traceback
    asyncio.run(_admin(pg_admin_dsn, f'CREATE DATABASE "{foreign}"'))
    subprocess.run(
        [*restore, f"--dbname={_as_role(pg_admin_dsn, _user(pg_admin_dsn), foreign)}", str(dump)],
        check=True,
    )
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    for command in (["verify"], ["export"], ["serve", "--port", "0", *signed]):
        try:
            assert main([*command, "--db", _as_role(pg_admin_dsn, app, foreign)]) == 1
        finally:  # (serve configured this process's logging: the next tests' is theirs)
            root.handlers[:] = handlers
            root.setLevel(level)
        line = _one_line(capsys.readouterr().err)
        assert "permission denied" in line and "owns the database" in line


def _user(dsn: str) -> str:
    return urlsplit(dsn).username or ""
