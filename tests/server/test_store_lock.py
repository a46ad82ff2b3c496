"""server.store.lock: one SQLite file, one user; the refusal names the holder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from server.errors import StoreError
from server.store.lock import ServerLock, StoreInUse, holder_of, lock_path

HOLD = """
import sys, time
from server.store.lock import ServerLock
lock = ServerLock.acquire(sys.argv[1], what="umpire serve", port=8765)
print("held", flush=True)
time.sleep(60)
"""


def test_a_second_lock_is_refused_naming_the_first(tmp_path: Path) -> None:
    db = tmp_path / "umpire.db"
    with ServerLock.acquire(db, what="umpire serve", port=8765) as first:
        assert first.held
        with pytest.raises(StoreInUse) as refused:
            ServerLock.acquire(db, what="umpire migrate")
        message = str(refused.value)
        assert str(db) in message and "umpire serve" in message
        assert f"pid {os.getpid()}" in message and "port 8765" in message
        assert "\n" not in message
        assert holder_of(db) == first.holder
    assert holder_of(db) is None
    ServerLock.acquire(db, what="umpire serve").release()  # free again


def test_the_lock_dies_with_its_process_even_under_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "umpire.db"
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(db)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        holder = holder_of(db)
        assert holder is not None and holder["pid"] == proc.pid and holder["port"] == 8765
        with pytest.raises(StoreInUse, match=f"pid {proc.pid}"):
            ServerLock.acquire(db, what="umpire serve")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert proc.stdout is not None
        proc.stdout.close()
    assert lock_path(db).exists()
    ServerLock.acquire(db, what="umpire serve").release()


def test_update_rewrites_the_holder_note(tmp_path: Path) -> None:
    db = tmp_path / "umpire.db"
    with ServerLock.acquire(db, what="umpire serve") as lock:
        lock.update(port=40001)
        holder = holder_of(db)
        assert holder is not None and holder["port"] == 40001


def test_a_missing_folder_is_one_line_naming_the_path(tmp_path: Path) -> None:
    db = tmp_path / "no" / "such" / "umpire.db"
    with pytest.raises(StoreError) as failed:
        ServerLock.acquire(db, what="umpire serve")
    assert str(db) in str(failed.value) and "does not exist" in str(failed.value)
    assert "\n" not in str(failed.value)
