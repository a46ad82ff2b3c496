"""``umpire serve``, ``verify`` and ``export`` on a database they cannot use (issue 34,
items 2 to 4): each says so in one line naming the file and what to do, exit status 1,
never a traceback, and a server never starts (so it never reports healthy).

Real processes, started together and awaited together (each pays Python's start-up once).
Read-only files: as root (who may write a file whatever its mode) the test makes a real
read-only mount (a read-only bind mount of the file, a tmpfs remounted read-only);
otherwise the file's or folder's mode bits make it read-only.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.store.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parents[2]


def umpire(*argv: str) -> subprocess.Popen[bytes]:
    """Start ``umpire ARGV`` (no waiting)."""
    return subprocess.Popen(
        [sys.executable, "-m", "server.cli", *argv],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def finished(proc: subprocess.Popen[bytes]) -> tuple[int, str, str]:
    """Wait for ``proc`` (a server that starts anyway is killed: the test fails)."""
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    return proc.returncode, out.decode(), err.decode()


def assert_one_line(result: tuple[int, str, str], path: str, *needles: str) -> None:
    """Exit 1, nothing on stdout, one line on stderr naming ``path`` and ``needles``."""
    code, out, err = result
    assert code == 1, (code, out, err)
    assert "listening" not in out, out
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert path in lines[0], (path, lines[0])
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def make_db(path: Path) -> None:
    """A fresh, migrated umpire database at ``path``."""

    async def make() -> None:
        store = SqliteStore(str(path))
        await store.open()
        await store.close()

    asyncio.run(make())


def mounts_work() -> bool:
    return os.geteuid() == 0 and shutil.which("mount") is not None


@contextlib.contextmanager
def read_only_file(path: Path) -> Iterator[None]:
    """Make the file ``path`` read-only for the server (its folder stays writable)."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        yield
        return
    done = subprocess.run(["mount", "--bind", str(path), str(path)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"root, but no bind mount here: {done.stderr.decode().strip()}")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(path)], check=True)
        yield
    finally:
        subprocess.run(["umount", str(path)], check=True)


@contextlib.contextmanager
def read_only_folder(folder: Path, db: Path) -> Iterator[None]:
    """Make ``folder`` (holding a copy of ``db``) a read-only file system (root) or a
    folder the server may not write (anyone else)."""
    folder.mkdir()
    if os.geteuid() != 0:
        shutil.copy(db, folder / db.name)
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"root, but no tmpfs mount here: {done.stderr.decode().strip()}")
    try:
        shutil.copy(db, folder / db.name)
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_every_unusable_database_is_one_line(tmp_path: Path) -> None:
    good = tmp_path / "good.db"
    make_db(good)
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(bytes(range(256)) * 40)
    text = tmp_path / "notes.db"
    text.write_text("these are my notes, not a database\n" * 50)
    truncated = tmp_path / "truncated.db"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    future = tmp_path / "future.db"
    shutil.copy(good, future)
    with contextlib.closing(sqlite3.connect(future)) as db:
        db.execute("PRAGMA user_version=99")
    missing = tmp_path / "no-such-folder" / "umpire.db"
    ro_file = tmp_path / "rofile" / "ro.db"
    ro_file.parent.mkdir()
    shutil.copy(good, ro_file)
    ro_folder = tmp_path / "rofs"

    serve = ("serve", "--port", "0", "--log-level", "WARNING", "--db")
    with read_only_file(ro_file), read_only_folder(ro_folder, good):
        ro_db = ro_folder / "good.db"
        runs = {
            "garbage": (umpire(*serve, str(garbage)), garbage, "not an umpire database"),
            "text": (umpire(*serve, str(text)), text, "not an umpire database"),
            "truncated": (umpire(*serve, str(truncated)), truncated, "restore it"),
            "future": (umpire(*serve, str(future)), future, "upgrade the server"),
            "missing": (umpire(*serve, str(missing)), missing.parent, "create it"),
            "ro file": (umpire(*serve, str(ro_file)), ro_file, "writable"),
            "ro fs": (umpire(*serve, str(ro_db)), ro_db, "writable"),
        }
        for kind, path in (("garbage", garbage), ("truncated", truncated), ("future", future)):
            runs[f"verify {kind}"] = (umpire("verify", "--db", str(path)), path, "")
            runs[f"export {kind}"] = (umpire("export", "--db", str(path)), path, "")
        reader = umpire("verify", "--db", str(ro_file))
        results = {
            name: (finished(proc), str(path), needle) for name, (proc, path, needle) in runs.items()
        }
        read = finished(reader)
    for name, (result, named, needle) in results.items():
        print(name, result[2].strip())
        assert_one_line(result, named, *([needle] if needle else []))
    # the read-only file is untouched, and verify still reads it
    assert ro_file.read_bytes() == good.read_bytes()
    assert read[0] == 0 and "no finished games" in read[2], read


