"""The lock that says one SQLite file has one user: a server, or a migration.

Two servers on one SQLite file would both restore and play the same rooms. So a server
holds an exclusive lock for its whole life on a small file beside the database
(``<database>.lock``), taken before it migrates or restores anything; so does ``umpire
migrate``. The lock is the operating system's (``fcntl.flock``): it dies with its process,
even under SIGKILL, so a crash never leaves a stale lock behind. The file keeps a line of
JSON saying who holds it (pid, host, what it is doing, since when), which is how the
second user's refusal names the first.

PostgreSQL needs no such file: its nodes share a database on purpose (docs/scale-out.md).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from server.errors import StoreError


class StoreInUse(StoreError):
    """The database is in use by another process (its holder is named in the message)."""

    def __init__(self, message: str, holder: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.holder = dict(holder or {})


def lock_path(db_path: str | os.PathLike[str]) -> Path:
    """The lock file of the SQLite database at ``db_path``."""
    return Path(f"{os.fspath(db_path)}.lock")


def describe(holder: Mapping[str, Any]) -> str:
    """A holder as a reader wants it: ``umpire serve (pid 123 on host, port 8765, since
    2026-11-29 08:00:00 UTC)``."""
    what = str(holder.get("what") or "another process")
    parts = []
    if "pid" in holder:
        host = holder.get("host")
        parts.append(f"pid {holder['pid']}" + (f" on {host}" if host else ""))
    if holder.get("port") is not None:
        parts.append(f"port {holder['port']}")
    since = holder.get("since")
    if isinstance(since, int | float):
        parts.append("since " + time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(since)))
    return f"{what} ({', '.join(parts)})" if parts else what


class ServerLock:
    """An exclusive lock on a SQLite database, held until :meth:`release` or the
    process's end. Use :meth:`acquire`; also a context manager."""

    def __init__(self, path: Path, fd: int, holder: dict[str, Any]) -> None:
        self.path = path
        self.holder = holder
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, db_path: str | os.PathLike[str], *, what: str, **details: Any) -> ServerLock:
        """Take the lock of ``db_path`` for ``what`` (for example ``"umpire serve"``),
        or raise :class:`StoreInUse` naming its holder. ``details`` (a port, say) are
        written into the lock file for a refused second user to read. Raises
        :class:`~server.errors.StoreError` (one line, naming the path) when the lock
        file cannot be opened, for example in a folder that does not exist or cannot
        be written."""
        path = lock_path(db_path)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except FileNotFoundError:
            raise StoreError(
                f"{os.fspath(db_path)}: its folder {str(path.parent)!r} does not exist; "
                "create it or give another --db"
            ) from None
        except OSError as exc:
            raise StoreError(
                f"{os.fspath(db_path)}: cannot open its lock file {str(path)!r} "
                f"({exc.strerror or exc}); the folder must be writable by the server"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise StoreInUse(
                f"{os.fspath(db_path)} is in use by {describe(holder)}; "
                "stop it first, or give another --db",
                holder,
            ) from None
        except OSError as exc:
            os.close(fd)
            raise StoreError(f"{str(path)!r}: cannot lock ({exc.strerror or exc})") from None
        holder = {
            "what": what,
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "since": time.time(),
            **details,
        }
        _write_holder(fd, holder)
        return cls(path, fd, holder)

    def update(self, **details: Any) -> None:
        """Add to what the lock file says of its holder (the port once it is bound)."""
        self.holder.update(details)
        if self._fd is not None:
            _write_holder(self._fd, self.holder)

    def release(self) -> None:
        """Give the lock up (idempotent). The file stays: removing it would let a third
        process lock a new file while a second still waits on the old one."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def __enter__(self) -> ServerLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def holder_of(db_path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """Who holds the lock of ``db_path`` now, or None if nobody does (checked by trying
    to take it, and giving it back at once)."""
    path = lock_path(db_path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _read_holder(fd)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _read_holder(fd: int) -> dict[str, Any]:
    try:
        raw = os.pread(fd, 4096, 0)
        value = json.loads(raw.decode("utf-8", "replace") or "{}")
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _write_holder(fd: int, holder: Mapping[str, Any]) -> None:
    data = (json.dumps(holder, sort_keys=True) + "\n").encode()
    with contextlib.suppress(OSError):  # the lock is what matters; the note is a courtesy
        os.ftruncate(fd, 0)
        os.pwrite(fd, data, 0)
