"""The backup and restore recipes of deploy/README.md, run for real on each store:
SQLite's online ``.backup`` and PostgreSQL's ``pg_dump`` / ``pg_restore``. A restored
knowledge base exports the same games and verifies."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

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
