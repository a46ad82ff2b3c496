"""Two ``umpire serve`` processes on one SQLite file (issue 34, item 3): the second
refuses in one line naming the first (its pid and port), exit status 1, before it opens,
migrates or restores anything, even when it asks for the same port."""

from __future__ import annotations

import asyncio
import contextlib
import io
import sys
from pathlib import Path
from typing import Any

import pytest

from server import cli, root
from server.store.lock import ServerLock, holder_of
from tests.server.serve import ROOT, spawn_serve


async def second(db: Path, port: int) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server.cli",
        "serve",
        "--port",
        str(port),
        "--db",
        str(db),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_a_second_server_on_the_same_file_refuses_naming_the_first(tmp_path: Path) -> None:
    db = tmp_path / "umpire.db"
    first, port = await spawn_serve(db)
    try:
        # the same port: the lock refuses before the port is even tried
        for code, out, err in [await second(db, port)]:
            assert code == 1, (code, out, err)
            assert "listening" not in out
            lines = err.strip().splitlines()
            assert len(lines) == 1 and "Traceback" not in err, err
            line = lines[0]
            assert str(db) in line and "in use by umpire serve" in line, line
            assert f"pid {first.pid}" in line and f"port {port}" in line, line
        assert first.returncode is None  # the first one serves on
    finally:
        first.terminate()
        returncode = await first.wait()
    assert returncode == 0
    assert holder_of(db) is None  # once the first has stopped, the file is free again


def test_the_lock_comes_before_the_store_is_even_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The refusal comes before anything opens the file (so nothing is migrated or
    restored): with the lock held, building the server at all fails the test."""
    db = tmp_path / "umpire.db"

    def never(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the server was built although the database is in use")

    monkeypatch.setattr(root, "build_server", never)
    err = io.StringIO()
    with ServerLock.acquire(db, what="umpire serve", port=8765), contextlib.redirect_stderr(err):
        code = cli.main(["serve", "--port", "8765", "--db", str(db)])
    assert code == 1
    assert "is in use by umpire serve" in err.getvalue() and "port 8765" in err.getvalue()
    assert not db.exists()