def old_schema_db(path: Path, version: int) -> None:
    """An umpire database left at schema ``version`` (an older umpire's), in WAL mode."""
    from server.store.sqlite import MIGRATIONS

    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("PRAGMA journal_mode=WAL")
        for script in MIGRATIONS[:version]:
            for statement in (s.strip() for s in script.split(";")):
                if statement:
                    db.execute(statement)
        db.execute(f"PRAGMA user_version={version}")


def test_verify_and_export_only_read(tmp_path: Path) -> None:
    """Issue 34: ``verify``, ``export`` and ``ratings rebuild --check`` never write: on
    an older schema they say in one line what upgrades it (and leave it as it was), and
    they read a database on a read-only file system."""
    from server.store.sqlite import MIGRATIONS

    old = tmp_path / "old.db"
    old_schema_db(old, len(MIGRATIONS) - 1)
    before = old.read_bytes()
    good = tmp_path / "good.db"
    make_db(good)
    ro_folder = tmp_path / "rofs"
    with read_only_folder(ro_folder, good):
        ro_db = ro_folder / "good.db"
        runs = {
            "verify old": umpire("verify", "--db", str(old)),
            "export old": umpire("export", "--db", str(old)),
            "check old": umpire("ratings", "rebuild", "--check", "--db", str(old)),
            "verify ro": umpire("verify", "--db", str(ro_db)),
            "export ro": umpire("export", "--db", str(ro_db)),
        }
        results = {name: finished(proc) for name, proc in runs.items()}
    for name in ("verify old", "export old", "check old"):
        print(name, results[name][2].strip())
        assert_one_line(results[name], str(old), "umpire serve", "never writes")
    assert old.read_bytes() == before
    assert not Path(f"{old}-wal").exists() or Path(f"{old}-wal").stat().st_size == 0
    with contextlib.closing(sqlite3.connect(old)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) - 1
    code, _out, err = results["verify ro"]
    assert code == 0 and "no finished games" in err, err
    code, _out, err = results["export ro"]
    assert code == 0 and "exported 0 games" in err, err


def test_selfplay_and_tournament_on_an_unusable_database_stop_before_playing(
    tmp_path: Path,
) -> None:
    """Issue 34: ``umpire selfplay --db`` and ``tournament --db`` on a read-only,
    garbage or damaged file: one line naming it and what to do, exit 1, before any game
    is played (a read-only file was found only at the first write, after the games)."""
    good = tmp_path / "good.db"
    make_db(good)
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(bytes(range(256)) * 40)
    truncated = tmp_path / "truncated.db"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    ro_file = tmp_path / "rofile" / "ro.db"
    ro_file.parent.mkdir()
    shutil.copy(good, ro_file)
    selfplay = ("selfplay", "--game", "perudo", "--bots", "perudo-random", "--seats", "2")
    tournament = ("tournament", "--game", "perudo", "--bots", "perudo-random,perudo-random")
    with read_only_file(ro_file):
        runs = {
            "selfplay ro": (umpire(*selfplay, "--games", "2", "--db", str(ro_file)), ro_file),
            "tournament ro": (umpire(*tournament, "--games", "1", "--db", str(ro_file)), ro_file),
            "selfplay garbage": (umpire(*selfplay, "--db", str(garbage)), garbage),
            "tournament damaged": (umpire(*tournament, "--db", str(truncated)), truncated),
        }
        results = {name: (finished(proc), str(path)) for name, (proc, path) in runs.items()}
    for name, (result, path) in results.items():
        print(name, result[2].strip())
        assert_one_line(result, path)
        assert "Error:" not in result[2], result[2]  # (no exception's class name)
    for name in ("selfplay ro", "tournament ro"):
        assert "writable" in results[name][0][2]
